#include "plugin/btHydroelasticConstraintSolver.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "adapters/bullet_conversions.h"
#include "hydro/patch_problem.h"
#include "plugin/patch_block.h"
#include "plugin/patch_registry.h"
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

struct btHydroelasticConstraintSolver::Workspace {
  std::vector<int> componentOfEntry;          // per solver body: the component it was last added to
  std::vector<hydro::PatchPoint> points;      // one patch's, on their way into its problem
  std::vector<PatchState*> manifoldStates;    // per manifold of the group: its patch's state, or null
  std::vector<std::vector<Vector6>> warmDV;   // per component and problem body: the warm start's twist change
  std::vector<Vector6> twists, twistChanges;  // one component's, for a solve
  // Problems kept across steps, each with the moving bodies it last held, and which are taken.
  std::vector<std::unique_ptr<hydro::PatchProblem>> problems;
  std::vector<int> problemMovingBodies;
  std::vector<char> problemTaken;
  std::vector<int> movingBodies;                  // per component
  std::vector<int> countedIn;                     // per solver body: the component it was last counted in
  std::vector<int> componentOrder, problemOrder;  // assignProblems' sorted lists
};

btHydroelasticConstraintSolver::btHydroelasticConstraintSolver() : m_work(std::make_unique<Workspace>()) {}
btHydroelasticConstraintSolver::~btHydroelasticConstraintSolver() = default;

// A bad value is refused here, naming the setter, and the solver keeps its setting.
void btHydroelasticConstraintSolver::setMinPatchSweeps(int sweeps) {
  m_minPatchSweeps = hydro::bullet::CheckedMinPatchSweeps(sweeps, "btHydroelasticConstraintSolver::setMinPatchSweeps");
}
void btHydroelasticConstraintSolver::setNearRigidThreshold(btScalar beta) {
  m_nearRigidBeta =
      btScalar(hydro::bullet::CheckedNearRigidThreshold(beta, "btHydroelasticConstraintSolver::setNearRigidThreshold"));
}
void btHydroelasticConstraintSolver::setStictionRegularization(btScalar sigma) {
  m_stictionSigma = btScalar(
      hydro::bullet::CheckedStictionRegularization(sigma, "btHydroelasticConstraintSolver::setStictionRegularization"));
}

