// btHydroelasticDeformables, the installed Bullet-typed face of btDeformableBodies: it steps a body
// of each material model exactly as btDeformableBodies steps the same FemBody; boxes and a user's
// own mesh rest, spin, hang and pull as closed forms say; and it reports bad input through
// getErrors (naming the body, vertex, tet or value) instead of throwing, refusing boxes too fine
// to mesh before meshing them.
#include "fem/btHydroelasticDeformables.h"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <LinearMath/btDefaultMotionState.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "adapters/bullet_conversions.h"
#include "fem/btDeformableBodies.h"
#include "fem/fem_body.h"
#include "hydro/make_box_mesh.h"
#include "tests/fem/fem_test_world.h"

namespace {

using hydro::test::FemTestWorld;

// The tests' world: Bullet's plane z = 0 under gravity.
constexpr FemTestWorld::Ground kPlane = FemTestWorld::Ground::kPlane;

const btScalar kInfinity = std::numeric_limits<btScalar>::infinity();

bool Contains(const char* errors, const char* what) { return std::string(errors).find(what) != std::string::npos; }

// The volume of a front body's deformed mesh, from its tets and vertices.
double DeformedVolume(const btHydroelasticDeformables& deformables, int body) {
  double volume = 0;
  for (int t = 0; t < deformables.getNumTets(body); ++t) {
    int v[4];
    deformables.getTet(body, t, v);
    const btVector3 a = deformables.getVertexPosition(body, v[0]);
    volume +=
        (deformables.getVertexPosition(body, v[1]) - a)
            .dot((deformables.getVertexPosition(body, v[2]) - a).cross(deformables.getVertexPosition(body, v[3]) - a)) /
        6;
  }
  return volume;
}

// The core's material of the front's, as Add maps it.
hydro::fem::Material ToCoreMaterial(const btHydroelasticDeformableMaterial& material) {
  hydro::fem::Material m;
  m.youngs_modulus_Pa = material.m_youngsModulus;
  m.poisson_ratio = material.m_poissonRatio;
  m.density_kg_per_m3 = material.m_density;
  m.mass_damping_1_per_s = material.m_massDamping;
  m.stiffness_damping_s = material.m_stiffnessDamping;
  switch (material.m_model) {
    case btHydroelasticDeformableMaterial::LINEAR:
      m.model = hydro::fem::MaterialModel::kLinear;
      break;
    case btHydroelasticDeformableMaterial::COROTATIONAL:
      m.model = hydro::fem::MaterialModel::kCorotational;
      break;
    case btHydroelasticDeformableMaterial::NEO_HOOKEAN:
      m.model = hydro::fem::MaterialModel::kNeoHookean;
      break;
  }
  return m;
}

// A box added through the front, and the same FemBody added to btDeformableBodies directly, each
// above Bullet's plane in a world of its own. The direct body takes the front's inputs through
// btScalar (Bullet's float build rounds 0.3, 0.025, …), so the two can agree bit for bit.
struct TwinBoxes {
  TwinBoxes(const btHydroelasticDeformableMaterial& material, const btVector3& half_extents, const btTransform& pose,
            btScalar resolution) {
    block = deformables.addBox("block", half_extents, pose, resolution, material);
    const hydro::VolumeMeshWithExtent box =
        hydro::MakeBoxVolumeMesh(2 * hydro::bullet::ToEigen(half_extents), static_cast<double>(resolution));
    std::vector<hydro::Vector3> vertices;
    for (const hydro::Vector3& p : box.mesh->vertices()) vertices.push_back(hydro::bullet::ToRigidTransform(pose) * p);
    body = std::make_unique<hydro::fem::FemBody>("block", vertices, box.mesh->tets(), ToCoreMaterial(material));
    direct.addBody(body.get());
  }
  void Step(btScalar dt, int steps) {
    for (int step = 0; step < steps; ++step) {
      front_world.Step(1, dt);
      direct_world.Step(1, dt);
    }
  }
  // The front's world alone, once the two are shown alike (each step of a Neo-Hookean body is a
  // Newton solve: stepping both to rest took 20 s, too long for the sanitizer runs).
  void StepFront(btScalar dt, int steps) { front_world.Step(steps, dt); }
  // Every vertex's position and velocity the same bits on both sides.
  void ExpectSameBits() {
    ASSERT_EQ(deformables.getNumVertices(block), body->num_vertices());
    int differing = 0;
    for (int i = 0; i < body->num_vertices(); ++i)
      if (deformables.getVertexPosition(block, i) != hydro::bullet::ToBullet(body->position(i)) ||
          deformables.getVertexVelocity(block, i) != hydro::bullet::ToBullet(body->velocity(i)))
        ++differing;
    EXPECT_EQ(differing, 0) << "of " << body->num_vertices() << " vertices";
  }

