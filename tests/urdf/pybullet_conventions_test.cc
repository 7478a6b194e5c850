// PyBullet's conventions for URDF (and the SDF it loads), each read from a file and built into a
// Bullet world that behaves as PyBullet's would: a mass-0 link is static and a mass-0 base fixed,
// a link that must move without <inertial> weighs 1 kg, lower > upper is no limit, a fixed joint's
// axis is ignored, <plane normal>, spherical joints, a nameless robot, a robot holding only a
// deformable (with Bullet's "#vtk" header), mesh URIs found the way PyBullet finds them, and a
// four-number scale. urdf/TAGS.md lists them. Also: joint limits hold on multibody links without
// collision geometry, through a collider that touches nothing.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "adapters/bullet_conversions.h"
#include "hydro/contact_surface.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "test_world.h"
#include "urdf/compliance_rules.h"
#include "urdf/xml_context.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace urdf {
namespace {

using test::MustRead;
using test::World;

bool HasWarning(const Diagnostics& d, const std::string& text) {
  for (const Diagnostic& x : d.all())
    if (!x.is_error && x.ToString().find(text) != std::string::npos) return true;
  return false;
}

constexpr const char* kUnitInertial =
    "<inertial><mass value=\"1\"/><inertia ixx=\"1e-2\" iyy=\"1e-2\" izz=\"1e-2\" ixy=\"0\" ixz=\"0\" "
    "iyz=\"0\"/></inertial>";

// A box of side 0.2 m, with the given <inertial> (or none).
std::string BoxLink(const std::string& name, const std::string& inertial) {
  return "<link name=\"" + name + "\">" + inertial +
         "<collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></link>";
}

TEST(PyBulletConventionsTest, AMassZeroLinkIsStaticAndAMassZeroBaseIsFixed) {
  // plane.urdf's rule: a lone link of mass 0 is a static body.
  World world;
  world.Build(
      MustRead("<robot name=\"plane\">" + BoxLink("floor", "<inertial><mass value=\"0\"/></inertial>") + "</robot>",
               "plane.urdf"));
  const BuiltBody* floor = world.built->Find("plane::floor");
  ASSERT_NE(floor, nullptr);
  EXPECT_TRUE(floor->is_static);
  ASSERT_NE(floor->rigid_body, nullptr);
  EXPECT_TRUE(floor->rigid_body->isStaticObject());

  // kuka_iiwa/model.urdf's rule: a jointed robot whose base has mass 0 is welded to the world; its
  // arm (1 kg at 0.5 m, horizontal) swings down while the base stays put.
  const std::string arm = R"(<robot name="arm">
    <link name="base"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0"/></inertial>
      <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
    <link name="arm"><inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
    <joint name="shoulder" type="continuous"><parent link="base"/><child link="arm"/>
      <origin xyz="0 0 1"/><axis xyz="0 1 0"/></joint></robot>)";
  for (bool multibody : {true, false}) {
    World w;
    w.Build(MustRead(arm, "arm.urdf"), multibody);
    const BuiltBody* base = w.built->Find("arm::base");
    const BuiltBody* link = w.built->Find("arm::arm");
    ASSERT_NE(link, nullptr);
    if (multibody) {
      EXPECT_TRUE(link->multibody->hasFixedBase());
    } else {
      ASSERT_NE(base, nullptr);
      EXPECT_TRUE(base->is_static);
    }
    w.Step(300, 1e-3);
    // Falling freely from horizontal, a pendulum's tip moves along a circle about the pivot.
    const Vector3 p_WArmCom = w.built->LinkPose(*link) * Vector3(0.5, 0, 0);
    EXPECT_NEAR((p_WArmCom - Vector3(0, 0, 1)).norm(), 0.5, 1e-3) << multibody;
    EXPECT_LT(p_WArmCom.z(), 0.9) << multibody;  // it has swung down
  }
}

TEST(PyBulletConventionsTest, AMasslessLinkMovesWhenMassLiesBeyondIt) {
  // humanoid.urdf's shoulders: two revolute joints through a massless link. The 1 kg bob, pushed
  // about x (the first joint's axis) and free to fall about y (the second's), swings about both:
  // the massless link turns with it.
  const std::string two_axes = R"(<robot name="shoulder"><link name="world"/>
    <link name="gimbal"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0"/></inertial></link>
    <link name="bob"><inertial><origin xyz="0.3 0 -0.3"/><mass value="1"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
    <joint name="a" type="continuous"><parent link="world"/><child link="gimbal"/><origin xyz="0 0 1"/>
      <axis xyz="1 0 0"/></joint>
    <joint name="b" type="continuous"><parent link="gimbal"/><child link="bob"/><axis xyz="0 1 0"/></joint>
    </robot>)";
  World world;
  world.Build(MustRead(two_axes, "shoulder.urdf"));
  const BuiltBody* gimbal = world.built->Find("shoulder::gimbal");
  const BuiltBody* bob = world.built->Find("shoulder::bob");
  ASSERT_NE(gimbal, nullptr);
  ASSERT_NE(bob, nullptr);
  const btScalar push = 1;
  bob->multibody->setJointVel(0, push);
  world.Step(200, 1e-3);
  const double q_a = bob->multibody->getJointPos(0), q_b = bob->multibody->getJointPos(1);
  EXPECT_TRUE(std::isfinite(q_a) && std::isfinite(q_b));
  EXPECT_GT(std::abs(q_a), 0.05);  // the push turned the massless gimbal
  EXPECT_GT(q_b, 0.05);            // gravity swings the bob about y (its mass is at +x, below the pivot)
  const Vector3 p_WBob = world.built->LinkPose(*bob) * Vector3(0.3, 0, -0.3);
  EXPECT_NEAR((p_WBob - Vector3(0, 0, 1)).norm(), 0.3 * std::sqrt(2.0), 1e-6);

  // With no mass beyond it, a moving massless link cannot move in Bullet: an error at the link.
  const std::string empty_end = R"(<robot name="r"><link name="world"/>
    <link name="tip"><inertial><mass value="0"/></inertial></link>
    <joint name="a" type="continuous"><parent link="world"/><child link="tip"/><axis xyz="1 0 0"/></joint></robot>)";
  Diagnostics d;
  World bad;
  EXPECT_FALSE(BuildScene(MustRead(empty_end, "tip.urdf"), bad.world.get(), BuildOptions{}, &d));
  EXPECT_NE(d.FirstError().find("link 'r::tip' moves on joint 'a' but has no mass"), std::string::npos) << d.ToString();
}

TEST(PyBulletConventionsTest, ALinkThatMustMoveWithoutInertialWeighsOneKilogram) {
  World world;
  Diagnostics d;
  auto scene = test::Read("<robot name=\"box\">\n" + BoxLink("body", "") + "</robot>", &d, "box.urdf");
  ASSERT_TRUE(scene) << d.ToString();
  world.built = BuildScene(*scene, world.world.get(), BuildOptions{}, &d);
  ASSERT_TRUE(world.built) << d.ToString();
  EXPECT_TRUE(HasWarning(d, "box.urdf:2: warning: link 'box::body' moves but has no <inertial>; using 1 kg"))
      << d.ToString();
  const BuiltBody* body = world.built->Find("box::body");
  ASSERT_NE(body, nullptr);
  ASSERT_NE(body->rigid_body, nullptr);
  EXPECT_DOUBLE_EQ(body->rigid_body->getInvMass(), 1.0);
  EXPECT_FALSE(body->is_static);
}

