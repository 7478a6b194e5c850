#include "urdf/bullet_world_file.h"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <LinearMath/btSerializer.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <utility>

#include "hydro/contact_surface.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "test_files.h"
#include "test_world.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace urdf {
namespace {

constexpr double kStep = 1.0 / 60;  // the step the saving program used, as Bullet's demos do

// What a test saves: a Bullet program's world, made the way such programs make it.
struct SavedWorld {
  struct Body {
    std::string name;
    double mass;
    btTransform X_WB;
    std::string shape_type;
  };

  // ground (static box), crate (2 kg box, turned), ball (0.5 kg sphere), dumbbell (a compound of
  // two boxes) and a multibody: a fixed base with one revolute link carrying a box collider.
  explicit SavedWorld(bool with_others = true) {
    test::World w;
    btMultiBodyDynamicsWorld* world = w.world.get();
    world->setGravity(btVector3(0, 0, -9.81));
    world->getSolverInfo().m_timeStep = kStep;
    auto add = [&](const std::string& name, btCollisionShape* shape, double mass, const btTransform& X_WB,
                   const std::string& type) {
      shapes.emplace_back(shape);
      btVector3 inertia(0, 0, 0);
      if (mass > 0) shape->calculateLocalInertia(mass, inertia);
      auto body =
          std::make_unique<btRigidBody>(btRigidBody::btRigidBodyConstructionInfo(mass, nullptr, shape, inertia));
      body->setWorldTransform(X_WB);
      world->addRigidBody(body.get());
      serializer.registerNameForPointer(body.get(), names.emplace_back(std::make_unique<std::string>(name))->c_str());
      bodies.push_back({name, mass, X_WB, type});
      rigid.push_back(std::move(body));
    };
    add("ground", new btBoxShape(btVector3(2, 2, 0.5)), 0,
        btTransform(btQuaternion::getIdentity(), btVector3(0, 0, -0.5)), "box");
    // The crate rests on the ground, turned about z.
    add("crate", new btBoxShape(btVector3(0.1, 0.1, 0.1)), 2,
        btTransform(btQuaternion(btVector3(0, 0, 1), 0.3), btVector3(0.2, -0.3, 0.1)), "box");
    if (with_others) {
      add("ball", new btSphereShape(0.05), 0.5, btTransform(btQuaternion::getIdentity(), btVector3(1, 0, 0.05)),
          "sphere");
      auto* dumbbell = new btCompoundShape();
      child_shapes.emplace_back(new btBoxShape(btVector3(0.05, 0.05, 0.05)));
      dumbbell->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0.1, 0, 0)),
                              child_shapes.back().get());
      dumbbell->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-0.1, 0, 0)),
                              child_shapes.back().get());
      add("dumbbell", dumbbell, 1, btTransform(btQuaternion(btVector3(1, 0, 0), 0.2), btVector3(-1, 0, 0.05)),
          "compound");
      // A multibody: fixed base at (0, 1, 0.5), one revolute link about x, 0.1 m below it.
      multibody = std::make_unique<btMultiBody>(1, 0, btVector3(0, 0, 0), /*fixedBase=*/true, /*canSleep=*/false);
      multibody->setBasePos(btVector3(0, 1, 0.5));
      multibody->setupRevolute(0, 0.75, btVector3(1e-3, 1e-3, 1e-3), -1, btQuaternion::getIdentity(),
                               btVector3(1, 0, 0), btVector3(0, 0, -0.1), btVector3(0, 0, 0));
      multibody->finalizeMultiDof();
      world->addMultiBody(multibody.get());
      child_shapes.emplace_back(new btBoxShape(btVector3(0.02, 0.02, 0.02)));
      collider = std::make_unique<btMultiBodyLinkCollider>(multibody.get(), 0);
      collider->setCollisionShape(child_shapes.back().get());
      btAlignedObjectArray<btQuaternion> q;
      btAlignedObjectArray<btVector3> m;
      multibody->forwardKinematics(q, m);
      collider->setWorldTransform(multibody->getLink(0).m_cachedWorldTransform);
      multibody->getLink(0).m_collider = collider.get();
      world->addCollisionObject(collider.get(), btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
      bodies.push_back({"multibody0::link0", 0.75, collider->getWorldTransform(), "box"});
    }
    world->serialize(&serializer);
    bytes.assign(reinterpret_cast<const char*>(serializer.getBufferPointer()), serializer.getCurrentBufferSize());
    // Take the world apart before the shapes go.
    if (collider) world->removeCollisionObject(collider.get());
    if (multibody) world->removeMultiBody(multibody.get());
    for (auto& body : rigid) world->removeRigidBody(body.get());
  }

  btDefaultSerializer serializer;
  std::vector<std::unique_ptr<std::string>> names;
  std::vector<std::unique_ptr<btCollisionShape>> shapes, child_shapes;
  std::vector<std::unique_ptr<btRigidBody>> rigid;
  std::unique_ptr<btMultiBody> multibody;
  std::unique_ptr<btMultiBodyLinkCollider> collider;
  std::vector<Body> bodies;
  std::string bytes;  // the .bullet file
};

