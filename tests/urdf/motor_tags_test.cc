// hydro:motor: keyframes read and interpolated, every malformed value reported at its line, and a
// btMultiBodyJointMotor built from it that carries a prismatic joint through its keyframes.
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "plugin/btHydroelasticCollisionConfiguration.h"
#include "plugin/btHydroelasticSolverSettings.h"
#include "test_files.h"
#include "urdf/bullet_builder.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace urdf {
namespace {

// A slider (prismatic along x, limits ±1 m) on a welded world link, with `motor` inside its
// <joint> (line 5 of the text) and `joint_type` as its type.
std::string Slider(const std::string& motor, const std::string& joint_type = "prismatic") {
  return R"(<robot name="r">
  <link name="world"/>
  <joint name="slide" type=")" +
         joint_type + R"(">
    <parent link="world"/><child link="cart"/><axis xyz="1 0 0"/><limit lower="-1" upper="1"/>
    )" + motor +
         R"(
  </joint>
  <link name="cart">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
</robot>)";
}

// A multibody world as hydrobullet makes one.
struct MultiBodyWorld {
  btHydroelasticCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
};

TEST(JointMotorTest, KeyframesAreReadAndInterpolated) {
  Diagnostics d;
  const auto scene = test::Read(Slider(R"(<hydro:motor max_force="50" kp="0.5" kd="2">
      <hydro:target t="0" position="0"/>
      <hydro:target t="1" position="0.2"/>
      <hydro:target t="1.5" position="0.1"/>
    </hydro:motor>)"),
                                &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_TRUE(d.all().empty()) << d.ToString();
  const Joint& joint = scene->models[0].joints[0];
  ASSERT_TRUE(joint.motor);
  const JointMotor& motor = *joint.motor;
  EXPECT_EQ(motor.max_force, 50);
  EXPECT_EQ(motor.kp, 0.5);
  EXPECT_EQ(motor.kd, 2);
  EXPECT_EQ(motor.where.line, 5);
  ASSERT_EQ(motor.keyframes.size(), 3u);
  // Held before the first and after the last; linear in between, with the segment's slope.
  EXPECT_EQ(motor.PositionAt(-1), 0);
  EXPECT_EQ(motor.VelocityAt(-1), 0);
  EXPECT_DOUBLE_EQ(motor.PositionAt(0.25), 0.05);
  EXPECT_DOUBLE_EQ(motor.VelocityAt(0.25), 0.2);
  EXPECT_DOUBLE_EQ(motor.PositionAt(1), 0.2);
  EXPECT_DOUBLE_EQ(motor.VelocityAt(1), -0.2);  // the segment that starts at t = 1
  EXPECT_DOUBLE_EQ(motor.PositionAt(1.25), 0.15);
  EXPECT_DOUBLE_EQ(motor.PositionAt(7), 0.1);
  EXPECT_EQ(motor.VelocityAt(7), 0);
  EXPECT_EQ(motor.PositionAt(NAN), 0.1);  // no crash, a held value
}

TEST(JointMotorTest, DefaultsAndOneKeyframeAndSdf) {
  Diagnostics d;
  const auto urdf =
      test::Read(Slider(R"(<hydro:motor max_force="5"><hydro:target t="0.5" position="-0.3"/></hydro:motor>)"), &d);
  ASSERT_TRUE(urdf) << d.ToString();
  const JointMotor& motor = *urdf->models[0].joints[0].motor;
  EXPECT_EQ(motor.kp, 1);
  EXPECT_EQ(motor.kd, 1);
  EXPECT_EQ(motor.PositionAt(0), -0.3);
  EXPECT_EQ(motor.PositionAt(2), -0.3);
  EXPECT_EQ(motor.VelocityAt(0.5), 0);
  // The same tag in an SDF joint; a revolute joint takes one too.
  const auto sdf = test::Read(R"(<sdf version="1.9"><model name="m">
    <link name="a"/><link name="b"/>
    <joint name="hinge" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis>
      <hydro:motor max_force="2" kd="0"><hydro:target t="0" position="1.5"/></hydro:motor>
    </joint></model></sdf>)",
                              &d, "test.sdf");
  ASSERT_TRUE(sdf) << d.ToString();
  ASSERT_TRUE(sdf->models[0].joints[0].motor);
  EXPECT_EQ(sdf->models[0].joints[0].motor->kd, 0);
  EXPECT_EQ(sdf->models[0].joints[0].motor->keyframes[0].position, 1.5);
}

