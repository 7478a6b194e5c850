#include "plugin/btHydroelasticConstraintSolver.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>

#include "adapters/bullet_conversions.h"
#include "hydro/patch_block.h"
#include "plugin/patch_registry.h"
#include "plugin/patch_state.h"

using hydro::Vector3;
using hydro::Vector6;
using hydro::bullet::PatchRegistry;
using hydro::bullet::PatchState;

struct btHydroelasticConstraintSolver::Block {
  PatchState* state{nullptr};
  int solverBodyA{-1};
  int solverBodyB{-1};
  hydro::PatchBlock block;
  std::vector<hydro::PatchBlockPoint> points;  // scratch, kept for its storage
  // The twists the bodies had when the block last left them: a visit that finds them unchanged
  // has nothing to do.
  Vector6 leftV_A{Vector6::Constant(NAN)}, leftV_B{Vector6::Constant(NAN)};
  bool settled{false};
};

namespace {

bool IsMultibodyLink(const btCollisionObject* object) {
  return (object->getInternalType() & btCollisionObject::CO_FEATHERSTONE_LINK) != 0;
}

// The twist [ω; v] a solver body has now: its velocity at the step's start, what gravity and
// applied forces add over the step, and what the solver has applied so far.
Vector6 CurrentTwist(const btSolverBody& body) {
  Vector6 V = Vector6::Zero();
  if (!body.m_originalBody) return V;
  const btVector3 w = body.m_angularVelocity + body.m_externalTorqueImpulse + body.m_deltaAngularVelocity;
  const btVector3 v = body.m_linearVelocity + body.m_externalForceImpulse + body.m_deltaLinearVelocity;
  V << w.x(), w.y(), w.z(), v.x(), v.y(), v.z();
  return V;
}

void ApplyTwistChange(btSolverBody* body, const Vector6& dV) {
  if (!body->m_originalBody || body->m_originalBody->getInvMass() == 0) return;
  body->m_deltaAngularVelocity += btVector3(dV[0], dV[1], dV[2]);
  body->m_deltaLinearVelocity += btVector3(dV[3], dV[4], dV[5]);
}

hydro::PatchSide SideOf(const btSolverBody& body) {
  hydro::PatchSide side;
  side.p_WC = hydro::bullet::ToEigen(body.m_worldTransform.getOrigin());
  const btRigidBody* rb = body.m_originalBody;
  if (rb && rb->getInvMass() > 0) {
    side.mobility = hydro::RigidBodyMobility(hydro::bullet::ToEigen(rb->getInvInertiaTensorWorld()), rb->getInvMass(),
                                             hydro::bullet::ToEigen(rb->getAngularFactor()),
                                             hydro::bullet::ToEigen(rb->getLinearFactor()));
  }
  return side;
}

}  // namespace

btHydroelasticConstraintSolver::btHydroelasticConstraintSolver() = default;
btHydroelasticConstraintSolver::~btHydroelasticConstraintSolver() = default;

void btHydroelasticConstraintSolver::prepareSolve(int numBodies, int numManifolds) {
  btSequentialImpulseConstraintSolver::prepareSolve(numBodies, numManifolds);
  m_lastNearRigidPoints = 0;
  m_lastNewtonIterations = 0;
}