std::vector<ComplianceRule> Rules(const std::string& text) {
  Diagnostics d;
  auto rules = ParseComplianceRules(text, "test.rules", &d);
  EXPECT_TRUE(rules) << d.ToString();
  return rules ? *rules : std::vector<ComplianceRule>{};
}

TEST(BulletWorldFileTest, RecognizesBulletFilesByName) {
  EXPECT_TRUE(IsBulletWorldFile("worlds/slope.bullet"));
  EXPECT_FALSE(IsBulletWorldFile("robot.urdf"));
  EXPECT_FALSE(IsBulletWorldFile(".bullet"));
  EXPECT_FALSE(IsBulletWorldFile("bullet"));
}

// The world a test saved with Bullet's serializer loads back with the same bodies, shapes, masses
// and poses; gravity and the step come with it.
TEST(BulletWorldFileTest, ASavedWorldLoadsBackAsItWas) {
  const SavedWorld saved;
  test::TempDir dir("bullet_world");
  const std::string path = dir.Write("scene.bullet", saved.bytes);
  test::World w;
  Diagnostics d;
  auto built = LoadBulletWorldFile(path, w.world.get(), {}, true, &d);
  ASSERT_TRUE(built) << d.ToString();
  EXPECT_EQ(d.all().size(), 0u) << d.ToString();
  EXPECT_EQ(w.world->getGravity(), btVector3(0, 0, -9.81));
  EXPECT_NEAR(w.world->getSolverInfo().m_timeStep, kStep, hydro::test::BulletAbsolute(0, kStep, 1));
  EXPECT_EQ(w.world->getNumMultibodies(), 1);
  ASSERT_EQ(built->bodies().size(), saved.bodies.size());
  for (const SavedWorld::Body& expected : saved.bodies) {
    const BuiltBody* body = built->Find(expected.name);
    ASSERT_NE(body, nullptr) << expected.name;
    const btCollisionShape& shape = *body->collider->getCollisionShape();
    EXPECT_EQ(ShapeTypeOf(shape), expected.shape_type) << expected.name;
    double mass;
    if (body->rigid_body)
      mass = body->rigid_body->getInvMass() > 0 ? 1 / body->rigid_body->getInvMass() : 0;
    else
      mass = body->multibody->getLinkMass(body->link_index);
    EXPECT_DOUBLE_EQ(mass, expected.mass) << expected.name;
    EXPECT_EQ(body->is_static, expected.mass == 0) << expected.name;
    const btTransform& X_WB = body->collider->getWorldTransform();
    EXPECT_LT((X_WB.getOrigin() - expected.X_WB.getOrigin()).length(), 1e-12) << expected.name;
    EXPECT_LT(X_WB.getRotation().angleShortestPath(expected.X_WB.getRotation()), 1e-7) << expected.name;
  }
  // Shapes keep their dimensions (the box's half extents, the compound's children).
  const auto& crate = static_cast<const btBoxShape&>(*built->Find("crate")->collider->getCollisionShape());
  EXPECT_LT((crate.getHalfExtentsWithMargin() - btVector3(0.1, 0.1, 0.1)).length(), 1e-8);  // shapes are saved in float
  const auto& dumbbell = static_cast<const btCompoundShape&>(*built->Find("dumbbell")->collider->getCollisionShape());
  ASSERT_EQ(dumbbell.getNumChildShapes(), 2);
  EXPECT_NEAR(dumbbell.getChildTransform(1).getOrigin().x(), -0.1, 1e-8);
  const btScalar radius =
      static_cast<const btSphereShape&>(*built->Find("ball")->collider->getCollisionShape()).getRadius();
  EXPECT_NEAR(radius, 0.05, 1e-8);
  // Unloading takes everything out of the world again.
  built.reset();
  EXPECT_EQ(w.world->getNumCollisionObjects(), 0);
  EXPECT_EQ(w.world->getNumMultibodies(), 0);
}

