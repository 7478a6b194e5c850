// Building Bullet worlds from files: poses at the start match the file, a compliant ball from an
// SDF world rests at the closed-form depth, and a pendulum from URDF swings with the period of its
// inertia, as a btMultiBody and as rigid bodies with a hinge.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "adapters/bullet_conversions.h"
#include "test_world.h"
#include "urdf/xml_context.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace urdf {
namespace {

using test::MustRead;
using test::World;

TEST(BulletBuilderTest, CompliantBallFromSdfRestsAtTheClosedFormDepth) {
  const double R = 0.05, E = 1e5, m = 1.0, g = 9.81;
  const Scene scene = MustRead(R"(<sdf version="1.9"><world name="w">
    <model name="ground"><static>true</static><link name="plane"><collision name="c">
      <geometry><plane><normal>0 0 1</normal></plane></geometry>
      <drake:proximity_properties><drake:rigid_hydroelastic/></drake:proximity_properties></collision></link></model>
    <model name="ball"><pose>0 0 0.0495 0 0 0</pose><link name="body">
      <inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry>
        <drake:proximity_properties><drake:compliant_hydroelastic/>
          <drake:hydroelastic_modulus>1e5</drake:hydroelastic_modulus>
          <drake:mesh_resolution_hint>0.00625</drake:mesh_resolution_hint>
          <drake:hunt_crossley_dissipation>5</drake:hunt_crossley_dissipation></drake:proximity_properties>
      </collision></link></model></world></sdf>)",
                               "ball.sdf");
  World world;
  world.Build(scene);
  world.Step(3000, 1e-3);
  const BuiltBody* ball = world.built->Find("ball::body");
  ASSERT_NE(ball, nullptr);
  const double depth = R - world.built->LinkPose(*ball).translation().z();
  // Solve (π/3)·E·d²·(3 − 2d/R) = m·g for d by Newton.
  double d = 0.005;
  for (int i = 0; i < 50; ++i) {
    const double f = M_PI / 3 * E * d * d * (3 - 2 * d / R) - m * g;
    const double df = M_PI / 3 * E * (6 * d - 6 * d * d / R);
    d -= f / df;
  }
  std::printf("ball from SDF: rest depth %.4f mm, closed form %.4f mm\n", 1e3 * depth, 1e3 * d);
  EXPECT_NEAR(depth / d, 1.0, 0.02);
}

const char* kPendulumUrdf = R"(<robot name="pendulum">
  <link name="world"/>
  <joint name="pivot" type="continuous"><parent link="world"/><child link="arm"/>
    <origin xyz="0 0 1" rpy="0 0 0.3"/><axis xyz="1 0 0"/></joint>
  <link name="arm">
    <inertial><origin xyz="0 0 -0.5"/><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.001"/></inertial>
    <collision><origin xyz="0 0 -0.5"/><geometry><box size="0.02 0.02 0.9"/></geometry></collision>
  </link>
</robot>)";

