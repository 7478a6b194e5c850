#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"

#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "adapters/bullet_conversions.h"
#include "hydro/patch_problem.h"
#include "plugin/patch_block.h"
#include "plugin/patch_registry.h"
#include "plugin/patch_state.h"

using hydro::Vector3;
using hydro::Vector6;
using hydro::bullet::PatchRegistry;
using hydro::bullet::PatchState;

// The problem's bodies: rigid solver bodies, and the patched links of each multibody as one
// group of coupled bodies.
struct btHydroelasticMultiBodyConstraintSolver::Block {
  struct Multibody {
    btMultiBody* multibody{nullptr};
    int velocityIndex{-1};           // of its Δq̇ in the solver's m_deltaVelocities
    std::vector<int> links;          // its patched links (−1: the base), in the group's order
    std::vector<btVector3> centres;  // their centres of mass (world)
    Eigen::MatrixXd J;               // 6k × dofs: the links' twists [ω; v] about their centres
    Eigen::MatrixXd toVelocity;      // dofs × r: the group's unknowns to Δq̇
    int firstBody{-1};               // in the problem
    std::vector<btScalar> change;    // what the patches have added to q̇, applied at the end
  };
  struct Body {
    int solverBody{-1};  // a rigid body's (or the fixed body's)
    int multibody{-1};   // else: its multibody and its row block in that multibody's J
    int member{-1};
  };
  struct Patch {
    PatchState* state{nullptr};
    int bodyA{-1}, bodyB{-1};
    int listed{-1};  // its place in Bullet's manifold list (SolvedBefore's ties)
  };
  hydro::PatchProblem problem;
  std::vector<Body> bodies;
  std::vector<Multibody> multibodies;
  std::vector<Patch> patches;
  std::vector<PatchState*> manifoldStates;  // per manifold of the group: its patch's state, or null
  bool settled{false};

  // A problem body's reference point (its centre of mass), world.
  Vector3 ReferencePoint(int body, const btAlignedObjectArray<btSolverBody>& pool) const {
    const Body& b = bodies[body];
    if (b.multibody < 0) return hydro::bullet::ToEigen(pool[b.solverBody].m_worldTransform.getOrigin());
    return hydro::bullet::ToEigen(multibodies[b.multibody].centres[b.member]);
  }

  // Applies the problem's last change: twists to rigid solver bodies; to each multibody, its
  // group's change since the last solve's start, as Δq̇ (its links move through q̇).
  void ApplyChange(const std::vector<Vector6>& dV, btAlignedObjectArray<btSolverBody>* pool,
                   btAlignedObjectArray<btScalar>* deltaVelocities) {
    for (size_t b = 0; b < bodies.size(); ++b)
      if (bodies[b].multibody < 0) hydro::bullet::ApplyTwistChange(&(*pool)[bodies[b].solverBody], dV[b]);
    for (Multibody& entry : multibodies) {
      const Eigen::VectorXd dz = problem.GroupChange(problem.group_of(entry.firstBody));
      if (dz.size() == 0) continue;
      const Eigen::VectorXd dq = entry.toVelocity * dz;
      for (int i = 0; i < dq.size(); ++i) {
        (*deltaVelocities)[entry.velocityIndex + i] += dq[i];
        entry.change[i] += dq[i];
      }
    }
  }
};