btScalar btHydroelasticConstraintSolver::solveGroupCacheFriendlySetup(
    btCollisionObject** bodies, int numBodies, btPersistentManifold** manifoldPtr, int numManifolds,
    btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& infoGlobal,
    btIDebugDraw* debugDrawer) {
  // Patch manifolds become blocks; every other manifold goes to Bullet's rows.
  ++m_groupSerial;
  m_numBlocks = 0;
  m_bulletManifolds.resize(0);
  const PatchRegistry& registry = PatchRegistry::Instance();
  for (int m = 0; m < numManifolds; ++m) {
    PatchState* state = registry.StateOfManifold(manifoldPtr[m]);
    if (!state || IsMultibodyLink(state->body0) || IsMultibodyLink(state->body1)) {
      m_bulletManifolds.push_back(manifoldPtr[m]);
      continue;
    }
    if (state->solver_serial == m_groupSerial) continue;  // one block per patch, whatever its manifolds
    state->solver_serial = m_groupSerial;
    if (state->points.empty()) {
      state->has_warm_wrench = false;
      continue;
    }
    if (static_cast<int>(m_blocks.size()) == m_numBlocks) m_blocks.push_back(std::make_unique<Block>());
    m_blocks[m_numBlocks++]->state = state;
  }
  btSequentialImpulseConstraintSolver::solveGroupCacheFriendlySetup(
      bodies, numBodies, m_bulletManifolds.size() ? &m_bulletManifolds[0] : nullptr, m_bulletManifolds.size(),
      constraints, numConstraints, infoGlobal, debugDrawer);
  for (int b = 0; b < m_numBlocks; ++b) setUpBlock(m_blocks[b].get(), infoGlobal);
  if (m_numBlocks > 0) m_maxOverrideNumSolverIterations = std::max(m_maxOverrideNumSolverIterations, m_minPatchSweeps);
  return 0;
}

void btHydroelasticConstraintSolver::setUpBlock(Block* block, const btContactSolverInfo& infoGlobal) {
  PatchState& state = *block->state;
  const btScalar dt = infoGlobal.m_timeStep;
  block->solverBodyA = getOrInitSolverBody(*const_cast<btCollisionObject*>(state.body0), dt);
  block->solverBodyB = getOrInitSolverBody(*const_cast<btCollisionObject*>(state.body1), dt);
  btSolverBody& A = m_tmpSolverBodyPool[block->solverBodyA];
  btSolverBody& B = m_tmpSolverBodyPool[block->solverBodyB];
  block->points.resize(state.points.size());
  for (size_t i = 0; i < state.points.size(); ++i) {
    const hydro::ContactPoint& p = state.points[i];
    hydro::PatchBlockPoint& q = block->points[i];
    q.p_WQ = p.p_WC;
    q.p_WQ_B = i < state.points_on_B.size() ? state.points_on_B[i] : p.p_WC;
    q.nhat_BA_W = p.nhat_BA_W;
    q.stiffness_N_per_m = p.stiffness_N_per_m;
    q.phi0_m = p.phi0_m;
    // Hunt–Crossley f = k·x·(1 + d·ẋ) linearized at x = −φ0: a damper d·k·x, time scale d·x.
    q.dissipation_time_s = state.combined_dissipation_s_per_m * std::max(-p.phi0_m, 0.0);
    q.friction = state.combined_friction;
  }
  hydro::PatchBlockOptions options;
  options.near_rigid_beta = m_nearRigidBeta;
  options.stiction_sigma = m_stictionSigma;
  const hydro::PatchSide sideA = SideOf(A), sideB = SideOf(B);
  block->block.Reset(dt, sideA, sideB, block->points, options);
  m_lastNearRigidPoints += block->block.near_rigid_points();
  block->leftV_A.setConstant(NAN);
  block->settled = false;
  if (state.has_warm_wrench) {
    // Last step's impulse on A, moved to A's centre of mass now.
    Vector6 W;
    for (int k = 0; k < 6; ++k) W[k] = state.warm_wrench_on_A[k];
    const Vector3 about(state.warm_wrench_about[0], state.warm_wrench_about[1], state.warm_wrench_about[2]);
    W.head<3>() += (about - sideA.p_WC).cross(W.tail<3>());
    Vector6 dV_A, dV_B;
    block->block.StartFromWrench(W, &dV_A, &dV_B);
    ApplyTwistChange(&A, dV_A);
    ApplyTwistChange(&B, dV_B);
  }
}

