#include "plugin/surface_reuse.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hydro/buffers.h"
#include "hydro/depth_sensitivity.h"
#include "hydro/point_reduction.h"

namespace hydro {
namespace bullet {
namespace {

using Kind = ShapeGeometry::Kind;

// The pressure gradient (W) of geometry g posed at X_WS in its element `element`; false for a
// rigid side.
bool PressureGradient(const ShapeGeometry& g, const RigidTransform& X_WS, int element, Vector3* grad_W) {
  const Matrix3 R_WG = (X_WS * g.X_SG).linear();
  if (g.kind == Kind::kCompliantMesh && element >= 0 && element < g.compliant_mesh->mesh().num_tets()) {
    *grad_W = R_WG * g.compliant_mesh->field().gradient(element);
    return true;
  }
  if (g.kind == Kind::kCompliantHalfSpace) {
    *grad_W = -g.compliant_half_space->gradient_magnitude() * R_WG.col(2);  // grows below its face
    return true;
  }
  return false;
}

// The edge length of a cube cut into six tets of the mesh's mean tet volume over its bounding box:
// the spacing of the field's kinks. +∞ for anything but a compliant mesh.
double ElementSize(const ShapeGeometry& g) {
  if (g.kind != Kind::kCompliantMesh) return std::numeric_limits<double>::infinity();
  const Vector3 size = 2 * g.compliant_mesh->bvh().root_box().half_size;
  return std::cbrt(6 * size.prod() / std::max(1, g.compliant_mesh->mesh().num_tets()));
}

// The geometry's largest half-size: the patch follows the smaller of two bodies when one slides
// on the other (a ball's patch moves with the ball, a box's footprint with the box). +∞ for a
// half-space.
double Reach(const ShapeGeometry& g) {
  if (g.kind == Kind::kCompliantMesh) return g.compliant_mesh->bvh().root_box().half_size.maxCoeff();
  if (g.kind == Kind::kRigidMesh) return g.rigid_mesh->bvh().root_box().half_size.maxCoeff();
  return std::numeric_limits<double>::infinity();
}

}  // namespace

void SurfaceReuse::Clear() {
  kept_ = false;
  sensitivities_current_ = false;
  a_.reset();
  b_.reset();
}

void SurfaceReuse::Keep(const std::shared_ptr<const ShapeGeometry>& a, const RigidTransform& X_WSa,
                        const std::shared_ptr<const ShapeGeometry>& b, const RigidTransform& X_WSb,
                        const ContactSurface& surface, const std::vector<ContactPoint>& points,
                        const std::vector<ContactPoint>* reduced, const std::vector<int>* merged_into, int max_points,
                        double stiffness_scale) {
  kept_ = false;
  sensitivities_current_ = false;  // ComputeSensitivities, at the first reuse
  if (points.empty() || !a || !b) return;
  if (reduced && !(merged_into && merged_into->size() == points.size())) return;
  // Mean depth d = Σ k·(−φ0)₊ / Σ k and the patch radius √(area/π).
  // With them, in the same pass, the stiffness-weighted normal Σ k·n̂ (for n̄ below).
  double stiffness = 0, force = 0, area = 0;
  Vector3 centre = Vector3::Zero(), normal = Vector3::Zero();
  for (const ContactPoint& point : points) {
    stiffness += point.stiffness_N_per_m;
    force += point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);
    area += point.area_m2;
    centre += point.area_m2 * point.p_WC;
    normal += point.stiffness_N_per_m * point.nhat_BA_W;
  }
  if (!(stiffness > 0 && force > 0 && area > 0)) return;
  const double depth = force / stiffness;
  const double patch_radius = std::sqrt(area / M_PI);
  const double length = std::min({ElementSize(*a), ElementSize(*b), patch_radius});
  const double kinks = std::sqrt(kSurfaceReuseRelativeError * length * depth);
  // The stiffness cap, lifted in the near-rigid regime (kSurfaceReuseStiffnessError).
  const double scale = stiffness_scale > 0 && stiffness_scale < 1 ? stiffness_scale : 1.0;  // NaN: 1
  const double stiffness_error = std::max(kSurfaceReuseStiffnessError, 0.5 * (1 - scale));
  tolerance_m_ = std::min(kinks, stiffness_error * depth);
  // A slide along the patch moves its rim over a strip of the rim's length P times the slide, at
  // most the rim's pressure: a relative error of slide·P/A ≤ slide·2/a, P/A at least that of a
  // disk of radius a. The depths do not change: no stiffness cap.
  // Where the points' normals disagree too much for one direction of approach (a box wedged in a
  // corner), every displacement is held to the tolerance; the displacement along any n̄ is at most
  // the whole.
  const double normal_norm = normal.norm();
  if (normal_norm > 0.5 * stiffness) {
    nbar_W_ = normal / normal_norm;
    slide_tolerance_m_ = std::max(tolerance_m_, std::min(kinks, 0.5 * kSurfaceReuseRelativeError * patch_radius));
  } else {
    nbar_W_ = Vector3::UnitZ();
    slide_tolerance_m_ = tolerance_m_;
  }
  if (!(tolerance_m_ > 0 && std::isfinite(tolerance_m_) && std::isfinite(slide_tolerance_m_))) return;
  centre_ = centre / area;
  radius_ = 0;
  for (const ContactPoint& point : points) radius_ = std::max(radius_, (point.p_WC - centre_).norm());

