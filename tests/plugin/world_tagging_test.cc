// Tagging beyond one shape: a compound through its children, and a whole world's dynamic shapes in
// one call (adapters/btHydroelasticShapes.h).
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <string>
#include <vector>

#include "adapters/shape_registry.h"
#include "hydro/mesh_builder.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "test_world.h"

namespace hydro {
namespace {

using bullet::ShapeRegistry;

// The patches' vertical force on the non-static side, summed.
double SupportForce(btDispatcher* dispatcher, double dt) {
  double total = 0;
  for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(dispatcher, dt))
    total += patch.m_body0->isStaticObject() ? -patch.m_forceOnBody0.z() : patch.m_forceOnBody0.z();
  return total;
}

// A dumbbell: a compound of two 10 cm cubes 30 cm apart, tagged as one shape. Both children carry
// the tag and rest on their own patches, which together carry the weight; untagging the compound
// untags the children.
TEST(WorldTaggingTest, TaggingACompoundTagsItsChildren) {
  btBoxShape cube(btVector3(0.05, 0.05, 0.05));
  btBoxShape other_cube(btVector3(0.05, 0.05, 0.05));
  btCompoundShape dumbbell;
  dumbbell.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-0.15, 0, 0)), &cube);
  dumbbell.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0.15, 0, 0)), &other_cube);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  ASSERT_TRUE(hydroSetHydroelastic(&dumbbell, test::Compliant(1e6, 0.02)));
  EXPECT_TRUE(ShapeRegistry::Instance().IsCompliant(&cube));
  EXPECT_TRUE(ShapeRegistry::Instance().IsCompliant(&other_cube));
  {
    test::TestWorld world;
    world.AddBody(&ground, 0, btVector3(0, 0, 0));
    world.AddBody(&dumbbell, 2.0, btVector3(0, 0, 0.0499));
    world.Step(500);
    const auto patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
    EXPECT_EQ(patches.size(), 2u);
    // Each patch names the dumbbell's child it is, and the ground as no child: child 0 is the cube
    // at x = −0.15 m.
    std::vector<int> children;
    for (const btHydroelasticContactPatch& patch : patches) {
      const bool dumbbell_first = patch.m_body0->getCollisionShape() == &dumbbell;
      const int child = dumbbell_first ? patch.m_childIndex0 : patch.m_childIndex1;
      EXPECT_EQ(dumbbell_first ? patch.m_childIndex1 : patch.m_childIndex0, -1);
      ASSERT_TRUE(child == 0 || child == 1) << child;
      EXPECT_NEAR(patch.m_centerOfPressure.x(), child == 0 ? -0.15 : 0.15, 0.01);
      children.push_back(child);
    }
    EXPECT_NE(children[0], children[1]);
    // At rest: the patches carry m·g within 1 % (Bullet's compound algorithm hands each child pair
    // to the plugin).
    EXPECT_NEAR(SupportForce(world.dispatcher(), 1e-3), 2.0 * 9.81, 0.01 * 2.0 * 9.81);
  }
  hydroRemoveShape(&dumbbell);
  EXPECT_FALSE(ShapeRegistry::Instance().IsHydroelastic(&cube));
  EXPECT_FALSE(ShapeRegistry::Instance().IsHydroelastic(&other_cube));
  // A volume mesh belongs to one shape: refused on a compound.
  btHydroelasticProperties with_mesh = test::Compliant(1e6);
  with_mesh.m_volumeMesh = std::make_shared<VolumeMeshWithExtent>();
  EXPECT_FALSE(hydroSetHydroelastic(&dumbbell, with_mesh));
  EXPECT_FALSE(ShapeRegistry::Instance().IsHydroelastic(&cube));
}

// "Upgrade my whole scene": a pile stepped with Bullet's contact, then one call tags every dynamic
// shape (the static ground stays untagged, so rigid), and the pairs that had already met switch to
// patches from the next step. Refused properties tag nothing.
TEST(WorldTaggingTest, OneCallTagsEveryDynamicShapeOfAWorld) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1)), ground(btVector3(2, 2, 0.1));
  btSphereShape ball(0.1);
  test::TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, -0.1));
  for (int i = 0; i < 3; ++i) world.AddBody(&box, 1, btVector3(0.3 * i, 0, 0.1));
  world.AddBody(&ball, 1, btVector3(0, 0.3, 0.1));
  world.Step(30, 1.0 / 60);
  EXPECT_TRUE(hydroGetContactPatches(world.dispatcher(), 1.0 / 60).empty());  // Bullet's contact

  std::vector<std::string> messages;
  static std::vector<std::string>* sink = nullptr;
  sink = &messages;
  hydroSetErrorCallback([](const char* message) { sink->push_back(message); });
  EXPECT_EQ(hydroSetHydroelasticWorld(world.world(), test::Compliant(-1)), -1);
  hydroSetErrorCallback(nullptr);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("hydroelastic modulus"), std::string::npos) << messages[0];
  EXPECT_FALSE(ShapeRegistry::Instance().IsHydroelastic(&box));

  EXPECT_EQ(hydroSetHydroelasticWorld(world.world(), test::Compliant(1e7)), 2);  // the box shape and the ball
  EXPECT_TRUE(ShapeRegistry::Instance().IsCompliant(&box));
  EXPECT_TRUE(ShapeRegistry::Instance().IsCompliant(&ball));
  EXPECT_FALSE(ShapeRegistry::Instance().IsHydroelastic(&ground));
  world.Step(120, 1.0 / 60);
  EXPECT_EQ(hydroGetContactPatches(world.dispatcher(), 1.0 / 60).size(), 4u);
  EXPECT_NEAR(SupportForce(world.dispatcher(), 1.0 / 60), 4 * 9.81, 0.01 * 4 * 9.81);
  hydroRemoveShape(&box);
  hydroRemoveShape(&ball);
}

}  // namespace
}  // namespace hydro