// A 1 kg arm, its mass 0.5 m out along x, hinged about y 1 m up and released horizontal, with
// <limit lower upper> as given; in URDF or SDF; with a small sphere at its mass as its only
// collision, or (collision false) no collision geometry at all.
std::string LimitedArm(bool sdf, const std::string& lower, const std::string& upper, bool collision = false) {
  if (sdf)
    return R"(<sdf version="1.9"><model name="arm">
      <link name="arm"><pose>0 0 1 0 0 0</pose><inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass>
        <inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial>
        )" +
           std::string(
               collision
                   ? R"(<collision name="c"><pose>0.5 0 0 0 0 0</pose><geometry><sphere><radius>0.05</radius></sphere></geometry></collision>)"
                   : "") +
           R"(</link>
      <joint name="shoulder" type="revolute"><parent>world</parent><child>arm</child>
        <axis><xyz>0 1 0</xyz><limit><lower>)" +
           lower + "</lower><upper>" + upper + R"(</upper></limit></axis></joint>
      </model></sdf>)";
  return R"(<robot name="arm"><link name="world"/>
    <link name="arm"><inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial>
      )" +
         std::string(
             collision ? R"(<collision><origin xyz="0.5 0 0"/><geometry><sphere radius="0.05"/></geometry></collision>)"
                       : "") +
         R"(</link>
    <joint name="shoulder" type="revolute"><parent link="world"/><child link="arm"/>
      <origin xyz="0 0 1"/><axis xyz="0 1 0"/><limit lower=")" +
         lower + "\" upper=\"" + upper +
         R"(" effort="1" velocity="1"/></joint>
    </robot>)";
}

// How far the arm has swung down after 0.3 s (rad; unlimited it reaches 0.86 rad).
double SwingAfter300ms(const Scene& scene, bool multibody) {
  World w;
  w.Build(scene, multibody);
  w.Step(300, 1e-3);
  const BuiltBody* link = w.built->Find("arm::arm");
  EXPECT_NE(link, nullptr);
  if (!link) return 0;
  const Vector3 x = w.built->LinkPose(*link).linear() * Vector3::UnitX();
  return std::atan2(-x.z(), x.x());
}

// Bullet's convention (Base_1.urdf), in URDF and in SDF: with lower = 0.1 > upper = −0.1 the arm
// swings freely, past 0.5 rad (measured 0.860); the same limits the right way round stop it at
// 0.1 rad (the control; measured 0.1000, 0.02 rad allowed for Bullet's soft limits). Both builds;
// the arm has no collision geometry (the next test has it with and without).
TEST(PyBulletConventionsTest, ALowerLimitAboveTheUpperMeansNoLimit) {
  for (bool sdf : {false, true}) {
    const std::string file = sdf ? "inverted.sdf" : "inverted.urdf";
    const Scene inverted = MustRead(LimitedArm(sdf, "0.1", "-0.1"), file);
    ASSERT_EQ(inverted.models.size(), 1u);
    ASSERT_EQ(inverted.models[0].joints.size(), 1u);
    EXPECT_TRUE(std::isinf(inverted.models[0].joints[0].lower)) << file;
    EXPECT_TRUE(std::isinf(inverted.models[0].joints[0].upper)) << file;
    EXPECT_LT(inverted.models[0].joints[0].lower, 0) << file;
    EXPECT_GT(inverted.models[0].joints[0].upper, 0) << file;
    const Scene limited = MustRead(LimitedArm(sdf, "-0.1", "0.1"), sdf ? "limited.sdf" : "limited.urdf");
    EXPECT_EQ(limited.models[0].joints[0].lower, -0.1) << file;
    EXPECT_EQ(limited.models[0].joints[0].upper, 0.1) << file;
    for (bool multibody : {true, false}) {
      const double free_swing = SwingAfter300ms(inverted, multibody);
      const double limited_swing = SwingAfter300ms(limited, multibody);
      std::printf("%s %s: swing %.4f rad unlimited, %.4f rad limited to 0.1\n", file.c_str(),
                  multibody ? "multibody" : "rigid", free_swing, limited_swing);
      EXPECT_GT(free_swing, 0.5) << file << " multibody " << multibody;  // swung well past 0.1 rad
      EXPECT_NEAR(limited_swing, 0.1, 0.02) << file << " multibody " << multibody;
    }
  }
}

// Bullet solves a multibody's joint limit only in the simulation island of its link's (or the
// link's parent's) collider; the builder gives a limited link that has neither a collider that
// touches nothing, so the arm without any collision geometry stops at its limit as the one with a
// sphere does: 0.1 rad within 0.02 (Bullet's soft limit; measured 0.1000 both). Before, the
// multibody swung the full 0.860 rad. With the sphere, nothing is added: the world holds only it.
TEST(PyBulletConventionsTest, ALimitHoldsAMultibodyWithoutCollisionGeometry) {
  for (bool sdf : {false, true}) {
    const std::string file = sdf ? "limited.sdf" : "limited.urdf";
    double swing[2];
    for (bool collision : {false, true}) {
      World w;
      w.Build(MustRead(LimitedArm(sdf, "-0.1", "0.1", collision), file));
      const BuiltBody* link = w.built->Find("arm::arm");
      ASSERT_NE(link, nullptr);
      ASSERT_NE(link->multibody, nullptr);
      ASSERT_EQ(w.world->getNumCollisionObjects(), 1) << file;
      const btCollisionObject* object = w.world->getCollisionObjectArray()[0];
      EXPECT_EQ(static_cast<const btCollisionObject*>(link->multibody->getLink(0).m_collider), object) << file;
      if (collision) {
        EXPECT_EQ(link->collider, object) << file;  // the sphere, and nothing added
      } else {
        // Contact-free: no collision geometry of the link's, in no broadphase pair.
        EXPECT_EQ(link->collider, nullptr) << file;
        EXPECT_EQ(object->getCollisionShape()->getShapeType(), EMPTY_SHAPE_PROXYTYPE) << file;
        EXPECT_EQ(object->getBroadphaseHandle()->m_collisionFilterGroup, 0) << file;
        EXPECT_EQ(object->getBroadphaseHandle()->m_collisionFilterMask, 0) << file;
        EXPECT_FALSE(object->hasContactResponse()) << file;
      }
      w.Step(300, 1e-3);
      const Vector3 x = w.built->LinkPose(*link).linear() * Vector3::UnitX();
      swing[collision] = std::atan2(-x.z(), x.x());
      EXPECT_NEAR(swing[collision], 0.1, 0.02) << file << " collision " << collision;
      EXPECT_NEAR(SwingAfter300ms(MustRead(LimitedArm(sdf, "-0.1", "0.1", collision), file), false), 0.1, 0.02)
          << file << " rigid, collision " << collision;
    }
    std::printf("%s multibody: limited to 0.1, swing %.17g rad without collisions, %.17g with a sphere\n", file.c_str(),
                swing[0], swing[1]);
  }
}

