#include "plugin/manifold_emitter.h"

#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <optional>
#include <type_traits>

#include "adapters/bullet_conversions.h"
#include "hydro/buffers.h"
#include "plugin/free_motion.h"
#include "plugin/patch_registry.h"

namespace hydro {
namespace bullet {
namespace {

// EmitPoints builds each point in place over the one it replaces.
static_assert(std::is_trivially_destructible_v<btManifoldPoint>);

// Bullet gives each point one friction row, along the point's predicted slip. When a body sticks,
// that slip is round-off plus whatever the last step left in the directions the row did not
// hold, so the row turns from step to step; on a tall block on a slope its sideways part rocks
// the block at the step rate and the block creeps downhill (measured: 1.9 mm in 2 s, 10 cm cube,
// tan θ = 0.4, μ = 0.5). A point that stuck keeps last step's direction while the predicted slip
// stays within 45° of it (either sense); otherwise, or once it slips, Bullet chooses again.
bool KeepFrictionDirection(const btVector3& direction, const btVector3& slip) {
  const btScalar cos45 = btSqrt(btScalar(0.5));
  return btFabs(direction.dot(slip)) >= cos45 * slip.length();
}

// Empties a manifold without Bullet's gContactEndedCallback: clearManifold fires it for every
// manifold that held points, and the patch's manifolds are refilled every step. A patch's contact
// ends once, when it has no points left (EmitPoints) or its pair goes (EndPatch).
void EmptyQuietly(btPersistentManifold* manifold) {
  for (int i = 0; i < manifold->getNumContacts(); ++i) manifold->clearUserCache(manifold->getContactPoint(i));
  manifold->setNumContacts(0);
}

// Bullet's gContactAddedCallback for a point just added, as btManifoldResult::addContactPoint
// calls it: when either object asks for it (CF_CUSTOM_MATERIAL_CALLBACK), with the point as stored.
// Returns whether it was called.
bool ReportAddedPoint(const PatchState& state, btManifoldPoint& point) {
  if (!gContactAddedCallback) return false;
  const int flags = state.body0->getCollisionFlags() | state.body1->getCollisionFlags();
  if (!(flags & btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK)) return false;
  const btCollisionObjectWrapper wrap0(nullptr, state.body0->getCollisionShape(), state.body0,
                                       state.body0->getWorldTransform(), -1, -1);
  const btCollisionObjectWrapper wrap1(nullptr, state.body1->getCollisionShape(), state.body1,
                                       state.body1->getWorldTransform(), -1, -1);
  gContactAddedCallback(point, &wrap0, point.m_partId0, point.m_index0, &wrap1, point.m_partId1, point.m_index1);
  return true;
}

}  // namespace

void HarvestWarmStart(PatchState* state) {
  state->warm_start.clear();
  for (size_t m = 0; m < state->manifolds.size(); ++m) {
    const btPersistentManifold* manifold = state->manifolds[m];
    for (int i = 0; i < manifold->getNumContacts(); ++i) {
      const btManifoldPoint& cp = manifold->getContactPoint(i);
      // Stuck: the friction row ended inside its bound μ·λn.
      const bool stuck = cp.m_appliedImpulse > 0 &&
                         std::abs(cp.m_appliedImpulseLateral1) < 0.99 * cp.m_combinedFriction * cp.m_appliedImpulse;
      state->warm_start.push_back(
          {state->keys[4 * m + i], cp.m_appliedImpulse, stuck ? cp.m_lateralFrictionDir1 : btVector3(0, 0, 0)});
    }
  }
}

void EmitPoints(PatchState* state) {
  const int n = static_cast<int>(state->points.size());
  if (n == 0 && state->manifolds.empty() && state->num_points_emitted == 0) {
    // Apart and holding nothing, as most of a pile's pairs are step after step: what the general
    // path below would leave, without its work (two inverse poses a pair).
    state->keys.clear();
    state->point_friction.clear();
    state->surplus_emissions = 0;
    state->peak_manifolds_needed = 0;
    return;
  }
  const size_t needed = (n + 3) / 4;
  while (state->manifolds.size() < needed) {
    state->manifolds.push_back(state->dispatcher->getNewManifold(state->body0, state->body1));
    PatchRegistry::Instance().MapManifold(state->manifolds.back(), state);
  }
  // Bullet's contact callbacks see a patch's contact start and end once, on its first manifold,
  // not its manifolds refilled every step.
  const bool had_points = state->num_points_emitted > 0;
  if (had_points && n == 0) EndPatch(state);
  for (btPersistentManifold* manifold : state->manifolds) EmptyQuietly(manifold);
  TrimManifolds(state, needed);
  // Grown geometrically (std::vector::assign grows to the size asked): a patch that gains polygons
  // a few at a time would otherwise allocate at each gain.
  AssignGrowing(&state->keys, 4 * state->manifolds.size(), std::uint64_t{0});
  state->point_friction.clear();
  const btTransform X_0W = state->body0->getWorldTransform().inverse();
  const btTransform X_1W = state->body1->getWorldTransform().inverse();
  // The bodies' free twists, taken once for the points that need their free slip.
  std::optional<FreeMotion> free_motion0, free_motion1;
  // Last step's points, in the order they were emitted (HarvestWarmStart). A kept surface emits
  // the same points in the same order, so point k's is looked for at k first; the first miss
  // sorts them for binary search. (Sorting them every step, and a search for every point, was
  // 1.9 % of BasicDemo's step at rest.)
  std::vector<PatchState::Carried>& carried = state->warm_start;
  bool carried_sorted = false;
  for (int k = 0; k < n; ++k) {
    const ContactPoint& point = state->points[k];
    // Both bodies act at the point (000 §IV): Bullet's lever arms come from the two
    // world positions, and the usual on_A = on_B + n·φ would move body A's arm by φ0 — metres for
    // a polygon whose pressure barely grows along n (a sliver on a side tet of a tilted box),
    // turning its friction into a spurious moment that rocks the body. The distance is passed on
    // its own; nothing refreshes these manifolds from the positions.
    const btVector3 nhat_BA_W = ToBullet(point.nhat_BA_W);
    const btVector3 p_WC = ToBullet(point.p_WC);
    // Written in place, slot after slot (Bullet's setNumContacts, for filling a manifold by hand):
    // four points at most per manifold, emptied above.
    btPersistentManifold* manifold = state->manifolds[k / 4];
    const int index = k % 4;
    manifold->setNumContacts(index + 1);
    btManifoldPoint& cp = manifold->getContactPoint(index);
    // Built in place (it is trivially destructible, see above): assigning a temporary copied its
    // 376 bytes again (BasicDemo at rest, 210 steps: 2,700M -> 2,677M instructions).
    new (&cp) btManifoldPoint(X_0W * p_WC, X_1W * p_WC, nhat_BA_W, point.phi0_m);
    cp.m_positionWorldOnA = p_WC;
    cp.m_positionWorldOnB = p_WC;
    cp.m_combinedFriction = state->combined_friction;
    cp.m_combinedRollingFriction = 0;  // torsion and rolling resistance come from the patch
    cp.m_combinedSpinningFriction = 0;
    cp.m_combinedRestitution = 0;
    cp.m_partId0 = cp.m_partId1 = -1;
    cp.m_index0 = point.element_A;
    cp.m_index1 = point.element_B;
    cp.m_contactPointFlags = BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
    cp.m_combinedContactStiffness1 = point.stiffness_N_per_m;
    // Hunt–Crossley f = k·x·(1 + d·ẋ) linearized at x = −φ0: damping d·k·x = d·fn0 (N·s/m).
    cp.m_combinedContactDamping1 = state->combined_dissipation_s_per_m * point.fn0_N;
    const std::uint64_t key = ElementPairKey(point.element_A, point.element_B, point.fan_triangle);
    const PatchState::Carried* warm = nullptr;
    if (!carried_sorted && static_cast<size_t>(k) < carried.size() && carried[k].key == key) {
      warm = &carried[k];
    } else {
      if (!carried_sorted) std::sort(carried.begin(), carried.end()), carried_sorted = true;
      const auto found =
          std::lower_bound(carried.begin(), carried.end(), key,
                           [](const PatchState::Carried& entry, std::uint64_t wanted) { return entry.key < wanted; });
      if (found != carried.end() && found->key == key) warm = &*found;
    }
    if (warm) {
      cp.m_appliedImpulse = warm->normal_impulse;
      if (!warm->friction_direction.isZero()) {
        // Last step's friction direction, kept while the free slip (the velocity of body 0's point
        // relative to body 1's, in the tangent plane) still runs along it.
        if (!free_motion0) {
          free_motion0.emplace(state->body0, state->time_step);
          free_motion1.emplace(state->body1, state->time_step);
        }
        const btVector3 v_WC0 = free_motion0->PointVelocity(p_WC);
        const btVector3 v_WC1 = free_motion1->PointVelocity(p_WC);
        const btVector3 that_W = warm->friction_direction - nhat_BA_W * nhat_BA_W.dot(warm->friction_direction);
        const btVector3 v_C1C0_W = v_WC0 - v_WC1;
        const btVector3 slip_W = v_C1C0_W - nhat_BA_W * nhat_BA_W.dot(v_C1C0_W);
        if (that_W.length2() > 0.25) {
          const btVector3 t_W = that_W.normalized();
          if (KeepFrictionDirection(t_W, slip_W)) {
            cp.m_lateralFrictionDir1 = t_W;
            cp.m_lateralFrictionDir2 = nhat_BA_W.cross(t_W);
            cp.m_contactPointFlags |= BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED;
          }
        }
      }
    } else {
      cp.m_appliedImpulse = 0;
    }
    cp.m_lifeTime = 1;
    state->keys[k] = key;
    // A program's callback may change a point's friction, as it may a Bullet point's; the patch
    // solvers then use that point's (MakePatchPoints).
    if (ReportAddedPoint(*state, manifold->getContactPoint(index))) {
      const btScalar friction = manifold->getContactPoint(index).m_combinedFriction;
      if (friction != state->combined_friction) {
        if (state->point_friction.empty()) AssignGrowing(&state->point_friction, n, state->combined_friction);
        state->point_friction[k] = friction;
      }
    }
  }
  state->num_points_emitted = n;
  if (!had_points && n > 0 && gContactStartedCallback) gContactStartedCallback(state->manifolds[0]);
}

void EndPatch(PatchState* state) {
  if (state->num_points_emitted > 0 && gContactEndedCallback && !state->manifolds.empty())
    gContactEndedCallback(state->manifolds[0]);
  state->num_points_emitted = 0;
}

void TrimManifolds(PatchState* state, size_t needed) {
  // Bullet's island manager sorts, and its solver visits, every manifold the dispatcher holds,
  // empty or not: a pair that once had a large patch must give back what it no longer uses. Once
  // a state has held more manifolds than it needed for kManifoldReleaseSteps emissions in a row,
  // it keeps only the most any of those emissions needed, so a patch whose size flickers does
  // not allocate and release every step.
  if (state->manifolds.size() <= needed) {
    state->surplus_emissions = 0;
    state->peak_manifolds_needed = 0;
    return;
  }
  state->peak_manifolds_needed = std::max(state->peak_manifolds_needed, needed);
  if (++state->surplus_emissions < kManifoldReleaseSteps) return;
  ReleaseManifolds(state, state->peak_manifolds_needed);
  state->surplus_emissions = 0;
  state->peak_manifolds_needed = 0;
}

void ReleaseManifolds(PatchState* state, size_t keep) {
  // Only trailing manifolds are released, and they are empty when called from TrimManifolds.
  while (state->manifolds.size() > keep) {
    btPersistentManifold* manifold = state->manifolds.back();
    EmptyQuietly(manifold);  // releaseManifold clears it, with Bullet's callback
    PatchRegistry::Instance().UnmapManifold(manifold);
    state->dispatcher->releaseManifold(manifold);
    state->manifolds.pop_back();
  }
  state->keys.resize(4 * state->manifolds.size());
}

}  // namespace bullet
}  // namespace hydro