  FemTestWorld front_world{kPlane};
  btHydroelasticDeformables deformables{front_world.world()};
  int block = -1;
  FemTestWorld direct_world{kPlane};
  std::unique_ptr<hydro::fem::FemBody> body;
  btDeformableBodies direct{direct_world.world()};  // declared after the body: destroyed before it
};

TEST(HydroelasticDeformablesTest, StepsABoxAsBtDeformableBodiesStepsTheSameFemBody) {
  btHydroelasticDeformableMaterial material;
  material.m_massDamping = 2;
  TwinBoxes twins(material, btVector3(0.05, 0.05, 0.05),
                  btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.06)), 0.025);
  ASSERT_EQ(twins.block, 0) << twins.deformables.getErrors();
  twins.Step(0.01, 50);
  twins.ExpectSameBits();
  EXPECT_GT(twins.deformables.getLastNumContacts(), 0);
  EXPECT_TRUE(twins.deformables.getLastSolveConverged());
  EXPECT_NEAR(twins.deformables.getMass(twins.block), 1.0, 1e-6);  // 0.1 m cube at 1000 kg/m³
  EXPECT_STREQ(twins.deformables.getErrors(), "");
}

const char* ModelName(btHydroelasticDeformableMaterial::Model model) {
  switch (model) {
    case btHydroelasticDeformableMaterial::LINEAR:
      return "LINEAR";
    case btHydroelasticDeformableMaterial::COROTATIONAL:
      return "COROTATIONAL";
    case btHydroelasticDeformableMaterial::NEO_HOOKEAN:
      return "NEO_HOOKEAN";
  }
  return "?";
}

class HydroelasticDeformablesModelTest : public testing::TestWithParam<btHydroelasticDeformableMaterial::Model> {};

TEST_P(HydroelasticDeformablesModelTest, ABoxRestsOnThePlaneAsTheSameFemBodyAndSagsByItsWeight) {
  // A 0.1 m cube (E = 100 kPa, ρ = 1000 kg/m³) set down touching Bullet's plane. Under its weight
  // a free column of height H sinks at its centre of mass by ρgH²/(3E) (σ(z) = ρg(H − z),
  // u(z) = −∫₀ᶻ σ/E), plus the contact layer's depth d, where the field's pressure
  // E_c·d/h_min (E_c = 10·E, h_min = 0.05 m the box's smallest half extent) carries ρgH.
  btHydroelasticDeformableMaterial material;
  material.m_model = GetParam();
  material.m_massDamping = 2;
  material.m_stiffnessDamping = 0.005;
  const btScalar H = 0.1;
  TwinBoxes twins(material, btVector3(H / 2, H / 2, H / 2),
                  btTransform(btQuaternion::getIdentity(), btVector3(0, 0, H / 2)), 0.025);
  ASSERT_EQ(twins.block, 0) << twins.deformables.getErrors();
  twins.Step(0.01, 20);
  twins.ExpectSameBits();
  twins.StepFront(0.01, 80);
  const double g = 9.81, rho = material.m_density, E = material.m_youngsModulus;
  const double column = rho * g * H * H / (3 * E), layer = rho * g * H * (H / 2) / (10 * E);
  const double sag = H / 2 - twins.deformables.getCenterOfMass(twins.block).z();
  const double speed = twins.deformables.getLinearVelocity(twins.block).length();
  std::printf("%s box at rest: centre of mass sank %.4f mm (closed form %.4f + %.4f = %.4f mm), speed %.1e m/s\n",
              ModelName(GetParam()), 1e3 * sag, 1e3 * column, 1e3 * layer, 1e3 * (column + layer), speed);
  EXPECT_TRUE(twins.deformables.getLastSolveConverged());
  EXPECT_LT(speed, 1e-4);
  EXPECT_NEAR(sag, column + layer, 0.1 * (column + layer));
}

INSTANTIATE_TEST_SUITE_P(EveryModel, HydroelasticDeformablesModelTest,
                         testing::Values(btHydroelasticDeformableMaterial::LINEAR,
                                         btHydroelasticDeformableMaterial::COROTATIONAL,
                                         btHydroelasticDeformableMaterial::NEO_HOOKEAN),
                         [](const testing::TestParamInfo<btHydroelasticDeformableMaterial::Model>& info) {
                           return std::string(ModelName(info.param));
                         });

TEST(HydroelasticDeformablesTest, TheModelMattersUnderAHalfTurn) {
  // A free box spun half a turn (ω = 2π rad/s for 0.5 s, no gravity): the corotational and the
  // Neo-Hookean model are invariant to the rotation and keep the volume; the linear model's strain
  // of a rotation by θ is (cos θ − 1) in the plane of the spin — −2 at half a turn — and its
  // spurious stress tears the box out of shape (its volume grew elevenfold when measured).
  double volume_ratio[3];
  for (const btHydroelasticDeformableMaterial::Model model :
       {btHydroelasticDeformableMaterial::LINEAR, btHydroelasticDeformableMaterial::COROTATIONAL,
        btHydroelasticDeformableMaterial::NEO_HOOKEAN}) {
    FemTestWorld world(kPlane);
    world.world()->setGravity(btVector3(0, 0, 0));
    btHydroelasticDeformables deformables(world.world());
    btHydroelasticDeformableMaterial material;
    material.m_model = model;
    const int body = deformables.addBox("spinner", btVector3(0.05, 0.05, 0.05),
                                        btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 1)), 0.025, material);
    ASSERT_EQ(body, 0) << deformables.getErrors();
    const double rest_volume = DeformedVolume(deformables, body);
    ASSERT_TRUE(deformables.setVelocity(body, btVector3(0, 0, 0), btVector3(0, 0, 2 * SIMD_PI)));
    world.Step(50, 0.01);
    volume_ratio[model] = DeformedVolume(deformables, body) / rest_volume;
    std::printf("%s box after half a turn: volume ratio %.5f\n", ModelName(model), volume_ratio[model]);
  }
  EXPECT_NEAR(volume_ratio[btHydroelasticDeformableMaterial::COROTATIONAL], 1, 0.01);
  EXPECT_NEAR(volume_ratio[btHydroelasticDeformableMaterial::NEO_HOOKEAN], 1, 0.01);
  EXPECT_GT(std::abs(volume_ratio[btHydroelasticDeformableMaterial::LINEAR] - 1), 0.1);
}

