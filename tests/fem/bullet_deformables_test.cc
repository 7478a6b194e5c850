// FEM bodies stepping inside a Bullet world with one stepSimulation call: a soft ball rests on
// Bullet's static plane, a rigid Bullet box rests carried by a soft pad, and a soft ball thrown at
// a rigid box pushes it.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <LinearMath/btDefaultMotionState.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "adapters/shape_registry.h"
#include "fem/btDeformableBodies.h"
#include "hydro/make_sphere_mesh.h"
#include "tests/fem/fem_test_world.h"

namespace hydro {
namespace fem {
namespace {

using hydro::test::FemTestWorld;

FemBody SoftBall(double R, const Vector3& at, double mass_damping, MaterialModel model = MaterialModel::kCorotational) {
  const VolumeMeshWithExtent sphere = MakeSphereVolumeMesh(R, R / 2);
  Material material;
  material.model = model;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.density_kg_per_m3 = 500;
  material.mass_damping_1_per_s = mass_damping;
  FemBody ball("ball", sphere.mesh->vertices(), sphere.mesh->tets(), material);
  RigidTransform X = RigidTransform::Identity();
  X.translation() = at;
  ball.SetRigidState(X, Vector3::Zero(), Vector3::Zero());
  return ball;
}

TEST(BulletDeformablesTest, SoftBallRestsOnBulletsPlane) {
  FemTestWorld world(FemTestWorld::Ground::kPlane);
  FemBody ball = SoftBall(0.05, Vector3(0, 0, 0.06), 2);
  btDeformableBodies deformables(world.world());
  deformables.addBody(&ball);
  const double dt = 0.01;
  world.Step(200, dt);
  ASSERT_EQ(deformables.getLastReports().size(), 1u);
  const ContactSolveReport& report = deformables.getLastReports()[0];
  const double weight = ball.CalcMass() * 9.81;
  std::printf("soft ball on Bullet's plane: contact force %.5f N, weight %.5f N, max speed %.1e m/s\n",
              report.impulse_on_body_W.z() / dt, weight, ball.v().cwiseAbs().maxCoeff());
  EXPECT_TRUE(report.converged);
  EXPECT_NEAR(report.impulse_on_body_W.z() / dt, weight, 1e-3 * weight);
  EXPECT_LT(ball.v().cwiseAbs().maxCoeff(), 1e-5);
}

// A Neo-Hookean ball takes part through its Newton matrix at the free motion's solution: it comes
// to rest carrying its weight, as the corotational one does, and at small strain sits where that
// one sits (the same mesh, E and ν: the models agree to first order in the strain).
TEST(BulletDeformablesTest, NeoHookeanBallRestsLikeTheCorotationalOne) {
  double rest_height[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    FemTestWorld world(FemTestWorld::Ground::kPlane);
    FemBody ball =
        SoftBall(0.05, Vector3(0, 0, 0.06), 2, k == 0 ? MaterialModel::kCorotational : MaterialModel::kNeoHookean);
    btDeformableBodies deformables(world.world());
    deformables.addBody(&ball);
    const double dt = 0.01;
    world.Step(120, dt);
    const ContactSolveReport& report = deformables.getLastReports()[0];
    const double weight = ball.CalcMass() * 9.81;
    rest_height[k] = ball.CalcCenterOfMass().z();
    std::printf(
        "%s ball on Bullet's plane: contact force %.5f N, weight %.5f N, centre at %.6f m, max speed %.1e m/s\n",
        k == 0 ? "corotational" : "Neo-Hookean", report.impulse_on_body_W.z() / dt, weight, rest_height[k],
        ball.v().cwiseAbs().maxCoeff());
    EXPECT_TRUE(report.converged);
    EXPECT_NEAR(report.impulse_on_body_W.z() / dt, weight, 1e-3 * weight);
    EXPECT_LT(ball.v().cwiseAbs().maxCoeff(), 1e-5);
  }
  // The centre sinks ~0.85 mm under the ball's own weight; the two models within 2% of that.
  const double sink = 0.05 - rest_height[0];
  EXPECT_GT(sink, 0);
  EXPECT_NEAR(rest_height[1], rest_height[0], 0.02 * sink) << "sink " << sink;
}

TEST(BulletDeformablesTest, RigidBoxRestsCarriedByASoftPad) {
  FemTestWorld world;
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(Vector3(0.2, 0.2, 0.05), 6, 6, 2, &vertices, &tets);
  for (Vector3& p : vertices) p -= Vector3(0.1, 0.1, 0);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.mass_damping_1_per_s = 2;
  FemBody pad("pad", vertices, tets, material);
  for (int v = 0; v < pad.num_vertices(); ++v)
    if (pad.rest_positions()[v].z() == 0) pad.FixVertex(v);
  btBoxShape box(btVector3(0.05, 0.05, 0.02));
  // Rigid hydroelastic with a 12.5 mm surface mesh (untagged, it would get 5 mm: slower, same result).
  btHydroelasticProperties rigid_box;
  rigid_box.m_kind = btHydroelasticProperties::RIGID;
  rigid_box.m_resolutionHint = 0.0125;
  hydroSetHydroelastic(&box, rigid_box);
  btRigidBody* rigid = world.AddBody(&box, 1.0, btVector3(0, 0, 0.0699));
  btDeformableBodies deformables(world.world());
  deformables.addBody(&pad);
  const double dt = 0.01;
  world.Step(200, dt);
  const ContactSolveReport& report = deformables.getLastReports()[0];
  std::printf("Bullet box on a soft pad: pad force %.4f N vs m·g 9.81 N, box at z = %.5f m, speed %.1e m/s\n",
              -report.impulse_on_body_W.z() / dt, rigid->getCenterOfMassPosition().z(),
              rigid->getLinearVelocity().length());
  EXPECT_TRUE(report.converged);
  EXPECT_NEAR(-report.impulse_on_body_W.z() / dt, 9.81, 0.01 * 9.81);
  EXPECT_LT(rigid->getLinearVelocity().length(), 1e-3);
  EXPECT_GT(rigid->getCenterOfMassPosition().z(), 0.066);  // on the pad, not through it
  hydroRemoveShape(&box);
}

// A soft ball thrown at 2 m/s along +x at a 0.2 kg box 0.2 m away, both on Bullet's plane (μ = 0.3),
// stepped `steps` times at 5 ms. Returns the ball's end positions and the box's pose; the box's
// fastest speed along x goes to *fastest.
struct ThrownBallEnd {
  Eigen::VectorXd q;
  btTransform X_WB;
  double ball_mass{0};
};
ThrownBallEnd ThrowBallAtBox(int steps, double* fastest) {
  FemTestWorld world(FemTestWorld::Ground::kPlane);
  world.ground()->setFriction(0.3);
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  btRigidBody* rigid = world.AddBody(&box, 0.2, btVector3(0.2, 0, 0.05));
  rigid->setFriction(0.3);
  FemBody ball = SoftBall(0.05, Vector3(0, 0, 0.051), 0);
  Eigen::VectorXd v = ball.v();
  for (int i = 0; i < ball.num_vertices(); ++i) v[3 * i] = 2.0;
  ball.SetState(ball.q(), v);
  btDeformableBodies deformables(world.world());
  deformables.addBody(&ball, 0.3);
  *fastest = 0;
  for (int i = 0; i < steps; ++i) {
    world.Step(1, 0.005);
    *fastest = std::max<double>(*fastest, rigid->getLinearVelocity().x());
  }
  return {ball.q(), rigid->getWorldTransform(), ball.CalcMass()};
}

TEST(BulletDeformablesTest, SoftBallPushesARigidBox) {
  double fastest = 0;
  const ThrownBallEnd end = ThrowBallAtBox(100, &fastest);
  std::printf("soft ball (%.3f kg at 2 m/s) hits a 0.2 kg box: box reached %.3f m/s and moved %.3f m\n", end.ball_mass,
              fastest, end.X_WB.getOrigin().x() - 0.2);
  EXPECT_GT(fastest, 0.5);
  EXPECT_GT(end.X_WB.getOrigin().x() - 0.2, 0.01);
}

// Repeatable runs: the thrown ball and the box, run twice in one process with the heap laid out
// differently the second time, end bit for bit alike (nothing follows heap addresses).
TEST(BulletDeformablesTest, ARunRepeatsBitForBit) {
  auto run = [](int padding) {
    std::vector<std::unique_ptr<char[]>> heap;  // moves later allocations elsewhere
    for (int i = 0; i < padding; ++i) heap.push_back(std::make_unique<char[]>(64 + 48 * i));
    double fastest = 0;
    return ThrowBallAtBox(60, &fastest);
  };
  const ThrownBallEnd first = run(0), second = run(97);
  ASSERT_EQ(first.q.size(), second.q.size());
  EXPECT_EQ(std::memcmp(first.q.data(), second.q.data(), sizeof(double) * first.q.size()), 0);
  EXPECT_EQ(std::memcmp(&first.X_WB, &second.X_WB, sizeof(btTransform)), 0);
  EXPECT_GT(first.X_WB.getOrigin().x(), 0.2 + 1e-3) << "the ball reached the box";
}

TEST(BulletDeformablesTest, ABulletBoxWeldedToASoftBarHangsFromIt) {
  // The bubble-gripper pattern through btDeformableBodies::attachVertex: a soft bar clamped to the
  // world at one end carries a Bullet box welded to the other.
  FemTestWorld world;
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(Vector3(0.2, 0.04, 0.04), 10, 2, 2, &vertices, &tets);
  for (Vector3& p : vertices) p += Vector3(0, -0.02, 0.3);
  Material material;
  material.youngs_modulus_Pa = 1e6;
  material.poisson_ratio = 0.3;
  material.mass_damping_1_per_s = 5;
  FemBody bar("bar", vertices, tets, material);
  btBoxShape shape(btVector3(0.02, 0.02, 0.02));
  btRigidBody* box = world.AddBody(&shape, 0.1, btVector3(0.22, 0, 0.32));
  btDeformableBodies deformables(world.world());
  deformables.addBody(&bar);
  for (int v = 0; v < bar.num_vertices(); ++v) {
    if (bar.rest_positions()[v].x() == 0) deformables.attachVertex(&bar, v, nullptr);
    if (bar.rest_positions()[v].x() == 0.2) deformables.attachVertex(&bar, v, box);
  }
  const double dt = 0.01;
  world.Step(300, dt);
  std::printf("Bullet box welded to a soft bar: box sagged %.2f mm, speed %.1e m/s\n",
              1e3 * (0.32 - box->getCenterOfMassPosition().z()), box->getLinearVelocity().length());
  EXPECT_TRUE(deformables.getLastReports()[0].converged);
  EXPECT_LT(box->getLinearVelocity().length(), 1e-3);
  EXPECT_GT(0.32 - box->getCenterOfMassPosition().z(), 1e-3);  // hanging from the bent bar
  EXPECT_LT(0.32 - box->getCenterOfMassPosition().z(), 0.05);  // not fallen off
}

}  // namespace
}  // namespace fem
}  // namespace hydro

