#include "plugin/patch_block.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <string>

#include "adapters/bullet_conversions.h"

namespace hydro {
namespace bullet {

int CheckedMinPatchSweeps(int sweeps, const char* setter) {
  if (sweeps < 0) throw InvalidInput(std::string(setter) + ": " + std::to_string(sweeps) + " sweeps (need ≥ 0)");
  return sweeps;
}

double CheckedNearRigidThreshold(double beta, const char* setter) {
  CheckNonNegative(beta, std::string(setter) + ": near-rigid threshold beta");
  return beta;
}

double CheckedStictionRegularization(double sigma, const char* setter) {
  CheckPositive(sigma, std::string(setter) + ": stiction regularization sigma");
  return sigma;
}

bool SolvedBefore(const PatchState& a, int listed_a, const PatchState& b, int listed_b) {
  const int a0 = a.body0->getWorldArrayIndex(), b0 = b.body0->getWorldArrayIndex();
  if (a0 != b0) return a0 < b0;
  const int a1 = a.body1->getWorldArrayIndex(), b1 = b.body1->getWorldArrayIndex();
  if (a1 != b1) return a1 < b1;
  if (a.child0 != b.child0) return a.child0 < b.child0;
  if (a.child1 != b.child1) return a.child1 < b.child1;
  return listed_a < listed_b;
}

bool TakePatch(PatchState* state, unsigned serial) {
  if (state->solver_serial == serial) return false;
  state->solver_serial = serial;
  if (state->points.empty()) {
    state->has_warm_wrench = false;
    state->solved_stiffness_scale = 1;
    return false;
  }
  return true;
}

PatchBody RigidPatchBody(const btSolverBody& body) {
  PatchBody side;
  side.p_WC = ToEigen(body.m_worldTransform.getOrigin());
  const btRigidBody* rb = body.m_originalBody;
  if (rb && rb->getInvMass() > 0) {
    side.mobility = RigidBodyMobility(ToEigen(rb->getInvInertiaTensorWorld()), rb->getInvMass(),
                                      ToEigen(rb->getAngularFactor()), ToEigen(rb->getLinearFactor()));
  }
  return side;
}

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

void MakePatchPoints(const PatchState& state, std::vector<PatchPoint>* points) {
  points->resize(state.points.size());
  for (size_t i = 0; i < state.points.size(); ++i) {
    const ContactPoint& p = state.points[i];
    PatchPoint& q = (*points)[i];
    q.p_WQ = p.p_WC;
    q.p_WQ_B = i < state.points_on_B.size() ? state.points_on_B[i] : p.p_WC;
    q.nhat_BA_W = p.nhat_BA_W;
    q.stiffness_N_per_m = p.stiffness_N_per_m;
    q.phi0_m = p.phi0_m;
    // Hunt–Crossley f = k·x·(1 + d·ẋ) linearized at x = −φ0: a damper d·k·x, time scale d·x.
    q.dissipation_time_s = state.combined_dissipation_s_per_m * std::max(-p.phi0_m, 0.0);
    q.friction = i < state.point_friction.size() ? state.point_friction[i] : state.combined_friction;
  }
}

bool WarmWrenchAbout(const PatchState& state, const Vector3& c_A, Vector6* W_A) {
  if (!state.has_warm_wrench) return false;
  for (int j = 0; j < 6; ++j) (*W_A)[j] = state.warm_wrench_on_A[j];
  const Vector3 about(state.warm_wrench_about[0], state.warm_wrench_about[1], state.warm_wrench_about[2]);
  W_A->head<3>() += (about - c_A).cross(W_A->tail<3>());
  return true;
}

void StoreSolvedPatch(const PatchProblem& problem, int patch, const Vector3& c_A, PatchState* state) {
  const Vector6 W = problem.WrenchOnA(patch);
  for (int j = 0; j < 6; ++j) state->warm_wrench_on_A[j] = W[j];
  for (int j = 0; j < 3; ++j) state->warm_wrench_about[j] = c_A[j];
  state->has_warm_wrench = true;
  state->solved_stiffness_scale = problem.stiffness_scale(patch);
  const int n = problem.num_points(patch);
  for (int i = 0; i < n && static_cast<size_t>(i / 4) < state->manifolds.size(); ++i) {
    btPersistentManifold* manifold = state->manifolds[i / 4];
    if (i % 4 >= manifold->getNumContacts()) continue;
    btManifoldPoint& cp = manifold->getContactPoint(i % 4);
    const Vector3& gamma = problem.impulse(patch, i);
    const Vector3 n_W = state->points[i].nhat_BA_W;
    const double gn = gamma.dot(n_W);
    const Vector3 gt = gamma - gn * n_W;
    cp.m_appliedImpulse = gn;
    const double gt_norm = gt.norm();
    cp.m_appliedImpulseLateral1 = gt_norm;
    cp.m_appliedImpulseLateral2 = 0;
    if (gt_norm > 0) cp.m_lateralFrictionDir1 = ToBullet(Vector3(gt / gt_norm));
  }
}

}  // namespace bullet
}  // namespace hydro
