#pragma once
// Spatial coherence: a pair whose bodies' relative pose has barely changed since its contact
// surface was computed keeps that surface, carried with its bodies, and moves each solver point's
// distance φ0 to first order in the relative motion (hydro/depth_sensitivity.h), instead of
// clipping its elements again. A pile at rest at 60 Hz moves nanometres a step; its surfaces were
// two thirds of the step.
//
// Error bound. Inside each pair of elements both fields are linear, so the update is exact to
// first order: what it misses comes from the surface's region changing (its rim, where the
// pressure is zero on a compliant side, so the missed force is second order) and from points that
// cross a kink of the piecewise-linear field (element size h apart). With every point displaced by
// at most δ relative to the other body, both are O(|∇p|·δ²) per unit length of rim or kink,
// against a patch force of about |∇p|·d per unit area at mean depth d: a relative error of
// about δ²/(ℓ·d), ℓ = min(h, patch radius). The surface is therefore reused while every point's
// relative displacement since it was computed is below
//
//   δ_max = min(√(ε·ℓ·d), ε_K·d),  ε = kSurfaceReuseRelativeError, ε_K = kSurfaceReuseStiffnessError,
//
// measured in surface_reuse_test against surfaces computed anew (force, moment, stiffness).
//
// That bound is for the displacement along the patch's normal n̄, which changes depths. A slide
// along the patch, or a turn about n̄, changes no depth: it moves the patch's rim over a strip of
// the rim's length P times the slide, where the pressure is at most the rim's, a relative error of
// at most slide·P/A ≤ slide·2/a for a patch of area A = π·a² (a disk has the least rim). The whole
// displacement is therefore held to the slide tolerance min(√(ε·ℓ·d), ε·a/2) (and never below
// δ_max). A box at rest on another at 60 Hz creeps by turning about n̄, 2–3 µrad in 30 steps: with
// one tolerance for all motion (0.35–0.7 µm there), BasicDemo's block recomputed a layer's 25
// surfaces every 10–60 steps, 30 % of its instructions; with the slide tolerance (5.6 µm), 25 in
// 600 steps. The displacement is measured from the poses the surface was computed at, so errors do
// not build up over steps. Points ride with the smaller body, whose footprint bounds the patch when one slides
// on the other. A surface's pressures stay those computed;
// the solver points carry the update.
//
// A half-space (a ground plane, tagged or not) is unchanged by slides along its face and turns
// about its normal n̂, so the surface of a body on it, in that body's frame, depends only on the
// plane's height and tilt there. Against a half-space only the motion that changes those counts:
// every point's displacement along n̂, relative to the half-space. A coin that slides and spins on
// the ground keeps its surface while it neither rises, sinks nor rocks by more than the tolerance.
// Once it has slid or turned further than the tolerance, its points are given back whole, to be
// reduced anew (when the solver takes them reduced): as a fine reduction made at Keep, with
// kFineReduction times the budget's points (the 1 GPa coin at hint R/8: 1,951 polygons, 256 fine
// cells at most, 64 points), so that a step re-poses and reduces a few hundred points, not thousands.
// Measured on that coin as it mostly spins (ε0 = 0.1, 64 points, tests/plugin/coin_test.cc): with
// the reduced points kept fixed on the coin ε came out 4.6 % and 7.7 % low at u < 5 % and 2 %
// (their grid turns with the coin, and aliases with its slip; hydro/point_reduction.h now holds a
// round patch's grid still); reduced anew each step from the fine set, 0.3 % low and 0.04 % high
// (rigid coin) and 0.7 % and 0.4 % low (compliant coin), against 1.7 % and 3.1 % low with whole
// patches; from all the points each step, 2.3 % and 2.7 % (rigid), 2.6 % and 3.0 % (compliant).
// (Measured with one point a polygon; the compliant coin's points now stand on its polygons' fans,
// plugin/pair_contact.h, and coin_test's bounds still hold.)
#include <memory>
#include <vector>

#include "adapters/shape_geometry.h"
#include "hydro/contact_surface.h"
#include "hydro/point_approximation.h"
#include "hydro/point_reduction.h"

namespace hydro {
namespace bullet {

// A patch given back whole after a slide along a half-space is given as a fine reduction of its
// points, made once at Keep with this many times the budget's points, for the budget's reduction
// to start from (when the points are more than twice that many).
constexpr int kFineReduction = 4;

// ε of the tolerance δ_max = √(ε·ℓ·d) above.
constexpr double kSurfaceReuseRelativeError = 1e-4;
// The patch's stiffness Σk = Σ g·A is not updated: where its region grows with depth (a ball's
// patch, a tilted face's wedge) it is off by up to about δ/d, so δ_max ≤ this · d as well. In the
// near-rigid regime the solver replaces the patch's total stiffness by its own (it scales it by
// s < 1, hydro/patch_problem.h stiffness_scale), and the error counts only where it would take the
// patch out of that regime: where the true stiffness has fallen below s times the kept one. A
// surface lifted by δ loses at most about δ/d_max of its stiffness (a ball's patch or a wedge grows
// with its deepest point, d_max ≥ d), so δ_max ≤ max(this, ½·(1 − s))·d keeps it in the regime
// with a margin of two or more, also for s the last solve's. (An allowance of ½·(1/s − 1)·d,
// unbounded as s → 0, would not: it exceeds that margin for s below ¼.) The 1 GPa coin (depth
// 10 µm at 1 ms steps) was computed anew every nine steps under the cap of 0.2 µm, against once in
// 7,000 steps under the kinks' 1.1 µm.
constexpr double kSurfaceReuseStiffnessError = 0.02;

enum class SurfaceReuseOutcome {
  kNotReused,
  kReused,       // the points as kept: reduced if Keep was given them so
  kReusedWhole,  // every point of the kept surface, to be reduced anew (slid along a half-space)
};

class SurfaceReuse {
 public:
  // Forgets the kept surface.
  void Clear();