// With rules, the saved crate touches the ground as a patch and comes to rest on it: the
// solver's patch force balances its weight (2 kg · 9.81 m/s²) to 1 %, at the file's 1/60 s step.
TEST(BulletWorldFileTest, RulesMakeItsShapesCompliantAndItRunsWithPatchContact) {
  const SavedWorld saved(/*with_others=*/false);
  test::TempDir dir("bullet_world_patch");
  const std::string path = dir.Write("crate.bullet", saved.bytes);
  test::World w;
  Diagnostics d;
  auto built = LoadBulletWorldFile(path, w.world.get(), Rules("ground rigid\ncrate compliant E=1e7\n"), true, &d);
  ASSERT_TRUE(built) << d.ToString();
  hydroConfigureSolverInfo(w.world->getSolverInfo());  // the file's settings replaced the world's
  w.built = std::move(built);
  for (int i = 0; i < 120; ++i) w.world->stepSimulation(kStep, 0, kStep);
  const btRigidBody* crate = w.built->Find("crate")->rigid_body;
  EXPECT_LT(crate->getLinearVelocity().length(), 1e-3);
  // It sank a little into the ground (compliant), and not through it.
  const double bottom = crate->getWorldTransform().getOrigin().z() - 0.1;
  EXPECT_LT(bottom, 0);
  EXPECT_GT(bottom, -1e-3);
  const auto patches = hydroGetContactPatches(w.world->getDispatcher(), kStep);
  ASSERT_EQ(patches.size(), 1u);
  const btHydroelasticContactPatch& patch = patches[0];
  EXPECT_GT(patch.m_surface->num_polygons(), 4);  // a patch, not Bullet's four points
  const btVector3 force_on_crate = patch.m_body0 == crate ? patch.m_forceOnBody0 : -patch.m_forceOnBody0;
  EXPECT_NEAR(force_on_crate.z(), 2 * 9.81, 0.01 * 2 * 9.81);
  EXPECT_NEAR(force_on_crate.x(), 0, 1e-3);
  EXPECT_NEAR(force_on_crate.y(), 0, 1e-3);
}