namespace hydro {
namespace fem {
namespace {

TEST(BulletDeformablesTest, SoftFingersLiftARigidBoxByFriction) {
  // Two soft pads welded to kinematic fingers (bubble-gripper style) squeeze a Bullet box off the
  // floor by friction alone: close 3 mm each, lift 5 cm, hold.
  FemTestWorld world(FemTestWorld::Ground::kPlane);
  world.ground()->setFriction(1.0);
  btBoxShape box_shape(btVector3(0.02, 0.02, 0.02));
  btHydroelasticProperties rigid_box;  // a 1 cm surface mesh (untagged: 5 mm, four times the points)
  rigid_box.m_kind = btHydroelasticProperties::RIGID;
  rigid_box.m_resolutionHint = 0.01;
  hydroSetHydroelastic(&box_shape, rigid_box);
  btRigidBody* box = world.AddBody(&box_shape, 0.05, btVector3(0, 0, 0.02));
  box->setFriction(1.0);
  Material pad_material;
  pad_material.youngs_modulus_Pa = 5e4;
  pad_material.poisson_ratio = 0.3;
  pad_material.density_kg_per_m3 = 200;
  pad_material.stiffness_damping_s = 0.01;
  btBoxShape finger_shape(btVector3(0.003, 0.02, 0.02));
  std::vector<std::unique_ptr<FemBody>> pads;
  std::vector<std::unique_ptr<btDefaultMotionState>> motions;
  std::vector<btRigidBody*> fingers;
  btDeformableBodies deformables(world.world());
  const double pad_width = 0.02, clearance = 0.001;
  for (int side = -1; side <= 1; side += 2) {
    std::vector<Vector3> vertices;
    std::vector<Tet> tets;
    MakeTetGrid(Vector3(pad_width, 0.04, 0.04), 2, 4, 4, &vertices, &tets);
    const double inner = side * (0.02 + clearance);          // the pad's face toward the box
    const double x0 = side < 0 ? inner - pad_width : inner;  // shifted, not mirrored (tets keep their sign)
    for (Vector3& p : vertices) p = Vector3(x0 + p.x(), p.y() - 0.02, p.z() + 0.001);
    pads.push_back(std::make_unique<FemBody>(side < 0 ? "left pad" : "right pad", vertices, tets, pad_material));
    btTransform X;
    X.setIdentity();
    X.setOrigin(btVector3(inner + side * (pad_width + 0.01), 0, 0.021));
    motions.push_back(std::make_unique<btDefaultMotionState>(X));
    btRigidBody* finger = world.AddKinematicBody(&finger_shape, motions.back().get());
    fingers.push_back(finger);
    deformables.addBody(pads.back().get(), 1.0);
    for (int v = 0; v < pads.back()->num_vertices(); ++v)
      if (std::abs(pads.back()->rest_positions()[v].x() - (inner + side * pad_width)) < 1e-12)
        deformables.attachVertex(pads.back().get(), v, finger, 1e4);
  }
  const double dt = 0.01;
  double lowest_gap = 1;
  for (int i = 1; i <= 150; ++i) {
    const double t = i * dt;
    const double squeeze = clearance + 0.003 * std::min(1.0, t / 0.3);
    const double lift = t > 0.4 ? 0.05 * std::min(1.0, (t - 0.4) / 0.5) : 0.0;
    for (int k = 0; k < 2; ++k) {
      const double side = k == 0 ? -1 : 1;
      btTransform X;
      X.setIdentity();
      X.setOrigin(btVector3(side * (0.02 + clearance + pad_width + 0.01) - side * squeeze, 0, 0.021 + lift));
      motions[k]->setWorldTransform(X);
    }
    world.Step(1, dt);
    ASSERT_TRUE(deformables.getLastReports()[0].converged) << "step " << i;
    lowest_gap = std::min(lowest_gap, static_cast<double>(box->getCenterOfMassPosition().z()));
  }
  const double rise = box->getCenterOfMassPosition().z() - 0.02;
  std::printf(
      "soft pads on kinematic fingers lifted a 50 g Bullet box by %.2f mm (fingers rose 50 mm), box speed "
      "%.1e m/s, %d contact points\n",
      1e3 * rise, box->getLinearVelocity().length(), deformables.getLastNumContacts());
  EXPECT_NEAR(rise, 0.05, 3e-3);  // carried, not left behind
  EXPECT_LT(box->getLinearVelocity().length(), 1e-2);
  hydroRemoveShape(&box_shape);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