// A user's own mesh: a box [−size/2, size/2]² × [0, size_z] + lift of n × n × nz hexahedra, each
// cut into 12 tets around its own centre vertex, so that every tet has an interior vertex. A face
// two hexes share is split along the diagonal through its lowest-numbered corner, seen alike from
// both: the mesh is conforming. Tets are positively oriented.
struct UserMesh {
  std::vector<btVector3> vertices;
  std::vector<int> tets;  // four per tet
};
UserMesh MakeCentredHexBlock(btScalar size, btScalar size_z, int n, int nz, btScalar lift) {
  UserMesh mesh;
  auto corner = [&](int i, int j, int k) { return i + (n + 1) * (j + (n + 1) * k); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
        mesh.vertices.emplace_back(size * (btScalar(i) / n - btScalar(0.5)), size * (btScalar(j) / n - btScalar(0.5)),
                                   lift + size_z * btScalar(k) / nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int centre = static_cast<int>(mesh.vertices.size());
        mesh.vertices.push_back((mesh.vertices[corner(i, j, k)] + mesh.vertices[corner(i + 1, j + 1, k + 1)]) / 2);
        for (int axis = 0; axis < 3; ++axis)
          for (int side = 0; side < 2; ++side) {
            int quad[4];  // the face's corners in cyclic order
            for (int c = 0; c < 4; ++c) {
              int d[3];
              d[axis] = side;
              d[(axis + 1) % 3] = (c == 1 || c == 2) ? 1 : 0;
              d[(axis + 2) % 3] = c >= 2 ? 1 : 0;
              quad[c] = corner(i + d[0], j + d[1], k + d[2]);
            }
            int first = 0;
            for (int c = 1; c < 4; ++c)
              if (quad[c] < quad[first]) first = c;
            const int a = quad[first % 2], b = quad[first % 2 + 1], c = quad[first % 2 + 2],
                      d = quad[(first % 2 + 3) % 4];
            for (const std::array<int, 3>& tri : {std::array<int, 3>{a, b, c}, std::array<int, 3>{a, c, d}}) {
              std::array<int, 4> tet = {tri[0], tri[1], tri[2], centre};
              const btVector3& p0 = mesh.vertices[tet[0]];
              if ((mesh.vertices[tet[1]] - p0).cross(mesh.vertices[tet[2]] - p0).dot(mesh.vertices[tet[3]] - p0) < 0)
                std::swap(tet[1], tet[2]);
              mesh.tets.insert(mesh.tets.end(), tet.begin(), tet.end());
            }
          }
      }
  return mesh;
}

TEST(HydroelasticDeformablesTest, AUsersOwnMeshDroppedAtSixtyHertzRestsWhereEquilibriumSays) {
  // 2 × 2 × 2 hexes of 12 tets (96 tets, 35 vertices), a 0.1 m cube (E = 100 kPa, ρ = 1000 kg/m³)
  // dropped from 2 cm onto Bullet's plane at Bullet's default step, 1/60 s. At rest its centre of
  // mass sits ρgH²/(3E) (the column under its weight) plus the contact layer's depth d below
  // H/2: the extent is the depth normalized by the deepest vertex's (0.05 m, the block's centre),
  // so E_c·d/0.05 m = ρgH.
  const btScalar H = 0.1, drop = 0.02;
  const UserMesh mesh = MakeCentredHexBlock(H, H, 2, 2, drop);
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  btHydroelasticDeformableMaterial material;
  material.m_stiffnessDamping = 0.005;
  const int block = deformables.addTetMesh("user block", mesh.vertices.data(), static_cast<int>(mesh.vertices.size()),
                                           mesh.tets.data(), static_cast<int>(mesh.tets.size() / 4), material);
  ASSERT_EQ(block, 0) << deformables.getErrors();
  ASSERT_EQ(deformables.getNumTets(block), 96);
  ASSERT_EQ(deformables.getNumVertices(block), 35);
  for (int i = 0; i < 35; ++i) ASSERT_EQ(deformables.getVertexPosition(block, i), mesh.vertices[i]) << "vertex " << i;
  const btScalar dt = btScalar(1) / 60;
  double lowest = drop;
  for (int step = 0; step < 180; ++step) {
    world.world()->stepSimulation(dt);
    for (int i = 0; i < deformables.getNumVertices(block); ++i) {
      const btVector3 p = deformables.getVertexPosition(block, i);
      ASSERT_TRUE(std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.z())) << "step " << step;
      lowest = std::min(lowest, static_cast<double>(p.z()));
    }
  }
  const double g = 9.81, rho = material.m_density, E = material.m_youngsModulus;
  const double column = rho * g * H * H / (3 * E), layer = rho * g * H * (H / 2) / (10 * E);
  const btVector3 c = deformables.getCenterOfMass(block);
  const double sag = H / 2 - c.z();
  const double speed = deformables.getLinearVelocity(block).length();
  double lowest_at_rest = drop;
  for (int i = 0; i < deformables.getNumVertices(block); ++i)
    lowest_at_rest = std::min(lowest_at_rest, static_cast<double>(deformables.getVertexPosition(block, i).z()));
  // A contact exists once the meshes overlap, so the step that reaches the plane can carry the
  // block through by up to its impact speed times the step.
  const double impact_depth = std::sqrt(2 * g * drop) * dt;
  std::printf(
      "user's hex-block mesh at 60 Hz: centre of mass sank %.4f mm (closed form %.4f mm), lowest vertex %.4f mm at "
      "rest (contact layer %.4f mm), %.2f mm on impact (bound %.2f mm), drift (%.1e, %.1e) m, speed %.1e m/s\n",
      1e3 * sag, 1e3 * (column + layer), 1e3 * lowest_at_rest, 1e3 * layer, 1e3 * lowest, 1e3 * impact_depth, c.x(),
      c.y(), speed);
  EXPECT_TRUE(deformables.getLastSolveConverged());
  EXPECT_LT(speed, 1e-4);
  EXPECT_NEAR(sag, column + layer, 0.1 * (column + layer));
  EXPECT_GT(lowest_at_rest, -2 * layer);
  EXPECT_GT(lowest, -impact_depth);
  // The diagonals, chosen by vertex number, make the mesh asymmetric: the landing nudges it sideways.
  EXPECT_LT(std::abs(c.x()) + std::abs(c.y()), 1e-3);
}