// The contact-free collider touches nothing: the collision-free limited arm swings through a free
// 0.6 m box falling past it (the arm's mass, where that collider sits, is inside the box for the
// first 0.27 s) and neither notices the other: the arm's joint and the box's pose are bit-identical
// to those of each alone, and the world never makes a broadphase pair or a contact manifold.
TEST(PyBulletConventionsTest, TheLimitsColliderTouchesNothing) {
  const std::string box = R"(<sdf version="1.9"><model name="box"><pose>0.5 0 1 0 0 0</pose><link name="box">
      <inertial><mass>1</mass><inertia><ixx>0.06</ixx><iyy>0.06</iyy><izz>0.06</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.6 0.6 0.6</size></box></geometry></collision></link></model></sdf>)";
  const Scene arm = MustRead(LimitedArm(true, "-0.1", "0.1"), "arm.sdf");
  const Scene falling = MustRead(box, "box.sdf");
  Scene both = arm;
  both.models.push_back(falling.models[0]);
  struct Result {
    double q{0}, qdot{0};
    btTransform box_pose;
  };
  auto run = [](const Scene& scene) {
    World w;
    w.Build(scene);
    Result r;
    for (int i = 0; i < 300; ++i) {
      w.Step(1, 1e-3);
      EXPECT_EQ(w.world->getPairCache()->getNumOverlappingPairs(), 0) << "step " << i;
      EXPECT_EQ(w.dispatcher.getNumManifolds(), 0) << "step " << i;
    }
    if (const BuiltBody* link = w.built->Find("arm::arm")) {
      r.q = link->multibody->getJointPos(0);
      r.qdot = link->multibody->getJointVel(0);
    }
    if (const BuiltBody* b = w.built->Find("box::box")) r.box_pose = b->rigid_body->getWorldTransform();
    return r;
  };
  const Result alone_arm = run(arm), alone_box = run(falling), together = run(both);
  EXPECT_EQ(together.q, alone_arm.q);
  EXPECT_EQ(together.qdot, alone_arm.qdot);
  EXPECT_NEAR(together.q, 0.1, 0.02);  // at its limit (0.02 for Bullet's soft limit)
  EXPECT_TRUE(together.box_pose == alone_box.box_pose);
  EXPECT_LT(together.box_pose.getOrigin().z(), 0.6);  // fell through where the arm is (1 − g·0.3²/2 = 0.56)
}

// A limited link without collision geometry in a model that has some elsewhere: the shoulder
// carries an upper arm without collision, and a hand with a sphere is welded beyond it. Bullet would
// solve the shoulder's limit only through the upper arm's or the world's collider, so before, the
// limit was ignored here too (measured 1.013 rad); now it holds, 0.1 rad within 0.02 (Bullet's soft
// limit; measured 0.1000).
TEST(PyBulletConventionsTest, ALimitHoldsALinkWithoutCollisionsInAModelWithSome) {
  const Scene scene = MustRead(R"(<robot name="arm"><link name="world"/>
    <link name="arm"><inertial><origin xyz="0.25 0 0"/><mass value="0.5"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
    <link name="hand"><inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial>
      <collision><geometry><sphere radius="0.05"/></geometry></collision></link>
    <joint name="shoulder" type="revolute"><parent link="world"/><child link="arm"/>
      <origin xyz="0 0 1"/><axis xyz="0 1 0"/><limit lower="-0.1" upper="0.1" effort="1" velocity="1"/></joint>
    <joint name="wrist" type="fixed"><parent link="arm"/><child link="hand"/><origin xyz="0.5 0 0"/></joint>
    </robot>)",
                               "hand.urdf");
  World w;
  w.Build(scene);
  EXPECT_EQ(w.world->getNumCollisionObjects(), 2);  // the hand's sphere and the upper arm's contact-free collider
  w.Step(300, 1e-3);
  const btMultiBody* multibody = w.built->Find("arm::arm")->multibody;
  std::printf("shoulder limited to 0.1 (upper arm without collision, hand with): q = %.4f rad\n",
              multibody->getJointPos(0));
  EXPECT_NEAR(multibody->getJointPos(0), 0.1, 0.02);
}

TEST(PyBulletConventionsTest, AFixedJointsAxisIsIgnored) {
  // nao.urdf gives its fixed joints a zero axis; URDF and SDF alike load.
  Diagnostics d;
  EXPECT_TRUE(test::Read(R"(<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint></robot>)",
                         &d, "fixed.urdf"))
      << d.ToString();
  EXPECT_TRUE(test::Read(R"(<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="fixed"><parent>a</parent><child>b</child><axis><xyz>0 0 0</xyz></axis></joint>
      </model></sdf>)",
                         &d, "fixed.sdf"))
      << d.ToString();
  // A moving joint's zero axis is still an error.
  Diagnostics bad;
  EXPECT_FALSE(test::Read(R"(<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint></robot>)",
                          &bad, "moving.urdf"));
}

TEST(PyBulletConventionsTest, PlaneGeometryWithANormal) {
  // plane_implicit.urdf: <plane normal=…/> in a static link is Bullet's btStaticPlaneShape; a box
  // dropped on a plane tilted toward +y slides off toward +y.
  const Scene scene = MustRead(R"(<robot name="ground"><link name="plane">
      <inertial><mass value="0"/></inertial>
      <collision><geometry><plane normal="0 0.2 1"/></geometry></collision></link></robot>)",
                               "plane_implicit.urdf");
  ASSERT_EQ(scene.models.size(), 1u);
  const Geometry& g = scene.models[0].links[0].collisions[0].geometry;
  EXPECT_EQ(g.type, GeometryType::kPlane);
  EXPECT_NEAR((g.normal - Vector3(0, 0.2, 1).normalized()).norm(), 0, 1e-15);
  World world;
  world.Build(scene);
  const BuiltBody* plane = world.built->Find("ground::plane");
  ASSERT_NE(plane, nullptr);
  const auto* shape = dynamic_cast<const btStaticPlaneShape*>(plane->collider->getCollisionShape());
  ASSERT_NE(shape, nullptr);
  EXPECT_NEAR(shape->getPlaneNormal().y(), Vector3(0, 0.2, 1).normalized().y(), 1e-6);
  Diagnostics d;
  EXPECT_FALSE(test::Read(R"(<robot name="r"><link name="p"><collision><geometry>
      <plane normal="0 0 0"/></geometry></collision></link></robot>)",
                          &d, "zero.urdf"));
  EXPECT_NE(d.FirstError().find("zero.urdf:2: error: plane normal: zero vector"), std::string::npos) << d.ToString();
}

// A 1 kg bob 0.5 m from a spherical joint, tilted 0.3 rad and pushed sideways at 0.5 m/s: it
// swings on the sphere about the pivot and keeps its angular momentum about the vertical through
// the pivot, L_z = m·(x·ẏ − y·ẋ) ≠ 0 — a hinge, whose swings stay in one vertical plane, has none.
// The URDF (`spherical`) and the SDF (`ball`, with a zero <axis> that must be ignored) say the same.
const char* kSphericalUrdf = R"(<robot name="bob"><link name="world"/>
    <link name="bob"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
    <joint name="ball" type="spherical"><parent link="world"/><child link="bob"/><origin xyz="0 0 1" rpy="0.3 0 0"/>
    </joint></robot>)";
const char* kBallSdf = R"(<sdf version="1.9"><model name="bob">
    <link name="bob"><pose>0 0 1 0.3 0 0</pose><inertial><pose>0 0 -0.5 0 0 0</pose><mass>1</mass>
      <inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
    <joint name="ball" type="ball"><parent>world</parent><child>bob</child><axis><xyz>0 0 0</xyz></axis></joint>
    </model></sdf>)";