TEST(JointMotorTest, MalformedMotorsAreErrorsAtTheirLine) {
  struct Case {
    std::string motor, joint_type, expected;
    int line;
  };
  const std::string target = R"(<hydro:target t="0" position="0"/>)";
  const std::vector<Case> cases = {
      {R"(<hydro:motor max_force="abc">)" + target + "</hydro:motor>", "prismatic", "max_force: 'abc' is not a number",
       5},
      {R"(<hydro:motor max_force="-5">)" + target + "</hydro:motor>", "prismatic", "max_force: must be positive", 5},
      {R"(<hydro:motor max_force="0">)" + target + "</hydro:motor>", "prismatic", "max_force: must be positive", 5},
      {R"(<hydro:motor max_force="inf">)" + target + "</hydro:motor>", "prismatic", "max_force: must be finite", 5},
      {R"(<hydro:motor>)" + target + "</hydro:motor>", "prismatic", "needs max_force", 5},
      {R"(<hydro:motor max_force="5" kp="-1">)" + target + "</hydro:motor>", "prismatic", "kp: must not be negative",
       5},
      {R"(<hydro:motor max_force="5" kd="x">)" + target + "</hydro:motor>", "prismatic", "kd: 'x' is not a number", 5},
      {R"(<hydro:motor max_force="5"/>)", "prismatic", "needs at least one <hydro:target", 5},
      {"<hydro:motor max_force=\"5\">\n<hydro:target t=\"1\" position=\"0\"/>\n<hydro:target t=\"1\" position=\"1\"/>"
       "</hydro:motor>",
       "prismatic", "target times must increase", 7},
      {"<hydro:motor max_force=\"5\">\n<hydro:target t=\"1\" position=\"0\"/>\n<hydro:target t=\"0.5\" position=\"1\"/>"
       "</hydro:motor>",
       "prismatic", "target times must increase", 7},
      {"<hydro:motor max_force=\"5\">\n<hydro:target t=\"zero\" position=\"0\"/></hydro:motor>", "prismatic",
       "target t: 'zero' is not a number", 6},
      {"<hydro:motor max_force=\"5\">\n<hydro:target t=\"0\"/></hydro:motor>", "prismatic",
       "target position: missing value", 6},
      {"<hydro:motor max_force=\"5\">\n<hydro:target t=\"0\" position=\"nan\"/></hydro:motor>", "prismatic",
       "target position: must be finite", 6},
      {R"(<hydro:motor max_force="5">)" + target + "</hydro:motor>", "fixed", "not a fixed one", 5},
      {R"(<hydro:motor max_force="5">)" + target + "</hydro:motor>", "floating", "not a floating one", 5},
      {R"(<hydro:motor max_force="5">)" + target + "</hydro:motor>", "planar", "not a planar one", 5},
      {R"(<hydro:motor max_force="5">)" + target + "</hydro:motor>\n<hydro:motor max_force=\"5\">" + target +
           "</hydro:motor>",
       "prismatic", "more than one <hydro:motor>", 6},
  };
  for (const Case& c : cases) {
    Diagnostics d;
    EXPECT_FALSE(test::Read(Slider(c.motor, c.joint_type), &d)) << c.motor;
    EXPECT_NE(d.FirstError().find(c.expected), std::string::npos) << c.motor << "\n" << d.ToString();
    EXPECT_NE(d.FirstError().find("test.urdf:" + std::to_string(c.line) + ":"), std::string::npos) << c.motor << "\n"
                                                                                                   << d.ToString();
  }
}