  a_ = a;
  b_ = b;
  X_WSa_ = X_WSa;
  X_WSb_ = X_WSb;
  surface_ = surface;
  carried_by_b_ = Reach(*b) < Reach(*a);
  half_space_ = a->is_half_space() ? 0 : b->is_half_space() ? 1 : -1;
  if (half_space_ >= 0) {
    const ShapeGeometry& h = half_space_ == 0 ? *a : *b;
    nhat_H_W_ = ((half_space_ == 0 ? X_WSa : X_WSb) * h.X_SG).linear().col(2);  // G's z: the outward normal
  }
  CopyGrowing(&all_.points, points);
  AssignGrowing(&all_.sensitivity, points.size(), Vector3::Zero().eval());
  AssignGrowing(&all_.anchor, points.size(), Vector3::Zero().eval());
  has_reduced_ = reduced != nullptr;
  if (reduced) {
    CopyGrowing(&reduced_.points, *reduced);
    CopyGrowing(&reduced_merged_into_, *merged_into);
  }
  // The fine set, when the budget's reduction is some kFineReduction times coarser than the points
  // and the patch can be given back whole: only against a half-space (a brick on a brick never is,
  // and the wall recomputes 3,600 such surfaces a step).
  const int fine_budget = reduced ? kFineReduction * std::max(max_points, static_cast<int>(reduced->size())) : 0;
  has_fine_ = reduced && half_space_ >= 0 && static_cast<int>(points.size()) > 2 * fine_budget;
  if (has_fine_) ReduceContactPoints(points, fine_budget, &fine_.points, &fine_merged_into_, nullptr, &fine_workspace_);
  kept_ = true;
}

void SurfaceReuse::ComputeSensitivities() {
  // Taken when a kept surface is first reused, not when it is kept: most kept surfaces of a pile
  // still settling are never reused (they move past their tolerance), and their sensitivities were
  // two thirds of Keep's instructions (the 1,000-brick wall's first ten steps: 432M of 687M).
  const std::vector<ContactPoint>& points = all_.points;
  for (size_t i = 0; i < points.size(); ++i) {
    const ContactPoint& point = points[i];
    // A point whose depth was bounded by the elements' overlap (hydro/depth_bound.h) moves with
    // that overlap, along the normal.
    Vector3 s;
    const double unbounded = -point.pressure_Pa / point.g_Pa_per_m;
    if (point.phi0_m > unbounded + 1e-12 * (1 + std::abs(unbounded))) {
      s = -point.nhat_BA_W;
    } else {
      Vector3 grad_A, grad_B;
      const bool compliant_A = PressureGradient(*a_, X_WSa_, point.element_A, &grad_A);
      const bool compliant_B = PressureGradient(*b_, X_WSb_, point.element_B, &grad_B);
      s = CalcDepthSensitivity(point.nhat_BA_W, point.g_Pa_per_m, compliant_A ? &grad_A : nullptr,
                               compliant_B ? &grad_B : nullptr);
    }
    all_.sensitivity[i] = s;
    all_.anchor[i] = point.p_WC;
  }
  if (has_reduced_) MergeSensitivities(points, reduced_merged_into_, &reduced_);
  if (has_fine_) MergeSensitivities(points, fine_merged_into_, &fine_);
  sensitivities_current_ = true;
}

void SurfaceReuse::MergeSensitivities(const std::vector<ContactPoint>& points, const std::vector<int>& merged_into,
                                      Points* merged) {
  // Σ k·s and Σ k·p over the points each merged point stands for, over Σ k.
  const size_t n = merged->points.size();
  AssignGrowing(&merged->sensitivity, n, Vector3::Zero().eval());
  AssignGrowing(&merged->anchor, n, Vector3::Zero().eval());
  AssignGrowing(&weight_, n, 0.0);
  for (size_t i = 0; i < points.size(); ++i) {
    const int j = merged_into[i];
    if (j < 0) continue;
    const double k = points[i].stiffness_N_per_m;
    merged->sensitivity[j] += k * all_.sensitivity[i];
    merged->anchor[j] += k * points[i].p_WC;
    weight_[j] += k;
  }
  for (size_t j = 0; j < n; ++j) {
    if (weight_[j] > 0) {
      merged->sensitivity[j] /= weight_[j];
      merged->anchor[j] /= weight_[j];
    } else {
      merged->anchor[j] = merged->points[j].p_WC;
    }
  }
}

SurfaceReuseOutcome SurfaceReuse::Reuse(const ShapeGeometry* a, const RigidTransform& X_WSa, const ShapeGeometry* b,
                                        const RigidTransform& X_WSb, std::vector<ContactPoint>* points,
                                        RigidTransform* carry, std::vector<ContactPoint>* merged_from,
                                        std::vector<int>* merged_into) {
  if (!kept_ || a != a_.get() || b != b_.get()) return SurfaceReuseOutcome::kNotReused;
  // B's motion relative to A since the surface was computed, expressed at the kept poses: a point
  // of B at p then is at M·p now, seen from A. A point p = c + r of the patch moves by
  // (M·c − c) + (R − I)·r, at most |M·c − c| + ‖R − I‖₂·radius. For a rotation by θ,
  // ‖R − I‖₂ = 2·sin(θ/2) = ‖R − I‖_F/√2 (R − I has singular values 0 and twice 2·sin(θ/2)); the
  // Frobenius norm is taken entry by entry, which stays accurate at θ of 1e-9 where 3 − tr R is
  // rounding noise.
  const RigidTransform M = X_WSa_ * X_WSa.inverse() * X_WSb * X_WSb_.inverse();
  const double spin = (M.linear() - Matrix3::Identity()).norm() / std::sqrt(2.0);
  // Along the patch's normal n̄ a point moves by n̄·(M·c − c) + ((Rᵀ − I)·n̄)·r: the part that
  // changes depths, held to the tolerance; the whole displacement (a slide, a turn about n̄) to
  // the slide tolerance.
  const Vector3 centre_moved = M * centre_ - centre_;
  const double approach =
      std::abs(nbar_W_.dot(centre_moved)) + (M.linear().transpose() * nbar_W_ - nbar_W_).norm() * radius_;
  const bool barely_moved =
      approach <= tolerance_m_ && centre_moved.norm() + spin * radius_ <= slide_tolerance_m_;  // NaN: no
  // Against a half-space H only the other body's displacement along n̂ relative to H counts: for
  // the motion N of that body relative to H, at H's kept pose, a point p = c + r moves along n̂ by
  // n̂·(N·c − c) + ((Rᵀ − I)·n̂)·r.
  RigidTransform N = RigidTransform::Identity();
  bool rests_on_half_space = false;
  if (half_space_ >= 0) {
    N = half_space_ == 0 ? M : M.inverse();
    const Vector3 tilt = N.linear().transpose() * nhat_H_W_ - nhat_H_W_;
    rests_on_half_space = std::abs(nhat_H_W_.dot(N * centre_ - centre_)) + tilt.norm() * radius_ <= tolerance_m_;
  }
  if (!barely_moved && !rests_on_half_space) return SurfaceReuseOutcome::kNotReused;
  if (!sensitivities_current_) ComputeSensitivities();
  const bool whole = has_reduced_ && !barely_moved;
  const Points& from = has_reduced_ && !whole ? reduced_ : has_fine_ ? fine_ : all_;
  // The carrier's motion takes the kept surface to the present poses.
  *carry = carried_by_b_ ? RigidTransform(X_WSb * X_WSb_.inverse()) : RigidTransform(X_WSa * X_WSa_.inverse());
  // δ: B's displacement relative to A at a point's anchor; against a half-space, its part along n̂
  // (B's approach is A's retreat), exact under the slides and turns that leave H as it was.
  // `point` holds a copy of set.points[i].
  auto move = [&](const Points& set, size_t i, ContactPoint* point) {
    const ContactPoint& kept = set.points[i];
    const Vector3& anchor = set.anchor[i];
    Vector3 delta;
    if (half_space_ < 0)
      delta = M * anchor - anchor;
    else
      delta = (half_space_ == 0 ? 1.0 : -1.0) * nhat_H_W_.dot(N * anchor - anchor) * nhat_H_W_;
    point->phi0_m = kept.phi0_m + set.sensitivity[i].dot(delta);
    point->fn0_N = point->stiffness_N_per_m * std::max(-point->phi0_m, 0.0);
    point->p_WC = *carry * kept.p_WC;
    point->nhat_BA_W = carry->linear() * kept.nhat_BA_W;
  };
  CopyGrowing(points, from.points);
  for (size_t i = 0; i < from.points.size(); ++i) move(from, i, &(*points)[i]);
  if (merged_from && merged_into) {
    merged_from->clear();
    merged_into->clear();
    if (&from == &reduced_) {
      CopyGrowing(merged_from, all_.points);
      for (size_t i = 0; i < all_.points.size(); ++i) move(all_, i, &(*merged_from)[i]);
      CopyGrowing(merged_into, reduced_merged_into_);
    }
  }
  return whole ? SurfaceReuseOutcome::kReusedWhole : SurfaceReuseOutcome::kReused;
}

}  // namespace bullet
}  // namespace hydro
