#include "plugin/btHydroelasticConstraintSolver.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include "adapters/bullet_conversions.h"
#include "hydro/patch_problem.h"
#include "plugin/patch_registry.h"
#include "plugin/btHydroelasticStats.h"
#include "plugin/patch_state.h"

using hydro::Vector3;
using hydro::Vector6;
using hydro::bullet::PatchRegistry;
using hydro::bullet::PatchState;

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

hydro::PatchBody BodyOf(const btSolverBody& body) {
  hydro::PatchBody side;
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

namespace {
std::atomic<int> g_live_solvers{0};
}  // namespace

btHydroelasticConstraintSolver::btHydroelasticConstraintSolver() { ++g_live_solvers; }
btHydroelasticConstraintSolver::~btHydroelasticConstraintSolver() { --g_live_solvers; }
bool btHydroelasticConstraintSolver::anyExists() { return g_live_solvers.load(std::memory_order_relaxed) > 0; }

btScalar btHydroelasticConstraintSolver::solveGroup(btCollisionObject** bodies, int numBodies,
                                                    btPersistentManifold** manifold, int numManifolds,
                                                    btTypedConstraint** constraints, int numConstraints,
                                                    const btContactSolverInfo& info, btIDebugDraw* debugDrawer,
                                                    btDispatcher* dispatcher) {
  if (!hydroStatsTiming())
    return btSequentialImpulseConstraintSolver::solveGroup(bodies, numBodies, manifold, numManifolds, constraints,
                                                           numConstraints, info, debugDrawer, dispatcher);
  const auto start = std::chrono::steady_clock::now();
  const btScalar result = btSequentialImpulseConstraintSolver::solveGroup(
      bodies, numBodies, manifold, numManifolds, constraints, numConstraints, info, debugDrawer, dispatcher);
  hydro::bullet::RecordSolve(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return result;
}

void btHydroelasticConstraintSolver::prepareSolve(int numBodies, int numManifolds) {
  btSequentialImpulseConstraintSolver::prepareSolve(numBodies, numManifolds);
  m_lastNearRigidPoints = 0;
  m_lastNewtonIterations = 0;
}

btScalar btHydroelasticConstraintSolver::solveGroupCacheFriendlySetup(
    btCollisionObject** bodies, int numBodies, btPersistentManifold** manifoldPtr, int numManifolds,
    btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& infoGlobal,
    btIDebugDraw* debugDrawer) {
  // Patch manifolds become the problem's patches; every other manifold goes to Bullet's rows.
  ++m_groupSerial;
  m_patches.clear();
  m_bulletManifolds.resize(0);
  const PatchRegistry& registry = PatchRegistry::Instance();
  for (int m = 0; m < numManifolds; ++m) {
    PatchState* state = registry.StateOfManifold(manifoldPtr[m]);
    if (!state || IsMultibodyLink(state->body0) || IsMultibodyLink(state->body1)) {
      m_bulletManifolds.push_back(manifoldPtr[m]);
      continue;
    }
    if (state->solver_serial == m_groupSerial) continue;  // one patch, whatever its manifolds
    state->solver_serial = m_groupSerial;
    state->block_solved = true;
    if (state->points.empty()) {
      state->has_warm_wrench = false;
      continue;
    }
    Patch patch;
    patch.state = state;
    m_patches.push_back(patch);
  }
  btSequentialImpulseConstraintSolver::solveGroupCacheFriendlySetup(
      bodies, numBodies, m_bulletManifolds.size() ? &m_bulletManifolds[0] : nullptr, m_bulletManifolds.size(),
      constraints, numConstraints, infoGlobal, debugDrawer);
  if (!m_patches.empty()) {
    setUpPatches(infoGlobal);
    m_maxOverrideNumSolverIterations = std::max(m_maxOverrideNumSolverIterations, m_minPatchSweeps);
  }
  return 0;
}

void btHydroelasticConstraintSolver::setUpPatches(const btContactSolverInfo& infoGlobal) {
  const btScalar dt = infoGlobal.m_timeStep;
  if (!m_problem) m_problem = std::make_unique<hydro::PatchProblem>();
  hydro::PatchProblemOptions options;
  options.near_rigid_beta = m_nearRigidBeta;
  options.stiction_sigma = m_stictionSigma;
  m_problem->Reset(dt, options);
  m_solverBodyOfProblemBody.clear();
  auto problem_body = [&](int solverBody) {
    if (static_cast<int>(m_problemBodyOfSolverBody.size()) <= solverBody)
      m_problemBodyOfSolverBody.resize(solverBody + 1, -1);
    int& index = m_problemBodyOfSolverBody[solverBody];
    if (index < 0) {
      index = m_problem->AddBody(BodyOf(m_tmpSolverBodyPool[solverBody]));
      m_solverBodyOfProblemBody.push_back(solverBody);
    }
    return index;
  };
  std::vector<hydro::PatchPoint> points;
  for (Patch& patch : m_patches) {
    PatchState& state = *patch.state;
    patch.solverBodyA = getOrInitSolverBody(*const_cast<btCollisionObject*>(state.body0), dt);
    patch.solverBodyB = getOrInitSolverBody(*const_cast<btCollisionObject*>(state.body1), dt);
    patch.bodyA = problem_body(patch.solverBodyA);
    patch.bodyB = problem_body(patch.solverBodyB);
    points.resize(state.points.size());
    for (size_t i = 0; i < state.points.size(); ++i) {
      const hydro::ContactPoint& p = state.points[i];
      hydro::PatchPoint& q = points[i];
      q.p_WQ = p.p_WC;
      q.p_WQ_B = i < state.points_on_B.size() ? state.points_on_B[i] : p.p_WC;
      q.nhat_BA_W = p.nhat_BA_W;
      q.stiffness_N_per_m = p.stiffness_N_per_m;
      q.phi0_m = p.phi0_m;
      // Hunt–Crossley f = k·x·(1 + d·ẋ) linearized at x = −φ0: a damper d·k·x, time scale d·x.
      q.dissipation_time_s = state.combined_dissipation_s_per_m * std::max(-p.phi0_m, 0.0);
      q.friction = state.combined_friction;
    }
    m_problem->AddPatch(patch.bodyA, patch.bodyB, points);
  }
  m_lastNearRigidPoints += m_problem->near_rigid_points();
  // Warm start: last step's impulse of each patch, moved to A's centre of mass now.
  std::vector<hydro::Vector6> dV(m_problem->num_bodies(), hydro::Vector6::Zero());
  for (size_t k = 0; k < m_patches.size(); ++k) {
    const PatchState& state = *m_patches[k].state;
    if (!state.has_warm_wrench) continue;
    Vector6 W;
    for (int j = 0; j < 6; ++j) W[j] = state.warm_wrench_on_A[j];
    const Vector3 about(state.warm_wrench_about[0], state.warm_wrench_about[1], state.warm_wrench_about[2]);
    const Vector3 c_A = hydro::bullet::ToEigen(m_tmpSolverBodyPool[m_patches[k].solverBodyA].m_worldTransform.getOrigin());
    W.head<3>() += (about - c_A).cross(W.tail<3>());
    m_problem->StartFromWrench(static_cast<int>(k), W, &dV);
  }
  for (int b = 0; b < m_problem->num_bodies(); ++b) ApplyTwistChange(&m_tmpSolverBodyPool[m_solverBodyOfProblemBody[b]], dV[b]);
  m_settled = false;
}

void btHydroelasticConstraintSolver::solvePatches(bool alone, btScalar* residual) {
  if (m_patches.empty() || m_settled) return;
  std::vector<hydro::Vector6> V(m_problem->num_bodies()), dV;
  for (int b = 0; b < m_problem->num_bodies(); ++b) V[b] = CurrentTwist(m_tmpSolverBodyPool[m_solverBodyOfProblemBody[b]]);
  // Alone in its island group the patches are the whole problem: solve them to convergence once.
  // Among other constraints a few Newton steps per sweep suffice; the sweeps refine them together.
  const hydro::PatchProblemReport report = alone ? m_problem->Solve(V, 12, 5, &dV) : m_problem->Solve(V, 3, 1, &dV);
  m_lastNewtonIterations += report.iterations;
  for (int b = 0; b < m_problem->num_bodies(); ++b) ApplyTwistChange(&m_tmpSolverBodyPool[m_solverBodyOfProblemBody[b]], dV[b]);
  m_settled = alone;
  *residual = std::max<btScalar>(*residual, report.velocity_change * report.velocity_change);
}

btScalar btHydroelasticConstraintSolver::solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies,
                                                              btPersistentManifold** manifoldPtr, int numManifolds,
                                                              btTypedConstraint** constraints, int numConstraints,
                                                              const btContactSolverInfo& infoGlobal,
                                                              btIDebugDraw* debugDrawer) {
  btScalar residual = btSequentialImpulseConstraintSolver::solveSingleIteration(
      iteration, bodies, numBodies, manifoldPtr, numManifolds, constraints, numConstraints, infoGlobal, debugDrawer);
  const bool alone = m_tmpSolverContactConstraintPool.size() == 0 && m_tmpSolverNonContactConstraintPool.size() == 0;
  solvePatches(alone, &residual);
  return residual;
}

btScalar btHydroelasticConstraintSolver::solveGroupCacheFriendlyFinish(btCollisionObject** bodies, int numBodies,
                                                                       const btContactSolverInfo& infoGlobal) {
  for (size_t k = 0; k < m_patches.size(); ++k) {
    const Patch& patch = m_patches[k];
    PatchState& state = *patch.state;
    const int id = static_cast<int>(k);
    // The net impulse on A, about A's centre, for the next step's warm start.
    const Vector6 W = m_problem->WrenchOnA(id);
    const btVector3& c_A = m_tmpSolverBodyPool[patch.solverBodyA].m_worldTransform.getOrigin();
    for (int j = 0; j < 6; ++j) state.warm_wrench_on_A[j] = W[j];
    for (int j = 0; j < 3; ++j) state.warm_wrench_about[j] = c_A[j];
    state.has_warm_wrench = true;
    // Each point's impulse into its manifold point, where Bullet's users (and the patch query) read
    // them: normal impulse, and the friction impulse along the first lateral direction.
    const int n = m_problem->num_points(id);
    for (int i = 0; i < n && static_cast<size_t>(i / 4) < state.manifolds.size(); ++i) {
      btPersistentManifold* manifold = state.manifolds[i / 4];
      if (i % 4 >= manifold->getNumContacts()) continue;
      btManifoldPoint& cp = manifold->getContactPoint(i % 4);
      const Vector3& gamma = m_problem->impulse(id, i);
      const Vector3 n_W = state.points[i].nhat_BA_W;
      const double gn = gamma.dot(n_W);
      const Vector3 gt = gamma - gn * n_W;
      cp.m_appliedImpulse = gn;
      const double gt_norm = gt.norm();
      cp.m_appliedImpulseLateral1 = gt_norm;
      cp.m_appliedImpulseLateral2 = 0;
      if (gt_norm > 0) cp.m_lateralFrictionDir1 = hydro::bullet::ToBullet(Vector3(gt / gt_norm));
    }
  }
  for (int solverBody : m_solverBodyOfProblemBody) m_problemBodyOfSolverBody[solverBody] = -1;
  m_solverBodyOfProblemBody.clear();
  m_patches.clear();
  return btSequentialImpulseConstraintSolver::solveGroupCacheFriendlyFinish(bodies, numBodies, infoGlobal);
}
