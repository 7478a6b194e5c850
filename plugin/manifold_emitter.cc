#include "plugin/manifold_emitter.h"

#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <algorithm>

#include "adapters/bullet_conversions.h"

namespace hydro {
namespace bullet {

void HarvestWarmStart(PatchState* state) {
  state->warm_start.clear();
  for (size_t m = 0; m < state->manifolds.size(); ++m) {
    const btPersistentManifold* manifold = state->manifolds[m];
    for (int i = 0; i < manifold->getNumContacts(); ++i)
      state->warm_start.emplace_back(state->keys[4 * m + i], manifold->getContactPoint(i).m_appliedImpulse);
  }
  std::sort(state->warm_start.begin(), state->warm_start.end());
}

void EmitPoints(PatchState* state) {
  const int n = static_cast<int>(state->points.size());
  const size_t needed = (n + 3) / 4;
  while (state->manifolds.size() < needed)
    state->manifolds.push_back(state->dispatcher->getNewManifold(state->body0, state->body1));
  for (btPersistentManifold* manifold : state->manifolds) manifold->clearManifold();
  state->keys.assign(4 * state->manifolds.size(), 0);
  const btTransform X_0W = state->body0->getWorldTransform().inverse();
  const btTransform X_1W = state->body1->getWorldTransform().inverse();
  for (int k = 0; k < n; ++k) {
    const ContactPoint& point = state->points[k];
    // Bullet: positionWorldOnA = positionWorldOnB + normalWorldOnB·distance, normal on B toward A.
    const btVector3 normal = ToBullet(point.nhat_BA_W);
    const btVector3 on_B = ToBullet(point.p_WC);
    const btVector3 on_A = on_B + normal * point.phi0_m;
    btManifoldPoint cp(X_0W * on_A, X_1W * on_B, normal, point.phi0_m);
    cp.m_positionWorldOnA = on_A;
    cp.m_positionWorldOnB = on_B;
    cp.m_combinedFriction = state->combined_friction;
    cp.m_combinedRollingFriction = 0;   // torsion and rolling resistance come from the patch
    cp.m_combinedSpinningFriction = 0;
    cp.m_combinedRestitution = 0;
    cp.m_partId0 = cp.m_partId1 = -1;
    cp.m_index0 = point.element_A;
    cp.m_index1 = point.element_B;
    cp.m_contactPointFlags = BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
    cp.m_combinedContactStiffness1 = point.stiffness_N_per_m;
    // Hunt–Crossley f = k·x·(1 + d·ẋ) linearized at x = −φ0: damping d·k·x = d·fn0 (N·s/m).
    cp.m_combinedContactDamping1 = state->combined_dissipation_s_per_m * point.fn0_N;
    const std::uint64_t key = ElementPairKey(point.element_A, point.element_B);
    const auto warm = std::lower_bound(state->warm_start.begin(), state->warm_start.end(), key,
                                       [](const auto& entry, std::uint64_t k) { return entry.first < k; });
    cp.m_appliedImpulse = warm != state->warm_start.end() && warm->first == key ? warm->second : 0;
    cp.m_lifeTime = 1;
    btPersistentManifold* manifold = state->manifolds[k / 4];
    const int index = manifold->addManifoldPoint(cp, /*isPredictive=*/false);
    // Four points at most per manifold and cleared first: every point gets its own slot.
    btAssert(index == k % 4);
    state->keys[k] = key;
    (void)index;
  }
  state->num_points_emitted = n;
}

void ReleaseManifolds(PatchState* state) {
  for (btPersistentManifold* manifold : state->manifolds) state->dispatcher->releaseManifold(manifold);
  state->manifolds.clear();
  state->keys.clear();
}

}  // namespace bullet
}  // namespace hydro