void btHydroelasticConstraintSolver::visitBlock(Block* block, bool alone, btScalar* residual) {
  btSolverBody& A = m_tmpSolverBodyPool[block->solverBodyA];
  btSolverBody& B = m_tmpSolverBodyPool[block->solverBodyB];
  const Vector6 V_A = CurrentTwist(A), V_B = CurrentTwist(B);
  if (block->settled && V_A == block->leftV_A && V_B == block->leftV_B) return;
  Vector6 dV_A, dV_B;
  // Alone in its island the block is the whole problem: solve it to convergence once. Among other
  // constraints a few Newton steps per visit suffice; the sweeps refine it with its neighbours.
  const hydro::PatchBlockReport report =
      alone ? block->block.Solve(V_A, V_B, 50, 5, &dV_A, &dV_B) : block->block.Solve(V_A, V_B, 4, 1, &dV_A, &dV_B);
  m_lastNewtonIterations += report.iterations;
  ApplyTwistChange(&A, dV_A);
  ApplyTwistChange(&B, dV_B);
  block->leftV_A = CurrentTwist(A);
  block->leftV_B = CurrentTwist(B);
  block->settled = report.converged;
  *residual = std::max<btScalar>(*residual, report.velocity_change * report.velocity_change);
}

btScalar btHydroelasticConstraintSolver::solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies,
                                                              btPersistentManifold** manifoldPtr, int numManifolds,
                                                              btTypedConstraint** constraints, int numConstraints,
                                                              const btContactSolverInfo& infoGlobal,
                                                              btIDebugDraw* debugDrawer) {
  btScalar residual = btSequentialImpulseConstraintSolver::solveSingleIteration(
      iteration, bodies, numBodies, manifoldPtr, numManifolds, constraints, numConstraints, infoGlobal, debugDrawer);
  const bool alone = m_numBlocks == 1 && m_tmpSolverContactConstraintPool.size() == 0 &&
                     m_tmpSolverNonContactConstraintPool.size() == 0;
  // Symmetric Gauss–Seidel: forward on even sweeps, backward on odd ones, so that a stack passes
  // its load both ways within two sweeps.
  if (iteration % 2 == 0) {
    for (int b = 0; b < m_numBlocks; ++b) visitBlock(m_blocks[b].get(), alone, &residual);
  } else {
    for (int b = m_numBlocks - 1; b >= 0; --b) visitBlock(m_blocks[b].get(), alone, &residual);
  }
  return residual;
}

btScalar btHydroelasticConstraintSolver::solveGroupCacheFriendlyFinish(btCollisionObject** bodies, int numBodies,
                                                                       const btContactSolverInfo& infoGlobal) {
  for (int b = 0; b < m_numBlocks; ++b) {
    Block& block = *m_blocks[b];
    PatchState& state = *block.state;
    // The net impulse on A, about A's centre, for the next step's warm start.
    const Vector6 W = block.block.WrenchOnA();
    const btVector3& c_A = m_tmpSolverBodyPool[block.solverBodyA].m_worldTransform.getOrigin();
    for (int k = 0; k < 6; ++k) state.warm_wrench_on_A[k] = W[k];
    for (int k = 0; k < 3; ++k) state.warm_wrench_about[k] = c_A[k];
    state.has_warm_wrench = true;
    // Each point's impulse into its manifold point, where Bullet's users (and the patch query) read
    // them: normal impulse, and the friction impulse along the first lateral direction.
    const int n = block.block.num_points();
    for (int k = 0; k < n && static_cast<size_t>(k / 4) < state.manifolds.size(); ++k) {
      btPersistentManifold* manifold = state.manifolds[k / 4];
      if (k % 4 >= manifold->getNumContacts()) continue;
      btManifoldPoint& cp = manifold->getContactPoint(k % 4);
      const Vector3& gamma = block.block.impulse(k);
      const Vector3 n_W = state.points[k].nhat_BA_W;
      const double gn = gamma.dot(n_W);
      const Vector3 gt = gamma - gn * n_W;
      cp.m_appliedImpulse = gn;
      const double gt_norm = gt.norm();
      cp.m_appliedImpulseLateral1 = gt_norm;
      cp.m_appliedImpulseLateral2 = 0;
      if (gt_norm > 0) cp.m_lateralFrictionDir1 = hydro::bullet::ToBullet(Vector3(gt / gt_norm));
    }
  }
  m_numBlocks = 0;
  return btSequentialImpulseConstraintSolver::solveGroupCacheFriendlyFinish(bodies, numBodies, infoGlobal);
}