void ExpectSphericalPendulum(const std::string& text, const std::string& file, bool multibody) {
  SCOPED_TRACE(file + (multibody ? " multibody" : " rigid"));
  const Scene scene = MustRead(text, file);
  ASSERT_EQ(scene.models.size(), 1u);
  ASSERT_EQ(scene.models[0].joints.size(), 1u);
  EXPECT_EQ(scene.models[0].joints[0].type, JointType::kSpherical);
  World world;
  world.Build(scene, multibody);
  const BuiltBody* bob = world.built->Find("bob::bob");
  ASSERT_NE(bob, nullptr);
  const Vector3 p_WPivot(0, 0, 1);
  const Matrix3 R_WL = world.built->LinkPose(*bob).linear();
  const Vector3 r_W = R_WL * Vector3(0, 0, -0.5);
  const Vector3 v0_W(0.5, 0, 0);
  const Vector3 w_W = r_W.cross(v0_W) / r_W.squaredNorm();  // ω × r = v0, ω ⊥ r
  if (multibody) {
    ASSERT_EQ(bob->multibody->getLink(0).m_jointType, btMultibodyLink::eSpherical);
    const Vector3 w_L = R_WL.transpose() * w_W;  // a spherical joint's rates are ω in the child frame
    const btScalar qd[3] = {btScalar(w_L.x()), btScalar(w_L.y()), btScalar(w_L.z())};
    bob->multibody->setJointVelMultiDof(0, qd);
  } else {
    bob->rigid_body->setAngularVelocity(bullet::ToBullet(w_W));
    bob->rigid_body->setLinearVelocity(bullet::ToBullet(v0_W));
  }
  auto angular_momentum_z = [&] {
    const RigidTransform X_WL = world.built->LinkPose(*bob);
    Vector3 v_origin, w;
    world.built->LinkVelocity(*bob, &v_origin, &w);
    const Vector3 r = X_WL.linear() * Vector3(0, 0, -0.5);
    const Vector3 p = X_WL.translation() + r - p_WPivot, v = v_origin + w.cross(r);
    return p.x() * v.y() - p.y() * v.x();
  };
  const double L0 = r_W.x() * v0_W.y() - r_W.y() * v0_W.x();
  ASSERT_NEAR(L0, -0.5 * std::sin(0.3) * 0.5, hydro::test::BulletAbsolute(1e-12, 0.5));
  EXPECT_NEAR(angular_momentum_z(), L0, 1e-3 * std::abs(L0)) << multibody;  // the push was applied
  for (int i = 0; i < 1000; ++i) {
    world.Step(1, 1e-3);
    const Vector3 p_WBob = world.built->LinkPose(*bob) * Vector3(0, 0, -0.5);
    ASSERT_NEAR((p_WBob - p_WPivot).norm(), 0.5, 1e-3) << multibody << " at step " << i;
  }
  EXPECT_NEAR(angular_momentum_z(), L0, 0.02 * std::abs(L0)) << multibody;
}

TEST(PyBulletConventionsTest, SphericalJointSwingsAboutItsPivot) {
  ExpectSphericalPendulum(kSphericalUrdf, "spherical.urdf", true);
  ExpectSphericalPendulum(kSphericalUrdf, "spherical.urdf", false);
}

// SDF's `ball` joint is the same joint: the bob stays 0.5 m from the pivot (to 1e-3 m at every
// step) and keeps L_z (to 2 %), as a multibody and as rigid bodies with a point-to-point.
TEST(PyBulletConventionsTest, SdfBallJointSwingsAboutItsPivot) {
  ExpectSphericalPendulum(kBallSdf, "ball.sdf", true);
  ExpectSphericalPendulum(kBallSdf, "ball.sdf", false);
}

TEST(PyBulletConventionsTest, ARobotWithoutANameIsNamedAfterItsFile) {
  Diagnostics d;
  auto scene = test::Read("<robot>\n" + BoxLink("body", "<inertial><mass value=\"2\"/></inertial>") + "</robot>", &d,
                          "humanoid.urdf");
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_EQ(scene->models[0].name, "humanoid");
  EXPECT_TRUE(HasWarning(d, "humanoid.urdf:1: warning: <robot> has no name; calling it 'humanoid'")) << d.ToString();
}

