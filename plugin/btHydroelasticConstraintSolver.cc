#include "plugin/btHydroelasticConstraintSolver.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include "adapters/bullet_conversions.h"
#include "hydro/patch_problem.h"
#include "plugin/patch_block.h"
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

}  // namespace

btHydroelasticConstraintSolver::btHydroelasticConstraintSolver() { hydro::bullet::CountPatchSolvers(+1); }
btHydroelasticConstraintSolver::~btHydroelasticConstraintSolver() { hydro::bullet::CountPatchSolvers(-1); }
bool btHydroelasticConstraintSolver::anyExists() { return hydro::bullet::AnyPatchSolver(); }

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
    if (!hydro::bullet::TakePatch(state, m_groupSerial)) continue;
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
      index = m_problem->AddBody(hydro::bullet::RigidPatchBody(m_tmpSolverBodyPool[solverBody]));
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
    hydro::bullet::MakePatchPoints(state, &points);
    m_problem->AddPatch(patch.bodyA, patch.bodyB, points);
  }
  m_lastNearRigidPoints += m_problem->near_rigid_points();
  // Warm start: last step's impulse of each patch, moved to A's centre of mass now.
  std::vector<hydro::Vector6> dV(m_problem->num_bodies(), hydro::Vector6::Zero());
  for (size_t k = 0; k < m_patches.size(); ++k) {
    const Vector3 c_A = hydro::bullet::ToEigen(m_tmpSolverBodyPool[m_patches[k].solverBodyA].m_worldTransform.getOrigin());
    Vector6 W;
    if (!hydro::bullet::WarmWrenchAbout(*m_patches[k].state, c_A, &W)) continue;
    m_problem->StartFromWrench(static_cast<int>(k), W, &dV);
  }
  for (int b = 0; b < m_problem->num_bodies(); ++b) hydro::bullet::ApplyTwistChange(&m_tmpSolverBodyPool[m_solverBodyOfProblemBody[b]], dV[b]);
  m_settled = false;
}

void btHydroelasticConstraintSolver::solvePatches(bool alone, btScalar* residual) {
  if (m_patches.empty() || m_settled) return;
  std::vector<hydro::Vector6> V(m_problem->num_bodies()), dV;
  for (int b = 0; b < m_problem->num_bodies(); ++b) V[b] = hydro::bullet::CurrentTwist(m_tmpSolverBodyPool[m_solverBodyOfProblemBody[b]]);
  // Alone in its island group the patches are the whole problem: solve them to convergence once.
  // Among other constraints a few Newton steps per sweep suffice; the sweeps refine them together.
  const hydro::PatchProblemReport report = alone ? m_problem->Solve(V, 12, 5, &dV) : m_problem->Solve(V, 3, 1, &dV);
  m_lastNewtonIterations += report.iterations;
  for (int b = 0; b < m_problem->num_bodies(); ++b) hydro::bullet::ApplyTwistChange(&m_tmpSolverBodyPool[m_solverBodyOfProblemBody[b]], dV[b]);
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
    const Vector3 c_A = hydro::bullet::ToEigen(m_tmpSolverBodyPool[patch.solverBodyA].m_worldTransform.getOrigin());
    hydro::bullet::StoreSolvedPatch(*m_problem, static_cast<int>(k), c_A, patch.state);
  }
  for (int solverBody : m_solverBodyOfProblemBody) m_problemBodyOfSolverBody[solverBody] = -1;
  m_solverBodyOfProblemBody.clear();
  m_patches.clear();
  return btSequentialImpulseConstraintSolver::solveGroupCacheFriendlyFinish(bodies, numBodies, infoGlobal);
}
