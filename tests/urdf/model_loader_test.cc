// btHydroelasticModelLoader: the installed, Bullet-typed way to load a model file with its
// compliance (urdf/btHydroelasticModelLoader.h).
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "plugin/btHydroelasticCollisionConfiguration.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"
#include "plugin/btHydroelasticSolverSettings.h"
#include "tests/urdf/test_files.h"
#include "urdf/btHydroelasticModelLoader.h"

namespace hydro {
namespace urdf {
namespace {

struct PatchWorld {
  btHydroelasticCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btHydroelasticMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
  PatchWorld() { hydroConfigureSolverInfo(world.getSolverInfo()); }
};

// A 1 kg, 10 cm box on a ground plane, with or without compliance tags on the box, and a two-link
// pendulum whose joint the file damps.
std::string Scene(bool tagged) {
  const std::string tags = tagged ? "<drake:proximity_properties><drake:compliant_hydroelastic/>"
                                    "<drake:hydroelastic_modulus>1e6</drake:hydroelastic_modulus>"
                                    "</drake:proximity_properties>"
                                  : "";
  return R"(<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
  <gravity>0 0 -9.81</gravity>
  <physics type="bullet"><max_step_size>0.002</max_step_size></physics>
  <model name="ground"><static>true</static><link name="plane"><collision name="c">
    <geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
  <model name="box"><pose>0 0 0.0499 0 0 0</pose><link name="body">
    <inertial><mass>1</mass><inertia><ixx>1.7e-3</ixx><iyy>1.7e-3</iyy><izz>1.7e-3</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>)" +
         tags + R"(</collision></link></model>
</world></sdf>
)";
}

double Support(PatchWorld& w, double dt) {
  double total = 0;
  for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(&w.dispatcher, dt))
    total += std::abs(patch.m_forceOnBody0.z());
  return total;
}

TEST(ModelLoaderTest, LoadsAFileWithItsTagsAndNamesItsBodies) {
  test::TempDir dir("model_loader");
  const std::string path = dir.Write("box.sdf", Scene(true));
  PatchWorld w;
  {
    btHydroelasticModelLoader loader;
    ASSERT_TRUE(loader.loadFile(path.c_str(), &w.world)) << loader.getErrors();
    EXPECT_STREQ(loader.getErrors(), "");
    ASSERT_EQ(loader.getNumBodies(), 2);
    const int box = loader.findBody("box::body");
    ASSERT_GE(box, 0);
    EXPECT_STREQ(loader.getBodyName(box), "box::body");
    EXPECT_EQ(loader.findBody("box::nothing"), -1);
    EXPECT_EQ(loader.getBodyName(7), nullptr);
    EXPECT_NE(loader.getCollisionObject(box), nullptr);
    EXPECT_NEAR(loader.getStepSize(), 0.002, 1e-9);
    EXPECT_NEAR(loader.getGravity().z(), -9.81, 1e-6);
    const int objects = w.world.getNumCollisionObjects();
    EXPECT_EQ(objects, 2);
    w.world.setGravity(loader.getGravity());
    const btScalar dt = loader.getStepSize();
    for (int i = 0; i < 500; ++i) w.world.stepSimulation(dt, 0, dt);
    // The tags took: one patch carrying the weight to 1 %, the box's link frame at rest on it.
    EXPECT_EQ(hydroGetContactPatches(&w.dispatcher, dt).size(), 1u);
    EXPECT_NEAR(Support(w, dt), 9.81, 0.01 * 9.81);
    EXPECT_NEAR(loader.getLinkWorldTransform(box).getOrigin().z(), 0.05, 1e-4);
    // Loading again replaces what the loader added.
    ASSERT_TRUE(loader.loadFile(path.c_str(), &w.world)) << loader.getErrors();
    EXPECT_EQ(w.world.getNumCollisionObjects(), objects);
  }
  // The loader takes what it added away with it.
  EXPECT_EQ(w.world.getNumCollisionObjects(), 0);
}