TEST(PyBulletConventionsTest, ARobotThatHoldsOnlyADeformable) {
  // reduced_cube/deform_cube.urdf: no links, one deformable whose VTK header is "#vtk DataFile"
  // and whose CELL_TYPES section is a lone "10", both of which Bullet's reader lets pass.
  test::TempDir dir("deformable_only");
  dir.Write("tet.vtk",
            "#vtk DataFile Version 2.0\nBullet's header\nASCII\nDATASET UNSTRUCTURED_GRID\n"
            "POINTS 4 double\n0 0 0\n0.1 0 0\n0 0.1 0\n0 0 0.1\n"
            "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 10\n");  // Bullet's file: a type for a count
  const std::string file = dir.Write("cube.urdf", R"(<robot name="cube"><deformable name="cube">
      <inertial><mass value="1"/></inertial><neohookean mu="180" lambda="600" damping="0.01"/>
      <visual filename="tet.vtk"/></deformable></robot>)");
  Diagnostics d;
  ReadOptions options;
  options.search.use_environment = false;
  auto scene = ReadModelFile(file, options, &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_TRUE(scene->models.empty());
  ASSERT_EQ(scene->deformables.size(), 1u);
  EXPECT_EQ(scene->deformables[0].num_tets, 1);
  EXPECT_TRUE(HasWarning(d, "tet.vtk:12: CELL_TYPES lists 10 types for 1 cells; every cell has four vertices"))
      << d.ToString();

  // PyBullet's reduced-order deformables are refused by name, not as "no links".
  Diagnostics reduced;
  EXPECT_FALSE(test::Read("<robot name=\"r\">\n<reduced_deformable name=\"b\"/></robot>", &reduced, "reduced.urdf"));
  EXPECT_NE(reduced.FirstError().find("reduced.urdf:2: error: PyBullet's <reduced_deformable>"), std::string::npos)
      << reduced.ToString();
  EXPECT_EQ(reduced.ToString().find("has no links"), std::string::npos) << reduced.ToString();
}

TEST(PyBulletConventionsTest, MeshUrisAreFoundAsPyBulletFindsThem) {
  // kuka_with_gripper2.sdf writes "/meshes/link_0.stl" for a mesh beside it; differential's URDF
  // writes "differential/diff_ring.stl" relative to the data root, one directory up. Both load,
  // each with a warning naming the file used; a file nowhere is still an error.
  test::TempDir dir("pybullet_uris");
  dir.Write("robot/meshes/cube.obj", test::CubeObj());
  dir.Write("robot/other/cube.obj", test::CubeObj());
  auto read = [&](const std::string& uri, Diagnostics* d) {
    const std::string file = dir.Write("robot/r.urdf",
                                       "<robot name=\"r\"><link name=\"l\">\n<collision><geometry>"
                                       "<mesh filename=\"" +
                                           uri +
                                           "\"/></geometry></collision>"
                                           "</link></robot>");
    ReadOptions options;
    options.search.use_environment = false;
    return ReadModelFile(file, options, d);
  };
  Diagnostics rooted;
  auto scene = read("/meshes/cube.obj", &rooted);
  ASSERT_TRUE(scene) << rooted.ToString();
  EXPECT_EQ(scene->models[0].links[0].collisions[0].geometry.mesh_path, dir.path() + "/robot/meshes/cube.obj");
  EXPECT_TRUE(HasWarning(rooted, "'/meshes/cube.obj' is not a file; using " + dir.path() + "/robot/meshes/cube.obj"))
      << rooted.ToString();
  Diagnostics above;
  scene = read("robot/other/cube.obj", &above);
  ASSERT_TRUE(scene) << above.ToString();
  EXPECT_EQ(scene->models[0].links[0].collisions[0].geometry.mesh_path, dir.path() + "/robot/other/cube.obj");
  EXPECT_TRUE(HasWarning(above, "from a directory above the model file")) << above.ToString();
  Diagnostics missing;
  EXPECT_FALSE(read("/meshes/absent.obj", &missing));
  EXPECT_NE(missing.FirstError().find("missing mesh '/meshes/absent.obj'"), std::string::npos) << missing.ToString();
}

TEST(PyBulletConventionsTest, AFourNumberScaleUsesTheFirstThree) {
  // racecar_differential.urdf writes scale="1 1 1 1".
  test::TempDir dir("scale4");
  dir.Write("cube.obj", test::CubeObj());
  const std::string file = dir.Write("car.urdf", R"(<robot name="car"><link name="l"><collision><geometry>
      <mesh filename="cube.obj" scale="2 3 4 1"/></geometry></collision></link></robot>)");
  Diagnostics d;
  ReadOptions options;
  options.search.use_environment = false;
  auto scene = ReadModelFile(file, options, &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_EQ(scene->models[0].links[0].collisions[0].geometry.scale, Vector3(2, 3, 4));
  EXPECT_TRUE(HasWarning(d, "car.urdf:2: warning: mesh scale: 4 numbers given; the first three are used"))
      << d.ToString();
}

// PyBullet collides a moving link's mesh as its convex hull, so made compliant (here by
// --compliant all, as one would on Bullet's data files) the hull is the compliant volume: a 1 kg,
// 10 cm OBJ cube rests on a rigid plane with the patch carrying its weight. A static link's
// surface mesh has no volume to press: made compliant it is an error naming the line.
TEST(PyBulletConventionsTest, ACompliantMeshOnAMovingLinkIsItsConvexHull) {
  test::TempDir dir("compliant_hull");
  dir.Write("cube.obj", test::CubeObj());
  auto world_file = [&](bool mug_static) {
    return dir.Write(mug_static ? "static.sdf" : "moving.sdf", std::string(R"(<sdf version="1.7"><world name="w">
  <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry>
    <plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>
  <model name="mug"><static>)") + (mug_static ? "true" : "false") + R"(</static><link name="l">
    <inertial><pose>0.05 0.05 0.05 0 0 0</pose><mass>1</mass><inertia><ixx>1e-3</ixx><iyy>1e-3</iyy><izz>1e-3</izz></inertia></inertial>
    <collision name="c"><geometry><mesh><uri>cube.obj</uri><scale>0.1 0.1 0.1</scale></mesh></geometry></collision>
  </link></model></world></sdf>)");
  };
  Diagnostics d;
  const auto all = ParseCompliantOption("all", &d);
  ASSERT_TRUE(all);
  ReadOptions options;
  options.search.use_environment = false;
  auto scene = ReadModelFile(world_file(false), options, &d);
  ASSERT_TRUE(scene) << d.ToString();
  ASSERT_EQ(ApplyComplianceRules(*all, &*scene), 2);
  World w;
  w.Build(*scene);
  const double dt = 1.0 / 60;
  w.Step(60, dt);
  const auto patches = hydroGetContactPatches(w.world->getDispatcher(), dt);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_GT(patches[0].m_surface->num_polygons(), 4);
  EXPECT_NEAR(std::abs(patches[0].m_forceOnBody0.z()), 9.81, 0.01 * 9.81);
  const BuiltBody* mug = w.built->Find("mug::l");
  ASSERT_NE(mug, nullptr);
  Vector3 v, omega;
  w.built->LinkVelocity(*mug, &v, &omega);
  EXPECT_LT(v.norm(), 1e-3);
  EXPECT_NEAR(w.built->LinkPose(*mug).translation().z(), 0, 1e-3);  // resting on its face, slightly sunk

  Diagnostics static_d;
  auto static_scene = ReadModelFile(world_file(true), options, &static_d);
  ASSERT_TRUE(static_scene) << static_d.ToString();
  ApplyComplianceRules(*ParseCompliantOption("mug::l=1e7", &static_d), &*static_scene);
  World w2;
  EXPECT_FALSE(BuildScene(*static_scene, w2.world.get(), {}, &static_d));
  EXPECT_NE(static_d.FirstError().find("static.sdf:6: error: collision 'c': a compliant surface mesh (cube.obj) on a "
                                       "static link has no volume"),
            std::string::npos)
      << static_d.ToString();
}

// PyBullet's URDF importer gives the hulls it makes of meshes a collision margin of 0.001 m
// (Bullet's default, 0.04 m, grows a hull by 4 cm all round), and a hull tagged for patch contact
// gets none. tests/data/pybullet_style/world.sdf's crate: a 2 kg, 0.2 m OBJ cube dropped 5 cm onto
// a mass-0 plane, 1 s at 1 ms. With Bullet's contact it rests 0.001 m up (was 0.04 m up). Made
// compliant (--compliant all) it rests on a patch, its whole 0.04 m² face, that carries its
// weight, pressed in by m·g·ℓ/(E·A) = 4.905 µm (the hull's field grows as E·depth/ℓ, with ℓ = 0.1 m
// from its centroid to the face); it had hung on Bullet's 4 points 4 cm up, then 1 mm up with
// PyBullet's margin, where its patch never reached the plane.
TEST(PyBulletConventionsTest, AMeshHullHasPyBulletsMarginAndATaggedOneNone) {
  test::TempDir dir("hull_margin");
  dir.Write("cube.obj", test::CubeObj());
  const std::string file = dir.Write("world.sdf", R"(<sdf version="1.6"><world name="w">
  <model name="ground"><link name="plane"><inertial><mass>0</mass></inertial><collision name="c"><geometry>
    <plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>
  <model name="crate"><pose>0 0 0.05 0 0 0</pose><link name="body">
    <inertial><pose>0.1 0.1 0.1 0 0 0</pose><mass>2</mass><inertia><ixx>0.01333</ixx><iyy>0.01333</iyy><izz>0.01333</izz></inertia></inertial>
    <collision name="c"><geometry><mesh><uri>cube.obj</uri><scale>0.2 0.2 0.2</scale></mesh></geometry></collision>
  </link></model></world></sdf>)");
  const double mass = 2, g = 9.81, side = 0.2;
  const double sink = mass * g * (side / 2) / (kDefaultHydroelasticModulus * side * side);  // 4.905e-6 m
  for (const char* how : {"stock", "untagged", "compliant"}) {
    SCOPED_TRACE(how);
    const bool compliant = std::string(how) == "compliant";
    Diagnostics d;
    ReadOptions read_options;
    read_options.search.use_environment = false;
    auto scene = ReadModelFile(file, read_options, &d);
    ASSERT_TRUE(scene) << d.ToString();
    if (compliant) {
      ASSERT_EQ(ApplyComplianceRules(*ParseCompliantOption("all", &d), &*scene), 2);
    }
    BuildOptions options;
    options.patch_contact = std::string(how) != "stock";
    World w;
    w.Build(*scene, options);
    const BuiltBody* crate = w.built->Find("crate::body");
    ASSERT_NE(crate, nullptr);
    const btCollisionShape* shape = crate->collider->getCollisionShape();
    if (shape->isCompound()) shape = static_cast<const btCompoundShape*>(shape)->getChildShape(0);  // off its COM
    ASSERT_EQ(shape->getShapeType(), CONVEX_HULL_SHAPE_PROXYTYPE);
    EXPECT_NEAR(shape->getMargin(), compliant ? 0.0 : 0.001, hydro::test::BulletAbsolute(0, 0.001));
    const double dt = 1e-3;
    w.Step(1000, dt);
    Vector3 v, omega;
    w.built->LinkVelocity(*crate, &v, &omega);
    EXPECT_LT(v.norm(), 1e-3);
    const double bottom = w.built->LinkPose(*crate).translation().z();  // the cube's lowest corner
    std::printf("%s: the crate's bottom rests at %.6e m\n", how, bottom);
    const auto patches = hydroGetContactPatches(w.world->getDispatcher(), dt);
    if (!compliant) {
      EXPECT_NEAR(bottom, 0.001, 1e-5);  // on the margin; was 0.04
      EXPECT_TRUE(patches.empty());
      continue;
    }
    EXPECT_NEAR(bottom, -sink, 0.01 * sink);
    ASSERT_EQ(patches.size(), 1u);
    std::printf("patch: %d polygons, %.6f m², %.5f N\n", patches[0].m_surface->num_polygons(), patches[0].m_area,
                patches[0].m_forceOnBody0.z());
    EXPECT_GT(patches[0].m_surface->num_polygons(), 4);
    EXPECT_NEAR(patches[0].m_area, side * side, 1e-3 * side * side);
    EXPECT_NEAR(std::abs(patches[0].m_forceOnBody0.z()), mass * g, 1e-3 * mass * g);
  }
}

// PyBullet's URDF importer sets a collision margin of 0.001 m on the shapes it makes of <box>,
// <sphere>, <cylinder>, <capsule> and <plane>, and on a link's compound (Bullet's default is
// 0.04 m); a sphere's and a capsule's margin stays their radius, as Bullet keeps it. The box keeps
// its size either way.
TEST(PyBulletConventionsTest, PrimitivesHavePyBulletsMargin) {
  const Scene scene = MustRead(R"(<sdf version="1.6"><world name="w">
    <model name="ground"><link name="plane"><inertial><mass>0</mass></inertial><collision name="c"><geometry>
      <plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>
    <model name="shapes"><link name="box"><collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link>
      <link name="sphere"><collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision></link>
      <link name="cylinder"><collision name="c"><geometry><cylinder><radius>0.05</radius><length>0.2</length></cylinder></geometry></collision></link>
      <link name="capsule"><collision name="c"><geometry><capsule><radius>0.05</radius><length>0.2</length></capsule></geometry></collision></link>
      <link name="pair"><collision name="a"><pose>0.1 0 0 0 0 0</pose><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
        <collision name="b"><pose>-0.1 0 0 0 0 0</pose><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link>
    </model></world></sdf>)",
                               "shapes.sdf");
  for (const bool patch_contact : {false, true}) {
    SCOPED_TRACE(patch_contact ? "plugin" : "stock");
    World w;
    BuildOptions options;
    options.patch_contact = patch_contact;
    w.Build(scene, options);
    auto shape_of = [&](const std::string& name) -> const btCollisionShape* {
      const BuiltBody* body = w.built->Find(name);
      return body ? body->collider->getCollisionShape() : nullptr;
    };
    for (const char* name : {"ground::plane", "shapes::box", "shapes::cylinder", "shapes::pair"}) {
      ASSERT_NE(shape_of(name), nullptr) << name;
      EXPECT_EQ(shape_of(name)->getMargin(), btScalar(0.001)) << name;
    }
    const auto* pair = static_cast<const btCompoundShape*>(shape_of("shapes::pair"));
    ASSERT_TRUE(pair->isCompound());
    for (int i = 0; i < pair->getNumChildShapes(); ++i) EXPECT_EQ(pair->getChildShape(i)->getMargin(), btScalar(0.001));
    EXPECT_EQ(shape_of("shapes::sphere")->getMargin(), btScalar(0.05));   // the radius (btSphereShape)
    EXPECT_EQ(shape_of("shapes::capsule")->getMargin(), btScalar(0.05));  // the radius (btCapsuleShape)
    const auto* box = static_cast<const btBoxShape*>(shape_of("shapes::box"));
    EXPECT_LT((box->getHalfExtentsWithMargin() - btVector3(0.1, 0.1, 0.1)).length(), 1e-15);
  }
}

// What the margin changes: Bullet collides a box with a mesh (or a hull, a capsule, a cylinder)
// by GJK, as the box shrunk by its margin and grown again by a sphere of it, so its edges and
// corners are rounded by the margin. Bullet's default is 0.04 m, or a tenth of the smallest half
// extent if less (btBoxShape's setSafeMargin): 0.04 m for this 1 kg box 1 m across. On a vertical
// slider, turned onto an edge (45° about x) or a corner (a diagonal vertical), it comes down onto
// a static mesh slab and rests at its exact geometric height, its lowest edge or corner on the
// slab's top, to 2 mm: measured 0.41 and 0.73 mm low, the 0.001 m margin's rounding m·(|d|₁ − 1)
// for d the down direction in the box's frame. With Bullet's margin it rested 16.6 and 29.3 mm low.
TEST(PyBulletConventionsTest, ABoxsCornersAreNotRoundedByBulletsDefaultMargin) {
  test::TempDir dir("box_corners");
  dir.Write("slab.obj", test::CubeObj());
  for (const auto& [label, rpy] : {std::pair{"edge", Vector3(M_PI / 4, 0, 0)},
                                   std::pair{"corner", Vector3(M_PI / 4, std::atan(1 / std::sqrt(2.0)), 0.1)}}) {
    SCOPED_TRACE(label);
    // The box's frame in the link's: URDF/SDF roll-pitch-yaw, R = Rz(y)·Ry(p)·Rx(r).
    const Matrix3 R_LG = (Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
                          Eigen::AngleAxisd(rpy.x(), Vector3::UnitX()))
                             .toRotationMatrix();
    // Its lowest point below the link origin: the support along −z, 0.5·|d|₁ for d = R_LGᵀ·ẑ.
    const double reach = 0.5 * (R_LG.transpose() * Vector3::UnitZ()).lpNorm<1>();
    char pose[128];
    std::snprintf(pose, sizeof(pose), "0 0 0 %.17g %.17g %.17g", rpy.x(), rpy.y(), rpy.z());
    const std::string file = dir.Write(
        "world.sdf", std::string(R"(<sdf version="1.6"><world name="w">
      <model name="ground"><pose>-1 -1 -0.1 0 0 0</pose><link name="slab"><inertial><mass>0</mass></inertial>
        <collision name="c"><geometry><mesh><uri>slab.obj</uri><scale>2 2 0.1</scale></mesh></geometry></collision></link></model>
      <model name="rig"><link name="base"><inertial><mass>0</mass></inertial></link>
        <link name="box"><pose>0 0 )") +
                         std::to_string(reach + 0.02) + R"( 0 0 0</pose>
          <inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>
          <collision name="c"><pose>)" +
                         pose + R"(</pose><geometry><box><size>1 1 1</size></box></geometry></collision></link>
        <joint name="slide" type="prismatic"><parent>base</parent><child>box</child>
          <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
      </model></world></sdf>)");
    Diagnostics d;
    ReadOptions read_options;
    read_options.search.use_environment = false;
    auto scene = ReadModelFile(file, read_options, &d);
    ASSERT_TRUE(scene) << d.ToString();
    BuildOptions options;
    options.patch_contact = false;
    World w;
    w.Build(*scene, options);
    ASSERT_EQ(w.built->Find("ground::slab")->collider->getCollisionShape()->getShapeType(),
              TRIANGLE_MESH_SHAPE_PROXYTYPE);
    const BuiltBody* box = w.built->Find("rig::box");
    ASSERT_NE(box, nullptr);
    w.Step(1000, 1e-3);
    Vector3 v, omega;
    w.built->LinkVelocity(*box, &v, &omega);
    // Bullet's own contact (patch contact is off) jitters at 3 mm/s in its float build.
    EXPECT_LT(v.norm(), hydro::test::BulletOr(1e-3, 5e-3));
    const double lowest = w.built->LinkPose(*box).translation().z() - reach;
    std::printf("box on its %s: lowest point at %.3f mm (geometric: 0)\n", label, 1e3 * lowest);
    EXPECT_NEAR(lowest, 0, 2e-3);
  }
}

// PyBullet loads URDFs without self-collision, and SDF's <self_collide> defaults to false: a
// model's links do not touch each other (Bullet's racecar_differential.urdf has link meshes
// overlapping at rest, 580 N apart as compliant hulls). Here arm2's box overlaps the base, two
// joints away; it touches only with <self_collide>true</self_collide>, as a multibody and as
// rigid bodies with constraints.
TEST(PyBulletConventionsTest, AModelsLinksDoNotCollideUnlessItSelfCollides) {
  auto sdf = [](const std::string& self_collide) {
    return R"(<sdf version="1.7"><model name="m">)" + self_collide + R"(
      <link name="base"><inertial><mass>1</mass><inertia><ixx>1e-2</ixx><iyy>1e-2</iyy><izz>1e-2</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.4 0.4 0.4</size></box></geometry></collision></link>
      <link name="arm1"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>1e-2</ixx><iyy>1e-2</iyy><izz>1e-2</izz></inertia></inertial>
        <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision></link>
      <link name="arm2"><pose>0.15 0 0.15 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>1e-2</ixx><iyy>1e-2</iyy><izz>1e-2</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link>
      <joint name="j1" type="revolute"><parent>base</parent><child>arm1</child><axis><xyz>0 1 0</xyz></axis></joint>
      <joint name="j2" type="revolute"><parent>arm1</parent><child>arm2</child><axis><xyz>0 1 0</xyz></axis></joint>
    </model></sdf>)";
  };
  auto touching = [](const World& w, const btCollisionObject* a, const btCollisionObject* b) {
    w.world->performDiscreteCollisionDetection();
    for (int i = 0; i < w.dispatcher.getNumManifolds(); ++i) {
      const btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal(i);
      if (m->getNumContacts() > 0 &&
          ((m->getBody0() == a && m->getBody1() == b) || (m->getBody0() == b && m->getBody1() == a)))
        return true;
    }
    return false;
  };
  for (bool multibody : {true, false}) {
    for (const std::string& self_collide : {std::string(""), std::string("<self_collide>false</self_collide>"),
                                            std::string("<self_collide>true</self_collide>")}) {
      Scene scene = MustRead(sdf(self_collide), "m.sdf");
      EXPECT_EQ(scene.models[0].self_collide, self_collide.find("true") != std::string::npos);
      World w;
      w.Build(scene, multibody);
      const bool expected = self_collide.find("true") != std::string::npos;
      EXPECT_EQ(touching(w, w.built->Find("m::base")->collider, w.built->Find("m::arm2")->collider), expected)
          << (multibody ? "multibody " : "rigid ") << self_collide;
    }
  }
  // A URDF never self-collides (PyBullet's default).
  Scene urdf = MustRead(R"(<robot name="r">)" + BoxLink("a", kUnitInertial) + BoxLink("b", kUnitInertial) +
                            BoxLink("c", kUnitInertial) +
                            R"(<joint name="ab" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/>
                            <origin xyz="0 0 1"/></joint><joint name="bc" type="continuous"><parent link="b"/><child link="c"/>
                            <axis xyz="0 1 0"/><origin xyz="0 0 -0.9"/></joint></robot>)",
                        "r.urdf");
  EXPECT_FALSE(urdf.models[0].self_collide);
  World w;
  w.Build(urdf);
  EXPECT_FALSE(touching(w, w.built->Find("r::a")->collider, w.built->Find("r::c")->collider));
}