btScalar btHydroelasticConstraintSolver::solveGroup(btCollisionObject** bodies, int numBodies,
                                                    btPersistentManifold** manifold, int numManifolds,
                                                    btTypedConstraint** constraints, int numConstraints,
                                                    const btContactSolverInfo& info, btIDebugDraw* debugDrawer,
                                                    btDispatcher* dispatcher) {
  if (!m_solveTiming)
    return btSequentialImpulseConstraintSolver::solveGroup(bodies, numBodies, manifold, numManifolds, constraints,
                                                           numConstraints, info, debugDrawer, dispatcher);
  const auto start = std::chrono::steady_clock::now();
  const btScalar result = btSequentialImpulseConstraintSolver::solveGroup(
      bodies, numBodies, manifold, numManifolds, constraints, numConstraints, info, debugDrawer, dispatcher);
  m_solveSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

void btHydroelasticConstraintSolver::prepareSolve(int numBodies, int numManifolds) {
  btSequentialImpulseConstraintSolver::prepareSolve(numBodies, numManifolds);
  m_lastNearRigidPoints = 0;
  m_lastNewtonIterations = 0;
  m_lastFactorizations = 0;
  m_lastPatchProblems = 0;
}

btScalar btHydroelasticConstraintSolver::solveGroupCacheFriendlySetup(btCollisionObject** bodies, int numBodies,
                                                                      btPersistentManifold** manifoldPtr,
                                                                      int numManifolds, btTypedConstraint** constraints,
                                                                      int numConstraints,
                                                                      const btContactSolverInfo& infoGlobal,
                                                                      btIDebugDraw* debugDrawer) {
  // Patch manifolds become the problem's patches; every other manifold goes to Bullet's rows.
  ++m_groupSerial;
  m_patches.clear();
  m_bulletManifolds.resize(0);
  std::vector<PatchState*>& states = m_work->manifoldStates;
  PatchRegistry::Instance().StatesOfManifolds(manifoldPtr, numManifolds, &states);
  for (int m = 0; m < numManifolds; ++m) {
    PatchState* state = states[m];
    if (!state || IsMultibodyLink(state->body0) || IsMultibodyLink(state->body1)) {
      m_bulletManifolds.push_back(manifoldPtr[m]);
      continue;
    }
    if (!hydro::bullet::TakePatch(state, m_groupSerial)) continue;
    Patch patch;
    patch.state = state;
    patch.listed = static_cast<int>(m_patches.size());
    m_patches.push_back(patch);
  }
  std::sort(m_patches.begin(), m_patches.end(), [](const Patch& a, const Patch& b) {
    return hydro::bullet::SolvedBefore(*a.state, a.listed, *b.state, b.listed);
  });
  btSequentialImpulseConstraintSolver::solveGroupCacheFriendlySetup(
      bodies, numBodies, m_bulletManifolds.size() ? &m_bulletManifolds[0] : nullptr, m_bulletManifolds.size(),
      constraints, numConstraints, infoGlobal, debugDrawer);
  if (!m_patches.empty()) {
    setUpPatches(infoGlobal);
    m_maxOverrideNumSolverIterations = std::max(m_maxOverrideNumSolverIterations, m_minPatchSweeps);
  }
  return 0;
}

int btHydroelasticConstraintSolver::findComponents() {
  // Union–find over solver bodies: a patch joins its two bodies when both move (a fixed or
  // kinematic body, the ground, joins nothing: its velocity is given).
  m_componentParent.assign(m_tmpSolverBodyPool.size(), -1);
  auto root = [this](int b) {
    while (m_componentParent[b] >= 0) {
      const int parent = m_componentParent[b];
      if (m_componentParent[parent] >= 0) m_componentParent[b] = m_componentParent[parent];  // halve the path
      b = parent;
    }
    return b;
  };
  for (const Patch& patch : m_patches) {
    if (!moves(patch.solverBodyA) || !moves(patch.solverBodyB)) continue;
    const int a = root(patch.solverBodyA), b = root(patch.solverBodyB);
    if (a != b) m_componentParent[std::max(a, b)] = std::min(a, b);
  }
  // Number the roots in the order their first patch comes; a patch takes its moving body's root.
  std::vector<int>& number = m_problemBodyOfSolverBody;  // scratch, reset by setUpPatches
  number.assign(m_tmpSolverBodyPool.size(), -1);
  int count = 0;
  for (Patch& patch : m_patches) {
    const int r = root(moves(patch.solverBodyA) ? patch.solverBodyA : patch.solverBodyB);
    if (number[r] < 0) number[r] = count++;
    patch.component = number[r];
  }
  return count;
}

void btHydroelasticConstraintSolver::setUpPatches(const btContactSolverInfo& infoGlobal) {
  const btScalar dt = infoGlobal.m_timeStep;
  for (Patch& patch : m_patches) {
    patch.solverBodyA = getOrInitSolverBody(*const_cast<btCollisionObject*>(patch.state->body0), dt);
    patch.solverBodyB = getOrInitSolverBody(*const_cast<btCollisionObject*>(patch.state->body1), dt);
  }
  m_numComponents = findComponents();
  m_lastPatchProblems += m_numComponents;
  if (static_cast<int>(m_components.size()) < m_numComponents) m_components.resize(m_numComponents);
  assignProblems();
  hydro::PatchProblemOptions options;
  options.near_rigid_beta = m_nearRigidBeta;
  options.stiction_sigma = m_stictionSigma;
  for (int c = 0; c < m_numComponents; ++c) {
    Component& component = m_components[c];
    component.problem->Reset(dt, options);
    component.solverBodyOfProblemBody.clear();
    component.settled = false;
  }
  m_problemBodyOfSolverBody.assign(m_tmpSolverBodyPool.size(), -1);
  // Patches in order, each into its component's problem; a solver body's problem body is that of
  // the component it was last added to (a fixed body is added once to each component it touches).
  std::vector<int>& component_of_entry = m_work->componentOfEntry;
  component_of_entry.assign(m_tmpSolverBodyPool.size(), -1);
  auto problem_body = [&](int c, int solverBody) {
    int& index = m_problemBodyOfSolverBody[solverBody];
    if (index < 0 || component_of_entry[solverBody] != c) {
      Component& component = m_components[c];
      index = component.problem->AddBody(hydro::bullet::RigidPatchBody(m_tmpSolverBodyPool[solverBody]));
      component_of_entry[solverBody] = c;
      component.solverBodyOfProblemBody.push_back(solverBody);
    }
    return index;
  };
  std::vector<hydro::PatchPoint>& points = m_work->points;
  for (Patch& patch : m_patches) {
    patch.bodyA = problem_body(patch.component, patch.solverBodyA);
    patch.bodyB = problem_body(patch.component, patch.solverBodyB);
    hydro::bullet::MakePatchPoints(*patch.state, &points);
    patch.index = m_components[patch.component].problem->AddPatch(patch.bodyA, patch.bodyB, points);
  }
  // Warm start: last step's impulse of each patch, moved to A's centre of mass now.
  std::vector<std::vector<hydro::Vector6>>& dV = m_work->warmDV;
  if (static_cast<int>(dV.size()) < m_numComponents) dV.resize(m_numComponents);
  for (int c = 0; c < m_numComponents; ++c) {
    m_lastNearRigidPoints += m_components[c].problem->near_rigid_points();
    dV[c].assign(m_components[c].problem->num_bodies(), hydro::Vector6::Zero());
  }
  for (const Patch& patch : m_patches) {
    const Vector3 c_A = hydro::bullet::ToEigen(m_tmpSolverBodyPool[patch.solverBodyA].m_worldTransform.getOrigin());
    Vector6 W;
    if (!hydro::bullet::WarmWrenchAbout(*patch.state, c_A, &W)) continue;
    m_components[patch.component].problem->StartFromWrench(patch.index, W, &dV[patch.component]);
  }
  for (int c = 0; c < m_numComponents; ++c) {
    const Component& component = m_components[c];
    for (int b = 0; b < component.problem->num_bodies(); ++b)
      hydro::bullet::ApplyTwistChange(&m_tmpSolverBodyPool[component.solverBodyOfProblemBody[b]], dV[c][b]);
  }
}

bool btHydroelasticConstraintSolver::moves(int solverBody) const {
  const btRigidBody* body = m_tmpSolverBodyPool[solverBody].m_originalBody;
  return body && body->getInvMass() > 0;
}

void btHydroelasticConstraintSolver::assignProblems() {
  Workspace& work = *m_work;
  work.movingBodies.assign(m_numComponents, 0);
  work.countedIn.assign(m_tmpSolverBodyPool.size(), -1);
  for (const Patch& patch : m_patches)
    for (const int b : {patch.solverBodyA, patch.solverBodyB})
      if (moves(b) && work.countedIn[b] != patch.component) {
        work.countedIn[b] = patch.component;
        ++work.movingBodies[patch.component];
      }
  work.problemTaken.assign(work.problems.size(), 0);
  auto take = [&](int c, size_t k) {
    work.problemTaken[k] = 1;
    work.problemMovingBodies[k] = work.movingBodies[c];
    m_components[c].problem = work.problems[k].get();
  };
  // First every component that finds a problem of its own size, then the rest, any free one. Both
  // lists in order of (moving bodies, index) and walked together: each component takes the first
  // free problem of its size, as a scan of the problems for each component would, in O(C + P)
  // after the sorts instead of O(C·P) (a group of 128 single boxes on the ground keeps 264).
  std::vector<int>& components = work.componentOrder;
  std::vector<int>& problems = work.problemOrder;
  components.resize(m_numComponents);
  for (int c = 0; c < m_numComponents; ++c) components[c] = c;
  problems.resize(work.problems.size());
  for (size_t k = 0; k < problems.size(); ++k) problems[k] = static_cast<int>(k);
  std::sort(components.begin(), components.end(), [&](int a, int b) {
    return work.movingBodies[a] != work.movingBodies[b] ? work.movingBodies[a] < work.movingBodies[b] : a < b;
  });
  std::sort(problems.begin(), problems.end(), [&](int a, int b) {
    const int size_a = work.problemMovingBodies[a], size_b = work.problemMovingBodies[b];
    return size_a != size_b ? size_a < size_b : a < b;
  });
  size_t next_problem = 0;
  for (const int c : components) {
    const int size = work.movingBodies[c];
    while (next_problem < problems.size() && work.problemMovingBodies[problems[next_problem]] < size) ++next_problem;
    if (next_problem < problems.size() && work.problemMovingBodies[problems[next_problem]] == size)
      take(c, problems[next_problem++]);
    else
      m_components[c].problem = nullptr;
  }
  // A component of a size none has: a new problem while there are fewer than twice the components
  // (and a few), so that sizes that alternate each keep one; past that, a free one resized.
  const size_t most_kept = 2 * static_cast<size_t>(m_numComponents) + 8;
  size_t next_free = 0;
  for (int c = 0; c < m_numComponents; ++c) {
    if (m_components[c].problem) continue;
    while (next_free < work.problems.size() && work.problemTaken[next_free]) ++next_free;
    size_t k = next_free;
    if (next_free == work.problems.size() || work.problems.size() < most_kept) {
      k = work.problems.size();
      work.problems.push_back(std::make_unique<hydro::PatchProblem>());
      work.problemMovingBodies.push_back(0);
      work.problemTaken.push_back(0);
    }
    take(c, k);
  }
}

void btHydroelasticConstraintSolver::solvePatches(bool alone, btScalar* residual) {
  std::vector<Vector6>& V = m_work->twists;
  std::vector<Vector6>& dV = m_work->twistChanges;
  for (int c = 0; c < m_numComponents; ++c) {
    Component& component = m_components[c];
    if (component.settled) continue;
    hydro::PatchProblem& problem = *component.problem;
    V.resize(problem.num_bodies());
    for (int b = 0; b < problem.num_bodies(); ++b)
      V[b] = hydro::bullet::CurrentTwist(m_tmpSolverBodyPool[component.solverBodyOfProblemBody[b]]);
    // Alone in its island group the patches are the whole problem: solve them to convergence once.
    // Among other constraints a few Newton steps per sweep suffice; the sweeps refine them together.
    const int factorizations = problem.factorizations();
    const hydro::PatchProblemReport report = alone ? problem.Solve(V, 12, 5, &dV) : problem.Solve(V, 3, 1, &dV);
    m_lastNewtonIterations += report.iterations;
    m_lastFactorizations += problem.factorizations() - factorizations;
    for (int b = 0; b < problem.num_bodies(); ++b)
      hydro::bullet::ApplyTwistChange(&m_tmpSolverBodyPool[component.solverBodyOfProblemBody[b]], dV[b]);
    component.settled = alone;
    *residual = std::max<btScalar>(*residual, report.velocity_change * report.velocity_change);
  }
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
  for (const Patch& patch : m_patches) {
    const Vector3 c_A = hydro::bullet::ToEigen(m_tmpSolverBodyPool[patch.solverBodyA].m_worldTransform.getOrigin());
    hydro::bullet::StoreSolvedPatch(*m_components[patch.component].problem, patch.index, c_A, patch.state);
  }
  m_patches.clear();
  m_numComponents = 0;
  return btSequentialImpulseConstraintSolver::solveGroupCacheFriendlyFinish(bodies, numBodies, infoGlobal);
}