TEST(HydroelasticDeformablesTest, VerticesWeldedToAKinematicBodyFollowItsMotion) {
  // A soft block (0.06 m cube, E = 100 kPa, 0.216 kg) hangs by its top face from a kinematic
  // hanger that swings ±5 cm along x at 1 Hz (peak acceleration 2 m/s²). Each welded vertex is a
  // spring of k = 1e5 N/m to its point on the hanger: it lags by the force it carries over k —
  // the block's weight and inertia shared by the top face's vertices, micrometres.
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  btHydroelasticDeformableMaterial material;
  material.m_stiffnessDamping = 0.005;
  const btScalar top = 0.5;
  const int block =
      deformables.addBox("hanging block", btVector3(0.03, 0.03, 0.03),
                         btTransform(btQuaternion::getIdentity(), btVector3(0, 0, top - 0.03)), 0.015, material);
  ASSERT_EQ(block, 0) << deformables.getErrors();
  btBoxShape hanger_shape(btVector3(0.03, 0.03, 0.005));
  btTransform X_WH(btQuaternion::getIdentity(), btVector3(0, 0, top + 0.01));
  btDefaultMotionState motion(X_WH);
  btRigidBody* hanger = world.AddKinematicBody(&hanger_shape, &motion);
  std::vector<int> welded;
  std::vector<btVector3> p_HQ;  // each weld's point in the hanger's frame
  for (int i = 0; i < deformables.getNumVertices(block); ++i) {
    const btVector3 p = deformables.getVertexPosition(block, i);
    if (std::abs(p.z() - top) > 1e-6) continue;
    ASSERT_TRUE(deformables.attachVertex(block, i, hanger)) << deformables.getErrors();
    welded.push_back(i);
    p_HQ.push_back(X_WH.inverse() * p);
  }
  ASSERT_GE(welded.size(), 9u);
  const btScalar dt = btScalar(1) / 60;
  double worst_gap = 0, worst_lag = 0;
  for (int step = 1; step <= 120; ++step) {
    X_WH.setOrigin(btVector3(btScalar(0.05) * std::sin(2 * SIMD_PI * step * dt), 0, top + btScalar(0.01)));
    motion.setWorldTransform(X_WH);
    world.world()->stepSimulation(dt);
    for (size_t w = 0; w < welded.size(); ++w)
      worst_gap = std::max(
          worst_gap, static_cast<double>((deformables.getVertexPosition(block, welded[w]) - X_WH * p_HQ[w]).length()));
    worst_lag = std::max(worst_lag,
                         static_cast<double>(std::abs(deformables.getCenterOfMass(block).x() - X_WH.getOrigin().x())));
  }
  std::printf(
      "block welded to a swinging kinematic hanger: %zu welds, largest gap %.2e m, centre of mass off the "
      "hanger's x by at most %.2e m\n",
      welded.size(), worst_gap, worst_lag);
  EXPECT_TRUE(deformables.getLastSolveConverged());
  EXPECT_LT(worst_gap, 2e-5);  // the block's weight and inertia over 25 welds: ~1 µm each on average
  EXPECT_LT(worst_lag, 5e-3);  // the block is carried along, not left swinging
}

