#pragma once
// What a pair's collision algorithm keeps between steps: its manifolds, the element-pair key of
// every point it wrote (for warm starting), and the latest contact surface (for tactile queries).
// Allocated once per pair and reused: no allocation inside a step once buffers have grown.
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "adapters/shape_pair_lookup.h"
#include "hydro/contact_surface.h"
#include "hydro/point_approximation.h"
#include "hydro/point_reduction.h"
#include "plugin/separation_certificate.h"
#include "plugin/surface_reuse.h"

class btCollisionObject;
class btDispatcher;
class btHydroelasticWorldState;

namespace hydro {
namespace bullet {

// What a pair's contact computation found for a step (btHydroelasticCollisionAlgorithm::ComputeContact).
enum class PairContact : int {
  kNoPatch,         // no pressure-field contact for these shapes: Bullet's own
  kPatch,           // a patch, in `points` (possibly empty: then Bullet's contact if the shapes overlap)
  kApart,           // shown apart this step, and certified so for later steps
  kCertifiedApart,  // an earlier certificate still holds: nothing was computed
};

// A pair without solver points for this long (simulated seconds) frees its surfaces and points
// (PatchState::NoteIdleTime). Bodies that touched once while a pile fell stay neighbours in
// Bullet's broadphase, and their pairs kept the buffers of their largest patch: in a 512-body
// pile of soft meshes at 1e6 Pa, half the kept surfaces' memory 2 s in was in pairs not touching.
// Long enough that a contact that comes and goes (a body rocking or bouncing in place) keeps its
// buffers and allocates nothing.
constexpr double kIdleSecondsBeforeRelease = 1.0;

struct PatchState {
  btDispatcher* dispatcher{nullptr};
  btHydroelasticWorldState* world{nullptr};  // the settings and statistics of the pair's world
  const btCollisionObject* body0{nullptr};
  const btCollisionObject* body1{nullptr};
  // Which child of a compound shape each side is (Bullet's wrapper index), -1 for a whole shape:
  // one compound's child pairs share their bodies, and are ordered by these (SolvedBefore).
  int child0{-1};
  int child1{-1};
  std::vector<btPersistentManifold*> manifolds;
  // Emissions in a row that left manifolds unused, and the most any of them needed (TrimManifolds).
  int surplus_emissions{0};
  size_t peak_manifolds_needed{0};
  // keys[4·m + i]: the element pair of point i of manifold m.
  std::vector<std::uint64_t> keys;
  // What each element pair's point carried out of the last solve, in the order the points were
  // emitted (no allocation once warm; EmitPoints looks at the same place first, and sorts them
  // by key for a binary search at its first miss). Bullet 3.24 restarts friction rows from zero
  // whatever a point carries, so only the normal impulse warm-starts; the friction direction of a
  // point that stuck is kept (see EmitPoints).
  struct Carried {
    std::uint64_t key;
    btScalar normal_impulse;
    btVector3 friction_direction;  // zero unless the point stuck
    bool operator<(const Carried& other) const { return key < other.key; }
  };
  std::vector<Carried> warm_start;
  SurfaceReuse kept_surface;         // the last surface computed, for pairs that barely move
  int kept_max_points{0};            // the point budget its points were reduced to (0: none)
  bool friction_turns{false};        // the patch spun as fast as it slid (hydro/patch_slip.h)
  SeparationCertificate separation;  // held while the pair was found apart and has stayed so
  // The latest contact surface: world frame, A = body0, normal out of body1 into body0. A reused
  // surface is carried to the present poses only when it is read (hydroGetContactPatches); the
  // solver needs only the points.
  const ContactSurface& Surface() const {
    if (surface_carry_pending_) {
      surface_ = kept_surface.surface();
      surface_.TransformBy(surface_carry_);
      surface_carry_pending_ = false;
    }
    return surface_;
  }
  // For writing a surface computed anew (or clearing it).
  ContactSurface* MutableSurface() {
    surface_carry_pending_ = false;
    return &surface_;
  }
  // Adds a step of dt to the time the pair has gone without solver points (none now), or restarts
  // it (some now); frees the surfaces, the kept one and the points once it reaches
  // kIdleSecondsBeforeRelease. They grow again when the pair touches again.
  void NoteIdleTime(double dt) {
    if (!points.empty()) {
      idle_seconds_ = 0;
      return;
    }
    if (!(dt > 0) || idle_seconds_ >= kIdleSecondsBeforeRelease) return;  // no step, or freed already
    idle_seconds_ += dt;
    if (idle_seconds_ < kIdleSecondsBeforeRelease) return;
    kept_surface = SurfaceReuse();
    surface_ = ContactSurface();
    surface_aside_ = ContactSurface();
    surface_carry_pending_ = aside_carry_pending_ = false;
    std::vector<ContactPoint>().swap(points);
    std::vector<Vector3>().swap(points_on_B);
    std::vector<double>().swap(point_friction);
  }
  // The kept surface, carried by X, is the latest.
  void CarryKeptSurface(const RigidTransform& X) {
    surface_carry_ = X;
    surface_carry_pending_ = true;
  }
  // Exchanges the latest surface and the one set aside: sets a speculative patch's surface aside
  // while the surface at the present poses is taken beside it, and, called again, puts it back
  // (when that one comes out empty, the patch ahead is the one solved). Buffers are exchanged, not
  // copied: no allocation once both have grown.
  void SwapSurfaceAside() {
    std::swap(surface_, surface_aside_);
    std::swap(surface_carry_pending_, aside_carry_pending_);
    std::swap(surface_carry_, aside_carry_);
  }
  // The solver points made from the surface: each on body0, and points_on_B[i] the same point on
  // body1 (empty: the same place; a speculative patch is computed with body1 moved, see
  // btHydroelasticCollisionAlgorithm::processCollision). Reduced ones hold only what the solver
  // takes: the points before the reduction live in a scratch the world lends while the pair is
  // computed (plugin/compute_scratch.h).
  std::vector<ContactPoint> points;
  std::vector<Vector3> points_on_B;
  // The axis of the reduction's grid at the last step (W; zero before the first), and its cells.
  Vector3 reduction_axis_W{Vector3::Zero()};
  PointReductionWorkspace reduction_workspace;
  // The registry's word on the pair's shapes (compliance, budget, geometry), kept between steps.
  ShapePairLookup shapes;
  int num_points_emitted{0};
  double combined_friction{0};
  // Per point, when a gContactAddedCallback changed some point's friction (else empty).
  std::vector<double> point_friction;
  double combined_dissipation_s_per_m{0};
  double time_step{0};           // of the step being set up (dispatch info)
  bool fallback_contact{false};  // the wrapped Bullet algorithm's manifold may hold points
  // The last step touched at the present poses and took its surface at the free-motion poses
  // ahead (btHydroelasticCollisionAlgorithm::processCollision), with the surface at the present
  // poses beside it when that patch fell short of its support; `points` are that step's.
  bool pressed_in_ahead{false};
  bool closest_points{false};  // a query's algorithm: reports points, keeps no manifolds
  // Set by btHydroelasticConstraintSolver: the last step's net impulse on body0, [torque; force]
  // about the world point `warm_wrench_about`, to start the next step's block from.
  double warm_wrench_on_A[6] = {0, 0, 0, 0, 0, 0};
  double warm_wrench_about[3] = {0, 0, 0};
  bool has_warm_wrench{false};
  // Set by the solver: the factor its last solve scaled this patch's stiffness by (1: resolved by
  // δt; below 1: near-rigid, hydro/patch_problem.h stiffness_scale), for SurfaceReuse::Keep.
  double solved_stiffness_scale{1};
  unsigned solver_serial{0};  // which solver group took the patch last (one entry per patch)
  // Computed ahead of Bullet's dispatch (btHydroelasticCollisionDispatcher), for the pair's next
  // processCollision to emit: what was found, and how long it took (statistics timing).
  bool computed_ahead{false};
  PairContact contact_ahead{PairContact::kNoPatch};
  double seconds_ahead{0};
  // Contact surfaces computed and kept ones reused at this step, for the world's statistics (its
  // counters take one writer: processCollision adds these).
  int surfaces_computed{0}, surfaces_reused{0};

 private:
  mutable ContactSurface surface_;
  mutable bool surface_carry_pending_{false};
  RigidTransform surface_carry_{RigidTransform::Identity()};
  // The surface set aside (SwapSurfaceAside), with its carry; otherwise a spare buffer.
  ContactSurface surface_aside_;
  bool aside_carry_pending_{false};
  RigidTransform aside_carry_{RigidTransform::Identity()};
  double idle_seconds_{0};  // simulated time without solver points (NoteIdleTime)
};

// The warm-start key of a point: its two elements, and which triangle of its polygon's centroid fan
// it stands on (the fan's points share their polygon's elements), in the top three bits. Element
// indices stay far below 2²⁹, so keys of different points differ (−1, a half-space, sets all 32
// bits, and only an index of 2²⁹ or more could meet it).
inline std::uint64_t ElementPairKey(int element_A, int element_B, int fan_triangle = 0) {
  return ((static_cast<std::uint64_t>(static_cast<std::uint32_t>(element_A)) << 32) |
          static_cast<std::uint32_t>(element_B)) ^
         (static_cast<std::uint64_t>(fan_triangle & 7) << 61);
}

}  // namespace bullet
}  // namespace hydro