// Period of small swings about the pivot: T = 2π·√(I_pivot/(m·g·l)).
double PendulumPeriod(bool multibody, double* pose_error) {
  const Scene scene = MustRead(kPendulumUrdf, "pendulum.urdf");
  World world;
  world.Build(scene, multibody);
  const BuiltBody* arm = world.built->Find("pendulum::arm");
  EXPECT_NE(arm, nullptr);
  // At the start the arm frame is where the file puts it: 1 m up, turned 0.3 rad about z.
  const RigidTransform X_WA = world.built->LinkPose(*arm);
  const RigidTransform expected = PoseFromXyzRpy(Vector3(0, 0, 1), Vector3(0, 0, 0.3));
  *pose_error = (X_WA.matrix() - expected.matrix()).cwiseAbs().maxCoeff();
  // Release from 0.05 rad and time the zero crossings of the swing angle.
  if (multibody) {
    arm->multibody->setJointPos(0, 0.05);
    btAlignedObjectArray<btQuaternion> q;
    btAlignedObjectArray<btVector3> m;
    arm->multibody->updateCollisionObjectWorldTransforms(q, m);
  } else {
    btTransform X = arm->rigid_body->getWorldTransform();
    const btVector3 axis = bullet::ToBullet(Vector3(expected.linear() * Vector3::UnitX()));
    const btVector3 pivot(0, 0, 1);
    const btQuaternion turn(axis, 0.05);
    X.setOrigin(pivot + quatRotate(turn, X.getOrigin() - pivot));
    X.setRotation(turn * X.getRotation());
    arm->rigid_body->setWorldTransform(X);
  }
  const double dt = 1e-3;
  double last_angle = 0.05, first_crossing = -1, last_crossing = -1;
  int crossings = 0;
  Vector3 p_previous = world.built->LinkPose(*arm) * Vector3(0, 0, -0.5);
  for (int i = 1; i <= 6000; ++i) {
    world.Step(1, dt);
    if (i == 200) {
      // The reported velocity of the link origin (the pivot, at rest) and ω move the centre of
      // mass as its finite difference says: (p(t) − p(t − dt))/dt against v + ω × r.
      Vector3 v_origin, w;
      world.built->LinkVelocity(*arm, &v_origin, &w);
      const RigidTransform X_WA_now = world.built->LinkPose(*arm);
      const Vector3 r = X_WA_now.linear() * Vector3(0, 0, -0.5);
      const Vector3 v_com = v_origin + w.cross(r);
      const Vector3 difference = ((X_WA_now * Vector3(0, 0, -0.5)) - p_previous) / dt;
      EXPECT_LT(v_origin.norm(), 1e-3 * v_com.norm()) << (multibody ? "multibody" : "rigid");  // hinge drift
      EXPECT_LT((difference - v_com).norm(), 0.02 * v_com.norm()) << (multibody ? "multibody" : "rigid");
    }
    p_previous = world.built->LinkPose(*arm) * Vector3(0, 0, -0.5);
    // The swing angle θ about the pivot axis: sin θ = axis·(−ẑ × down), cos θ = −ẑ·down.
    const Vector3 down = world.built->LinkPose(*arm).linear() * -Vector3::UnitZ();
    const Vector3 axis = expected.linear() * Vector3::UnitX();
    const double swing = std::atan2(axis.dot((-Vector3::UnitZ()).cross(down)), -down.z());
    if ((last_angle > 0) != (swing > 0)) {
      const double t = (i - 1 + last_angle / (last_angle - swing)) * dt;
      if (first_crossing < 0) first_crossing = t;
      last_crossing = t;
      ++crossings;
    }
    last_angle = swing;
  }
  return 2 * (last_crossing - first_crossing) / (crossings - 1);
}

TEST(BulletBuilderTest, PendulumSwingsWithThePeriodOfItsInertia) {
  const double m = 2, l = 0.5, g = 9.81, I = 0.01 + m * l * l;
  const double expected = 2 * M_PI * std::sqrt(I / (m * g * l));
  for (bool multibody : {true, false}) {
    double pose_error;
    const double period = PendulumPeriod(multibody, &pose_error);
    std::printf("pendulum (%s): period %.4f s, theory %.4f s (%+.2f%%), start pose error %.1e\n",
                multibody ? "btMultiBody" : "rigid bodies + hinge", period, expected, 100 * (period / expected - 1),
                pose_error);
    EXPECT_LT(pose_error, hydro::test::BulletAbsolute(1e-12, 1.0));
    EXPECT_NEAR(period / expected, 1.0, 0.01);
  }
}