TEST(HydroelasticDeformablesTest, ADynamicBodyWeldedToADeformablePullsItAndIsPulled) {
  // No gravity: a 0.5 kg Bullet box moving at 0.5 m/s along x is welded to the +x face of a 1 kg
  // soft block at rest. The welds are the only forces, inside one solve with equal and opposite
  // impulses, so the total momentum stays 0.25 kg·m/s, and once the block's vibration has damped
  // out both move at 0.25/1.5 m/s.
  FemTestWorld world(kPlane);
  world.world()->setGravity(btVector3(0, 0, 0));
  btHydroelasticDeformables deformables(world.world());
  btHydroelasticDeformableMaterial material;
  material.m_stiffnessDamping = 0.01;
  const int block = deformables.addBox("pulled block", btVector3(0.05, 0.05, 0.05),
                                       btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 1)), 0.025, material);
  ASSERT_EQ(block, 0) << deformables.getErrors();
  btBoxShape box_shape(btVector3(0.02, 0.02, 0.02));
  const btScalar box_mass = 0.5;
  btVector3 inertia;
  box_shape.calculateLocalInertia(box_mass, inertia);
  btDefaultMotionState motion(btTransform(btQuaternion::getIdentity(), btVector3(0.08, 0, 1)));
  btRigidBody box(btRigidBody::btRigidBodyConstructionInfo(box_mass, &motion, &box_shape, inertia));
  box.setActivationState(DISABLE_DEACTIVATION);
  box.setLinearVelocity(btVector3(0.5, 0, 0));
  world.world()->addRigidBody(&box);
  std::vector<int> welded;
  std::vector<btVector3> p_BQ;
  for (int i = 0; i < deformables.getNumVertices(block); ++i) {
    const btVector3 p = deformables.getVertexPosition(block, i);
    if (std::abs(p.x() - 0.05) > 1e-6) continue;
    ASSERT_TRUE(deformables.attachVertex(block, i, &box)) << deformables.getErrors();
    welded.push_back(i);
    p_BQ.push_back(box.getCenterOfMassTransform().inverse() * p);
  }
  ASSERT_GE(welded.size(), 9u);
  const double p0 = box_mass * 0.5, m = deformables.getMass(block);
  const btScalar dt = btScalar(1) / 60;
  double worst_gap = 0, worst_momentum_error = 0;
  for (int step = 0; step < 120; ++step) {
    world.world()->stepSimulation(dt);
    for (size_t w = 0; w < welded.size(); ++w)
      worst_gap = std::max(
          worst_gap,
          static_cast<double>(
              (deformables.getVertexPosition(block, welded[w]) - box.getCenterOfMassTransform() * p_BQ[w]).length()));
    const double momentum = box_mass * box.getLinearVelocity().x() + m * deformables.getLinearVelocity(block).x();
    worst_momentum_error = std::max(worst_momentum_error, std::abs(momentum - p0));
  }
  const double v_common = p0 / (box_mass + m);
  std::printf(
      "box welded to a block: block %.5f m/s, box %.5f m/s (common %.5f), momentum off by at most %.1e "
      "kg·m/s, largest weld gap %.2e m\n",
      deformables.getLinearVelocity(block).x(), box.getLinearVelocity().x(), v_common, worst_momentum_error, worst_gap);
  EXPECT_TRUE(deformables.getLastSolveConverged());
  EXPECT_LT(worst_momentum_error, 1e-5 * p0);
  EXPECT_NEAR(deformables.getLinearVelocity(block).x(), v_common, 0.01 * v_common);
  EXPECT_NEAR(box.getLinearVelocity().x(), v_common, 0.01 * v_common);
  EXPECT_LT(worst_gap, 5e-5);
  world.world()->removeRigidBody(&box);
}

TEST(HydroelasticDeformablesTest, ReportsBadMeshesAndMaterialsWithoutThrowing) {
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  const btVector3 corners[4] = {btVector3(0, 0, 1), btVector3(1, 0, 1), btVector3(0, 1, 1), btVector3(0, 0, 2)};
  const int out_of_range[4] = {0, 1, 2, 7};
  btHydroelasticDeformableMaterial material;
  EXPECT_EQ(deformables.addTetMesh("t", corners, 4, out_of_range, 1, material), -1);
  EXPECT_TRUE(Contains(deformables.getErrors(), "vertex 7")) << deformables.getErrors();

  deformables.clearErrors();
  const int tet[4] = {0, 1, 2, 3};
  material.m_poissonRatio = 0.5;
  EXPECT_EQ(deformables.addTetMesh("incompressible", corners, 4, tet, 1, material), -1);
  EXPECT_TRUE(Contains(deformables.getErrors(), "incompressible")) << deformables.getErrors();

  deformables.clearErrors();
  material.m_poissonRatio = 0.3;
  btVector3 nan_corners[4] = {corners[0], corners[1], corners[2], btVector3(0, 0, std::nan(""))};
  EXPECT_EQ(deformables.addTetMesh("nan", nan_corners, 4, tet, 1, material), -1);
  EXPECT_EQ(deformables.addTetMesh("none", corners, 0, tet, 1, material), -1);
  EXPECT_EQ(deformables.addBox("coarse", btVector3(1, 1, 1), btTransform::getIdentity(), 0, material), -1);
  EXPECT_EQ(deformables.getNumBodies(), 0);

  deformables.clearErrors();
  const int body = deformables.addTetMesh("tet", corners, 4, tet, 1, material);
  ASSERT_EQ(body, 0) << deformables.getErrors();
  EXPECT_FALSE(deformables.fixVertex(body, 4));
  EXPECT_FALSE(deformables.fixVertex(1, 0));
  btSphereShape ball(0.1);
  btRigidBody dynamic(1, nullptr, &ball, btVector3(1, 1, 1));
  EXPECT_FALSE(deformables.attachVertex(body, 0, &dynamic, -1));
  EXPECT_FALSE(deformables.setStictionSpeed(0));
  EXPECT_FALSE(deformables.setVelocity(body, btVector3(std::nan(""), 0, 0), btVector3(0, 0, 0)));
  EXPECT_EQ(deformables.getVertexPosition(3, 0), btVector3(0, 0, 0));
  const std::string errors = deformables.getErrors();
  EXPECT_TRUE(Contains(errors.c_str(), "fixVertex: deformable 'tet' has no vertex 4")) << errors;
  EXPECT_TRUE(Contains(errors.c_str(), "fixVertex: no body 1")) << errors;
  EXPECT_TRUE(Contains(errors.c_str(), "stiffness")) << errors;
  EXPECT_TRUE(Contains(errors.c_str(), "setStictionSpeed")) << errors;
  EXPECT_TRUE(Contains(errors.c_str(), "finite")) << errors;
  EXPECT_TRUE(Contains(errors.c_str(), "getVertexPosition: no body 3")) << errors;
  EXPECT_TRUE(deformables.fixVertex(body, 0));
}