// A hull read from a .bullet file keeps the collision margin it was saved with (here Bullet's
// default, 0.04 m; the model builder gives its hulls PyBullet's 0.001 m). A 2 kg hull crate, 0.2 m
// across, saved 5 cm above a static plane, run 2 s at the file's 1/60 s step: made compliant, or on
// the plane made compliant (E = 1e7 Pa, slab H = 0.1 m), it rests on its patch, which carries its
// weight to 1 %, pressed in by m·g·ℓ/(E·A) = 4.905 µm (ℓ = H = 0.1 m) to 10 %; it had rested on
// Bullet's 4 points 4 cm up, within its margin of the plane.
TEST(BulletWorldFileTest, ASavedHullKeepsItsMarginAndRestsOnItsPatch) {
  std::string bytes;
  {
    test::World w;
    btMultiBodyDynamicsWorld* world = w.world.get();
    world->setGravity(btVector3(0, 0, -9.81));
    world->getSolverInfo().m_timeStep = kStep;
    btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
    btConvexHullShape hull;  // margin 0.04 m, Bullet's default
    for (int i = 0; i < 8; ++i) hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1));
    btVector3 inertia;
    hull.calculateLocalInertia(2, inertia);
    btRigidBody ground(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &plane));
    btRigidBody crate(btRigidBody::btRigidBodyConstructionInfo(2, nullptr, &hull, inertia));
    crate.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.15)));
    world->addRigidBody(&ground);
    world->addRigidBody(&crate);
    btDefaultSerializer serializer;
    serializer.registerNameForPointer(&ground, "ground");
    serializer.registerNameForPointer(&crate, "crate");
    world->serialize(&serializer);
    bytes.assign(reinterpret_cast<const char*>(serializer.getBufferPointer()), serializer.getCurrentBufferSize());
    world->removeRigidBody(&crate);
    world->removeRigidBody(&ground);
  }
  test::TempDir dir("bullet_world_hull");
  const std::string path = dir.Write("hull_crate.bullet", bytes);
  const double mass = 2, g = 9.81, side = 0.2, E = 1e7;
  const double sink = mass * g * (side / 2) / (E * side * side);  // 4.905e-6 m
  for (const auto& [label, rules] : {std::pair{"compliant plane", "ground compliant E=1e7\n"},
                                     std::pair{"compliant crate", "crate compliant E=1e7\nground rigid\n"}}) {
    SCOPED_TRACE(label);
    test::World w;
    Diagnostics d;
    w.built = LoadBulletWorldFile(path, w.world.get(), Rules(rules), true, &d);
    ASSERT_TRUE(w.built) << d.ToString();
    hydroConfigureSolverInfo(w.world->getSolverInfo());
    const btRigidBody* crate = w.built->Find("crate")->rigid_body;
    ASSERT_EQ(crate->getCollisionShape()->getShapeType(), CONVEX_HULL_SHAPE_PROXYTYPE);
    EXPECT_NEAR(crate->getCollisionShape()->getMargin(), 0.04, 1e-7);  // saved in float
    for (int i = 0; i < 120; ++i) w.world->stepSimulation(kStep, 0, kStep);
    const double bottom = crate->getWorldTransform().getOrigin().z() - side / 2;
    const auto patches = hydroGetContactPatches(w.world->getDispatcher(), kStep);
    std::printf("%s: bottom %.6e m, %zu patch(es)\n", label, bottom, patches.size());
    EXPECT_LT(crate->getLinearVelocity().length(), 1e-3);
    // At 60 Hz Bullet's solver (this world's) takes the patch as stiffness rows: measured 4.905 µm
    // for the rigid crate, 5.18 µm for the compliant one (the plugin's tests check 1 % at 1 ms).
    EXPECT_NEAR(bottom, -sink, 0.1 * sink);  // was +0.04
    ASSERT_EQ(patches.size(), 1u);
    const btHydroelasticContactPatch& patch = patches[0];
    std::printf("  patch: %d polygons, %.5f N\n", patch.m_surface->num_polygons(), std::abs(patch.m_forceOnBody0.z()));
    EXPECT_GT(patch.m_surface->num_polygons(), 4);
    EXPECT_NEAR(std::abs(patch.m_forceOnBody0.z()), mass * g, 0.01 * mass * g);
  }
}

// Without rules nothing is tagged: Bullet's own contact, no patch.
TEST(BulletWorldFileTest, WithoutRulesBulletsOwnContactRuns) {
  const SavedWorld saved(/*with_others=*/false);
  test::TempDir dir("bullet_world_stock");
  const std::string path = dir.Write("crate.bullet", saved.bytes);
  test::World w;
  Diagnostics d;
  w.built = LoadBulletWorldFile(path, w.world.get(), {}, true, &d);
  ASSERT_TRUE(w.built) << d.ToString();
  for (int i = 0; i < 30; ++i) w.world->stepSimulation(kStep, 0, kStep);
  EXPECT_TRUE(hydroGetContactPatches(w.world->getDispatcher(), kStep).empty());
  EXPECT_GT(w.built->Find("crate")->rigid_body->getWorldTransform().getOrigin().z(), 0.09);
}

TEST(BulletWorldFileTest, ARuleThatFitsNoBodyIsAWarning) {
  const SavedWorld saved(/*with_others=*/false);
  test::TempDir dir("bullet_world_rules");
  const std::string path = dir.Write("crate.bullet", saved.bytes);
  test::World w;
  Diagnostics d;
  w.built = LoadBulletWorldFile(path, w.world.get(), Rules("crate compliant\nbarrel compliant E=1e6\n"), true, &d);
  ASSERT_TRUE(w.built) << d.ToString();
  EXPECT_FALSE(d.has_errors());
  EXPECT_NE(d.ToString().find("test.rules:2: warning: rule 'barrel' matches no body"), std::string::npos)
      << d.ToString();
}