TEST(BulletBuilderTest, SdfJointToTheWorldAndAFloatingBase) {
  // An SDF pendulum hinged to "world" (the world is the fixed base) swings with its period, and a
  // URDF dumbbell of two welded links (a floating base) falls freely with g, keeping its shape.
  const Scene pendulum = MustRead(R"(<sdf version="1.9"><model name="p"><pose>0 0 1 0 0 0</pose>
      <link name="arm"><inertial><pose>0 0 -0.5 0 0 0</pose><mass>2</mass>
        <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.001</izz></inertia></inertial></link>
      <joint name="pivot" type="revolute"><parent>world</parent><child>arm</child>
        <axis><xyz>1 0 0</xyz></axis></joint></model></sdf>)",
                                  "pendulum.sdf");
  World world;
  world.Build(pendulum);
  const BuiltBody* arm = world.built->Find("p::arm");
  ASSERT_NE(arm, nullptr);
  ASSERT_NE(arm->multibody, nullptr);
  EXPECT_TRUE(arm->multibody->hasFixedBase());
  arm->multibody->setJointPos(0, 0.05);
  double last = 0.05, first_crossing = -1, last_crossing = -1;
  int crossings = 0;
  for (int i = 1; i <= 6000; ++i) {
    world.Step(1, 1e-3);
    const double q = arm->multibody->getJointPos(0);
    if ((last > 0) != (q > 0)) {
      const double t = (i - 1 + last / (last - q)) * 1e-3;
      if (first_crossing < 0) first_crossing = t;
      last_crossing = t;
      ++crossings;
    }
    last = q;
  }
  const double period = 2 * (last_crossing - first_crossing) / (crossings - 1);
  const double expected = 2 * M_PI * std::sqrt((0.01 + 2 * 0.25) / (2 * 9.81 * 0.5));
  EXPECT_NEAR(period / expected, 1.0, 0.01);

  const Scene dumbbell = MustRead(R"(<robot name="dumbbell">
      <link name="a"><inertial><mass value="1"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
      <link name="b"><inertial><mass value="1"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
      <joint name="bar" type="fixed"><parent link="a"/><child link="b"/><origin xyz="0.3 0 0"/></joint>
      <hydro:initial_velocity value="0 0 0 0 0 2"/></robot>)",
                                  "dumbbell.urdf");
  World free;
  free.Build(dumbbell);
  const BuiltBody* a = free.built->Find("dumbbell::a");
  const BuiltBody* b = free.built->Find("dumbbell::b");
  ASSERT_NE(a->multibody, nullptr);
  EXPECT_FALSE(a->multibody->hasFixedBase());
  const double t = 0.2;
  free.Step(200, 1e-3);
  const Vector3 p_a = free.built->LinkPose(*a).translation(), p_b = free.built->LinkPose(*b).translation();
  EXPECT_NEAR((p_b - p_a).norm(), 0.3, hydro::test::BulletAbsolute(1e-9, 0.3));  // welded
  EXPECT_NEAR(p_a.z(), -0.5 * 9.81 * t * t, 0.01 * 0.5 * 9.81 * t * t);          // free fall (first-order steps)
  Vector3 v, w;
  free.built->LinkVelocity(*a, &v, &w);
  EXPECT_NEAR(w.z(), 2.0, hydro::test::BulletAbsolute(1e-9, 2.0));  // the spin it was given, kept
}

TEST(BulletBuilderTest, AFloatingJointLeavesItsChildFree) {
  // a–b floating, b–c revolute: in a multibody the model splits at the floating joint into a free
  // body a and a free two-link multibody b–c; both fall with g, and b–c keeps its joint.
  const Scene scene = MustRead(R"(<robot name="r">
    <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
    <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
    <link name="c"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
    <joint name="free" type="floating"><parent link="a"/><child link="b"/><origin xyz="1 0 0"/></joint>
    <joint name="hinge" type="revolute"><parent link="b"/><child link="c"/><origin xyz="0 0 -0.5"/>
      <axis xyz="1 0 0"/><limit lower="-1" upper="1"/></joint></robot>)",
                               "floating.urdf");
  for (bool multibody : {true, false}) {
    World world;
    world.Build(scene, multibody);
    const BuiltBody* a = world.built->Find("r::a");
    const BuiltBody* b = world.built->Find("r::b");
    const BuiltBody* c = world.built->Find("r::c");
    ASSERT_TRUE(a && b && c);
    if (multibody) {
      EXPECT_NE(a->rigid_body, nullptr);  // alone: a rigid body
      EXPECT_EQ(b->multibody, c->multibody);
      EXPECT_FALSE(b->multibody->hasFixedBase());
    }
    world.Step(100, 1e-3);
    const double fall = 0.5 * 9.81 * 0.1 * 0.1;
    EXPECT_NEAR(world.built->LinkPose(*a).translation().z(), -fall, 0.02 * fall);
    EXPECT_NEAR(world.built->LinkPose(*b).translation().z(), -fall, 0.02 * fall);
    EXPECT_NEAR((world.built->LinkPose(*c).translation() - world.built->LinkPose(*b).translation()).norm(), 0.5, 1e-4);
  }
}

TEST(BulletBuilderTest, UnsupportedCombinationsAreReported) {
  // A plane can only be static; the error names the collision and its line, and nothing is left
  // in the world.
  const Scene scene = MustRead(R"(<sdf version="1.9"><model name="m"><link name="ok">
      <collision name="ball"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
    <link name="l"><pose>1 0 0 0 0 0</pose>
      <collision name="floor"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link>
    </model></sdf>)",
                               "plane.sdf");
  World world;
  Diagnostics d;
  EXPECT_FALSE(BuildScene(scene, world.world.get(), BuildOptions{}, &d));
  EXPECT_NE(d.FirstError().find("plane.sdf:4: error: collision 'floor': a plane can only belong to a static link"),
            std::string::npos)
      << d.ToString();
  EXPECT_EQ(world.world->getNumCollisionObjects(), 0);
}