TEST(HydroelasticDeformablesTest, ReportsEachBadMaterialValueAndTetByNameAndIndex) {
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  const btVector3 corners[4] = {btVector3(0, 0, 1), btVector3(1, 0, 1), btVector3(0, 1, 1), btVector3(0, 0, 2)};
  const int tet[4] = {0, 1, 2, 3};
  const btScalar nan = std::nan("");
  struct BadMaterial {
    const char* name;
    void (*spoil)(btHydroelasticDeformableMaterial*);
    const char* expected;
  };
  const BadMaterial bad_materials[] = {
      {"zero E", [](btHydroelasticDeformableMaterial* m) { m->m_youngsModulus = 0; },
       "Young's modulus must be positive"},
      {"negative E", [](btHydroelasticDeformableMaterial* m) { m->m_youngsModulus = -1e5; }, "Young's modulus"},
      {"nan E", [](btHydroelasticDeformableMaterial* m) { m->m_youngsModulus = std::nan(""); }, "not finite"},
      {"nu 0.6", [](btHydroelasticDeformableMaterial* m) { m->m_poissonRatio = 0.6; }, "Poisson's ratio must be in"},
      {"nu -1", [](btHydroelasticDeformableMaterial* m) { m->m_poissonRatio = -1; }, "Poisson's ratio must be in"},
      {"light", [](btHydroelasticDeformableMaterial* m) { m->m_density = 0; }, "density must be positive"},
      {"anti-damped", [](btHydroelasticDeformableMaterial* m) { m->m_massDamping = -1; },
       "damping must not be negative"},
      {"anti-stiff-damped", [](btHydroelasticDeformableMaterial* m) { m->m_stiffnessDamping = -0.1; },
       "damping must not be negative"},
      {"no model",
       [](btHydroelasticDeformableMaterial* m) {
         m->m_model = static_cast<btHydroelasticDeformableMaterial::Model>(7);
       },
       "unknown material model"},
  };
  for (const BadMaterial& bad : bad_materials) {
    btHydroelasticDeformableMaterial material;
    bad.spoil(&material);
    deformables.clearErrors();
    EXPECT_EQ(deformables.addTetMesh(bad.name, corners, 4, tet, 1, material), -1) << bad.name;
    const std::string errors = deformables.getErrors();
    EXPECT_TRUE(Contains(errors.c_str(), (std::string("'") + bad.name + "'").c_str())) << errors;
    EXPECT_TRUE(Contains(errors.c_str(), bad.expected)) << errors;
    deformables.clearErrors();
    EXPECT_EQ(deformables.addBox(bad.name, btVector3(0.1, 0.1, 0.1), btTransform::getIdentity(), 0.1, material), -1);
    EXPECT_TRUE(Contains(deformables.getErrors(), bad.expected)) << deformables.getErrors();
  }

  const btHydroelasticDeformableMaterial material;
  struct BadMesh {
    const char* name;
    btVector3 corners[4];
    int tet[4];
    int num_tets;
    const char* expected;
  };
  const BadMesh bad_meshes[] = {
      {"flat",
       {corners[0], corners[1], corners[2], btVector3(1, 1, 1)},
       {0, 1, 2, 3},
       1,
       "tet 0 (vertices 0, 1, 2, 3) is degenerate"},
      {"repeated", {corners[0], corners[1], corners[2], corners[3]}, {0, 1, 1, 3}, 1, "tet 0 uses vertex 1 twice"},
      {"negative index", {corners[0], corners[1], corners[2], corners[3]}, {0, 1, -2, 3}, 1, "refers to vertex -2"},
      {"nan",
       {corners[0], corners[1], btVector3(0, nan, 1), corners[3]},
       {0, 1, 2, 3},
       1,
       "vertex 2 has a non-finite coordinate"},
      {"infinite",
       {corners[0], corners[1], corners[2], btVector3(0, 0, kInfinity)},
       {0, 1, 2, 3},
       1,
       "vertex 3 has a non-finite coordinate"},
      {"negative count",
       {corners[0], corners[1], corners[2], corners[3]},
       {0, 1, 2, 3},
       -1,
       "needs at least 4 vertices and 1 tet"},
  };
  for (const BadMesh& bad : bad_meshes) {
    deformables.clearErrors();
    EXPECT_EQ(deformables.addTetMesh(bad.name, bad.corners, 4, bad.tet, bad.num_tets, material), -1) << bad.name;
    const std::string errors = deformables.getErrors();
    EXPECT_TRUE(Contains(errors.c_str(), (std::string("'") + bad.name + "'").c_str())) << errors;
    EXPECT_TRUE(Contains(errors.c_str(), bad.expected)) << errors;
  }
  EXPECT_EQ(deformables.getNumBodies(), 0);

  // Either orientation is a valid tet: a negative one is stored with its last two corners swapped.
  deformables.clearErrors();
  const int reversed[4] = {0, 2, 1, 3};
  const int body = deformables.addTetMesh("reversed", corners, 4, reversed, 1, material);
  ASSERT_EQ(body, 0) << deformables.getErrors();
  int stored[4];
  ASSERT_TRUE(deformables.getTet(body, 0, stored));
  EXPECT_EQ(std::vector<int>(stored, stored + 4), (std::vector<int>{0, 2, 3, 1}));
  EXPECT_NEAR(DeformedVolume(deformables, body), btScalar(1) / 6, 1e-6);

  // Bad body, tet and vertex indices name the function, the body and the index; the getters give
  // zeros, never NaN.
  EXPECT_FALSE(deformables.getTet(body, 1, stored));
  EXPECT_FALSE(deformables.getTet(-1, 0, stored));
  EXPECT_FALSE(deformables.attachVertex(body, 4, nullptr));
  EXPECT_FALSE(deformables.attachVertex(2, 0, nullptr));
  EXPECT_FALSE(deformables.setTriangleFanContact(5, true));
  EXPECT_FALSE(deformables.setVelocity(-3, btVector3(0, 0, 0), btVector3(0, 0, 0)));
  EXPECT_FALSE(deformables.setVelocity(body, btVector3(0, 0, 0), btVector3(0, kInfinity, 0)));
  EXPECT_EQ(deformables.getVertexVelocity(body, -1), btVector3(0, 0, 0));
  EXPECT_EQ(deformables.getCenterOfMass(1), btVector3(0, 0, 0));
  EXPECT_EQ(deformables.getLinearVelocity(1), btVector3(0, 0, 0));
  EXPECT_EQ(deformables.getMass(1), 0);
  EXPECT_EQ(deformables.getNumVertices(1), 0);
  EXPECT_EQ(deformables.getNumTets(1), 0);
  EXPECT_STREQ(deformables.getBodyName(1), "");
  const std::string errors = deformables.getErrors();
  for (const char* expected : {"getTet: deformable 'reversed' has no tet 1", "getTet: no body -1 (1 added)",
                               "attachVertex: deformable 'reversed' has no vertex 4 (4 vertices)",
                               "attachVertex: no body 2", "setTriangleFanContact: no body 5", "setVelocity: no body -3",
                               "setVelocity: deformable 'reversed': velocities must be finite",
                               "getVertexVelocity: deformable 'reversed' has no vertex -1",
                               "getCenterOfMass: no body 1", "getLinearVelocity: no body 1", "getMass: no body 1",
                               "getNumVertices: no body 1", "getNumTets: no body 1", "getBodyName: no body 1"})
    EXPECT_TRUE(Contains(errors.c_str(), expected)) << expected << " not in\n" << errors;
  EXPECT_EQ(deformables.getNumBodies(), 1);
  EXPECT_TRUE(std::isfinite(deformables.getVertexPosition(body, 3).z()));
}