namespace {

// Factors a multibody group's mobility G = J·M⁻¹·Jᵀ (its links' twist change per wrench) as
// G = B·Bᵀ, with W_of_z the wrenches that make a change Δz of the problem's unknowns
// (G·W_of_z = B). Any such B will do for the solve, but Newton's matrix lives in z, and a pile at
// rest preconditions each step's Newton systems with the last factorization: B must follow the
// pose smoothly. So where G is positive definite (the links move independently: a lone base) it
// is G's Cholesky factor L, W_of_z = L⁻ᵀ, as a rigid body's (hydro/patch_problem.cc,
// FactorMobility). An eigenbasis turns with round-off within a cube's equal-inertia eigenspaces:
// with one, a pyramid of 30 bases at rest factorized anew every step (30 in 30 steps; none with
// the Cholesky factor). Where G is singular (links sharing joints) B = U·Λ^½ over G's range,
// W_of_z = U·Λ^-½.
void FactorGroupMobility(const Eigen::MatrixXd& G, Eigen::MatrixXd* B, Eigen::MatrixXd* W_of_z) {
  const Eigen::LLT<Eigen::MatrixXd> cholesky(G);
  if (cholesky.info() == Eigen::Success) {
    *B = cholesky.matrixL();
    if (B->diagonal().cwiseAbs2().minCoeff() > 1e-12 * G.diagonal().maxCoeff()) {
      *W_of_z = cholesky.matrixU().solve(Eigen::MatrixXd::Identity(G.rows(), G.cols()));
      return;
    }
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(G);
  const double largest = eigen.eigenvalues().cwiseAbs().maxCoeff();
  std::vector<int> kept;
  for (int i = 0; i < G.rows(); ++i)
    if (eigen.eigenvalues()[i] > 1e-12 * largest) kept.push_back(i);
  const int r = static_cast<int>(kept.size());
  B->resize(G.rows(), r);
  W_of_z->resize(G.rows(), r);
  for (int c = 0; c < r; ++c) {
    const double lambda = eigen.eigenvalues()[kept[c]];
    B->col(c) = eigen.eigenvectors().col(kept[c]) * std::sqrt(lambda);
    W_of_z->col(c) = eigen.eigenvectors().col(kept[c]) / std::sqrt(lambda);
  }
}

}  // namespace

btHydroelasticMultiBodyConstraintSolver::btHydroelasticMultiBodyConstraintSolver() : m_block(new Block) {}
btHydroelasticMultiBodyConstraintSolver::~btHydroelasticMultiBodyConstraintSolver() = default;

// A bad value is refused here, naming the setter, and the solver keeps its setting.
void btHydroelasticMultiBodyConstraintSolver::setMinPatchSweeps(int sweeps) {
  m_minPatchSweeps =
      hydro::bullet::CheckedMinPatchSweeps(sweeps, "btHydroelasticMultiBodyConstraintSolver::setMinPatchSweeps");
}
void btHydroelasticMultiBodyConstraintSolver::setNearRigidThreshold(btScalar beta) {
  m_nearRigidBeta = btScalar(
      hydro::bullet::CheckedNearRigidThreshold(beta, "btHydroelasticMultiBodyConstraintSolver::setNearRigidThreshold"));
}
void btHydroelasticMultiBodyConstraintSolver::setStictionRegularization(btScalar sigma) {
  m_stictionSigma = btScalar(hydro::bullet::CheckedStictionRegularization(
      sigma, "btHydroelasticMultiBodyConstraintSolver::setStictionRegularization"));
}

void btHydroelasticMultiBodyConstraintSolver::prepareSolve(int numBodies, int numManifolds) {
  btMultiBodyConstraintSolver::prepareSolve(numBodies, numManifolds);
  m_lastNewtonIterations = 0;
  m_lastFactorizations = 0;
  m_lastLinkPatches = 0;
}

btScalar btHydroelasticMultiBodyConstraintSolver::solveGroupCacheFriendlySetup(
    btCollisionObject** bodies, int numBodies, btPersistentManifold** manifoldPtr, int numManifolds,
    btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& infoGlobal,
    btIDebugDraw* debugDrawer) {
  // Patch manifolds become the block's patches; every other manifold goes to Bullet's rows.
  m_bulletManifolds.resize(0);
  std::vector<PatchState*>& states = m_block->manifoldStates;
  PatchRegistry::Instance().StatesOfManifolds(manifoldPtr, numManifolds, &states);
  for (int m = 0; m < numManifolds; ++m)
    if (!states[m]) m_bulletManifolds.push_back(manifoldPtr[m]);
  btMultiBodyConstraintSolver::solveGroupCacheFriendlySetup(
      bodies, numBodies, m_bulletManifolds.size() ? &m_bulletManifolds[0] : nullptr, m_bulletManifolds.size(),
      constraints, numConstraints, infoGlobal, debugDrawer);
  // After Bullet's setup, which numbers the multibodies' velocity slots afresh.
  if (setUpPatches(infoGlobal))
    m_maxOverrideNumSolverIterations = std::max(m_maxOverrideNumSolverIterations, m_minPatchSweeps);
  return 0;
}

bool btHydroelasticMultiBodyConstraintSolver::setUpPatches(const btContactSolverInfo& infoGlobal) {
  Block& block = *m_block;
  block.bodies.clear();
  block.multibodies.clear();
  block.patches.clear();
  block.settled = false;
  ++m_groupSerial;
  // Each manifold's patch state, as solveGroupCacheFriendlySetup looked them up.
  for (PatchState* state : block.manifoldStates) {
    if (!state || !hydro::bullet::TakePatch(state, m_groupSerial)) continue;
    block.patches.push_back({state, -1, -1, static_cast<int>(block.patches.size())});
  }
  std::sort(block.patches.begin(), block.patches.end(), [](const Block::Patch& a, const Block::Patch& b) {
    return hydro::bullet::SolvedBefore(*a.state, a.listed, *b.state, b.listed);
  });
  if (block.patches.empty()) return false;

  const btScalar dt = infoGlobal.m_timeStep;
  hydro::PatchProblemOptions options;
  options.near_rigid_beta = m_nearRigidBeta;
  options.stiction_sigma = m_stictionSigma;
  block.problem.Reset(dt, options);
  // Every side of every patch: a rigid body now, a link once its multibody's group is complete.
  std::map<int, int> bodyOfSolverBody;
  std::map<std::pair<const btMultiBody*, int>, std::pair<int, int>> memberOfLink;  // → (multibody, member)
  std::map<const btMultiBody*, int> indexOfMultibody;
  // Per patch side: a rigid body's problem index (multibody −1), or a link's multibody and member.
  struct Side {
    int body{-1};
    int multibody{-1}, member{-1};
  };
  std::vector<Side> sides;
  auto side_of = [&](const btCollisionObject* object) -> Side {
    const btMultiBodyLinkCollider* collider = btMultiBodyLinkCollider::upcast(object);
    if (!collider || !collider->m_multiBody) {
      const int solverBody = getOrInitSolverBody(*const_cast<btCollisionObject*>(object), dt);
      auto found = bodyOfSolverBody.find(solverBody);
      if (found == bodyOfSolverBody.end()) {
        Block::Body body;
        body.solverBody = solverBody;
        block.bodies.push_back(body);
        const int index = block.problem.AddBody(hydro::bullet::RigidPatchBody(m_tmpSolverBodyPool[solverBody]));
        found = bodyOfSolverBody.emplace(solverBody, index).first;
      }
      return {found->second, -1, -1};
    }
    btMultiBody* multibody = collider->m_multiBody;
    const auto key = std::make_pair(static_cast<const btMultiBody*>(multibody), collider->m_link);
    auto found = memberOfLink.find(key);
    if (found == memberOfLink.end()) {
      auto mb = indexOfMultibody.find(multibody);
      if (mb == indexOfMultibody.end()) {
        Block::Multibody entry;
        entry.multibody = multibody;
        block.multibodies.push_back(entry);
        mb = indexOfMultibody.emplace(multibody, static_cast<int>(block.multibodies.size()) - 1).first;
      }
      Block::Multibody& entry = block.multibodies[mb->second];
      entry.links.push_back(collider->m_link);
      entry.centres.push_back(object->getWorldTransform().getOrigin());
      found = memberOfLink.emplace(key, std::make_pair(mb->second, static_cast<int>(entry.links.size()) - 1)).first;
    }
    return {-1, found->second.first, found->second.second};
  };
  for (const Block::Patch& patch : block.patches) {
    sides.push_back(side_of(patch.state->body0));
    sides.push_back(side_of(patch.state->body1));
  }
  // Each multibody's group: its links' twists J·q̇ change by G·W for their wrenches W, G = J·M⁻¹·Jᵀ
  // (Bullet's articulated-body solve, one per row of J); G = B·Bᵀ with B = U·Λ^½ over G's range.
  btAlignedObjectArray<btScalar> row, response, scratch_r;
  btAlignedObjectArray<btVector3> scratch_v;
  btAlignedObjectArray<btMatrix3x3> scratch_m;
  for (Block::Multibody& entry : block.multibodies) {
    btMultiBody* multibody = entry.multibody;
    const int dofs = multibody->getNumDofs() + 6;
    const int k = static_cast<int>(entry.links.size());
    // Bullet's own slot for the multibody's Δq̇ during the sweeps, as its contact rows make one.
    if (multibody->getCompanionId() < 0) {
      multibody->setCompanionId(m_data.m_deltaVelocities.size());
      m_data.m_deltaVelocities.resize(m_data.m_deltaVelocities.size() + dofs);
      for (int i = 0; i < dofs; ++i) m_data.m_deltaVelocities[multibody->getCompanionId() + i] = 0;
    }
    entry.velocityIndex = multibody->getCompanionId();
    entry.J.resize(6 * k, dofs);
    Eigen::MatrixXd inverse_mass_Jt(dofs, 6 * k);
    row.resize(dofs);
    response.resize(dofs);
    for (int j = 0; j < k; ++j)
      for (int a = 0; a < 6; ++a) {
        btVector3 angular(0, 0, 0), linear(0, 0, 0);
        (a < 3 ? angular : linear)[a % 3] = 1;
        multibody->fillConstraintJacobianMultiDof(entry.links[j], entry.centres[j], angular, linear, &row[0], scratch_r,
                                                  scratch_v, scratch_m);
        multibody->calcAccelerationDeltasMultiDof(&row[0], &response[0], scratch_r, scratch_v);
        for (int i = 0; i < dofs; ++i) {
          entry.J(6 * j + a, i) = row[i];
          inverse_mass_Jt(i, 6 * j + a) = response[i];
        }
      }
    Eigen::MatrixXd G = entry.J * inverse_mass_Jt;
    G = (0.5 * (G + G.transpose())).eval();
    Eigen::MatrixXd B, W_of_z;
    FactorGroupMobility(G, &B, &W_of_z);
    // Δq̇ = M⁻¹·Jᵀ·W for the wrenches W that make the group's change Δz.
    entry.toVelocity = inverse_mass_Jt * W_of_z;
    std::vector<Vector3> centres;
    for (const btVector3& c : entry.centres) centres.push_back(hydro::bullet::ToEigen(c));
    entry.firstBody = block.problem.AddCoupledBodies(B, centres);
    for (int j = 0; j < k; ++j) {
      Block::Body body;
      body.multibody = static_cast<int>(&entry - &block.multibodies[0]);
      body.member = j;
      block.bodies.push_back(body);
    }
    entry.change.assign(dofs, 0);
  }
  auto body_index = [&](const Side& side) {
    return side.multibody < 0 ? side.body : block.multibodies[side.multibody].firstBody + side.member;
  };
  std::vector<hydro::PatchPoint> points;
  for (size_t k = 0; k < block.patches.size(); ++k) {
    Block::Patch& patch = block.patches[k];
    patch.bodyA = body_index(sides[2 * k]);
    patch.bodyB = body_index(sides[2 * k + 1]);
    if (block.bodies[patch.bodyA].multibody >= 0 || block.bodies[patch.bodyB].multibody >= 0) ++m_lastLinkPatches;
    hydro::bullet::MakePatchPoints(*patch.state, &points);
    block.problem.AddPatch(patch.bodyA, patch.bodyB, points);
  }
  // Warm start: last step's impulse of each patch, moved to A's reference point now.
  std::vector<Vector6> dV(block.bodies.size(), Vector6::Zero());
  for (size_t k = 0; k < block.patches.size(); ++k) {
    const Block::Patch& patch = block.patches[k];
    Vector6 W;
    if (hydro::bullet::WarmWrenchAbout(*patch.state, block.ReferencePoint(patch.bodyA, m_tmpSolverBodyPool), &W))
      block.problem.StartFromWrench(static_cast<int>(k), W, &dV);
  }
  block.ApplyChange(dV, &m_tmpSolverBodyPool, &m_data.m_deltaVelocities);
  return true;
}

void btHydroelasticMultiBodyConstraintSolver::solvePatches(bool alone, btScalar* residual) {
  Block& block = *m_block;
  if (block.patches.empty() || block.settled) return;
  const int n = static_cast<int>(block.bodies.size());
  std::vector<Vector6> V(n), dV;
  for (int b = 0; b < n; ++b) {
    const Block::Body& body = block.bodies[b];
    if (body.multibody < 0) {
      V[b] = hydro::bullet::CurrentTwist(m_tmpSolverBodyPool[body.solverBody]);
      continue;
    }
    const Block::Multibody& entry = block.multibodies[body.multibody];
    const int dofs = static_cast<int>(entry.J.cols());
    Eigen::VectorXd qdot(dofs);
    const btScalar* velocity = entry.multibody->getVelocityVector();
    for (int i = 0; i < dofs; ++i) qdot[i] = velocity[i] + m_data.m_deltaVelocities[entry.velocityIndex + i];
    V[b] = entry.J.middleRows(6 * body.member, 6) * qdot;
  }
  // Alone the patches are the whole problem: solved once, to convergence; among Bullet's rows a few
  // Newton steps a sweep, refined as the sweeps go.
  const int factorizations = block.problem.factorizations();
  const hydro::PatchProblemReport report =
      alone ? block.problem.Solve(V, 12, 5, &dV) : block.problem.Solve(V, 3, 1, &dV);
  m_lastNewtonIterations += report.iterations;
  m_lastFactorizations += block.problem.factorizations() - factorizations;
  block.ApplyChange(dV, &m_tmpSolverBodyPool, &m_data.m_deltaVelocities);
  block.settled = alone;
  *residual = std::max<btScalar>(*residual, report.velocity_change * report.velocity_change);
}

btScalar btHydroelasticMultiBodyConstraintSolver::solveSingleIteration(
    int iteration, btCollisionObject** bodies, int numBodies, btPersistentManifold** manifoldPtr, int numManifolds,
    btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& infoGlobal,
    btIDebugDraw* debugDrawer) {
  btScalar residual = btMultiBodyConstraintSolver::solveSingleIteration(
      iteration, bodies, numBodies, manifoldPtr, numManifolds, constraints, numConstraints, infoGlobal, debugDrawer);
  const bool alone = m_tmpSolverContactConstraintPool.size() == 0 && m_tmpSolverNonContactConstraintPool.size() == 0 &&
                     m_multiBodyNormalContactConstraints.size() == 0 && m_multiBodyNonContactConstraints.size() == 0;
  solvePatches(alone, &residual);
  return residual;
}

btScalar btHydroelasticMultiBodyConstraintSolver::solveGroupCacheFriendlyFinish(btCollisionObject** bodies,
                                                                                int numBodies,
                                                                                const btContactSolverInfo& infoGlobal) {
  Block& block = *m_block;
  for (size_t k = 0; k < block.patches.size(); ++k)
    hydro::bullet::StoreSolvedPatch(block.problem, static_cast<int>(k),
                                    block.ReferencePoint(block.patches[k].bodyA, m_tmpSolverBodyPool),
                                    block.patches[k].state);
  // Bullet writes back its own rows' impulses; the patches' share of each multibody's velocity is ours.
  for (Block::Multibody& entry : block.multibodies) entry.multibody->applyDeltaVeeMultiDof(entry.change.data(), 1);
  block.patches.clear();
  block.multibodies.clear();
  return btMultiBodyConstraintSolver::solveGroupCacheFriendlyFinish(bodies, numBodies, infoGlobal);
}