TEST(JointMotorTest, UnknownPartsAreWarnedAbout) {
  Diagnostics d;
  const auto scene = test::Read(Slider(R"(<hydro:motor max_force="5" gain="3"><hydro:keyframe/>
    <hydro:target t="0" position="0"/></hydro:motor>)"),
                                &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_EQ(d.all().size(), 2u) << d.ToString();
}

TEST(JointMotorTest, GarbageDoesNotCrash) {
  const char* garbage[] = {
      R"(<hydro:motor max_force="5"><hydro:target/><hydro:target t="" position=""/>text</hydro:motor>)",
      R"(<hydro:motor max_force="1e400 2" kp="--" kd=""><hydro:target t="1e308" position="-1e308"/></hydro:motor>)",
      R"(<hydro:motor max_force="5"><hydro:target t="0" position="0"><hydro:motor/></hydro:target></hydro:motor>)",
      R"(<hydro:motor/><hydro:motor/><hydro:motor/>)",
  };
  for (const char* motor : garbage) {
    Diagnostics d;
    test::Read(Slider(motor), &d);
    test::Read(Slider(motor, "continuous"), &d);
  }
}

// The builder's btMultiBodyJointMotor, driven by ApplyJointMotors before each step, carries the
// slider through its keyframes (no gravity along x): exactly, when max_force can give the 1 kg
// cart each corner's change of slope in one step (0.5 m/s in 10 ms: 50 N).
TEST(JointMotorTest, BuiltMotorFollowsTheKeyframes) {
  Diagnostics d;
  const auto scene = test::Read(Slider(R"(<hydro:motor max_force="60">
      <hydro:target t="0" position="0"/><hydro:target t="0.5" position="0.1"/>
      <hydro:target t="1" position="-0.05"/></hydro:motor>)"),
                                &d);
  ASSERT_TRUE(scene) << d.ToString();
  MultiBodyWorld bullet;
  btMultiBodyDynamicsWorld& world = bullet.world;
  hydroConfigureSolverInfo(world.getSolverInfo());
  auto built = BuildScene(*scene, &world, BuildOptions{}, &d);
  ASSERT_TRUE(built) << d.ToString();
  const btMultiBody* multibody = built->Find("r::cart")->multibody;
  ASSERT_TRUE(multibody);
  const double dt = 0.01;
  double worst = 0;
  for (int i = 0; i < 150; ++i) {
    built->ApplyJointMotors(i * dt, dt);
    world.stepSimulation(dt, 0, dt);
    worst = std::max(worst,
                     std::abs(multibody->getJointPos(0) - scene->models[0].joints[0].motor->PositionAt((i + 1) * dt)));
  }
  EXPECT_LT(worst, hydro::test::BulletAbsolute(1e-9, 1.0));
  EXPECT_NEAR(multibody->getJointPos(0), -0.05, 1e-9);
  built.reset();
  // With max_force 10 N the first step's impulse is bounded by 10 N·10 ms: the cart starts at
  // 0.1 m/s instead of the keyframes' 0.2 m/s.
  Scene weak = *scene;
  weak.models[0].joints[0].motor->max_force = 10;
  built = BuildScene(weak, &world, BuildOptions{}, &d);
  ASSERT_TRUE(built) << d.ToString();
  built->ApplyJointMotors(0, dt);
  world.stepSimulation(dt, 0, dt);
  EXPECT_NEAR(built->Find("r::cart")->multibody->getJointVel(0), 0.1, hydro::test::BulletAbsolute(1e-9, 0.1));
  built.reset();
  // As rigid bodies with constraints there is no motor to build: an error, not a silent drop.
  BuildOptions rigid;
  rigid.multibody = false;
  Diagnostics rigid_d;
  EXPECT_FALSE(BuildScene(*scene, &world, rigid, &rigid_d));
  EXPECT_NE(rigid_d.FirstError().find("hydro:motor drives multibody joints only"), std::string::npos)
      << rigid_d.ToString();
}

// Bullet solves a multibody's motor only in the simulation island of its link's (or the link's
// parent's) collider; the builder gives a driven link that has neither a collider that touches
// nothing, so a slider without any collision geometry follows its keyframes as the one with a box
// does: bit-identical joint positions every step (the box touches nothing either), and to 1e-9 m
// of the keyframes. Before, such a motor would have done nothing, and the builder refused it.
TEST(JointMotorTest, ADrivenMultibodyWithoutCollisionsFollowsItsKeyframes) {
  const std::string motor = R"(<hydro:motor max_force="60">
      <hydro:target t="0" position="0"/><hydro:target t="0.5" position="0.1"/>
      <hydro:target t="1" position="-0.05"/></hydro:motor>)";
  std::string text = Slider(motor);
  const std::string collision = R"(<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>)";
  text.erase(text.find(collision), collision.size());
  Diagnostics d;
  const auto bare = test::Read(text, &d);
  const auto boxed = test::Read(Slider(motor), &d);
  ASSERT_TRUE(bare && boxed) << d.ToString();
  std::vector<double> q[2];
  for (bool with_box : {false, true}) {
    MultiBodyWorld bullet;
    btMultiBodyDynamicsWorld& world = bullet.world;
    hydroConfigureSolverInfo(world.getSolverInfo());
    auto built = BuildScene(with_box ? *boxed : *bare, &world, BuildOptions{}, &d);
    ASSERT_TRUE(built) << d.ToString();
    EXPECT_FALSE(d.has_errors()) << d.ToString();
    const BuiltBody* cart = built->Find("r::cart");
    ASSERT_TRUE(cart && cart->multibody);
    EXPECT_EQ(cart->collider == nullptr, !with_box);
    EXPECT_EQ(world.getNumCollisionObjects(), 1);  // the box, or the contact-free collider
    const double dt = 0.01;
    for (int i = 0; i < 150; ++i) {
      built->ApplyJointMotors(i * dt, dt);
      world.stepSimulation(dt, 0, dt);
      q[with_box].push_back(cart->multibody->getJointPos(0));
    }
  }
  double worst = 0;
  for (int i = 0; i < 150; ++i)
    worst = std::max(worst, std::abs(q[0][i] - bare->models[0].joints[0].motor->PositionAt((i + 1) * 0.01)));
  EXPECT_LT(worst, hydro::test::BulletAbsolute(1e-9, 1.0));
  EXPECT_EQ(q[0], q[1]);
  EXPECT_NEAR(q[0].back(), -0.05, 1e-9);
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