  // Keeps the surface and points computed for geometry a posed at X_WSa and b at X_WSb
  // (CalcPairSurface, MakeContactPoints, BoundPointDepths). An empty surface is not kept: the
  // slightest approach may give it polygons. When the solver takes the points reduced
  // (hydro/point_reduction.h), `reduced` and `merged_into` are ReduceContactPoints' output for
  // `points`: the reduced points are kept, each moving its φ0 by its points' stiffness-weighted
  // sensitivity at their stiffness-weighted centre, which is exact while its points' gradients
  // agree and all of them press (a box's face on the ground) and within the bound above otherwise.
  // `max_points` is the budget `reduced` was made for (0: its size); the fine set is made for
  // kFineReduction times it, not times the points `reduced` came out with: a coin kept while its
  // side wall touched reduced to 49 points of 64, and a fine set of 153 points re-reduced to 64
  // each step aliased with its slip (ε 10 % low at u < 2 %, against 0.04 % with 244).
  // `stiffness_scale` is the factor the solver last scaled the pair's patch by (1 if none, or if
  // δt resolved it), which sets the stiffness cap of the tolerance (kSurfaceReuseStiffnessError).
  void Keep(const std::shared_ptr<const ShapeGeometry>& a, const RigidTransform& X_WSa,
            const std::shared_ptr<const ShapeGeometry>& b, const RigidTransform& X_WSb, const ContactSurface& surface,
            const std::vector<ContactPoint>& points, const std::vector<ContactPoint>* reduced = nullptr,
            const std::vector<int>* merged_into = nullptr, int max_points = 0, double stiffness_scale = 1);

  // When a kept surface belongs to these geometries and no point of it has moved more than the
  // tolerance relative to the other body since (along a half-space's normal, against one), writes
  // its updated points and the rigid motion that carries the kept surface to the present poses
  // (`surface()`, for whoever reads it; the solver does not), and says which points it wrote;
  // otherwise returns kNotReused and changes nothing. The motion is bounded over a sphere about
  // the patch that holds all its points, which over-estimates it at most twofold. The points'
  // sensitivities are worked out at the first reuse of a kept surface, not when it is kept. When
  // the points written are the reduced ones (kReused) and `merged_from` and `merged_into` are
  // given, every kept point is written there too, updated alike, with the reduced point each
  // went into (ReduceContactPoints' output): for a caller that judges the merged points by their
  // own points at other poses. Otherwise they are left empty.
  SurfaceReuseOutcome Reuse(const ShapeGeometry* a, const RigidTransform& X_WSa, const ShapeGeometry* b,
                            const RigidTransform& X_WSb, std::vector<ContactPoint>* points, RigidTransform* carry,
                            std::vector<ContactPoint>* merged_from = nullptr, std::vector<int>* merged_into = nullptr);

  bool has_surface() const { return kept_; }
  // The largest displacement of a point along the patch's normal, and in all (a slide along the
  // patch, a turn about its normal), for which the kept surface is reused.
  double tolerance_m() const { return tolerance_m_; }
  double slide_tolerance_m() const { return slide_tolerance_m_; }
  // The patch's normal (W, at the kept poses): its points' normals weighted by their stiffness.
  const Vector3& normal() const { return nbar_W_; }
  // The surface as kept, at the poses given to Keep.
  const ContactSurface& surface() const { return surface_; }

 private:
  std::shared_ptr<const ShapeGeometry> a_, b_;
  RigidTransform X_WSa_{RigidTransform::Identity()}, X_WSb_{RigidTransform::Identity()};
  ContactSurface surface_;
  // The points, each with ∂φ0/∂δ and where δ is measured (W at the kept poses; both filled in by
  // ComputeSensitivities): all of them, and the reduced ones (empty when Keep was given none),
  // theirs stiffness-weighted over the points each merges.
  struct Points {
    std::vector<ContactPoint> points;
    std::vector<Vector3> sensitivity, anchor;
  };
  // Every kept point's sensitivity and anchor, then the reduced and fine sets' (MergeSensitivities),
  // from the surface, points and poses as kept.
  void ComputeSensitivities();
  // Writes each merged point's stiffness-weighted sensitivity and anchor over the points it
  // stands for (merged_into, ReduceContactPoints'), from all_'s.
  void MergeSensitivities(const std::vector<ContactPoint>& points, const std::vector<int>& merged_into, Points* merged);

  Points all_, reduced_, fine_;
  bool has_reduced_{false}, has_fine_{false};
  bool sensitivities_current_{false};  // for the surface kept: ComputeSensitivities has run since Keep
  // Which reduced (fine) point each of all_'s points joined, or −1 (ReduceContactPoints').
  std::vector<int> reduced_merged_into_, fine_merged_into_;
  PointReductionWorkspace fine_workspace_;  // the fine reduction's cells
  std::vector<double> weight_;              // scratch: the stiffness each merged point stands for
  Vector3 centre_{Vector3::Zero()};         // of a sphere that holds every point of the patch
  double radius_{0};
  bool carried_by_b_{false};
  // 0 or 1 when geometry a or b is a half-space, −1 otherwise; its outward normal (W) at the kept
  // poses.
  int half_space_{-1};
  Vector3 nhat_H_W_{Vector3::UnitZ()};
  Vector3 nbar_W_{Vector3::UnitZ()};
  double tolerance_m_{0}, slide_tolerance_m_{0};
  bool kept_{false};
};

}  // namespace bullet
}  // namespace hydro
