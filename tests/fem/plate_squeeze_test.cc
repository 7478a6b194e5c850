// A soft ball squeezed between two rigid plates that a multibody drives on prismatic joints
// (Bullet's btMultiBodyJointMotor), stepping with btDeformableBodies inside Bullet's
// stepSimulation: at each squeeze its plate force reaches the force–displacement response of the
// same mesh, model and contact law in a static solve.
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <cstdio>
#include <memory>

#include "adapters/shape_registry.h"
#include "fem/btDeformableBodies.h"
#include "hydro/make_sphere_mesh.h"

namespace hydro {
namespace fem {
namespace {

constexpr double kRadius = 0.05;
constexpr double kPlateHalfThickness = 0.01;

FemBody MakeBall() {
  const VolumeMeshWithExtent sphere = MakeSphereVolumeMesh(kRadius, kRadius / 2);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.density_kg_per_m3 = 500;
  material.mass_damping_1_per_s = 10;
  material.model = MaterialModel::kLinear;  // the static reference is small-strain linear
  return FemBody("ball", sphere.mesh->vertices(), sphere.mesh->tets(), material);
}

// The static response: displacements u minimizing ½uᵀKu plus the compliant contact energy of two
// frictionless rigid plates whose faces are at z = ±(R − squeeze), the contact points re-found on
// the deformed mesh until they stop changing. Each round is a contact problem in the increment Δ:
// ½‖Δ − (−u)‖²_K + contacts, with "δt" = 1 so that impulses are forces and velocities are
// displacements; K is the step matrix at a huge step, (M + T²K)/T², T = 1000 s.
double StaticPlateForce(double squeeze) {
  FemBody ball = MakeBall();
  const DeformableContactModel model = MakeDeformableContactModel(ball);
  constexpr double T = 1000;
  const Eigen::SparseMatrix<double> K = ball.StepMatrix(T) / (T * T);
  const int n = 3 * ball.num_vertices();
  Eigen::VectorXd u = Eigen::VectorXd::Zero(n);
  RigidTransform X_WTop = RigidTransform::Identity(), X_WBottom = RigidTransform::Identity();
  X_WTop.linear() = Eigen::AngleAxisd(M_PI, Vector3::UnitX()).toRotationMatrix();  // outward normal −z
  X_WTop.translation() = Vector3(0, 0, kRadius - squeeze);
  X_WBottom.translation() = Vector3(0, 0, -(kRadius - squeeze));
  FreeMotion identity;  // free index = DoF
  identity.index.resize(n);
  for (int i = 0; i < n; ++i) identity.index[i] = i;
  identity.num_free = n;
  double top_force = 0;
  for (int round = 0; round < 50; ++round) {
    Eigen::VectorXd q(n);
    for (int v = 0; v < ball.num_vertices(); ++v) q.segment<3>(3 * v) = ball.rest_positions()[v] + u.segment<3>(3 * v);
    ball.SetState(q, Eigen::VectorXd::Zero(n));
    const CompliantMesh deformed = MakeDeformedGeometry(ball, model);
    const auto top = FindContacts(ball, deformed, RigidHalfSpace{}, X_WTop, 0);
    auto points = FindContacts(ball, deformed, RigidHalfSpace{}, X_WBottom, 0);
    points.insert(points.begin(), top.begin(), top.end());
    std::vector<ContactConstraint> contacts;
    for (const DeformableContactPoint& p : points) {
      ContactConstraint c;
      AppendDeformableTerms(ball, identity, 0, p.tet, p.weights, +1, &c.terms);
      c.nhat_W = p.nhat_W;
      c.stiffness_N_per_m = p.stiffness_N_per_m;
      c.phi0_m = p.phi0_m;
      contacts.push_back(c);
    }
    ContactProblemBlock block;
    block.A = K;
    block.u_star = -u;
    const ContactProblemResult result = SolveContactProblem(1.0, {block}, contacts, {});
    EXPECT_TRUE(result.converged);
    u += result.u[0];
    top_force = 0;
    for (size_t i = 0; i < top.size(); ++i) top_force -= result.contact_impulse_W[i].z();
    if (result.u[0].cwiseAbs().maxCoeff() < 1e-10) break;
  }
  return top_force;
}

TEST(PlateSqueezeTest, PrismaticPlatesReachTheStaticForceDisplacementResponse) {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  world.setGravity(btVector3(0, 0, 0));

  // A fixed base with two plates on prismatic joints along z: link 0 above the ball, link 1 below.
  const double plate_mass = 1.0;
  btBoxShape plate(btVector3(0.08, 0.08, kPlateHalfThickness));
  btHydroelasticProperties rigid;
  rigid.m_kind = btHydroelasticProperties::RIGID;
  rigid.m_resolutionHint = 0.02;
  hydroSetHydroelastic(&plate, rigid);
  btVector3 inertia;
  plate.calculateLocalInertia(plate_mass, inertia);
  btMultiBody gripper(2, 1.0, btVector3(1, 1, 1), /*fixedBase=*/true, /*canSleep=*/false);
  gripper.setHasSelfCollision(false);
  const double gap = kRadius + kPlateHalfThickness + 0.001;  // plate faces 1 mm off the ball
  for (int i = 0; i < 2; ++i) {
    const double side = i == 0 ? 1 : -1;
    gripper.setupPrismatic(i, plate_mass, inertia, -1, btQuaternion::getIdentity(), btVector3(0, 0, 1),
                           btVector3(0, 0, side * gap), btVector3(0, 0, 0), true);
  }
  gripper.finalizeMultiDof();
  world.addMultiBody(&gripper);
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders;
  std::vector<std::unique_ptr<btMultiBodyJointMotor>> motors;
  for (int i = 0; i < 2; ++i) {
    colliders.push_back(std::make_unique<btMultiBodyLinkCollider>(&gripper, i));
    colliders.back()->setCollisionShape(&plate);
    btTransform X;
    X.setIdentity();
    X.setOrigin(btVector3(0, 0, (i == 0 ? 1 : -1) * gap));
    colliders.back()->setWorldTransform(X);
    world.addCollisionObject(colliders.back().get());
    gripper.getLink(i).m_collider = colliders.back().get();
    motors.push_back(std::make_unique<btMultiBodyJointMotor>(&gripper, i, 0, 0.0, 50.0));
    world.addMultiBodyConstraint(motors.back().get());
  }

  FemBody ball = MakeBall();
  btDeformableBodies deformables(&world);
  deformables.addBody(&ball, /*friction=*/0);
  const double dt = 0.01;
  std::printf(
      "ball (R = %.0f mm, %d tets) squeezed by prismatic plates\n"
      "  squeeze (each side)   plate force   static solve   difference\n",
      1e3 * kRadius, ball.num_tets());
  double squeeze = 0;
  for (const double target : {0.002, 0.004, 0.006}) {
    // Ramp the plates in over 0.5 s, then hold for 1 s.
    const double start = squeeze;
    double force = 0, bottom_force = 0;
    for (int step = 0; step < 150; ++step) {
      squeeze = start + (target - start) * std::min(1.0, (step + 1) / 50.0);
      const double travel = squeeze + 0.001;  // from the start, 1 mm off the ball
      motors[0]->setPositionTarget(-travel, 1);
      motors[1]->setPositionTarget(travel, 1);
      world.stepSimulation(dt, 0, dt);
      ASSERT_TRUE(deformables.getLastReports()[0].converged) << "step " << step;
      // What holds each plate against the ball: the top motor pushes down, the bottom one up.
      force = -motors[0]->getAppliedImpulse(0) / dt;
      bottom_force = motors[1]->getAppliedImpulse(0) / dt;
    }
    const double reference = StaticPlateForce(target);
    const double top_face = gripper.getJointPos(0) + gap - kPlateHalfThickness;
    std::printf("  %5.1f mm (plate at %6.2f mm)  %8.4f N   %8.4f N    %+.2f%%\n", 1e3 * target, 1e3 * top_face, force,
                reference, 100 * (force - reference) / reference);
    EXPECT_NEAR(top_face, kRadius - target, 2e-5);  // the motor holds the plate where it was sent
    EXPECT_NEAR(force, reference, 0.01 * reference);
    EXPECT_NEAR(bottom_force, force, 1e-3 * force);  // equal and opposite through the ball
    EXPECT_LT(ball.v().cwiseAbs().maxCoeff(), 1e-3);
  }
  EXPECT_LT(std::abs(ball.CalcCenterOfMass().z()), 1e-4);  // squeezed evenly from both sides
  for (auto& motor : motors) world.removeMultiBodyConstraint(motor.get());
  for (auto& collider : colliders) world.removeCollisionObject(collider.get());
  world.removeMultiBody(&gripper);
  hydroRemoveShape(&plate);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