// Bad files get an error naming the file, never a crash, and leave the world empty.
TEST(BulletWorldFileTest, BadFilesAreErrorsNamingTheFile) {
  const SavedWorld saved(/*with_others=*/false);
  test::TempDir dir("bullet_world_bad");
  std::string corrupt = saved.bytes;
  for (size_t i = 12; i < corrupt.size(); i += 7) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  const std::map<std::string, std::string> files = {
      {"text.bullet", "<robot name='not a world'/>"},
      {"empty.bullet", ""},
      {"header_only.bullet", saved.bytes.substr(0, 12)},
      {"truncated.bullet", saved.bytes.substr(0, saved.bytes.size() / 2)},
      {"corrupt.bullet", corrupt},
  };
  for (const auto& [name, bytes] : files) {
    const std::string path = dir.Write(name, bytes);
    test::World w;
    Diagnostics d;
    auto built = LoadBulletWorldFile(path, w.world.get(), {}, true, &d);
    EXPECT_FALSE(built) << name;
    EXPECT_NE(d.FirstError().find(path + ": error: "), std::string::npos) << d.ToString();
    EXPECT_EQ(w.world->getNumCollisionObjects(), 0) << name;
  }
  test::World w;
  Diagnostics d;
  EXPECT_FALSE(LoadBulletWorldFile(dir.path() + "/missing.bullet", w.world.get(), {}, true, &d));
  EXPECT_NE(d.FirstError().find("missing.bullet: error: cannot read"), std::string::npos) << d.ToString();
}

// A file whose layout is sound but whose structs lie (found by libFuzzer from a saved world):
// Bullet's reader crashes on it, in the child process that tries it first; this process goes on.
TEST(BulletWorldFileTest, AFileThatCrashesBulletsReaderIsRefused) {
  const std::string path = std::string(FUZZ_CORPUS_DIR) + "/bullet/crashes_bullet_convertMultiBody.bullet";
  test::World w;
  Diagnostics d;
  EXPECT_FALSE(LoadBulletWorldFile(path, w.world.get(), {}, true, &d));
  EXPECT_NE(d.FirstError().find(path + ": error: Bullet's importer crashed reading the file"), std::string::npos)
      << d.ToString();
  EXPECT_EQ(w.world->getNumCollisionObjects(), 0);
}

// A chunk type Bullet 3.24 does not write (a newer Bullet's, say) is skipped as Bullet's reader
// skips it, with a warning naming it; the world loads.
TEST(BulletWorldFileTest, AnUnknownChunkTypeIsSkippedWithAWarning) {
  const SavedWorld saved(/*with_others=*/false);
  ASSERT_EQ(saved.bytes[7], '-');  // 8-byte pointers: a 24-byte chunk header
  std::string chunk("ZZZZ", 4);
  auto add_int = [&](int32_t v) { chunk.append(reinterpret_cast<const char*>(&v), 4); };
  add_int(8);                     // len
  add_int(0x1234), add_int(0);    // old pointer
  add_int(-1), add_int(1);        // dna_nr (raw bytes), nr
  chunk += std::string(8, '\0');  // the payload
  std::string bytes = saved.bytes;
  const size_t dna = bytes.rfind("DNA1");
  ASSERT_NE(dna, std::string::npos);
  bytes.insert(dna, chunk);
  test::TempDir dir("bullet_world_unknown");
  const std::string path = dir.Write("newer.bullet", bytes);
  test::World w;
  Diagnostics d;
  w.built = LoadBulletWorldFile(path, w.world.get(), {}, true, &d);
  ASSERT_TRUE(w.built) << d.ToString();
  EXPECT_NE(d.ToString().find(path + ": warning: chunk type 'ZZZZ' at byte " + std::to_string(dna) +
                              " is not one Bullet 3.24 writes; skipped"),
            std::string::npos)
      << d.ToString();
  EXPECT_NE(w.built->Find("crate"), nullptr);
  // The same chunk with a length past the file's end is an error.
  std::string bad = saved.bytes;
  std::string long_chunk = chunk;
  const int32_t huge = 1 << 30;
  long_chunk.replace(4, 4, reinterpret_cast<const char*>(&huge), 4);
  bad.insert(bad.rfind("DNA1"), long_chunk);
  const std::string bad_path = dir.Write("bad.bullet", bad);
  test::World w2;
  Diagnostics d2;
  EXPECT_FALSE(LoadBulletWorldFile(bad_path, w2.world.get(), {}, true, &d2));
  EXPECT_NE(d2.FirstError().find("runs past the end of the file"), std::string::npos) << d2.ToString();
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