// Bit-identical world transforms: a static or fixed body must not drift by even one ulp.
void ExpectSameTransform(const btTransform& a, const btTransform& b, const std::string& what) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.getOrigin()[i], b.getOrigin()[i]) << what << " origin[" << i << "]";
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(a.getBasis()[i][j], b.getBasis()[i][j]) << what << " basis[" << i << "][" << j << "]";
  }
}

// The mass-0 plane stays exactly where it is: plane.urdf as PyBullet ships it (a
// mass-0 link whose collision is a 30×30×10 m box with its top face at the link origin), and the
// same with <plane normal>, both rigid hydroelastic, placed at a turned and shifted pose; a
// compliant 1 kg, 10 cm cube is dropped 5 cm onto it and stepped 2 s at 1/60 s with patch contact.
// The plane's world transform is bit-identical before and after (EXPECT_EQ on every number); the
// cube rests on its face: speed < 1e-3 m/s, spin < 1e-2 rad/s, its bottom less than 0.05 mm into
// the plane's top (it sinks into the field by 4.9e-3 mm), its patch carrying its weight to 1 %.
TEST(PyBulletConventionsTest, TheMassZeroPlaneStaysExactlyWhereItIs) {
  const std::string box_plane = R"(<box size="30 30 10"/>)";
  const std::string implicit_plane = R"(<plane normal="0 0 1"/>)";
  for (const std::string& geometry : {box_plane, implicit_plane}) {
    SCOPED_TRACE(geometry);
    const std::string collision_origin = geometry == box_plane ? R"(<origin xyz="0 0 -5"/>)" : "";
    Scene scene = MustRead(R"(<robot name="plane"><link name="planeLink">
      <contact><lateral_friction value="1"/></contact>
      <inertial><origin rpy="0 0 0" xyz="0 0 0"/><mass value=".0"/>
        <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
      <collision>)" + collision_origin +
                               "<geometry>" + geometry + R"(</geometry>
        <drake:proximity_properties><drake:rigid_hydroelastic/></drake:proximity_properties></collision>
      </link></robot>)",
                           "plane.urdf");
    const Scene cube = MustRead(R"(<robot name="cube"><link name="body">
      <inertial><mass value="1"/><inertia ixx="1.6667e-3" iyy="1.6667e-3" izz="1.6667e-3" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><box size="0.1 0.1 0.1"/></geometry>
        <drake:proximity_properties><drake:compliant_hydroelastic/><drake:hydroelastic_modulus value="1e7"/>
          <drake:hunt_crossley_dissipation value="5"/></drake:proximity_properties></collision>
      </link></robot>)",
                                "cube.urdf");
    ASSERT_EQ(cube.models.size(), 1u);
    scene.models.push_back(cube.models[0]);
    BuildOptions options;
    const Vector3 p_WPlane(0.3, -0.2, 0.1);
    options.poses["plane"] = PoseFromXyzRpy(p_WPlane, Vector3(0, 0, 0.7));
    options.poses["cube"] = PoseFromXyzRpy(p_WPlane + Vector3(0, 0, 0.05 + 0.05), Vector3(0, 0, 0.2));
    World world;
    world.Build(scene, options);
    const BuiltBody* plane = world.built->Find("plane::planeLink");
    const BuiltBody* box = world.built->Find("cube::body");
    ASSERT_NE(plane, nullptr);
    ASSERT_NE(box, nullptr);
    ASSERT_NE(plane->rigid_body, nullptr);
    EXPECT_TRUE(plane->is_static);
    EXPECT_TRUE(plane->rigid_body->isStaticObject());
    const btTransform X_WPlane0 = plane->collider->getWorldTransform();
    const RigidTransform X_WL0 = world.built->LinkPose(*plane);
    EXPECT_NEAR((X_WL0.translation() - p_WPlane).norm(), 0, hydro::test::BulletAbsolute(1e-15, 0.5));

    const double dt = 1.0 / 60;
    world.Step(120, dt);  // 2 s

    ExpectSameTransform(plane->collider->getWorldTransform(), X_WPlane0, "plane collider");
    ExpectSameTransform(plane->rigid_body->getInterpolationWorldTransform(), X_WPlane0, "plane interpolation");
    EXPECT_EQ(world.built->LinkPose(*plane).matrix(), X_WL0.matrix());
    EXPECT_EQ(plane->rigid_body->getLinearVelocity(), btVector3(0, 0, 0));
    EXPECT_EQ(plane->rigid_body->getAngularVelocity(), btVector3(0, 0, 0));

    const RigidTransform X_WBox = world.built->LinkPose(*box);
    Vector3 v, w;
    world.built->LinkVelocity(*box, &v, &w);
    const double sink = p_WPlane.z() - (X_WBox.translation().z() - 0.05);
    const auto patches = hydroGetContactPatches(world.world->getDispatcher(), dt);
    std::printf("%s: cube speed %.2e m/s, spin %.2e rad/s, sunk %.3f mm, %zu patch(es)\n", geometry.c_str(), v.norm(),
                w.norm(), 1e3 * sink, patches.size());
    EXPECT_LT(v.norm(), 1e-3);
    EXPECT_LT(w.norm(), 1e-2);
    // p = E·depth/(half the side) carries 981 Pa at 4.9e-3 mm; 0 < sink < 0.05 mm.
    EXPECT_GT(sink, 0);                                             // resting on the field, not hovering
    EXPECT_LT(sink, 5e-5);                                          // nor fallen into it
    EXPECT_GT((X_WBox.linear() * Vector3::UnitZ()).z(), 1 - 1e-6);  // flat on its face
    ASSERT_EQ(patches.size(), 1u);
    EXPECT_NEAR(std::abs(patches[0].m_forceOnBody0.z()), 9.81, 0.01 * 9.81);
  }
}