// A build stops at the first model with an error, reports it with its place, and takes out of the
// world all it had added, the models before included: here a pendulum multibody built first, then
// a link that would move on its joint with no mass at all.
TEST(BulletBuilderTest, AFailedBuildReportsItsErrorAndLeavesNothingInTheWorld) {
  const Scene scene = MustRead(R"(<sdf version="1.9"><world name="w">
    <model name="pendulum"><link name="base"/>
      <joint name="pivot" type="revolute"><parent>world</parent><child>arm</child><axis><xyz>1 0 0</xyz></axis></joint>
      <link name="arm"><inertial><mass>1</mass></inertial>
        <collision name="c"><geometry><box><size>0.1 0.1 0.5</size></box></geometry></collision></link>
      <joint name="weld" type="fixed"><parent>world</parent><child>base</child></joint></model>
    <model name="broken"><link name="root"><inertial><mass>1</mass></inertial></link>
      <joint name="slide" type="prismatic"><parent>root</parent><child>tip</child><axis><xyz>1 0 0</xyz></axis></joint>
      <link name="tip"><inertial><mass>0</mass></inertial>
        <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
    </model></world></sdf>)",
                               "two_models.sdf");
  World world;
  Diagnostics d;
  EXPECT_FALSE(BuildScene(scene, world.world.get(), BuildOptions{}, &d));
  EXPECT_EQ(d.num_errors(), 1) << d.ToString();
  EXPECT_NE(d.FirstError().find("two_models.sdf:9: error: link 'broken::tip' moves on joint 'slide' but has no mass"),
            std::string::npos)
      << d.ToString();
  EXPECT_EQ(world.world->getNumCollisionObjects(), 0);
  EXPECT_EQ(world.world->getNumMultibodies(), 0);
  EXPECT_EQ(world.world->getNumMultiBodyConstraints(), 0);
  // Without the broken model the same pendulum builds.
  Scene good = scene;
  good.models.pop_back();
  Diagnostics fine;
  auto built = BuildScene(good, world.world.get(), BuildOptions{}, &fine);
  ASSERT_TRUE(built) << fine.ToString();
  EXPECT_EQ(world.world->getNumMultibodies(), 1);
}

// An SDF model may leave several links unjointed (each its own body with --rigid), but a
// multibody has one base: the builder says so at the model's line.
TEST(BulletBuilderTest, AnSdfModelWithTwoRootsIsNotOneMultibody) {
  const Scene scene = MustRead(R"(<sdf version="1.9">
    <model name="pair"><link name="a"><inertial><mass>1</mass></inertial></link>
      <link name="b"><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="revolute"><parent>a</parent><child>c</child><axis><xyz>1 0 0</xyz></axis></joint>
      <link name="c"><inertial><mass>1</mass></inertial></link></model></sdf>)",
                               "pair.sdf");
  World world;
  Diagnostics d;
  EXPECT_FALSE(BuildScene(scene, world.world.get(), BuildOptions{}, &d));
  EXPECT_NE(d.FirstError().find("pair.sdf:2: error: model 'pair': more than one root link"), std::string::npos)
      << d.ToString();
  EXPECT_EQ(world.world->getNumMultibodies(), 0);
  BuildOptions rigid;
  rigid.multibody = false;
  Diagnostics fine;
  auto built = BuildScene(scene, world.world.get(), rigid, &fine);
  ASSERT_TRUE(built) << fine.ToString();
  EXPECT_NE(built->Find("pair::b"), nullptr);
}

// A build fails on its own errors only: diagnostics that already hold one (from reading another
// file, say) do not stop a good scene from building.
TEST(BulletBuilderTest, EarlierErrorsInTheDiagnosticsDoNotFailABuild) {
  const Scene scene = MustRead(kPendulumUrdf, "pendulum.urdf");
  World world;
  Diagnostics d;
  d.Error("earlier.urdf", 3, "an earlier problem");
  auto built = BuildScene(scene, world.world.get(), BuildOptions{}, &d);
  EXPECT_TRUE(built) << d.ToString();
  EXPECT_EQ(d.num_errors(), 1);
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