TEST(HydroelasticDeformablesTest, AddBoxRefusesBadSizesAndResolutionsNamingTheBox) {
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  const btHydroelasticDeformableMaterial material;
  const btScalar nan = std::nan("");
  struct BadBox {
    const char* name;
    btVector3 half_extents;
    btScalar resolution;
    const char* expected;
  };
  const BadBox bad_boxes[] = {
      {"nan resolution", btVector3(0.1, 0.1, 0.1), nan, "resolution of 'nan resolution' must be finite and positive"},
      {"negative resolution", btVector3(0.1, 0.1, 0.1), -0.01, "resolution of 'negative resolution'"},
      {"infinite resolution", btVector3(0.1, 0.1, 0.1), kInfinity, "resolution of 'infinite resolution'"},
      {"flat", btVector3(0.1, 0, 0.1), 0.01, "half extent of 'flat' must be finite and positive"},
      {"inside out", btVector3(0.1, 0.1, -0.1), 0.01, "half extent of 'inside out'"},
      {"nan size", btVector3(nan, 0.1, 0.1), 0.01, "half extent of 'nan size'"},
      {"endless", btVector3(0.1, kInfinity, 0.1), 0.01, "half extent of 'endless'"},
  };
  for (const BadBox& bad : bad_boxes) {
    deformables.clearErrors();
    EXPECT_EQ(deformables.addBox(bad.name, bad.half_extents, btTransform::getIdentity(), bad.resolution, material), -1)
        << bad.name;
    EXPECT_TRUE(Contains(deformables.getErrors(), bad.expected)) << deformables.getErrors();
  }
  EXPECT_EQ(deformables.getNumBodies(), 0);
}

