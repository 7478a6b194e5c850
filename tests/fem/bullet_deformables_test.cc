// FEM bodies stepping inside a Bullet world with one stepSimulation call: a soft ball rests on
// Bullet's static plane, a rigid Bullet box rests carried by a soft pad, and a soft ball thrown at
// a rigid box pushes it.
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>

#include <cstdio>
#include <memory>

#include "adapters/shape_registry.h"
#include "fem/btDeformableBodies.h"
#include "hydro/make_sphere_mesh.h"

namespace hydro {
namespace fem {
namespace {

struct World {
  World() {
    world = std::make_unique<btDiscreteDynamicsWorld>(&dispatcher, &broadphase, &solver, &configuration);
    world->setGravity(btVector3(0, 0, -9.81));
  }
  ~World() {
    for (int i = world->getNumCollisionObjects() - 1; i >= 0; --i) world->removeCollisionObject(world->getCollisionObjectArray()[i]);
  }
  btRigidBody* Add(btCollisionShape* shape, double mass, const btVector3& at) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform.setOrigin(at);
    bodies.push_back(std::make_unique<btRigidBody>(info));
    bodies.back()->setActivationState(DISABLE_DEACTIVATION);
    world->addRigidBody(bodies.back().get());
    return bodies.back().get();
  }
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  std::unique_ptr<btDiscreteDynamicsWorld> world;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
};

FemBody SoftBall(double R, const Vector3& at, double mass_damping) {
  const VolumeMeshWithExtent sphere = MakeSphereVolumeMesh(R, R / 2);
  Material material;
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
  World world;
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  world.Add(&ground, 0, btVector3(0, 0, 0));
  FemBody ball = SoftBall(0.05, Vector3(0, 0, 0.06), 2);
  btDeformableBodies deformables(world.world.get());
  deformables.addBody(&ball);
  const double dt = 0.01;
  for (int i = 0; i < 200; ++i) world.world->stepSimulation(dt, 0, dt);
  ASSERT_EQ(deformables.getLastReports().size(), 1u);
  const ContactSolveReport& report = deformables.getLastReports()[0];
  const double weight = ball.CalcMass() * 9.81;
  std::printf("soft ball on Bullet's plane: contact force %.5f N, weight %.5f N, max speed %.1e m/s\n",
              report.impulse_on_body_W.z() / dt, weight, ball.v().cwiseAbs().maxCoeff());
  EXPECT_TRUE(report.converged);
  EXPECT_NEAR(report.impulse_on_body_W.z() / dt, weight, 1e-3 * weight);
  EXPECT_LT(ball.v().cwiseAbs().maxCoeff(), 1e-5);
}

TEST(BulletDeformablesTest, RigidBoxRestsCarriedByASoftPad) {
  World world;
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
  btRigidBody* rigid = world.Add(&box, 1.0, btVector3(0, 0, 0.0699));
  btDeformableBodies deformables(world.world.get());
  deformables.addBody(&pad);
  const double dt = 0.01;
  for (int i = 0; i < 200; ++i) world.world->stepSimulation(dt, 0, dt);
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

TEST(BulletDeformablesTest, SoftBallPushesARigidBox) {
  World world;
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  world.Add(&ground, 0, btVector3(0, 0, 0))->setFriction(0.3);
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  btRigidBody* rigid = world.Add(&box, 0.2, btVector3(0.2, 0, 0.05));
  rigid->setFriction(0.3);
  FemBody ball = SoftBall(0.05, Vector3(0, 0, 0.051), 0);
  Eigen::VectorXd v = ball.v();
  for (int i = 0; i < ball.num_vertices(); ++i) v[3 * i] = 2.0;  // thrown at 2 m/s along +x
  ball.SetState(ball.q(), v);
  btDeformableBodies deformables(world.world.get());
  deformables.addBody(&ball, 0.3);
  const double dt = 0.005;
  double fastest = 0;
  for (int i = 0; i < 100; ++i) {
    world.world->stepSimulation(dt, 0, dt);
    fastest = std::max<double>(fastest, rigid->getLinearVelocity().x());
  }
  std::printf("soft ball (%.3f kg at 2 m/s) hits a 0.2 kg box: box reached %.3f m/s and moved %.3f m\n", ball.CalcMass(),
              fastest, rigid->getCenterOfMassPosition().x() - 0.2);
  EXPECT_GT(fastest, 0.5);
  EXPECT_GT(rigid->getCenterOfMassPosition().x() - 0.2, 0.01);
}

TEST(BulletDeformablesTest, ABulletBoxWeldedToASoftBarHangsFromIt) {
  // The bubble-gripper pattern through btDeformableBodies::attachVertex: a soft bar clamped to the
  // world at one end carries a Bullet box welded to the other.
  World world;
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
  btRigidBody* box = world.Add(&shape, 0.1, btVector3(0.22, 0, 0.32));
  btDeformableBodies deformables(world.world.get());
  deformables.addBody(&bar);
  for (int v = 0; v < bar.num_vertices(); ++v) {
    if (bar.rest_positions()[v].x() == 0) deformables.attachVertex(&bar, v, nullptr);
    if (bar.rest_positions()[v].x() == 0.2) deformables.attachVertex(&bar, v, box);
  }
  const double dt = 0.01;
  for (int i = 0; i < 300; ++i) world.world->stepSimulation(dt, 0, dt);
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