TEST(ModelLoaderTest, RulesTagAFileWithoutTags) {
  test::TempDir dir("model_loader_rules");
  const std::string path = dir.Write("box.sdf", Scene(false));
  PatchWorld w;
  btHydroelasticModelLoader loader;
  loader.setRules("# every moving body\ndynamic compliant E=1e6\n");
  ASSERT_TRUE(loader.loadFile(path.c_str(), &w.world)) << loader.getErrors();
  for (int i = 0; i < 500; ++i) w.world.stepSimulation(0.002, 0, 0.002);
  EXPECT_EQ(hydroGetContactPatches(&w.dispatcher, 0.002).size(), 1u);
  EXPECT_NEAR(Support(w, 0.002), 9.81, 0.01 * 9.81);
}

// Bad input: a malformed file, a missing one and a bad rule are refused with file:line (the
// rule's line in "rules"), nothing is added, and no exception escapes.
TEST(ModelLoaderTest, RefusesBadInputWithWhereAndLeavesTheWorldAlone) {
  test::TempDir dir("model_loader_bad");
  const std::string broken = dir.Write("broken.sdf", "<sdf version=\"1.9\"><world name=\"w\">\n<model name=\"m\">\n");
  const std::string good = dir.Write("box.sdf", Scene(true));
  PatchWorld w;
  btHydroelasticModelLoader loader;
  EXPECT_FALSE(loader.loadFile(broken.c_str(), &w.world));
  EXPECT_NE(std::string(loader.getErrors()).find(broken + ":"), std::string::npos) << loader.getErrors();
  EXPECT_FALSE(loader.loadFile((dir.path() + "/missing.urdf").c_str(), &w.world));
  EXPECT_NE(std::string(loader.getErrors()).find("missing.urdf"), std::string::npos) << loader.getErrors();
  loader.setRules("dynamic compliant E=1e6\ndynamic compliant E=-5\n");
  EXPECT_FALSE(loader.loadFile(good.c_str(), &w.world));
  EXPECT_NE(std::string(loader.getErrors()).find("rules:2"), std::string::npos) << loader.getErrors();
  EXPECT_FALSE(loader.loadFile(nullptr, &w.world));
  EXPECT_EQ(w.world.getNumCollisionObjects(), 0);
  EXPECT_EQ(loader.getNumBodies(), 0);
  EXPECT_EQ(loader.getRigidBody(0), nullptr);
}

// A world saved by Bullet (demos/scenes/crate_on_ground.bullet: a static ground box and a 2 kg
// crate), tagged by its rule file: the crate rests on its patch, and the world keeps its solver
// settings.
TEST(ModelLoaderTest, LoadsABulletWorldTaggedByRules) {
  const std::string scenes = std::string(HYDRO_SOURCE_DIR) + "/demos/scenes/";
  std::ifstream rules_file(scenes + "crate_on_ground.rules");
  const std::string rules((std::istreambuf_iterator<char>(rules_file)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(rules.empty());
  PatchWorld w;
  const int iterations = w.world.getSolverInfo().m_numIterations;
  btHydroelasticModelLoader loader;
  loader.setRules(rules.c_str());
  ASSERT_TRUE(loader.loadFile((scenes + "crate_on_ground.bullet").c_str(), &w.world)) << loader.getErrors();
  EXPECT_EQ(w.world.getSolverInfo().m_numIterations, iterations);
  btRigidBody* crate = loader.findRigidBody("crate");
  ASSERT_NE(crate, nullptr);
  const btScalar dt = loader.getStepSize();
  for (int i = 0; i < 120; ++i) w.world.stepSimulation(dt, 0, dt);
  EXPECT_EQ(hydroGetContactPatches(&w.dispatcher, dt).size(), 1u);
  EXPECT_NEAR(Support(w, dt), 2 * 9.81, 0.01 * 2 * 9.81);
  EXPECT_LT(crate->getLinearVelocity().length(), 1e-3);
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