TEST(HydroelasticDeformablesTest, AddBoxRefusesAMeshPastTheCapBeforeMakingIt) {
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  const btHydroelasticDeformableMaterial material;
  // A 2 m cube at 2⁻¹³ m (0.12 mm, a millimetre typed for a metre would be the same): 16384 cells
  // along each edge, 8192 shells, 144·8192³ = 79,164,837,199,872 tets. Refused at once, with
  // nothing allocated (meshing it would need petabytes).
  const btScalar fine = std::ldexp(btScalar(1), -13);
  EXPECT_EQ(deformables.addBox("huge", btVector3(1, 1, 1), btTransform::getIdentity(), fine, material), -1);
  std::string errors = deformables.getErrors();
  for (const char* expected :
       {"addBox: box 'huge' (half extents 1 x 1 x 1 m) at resolution 0.00012207 m",
        "would need up to 79164837199872 tets (16384 x 16384 x 16384 cells, 8192 shells)", "the limit is 100000"})
    EXPECT_TRUE(Contains(errors.c_str(), expected)) << expected << " not in\n" << errors;
  // So small a resolution that the cell counts overflow any integer.
  deformables.clearErrors();
  EXPECT_EQ(
      deformables.addBox("huger", btVector3(1e3, 1e3, 1e3), btTransform::getIdentity(), btScalar(1e-30), material), -1);
  EXPECT_TRUE(Contains(deformables.getErrors(), "box 'huger'")) << deformables.getErrors();
  // Just past the cap: a cube of 9 shells, 144·9³ = 104,976 tets at most (dyadic sizes, alike in
  // float and double).
  deformables.clearErrors();
  EXPECT_EQ(deformables.addBox("just too fine", btVector3(0.5625, 0.5625, 0.5625), btTransform::getIdentity(), 0.0625,
                               material),
            -1);
  EXPECT_TRUE(Contains(deformables.getErrors(), "would need up to 104976 tets")) << deformables.getErrors();
  EXPECT_EQ(deformables.getNumBodies(), 0);
}

TEST(HydroelasticDeformablesTest, TheBoxCapsCountBoundsTheMeshersTets) {
  // The header's bound 12·L·(n_x·n_y + n_y·n_z + n_z·n_x) holds for the meshes addBox makes (the
  // innermost shell drops its collapsed cells), and is tight to within a factor of three (a single shell's cube: 48
  // tets of 144).
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  const btHydroelasticDeformableMaterial material;
  struct Box {
    btVector3 half_extents;
    btScalar resolution;
  };
  for (const Box& box : {Box{btVector3(0.05, 0.05, 0.05), 0.025}, Box{btVector3(0.2, 0.1, 0.05), 0.025},
                         Box{btVector3(0.25, 0.25, 0.0625), 0.0625}, Box{btVector3(0.1, 0.1, 0.1), 0.1}}) {
    const double h = box.resolution;
    double n[3];
    for (int i = 0; i < 3; ++i) n[i] = std::max(1.0, std::ceil(2 * box.half_extents[i] / h - 1e-9));
    const double L = std::max(1.0, std::ceil(box.half_extents[box.half_extents.minAxis()] / h - 1e-9));
    const double bound = 12 * L * (n[0] * n[1] + n[1] * n[2] + n[2] * n[0]);
    const int body = deformables.addBox("box", box.half_extents, btTransform::getIdentity(), box.resolution, material);
    ASSERT_GE(body, 0) << deformables.getErrors();
    std::printf("box %.3g x %.3g x %.3g at %.3g: %d tets, bound %.0f\n", box.half_extents.x(), box.half_extents.y(),
                box.half_extents.z(), box.resolution, deformables.getNumTets(body), bound);
    EXPECT_LE(deformables.getNumTets(body), bound);
    EXPECT_GE(3 * deformables.getNumTets(body), bound);
  }
}

TEST(HydroelasticDeformablesTest, SetVelocitySpinsAboutTheCentreOfMass) {
  FemTestWorld world(kPlane);
  btHydroelasticDeformables deformables(world.world());
  const int body = deformables.addBox("spinner", btVector3(0.1, 0.1, 0.1),
                                      btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 1)), 0.1,
                                      btHydroelasticDeformableMaterial());
  ASSERT_EQ(body, 0) << deformables.getErrors();
  ASSERT_TRUE(deformables.setVelocity(body, btVector3(1, 0, 0), btVector3(0, 0, 2)));
  const btVector3 c = deformables.getCenterOfMass(body);
  for (int i = 0; i < deformables.getNumVertices(body); ++i) {
    const btVector3 expected =
        btVector3(1, 0, 0) + btVector3(0, 0, 2).cross(deformables.getVertexPosition(body, i) - c);
    EXPECT_LT((deformables.getVertexVelocity(body, i) - expected).length(), 1e-5) << "vertex " << i;
  }
  EXPECT_LT((deformables.getLinearVelocity(body) - btVector3(1, 0, 0)).length(), 1e-5);
}

}  // namespace