// The kuka's mass-0 base stays fixed: a kuka_iiwa/model.urdf-like arm (link_0 of mass
// 0 with its inertial origin off the link frame, as the kuka's is; a vertical revolute joint, then
// two horizontal ones whose 0.3 m bars stick out sideways, a double pendulum; cylinders and boxes,
// the kuka's names and limits), placed at a turned, shifted pose and released, stepped 1 s at 1/240 s (PyBullet's step)
// under gravity, as a multibody and as rigid bodies with hinges. The base's velocity is zero and its pose unchanged: as
// rigid bodies bit-identical (EXPECT_EQ on every number); as a multibody its position bit-identical at every step and
// its rotation to 1e-15 (Bullet renormalizes the fixed base's quaternion, see below) — while the tip swings by more
// than 0.2 m.
TEST(PyBulletConventionsTest, TheKukasMassZeroBaseStaysFixed) {
  const std::string bar_inertial = R"(<inertial><origin xyz="0.15 0 0"/><mass value="3"/>
        <inertia ixx="0.005" iyy="0.03" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><origin xyz="0.15 0 0"/><geometry><box size="0.3 0.08 0.08"/></geometry></collision>)";
  const Scene scene = MustRead(R"(<robot name="lbr_iiwa">
    <link name="lbr_iiwa_link_0">
      <inertial><origin xyz="-0.1 0 0.07"/><mass value="0"/><inertia ixx="0.05" iyy="0.06" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><origin xyz="0 0 0.05"/><geometry><cylinder radius="0.12" length="0.1"/></geometry></collision></link>
    <link name="lbr_iiwa_link_1"><inertial><origin xyz="0 0 0.1"/><mass value="4"/>
        <inertia ixx="0.02" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><origin xyz="0 0 0.1"/><geometry><cylinder radius="0.06" length="0.2"/></geometry></collision></link>
    <link name="lbr_iiwa_link_2">)" +
                                   bar_inertial + R"(</link>
    <link name="lbr_iiwa_link_3">)" +
                                   bar_inertial + R"(</link>
    <joint name="lbr_iiwa_joint_1" type="revolute"><parent link="lbr_iiwa_link_0"/><child link="lbr_iiwa_link_1"/>
      <origin xyz="0 0 0.1575" rpy="0 0 0"/><axis xyz="0 0 1"/>
      <limit lower="-2.96705972839" upper="2.96705972839" effort="300" velocity="10"/></joint>
    <joint name="lbr_iiwa_joint_2" type="revolute"><parent link="lbr_iiwa_link_1"/><child link="lbr_iiwa_link_2"/>
      <origin xyz="0 0 0.2025" rpy="1.57079632679 0 0"/><axis xyz="0 0 1"/>
      <limit lower="-2.09439510239" upper="2.09439510239" effort="300" velocity="10"/></joint>
    <joint name="lbr_iiwa_joint_3" type="revolute"><parent link="lbr_iiwa_link_2"/><child link="lbr_iiwa_link_3"/>
      <origin xyz="0.3 0 0" rpy="0 0 0"/><axis xyz="0 0 1"/>
      <limit lower="-2.96705972839" upper="2.96705972839" effort="300" velocity="10"/></joint>
    </robot>)",
                               "model.urdf");
  for (bool multibody : {true, false}) {
    SCOPED_TRACE(multibody ? "multibody" : "rigid bodies");
    BuildOptions options;
    options.multibody = multibody;
    options.poses["lbr_iiwa"] = PoseFromXyzRpy(Vector3(0.1, 0.2, 0.5), Vector3(0, 0, 0.4));
    World world;
    world.Build(scene, options);
    const BuiltBody* base = world.built->Find("lbr_iiwa::lbr_iiwa_link_0");
    const BuiltBody* tip = world.built->Find("lbr_iiwa::lbr_iiwa_link_3");
    ASSERT_NE(base, nullptr);
    ASSERT_NE(tip, nullptr);
    ASSERT_NE(base->collider, nullptr);
    if (multibody) {
      ASSERT_NE(base->multibody, nullptr);
      EXPECT_TRUE(base->multibody->hasFixedBase());
      EXPECT_EQ(base->multibody, tip->multibody);
    } else {
      ASSERT_NE(base->rigid_body, nullptr);
      EXPECT_TRUE(base->is_static);
      EXPECT_TRUE(base->rigid_body->isStaticObject());
    }
    const btTransform X_WBase0 = base->collider->getWorldTransform();
    const btVector3 p_WMb0 = multibody ? base->multibody->getBasePos() : btVector3(0, 0, 0);
    const RigidTransform X_WL0 = world.built->LinkPose(*base);
    EXPECT_NEAR((X_WL0.translation() - Vector3(0.1, 0.2, 0.5)).norm(), 0, hydro::test::BulletAbsolute(1e-15, 0.5));
    const Vector3 p_WTip0 = world.built->LinkPose(*tip) * Vector3(0.3, 0, 0);

    double max_rotation_change = 0;           // largest change of any entry of the base link's rotation
    for (int step = 0; step < 240; ++step) {  // 1 s
      world.Step(1, 1.0 / 240);
      const RigidTransform X_WL = world.built->LinkPose(*base);
      max_rotation_change = std::max(max_rotation_change, (X_WL.linear() - X_WL0.linear()).cwiseAbs().maxCoeff());
      if (multibody) {
        ASSERT_EQ(base->multibody->getBasePos(), p_WMb0) << "step " << step;
      }
      ASSERT_NEAR((X_WL.translation() - X_WL0.translation()).norm(), 0, hydro::test::BulletAbsolute(1e-15, 0.5))
          << "step " << step;
    }
    std::printf("%s: base rotation changed by at most %.2e\n", multibody ? "multibody" : "rigid", max_rotation_change);
    if (multibody) {
      // Bullet integrates even a fixed base's quaternion (by zero) and renormalizes it at every
      // step, which flips its last bit back and forth: measured 3.3e-16 in the rotation matrix.
      // The position is added zero and stays bit-identical (checked above at every step). In
      // Bullet's float build the flipped bit is float's (1.8e-7).
      EXPECT_LT(max_rotation_change, hydro::test::BulletAbsolute(1e-15, 1.0));
      EXPECT_EQ(base->multibody->getBaseVel(), btVector3(0, 0, 0));
      EXPECT_EQ(base->multibody->getBaseOmega(), btVector3(0, 0, 0));
    } else {
      // A static rigid body is never integrated: bit-identical.
      EXPECT_EQ(max_rotation_change, 0);
      ExpectSameTransform(base->collider->getWorldTransform(), X_WBase0, "base body");
      EXPECT_EQ(world.built->LinkPose(*base).matrix(), X_WL0.matrix());
    }
    Vector3 v, w;
    world.built->LinkVelocity(*base, &v, &w);
    EXPECT_EQ(v, Vector3::Zero());
    EXPECT_EQ(w, Vector3::Zero());
    const Vector3 p_WTip = world.built->LinkPose(*tip) * Vector3(0.3, 0, 0);
    std::printf("%s: tip moved %.3f m (z %.3f -> %.3f)\n", multibody ? "multibody" : "rigid", (p_WTip - p_WTip0).norm(),
                p_WTip0.z(), p_WTip.z());
    EXPECT_GT((p_WTip - p_WTip0).norm(), 0.2);  // the arm swings
    EXPECT_TRUE(p_WTip.allFinite());
  }
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
