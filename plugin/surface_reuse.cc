#include "plugin/surface_reuse.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hydro/buffers.h"
#include "hydro/depth_sensitivity.h"

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
  a_.reset();
  b_.reset();
}

void SurfaceReuse::Keep(const std::shared_ptr<const ShapeGeometry>& a, const RigidTransform& X_WSa,
                        const std::shared_ptr<const ShapeGeometry>& b, const RigidTransform& X_WSb,
                        const ContactSurface& surface, const std::vector<ContactPoint>& points,
                        const std::vector<ContactPoint>* reduced, const std::vector<int>* merged_into) {
  kept_ = false;
  if (points.empty() || !a || !b) return;
  if (reduced && !(merged_into && merged_into->size() == points.size())) return;
  // Mean depth d = Σ k·(−φ0)₊ / Σ k and the patch radius √(area/π).
  double stiffness = 0, force = 0, area = 0;
  Vector3 centre = Vector3::Zero();
  for (const ContactPoint& point : points) {
    stiffness += point.stiffness_N_per_m;
    force += point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);
    area += point.area_m2;
    centre += point.area_m2 * point.p_WC;
  }
  if (!(stiffness > 0 && force > 0 && area > 0)) return;
  const double depth = force / stiffness;
  const double length = std::min({ElementSize(*a), ElementSize(*b), std::sqrt(area / M_PI)});
  tolerance_m_ = std::min(std::sqrt(kSurfaceReuseRelativeError * length * depth), kSurfaceReuseStiffnessError * depth);
  if (!(tolerance_m_ > 0 && std::isfinite(tolerance_m_))) return;
  centre_ = centre / area;
  radius_ = 0;
  for (const ContactPoint& point : points) radius_ = std::max(radius_, (point.p_WC - centre_).norm());

  a_ = a;
  b_ = b;
  X_WSa_ = X_WSa;
  X_WSb_ = X_WSb;
  surface_ = surface;
  CopyGrowing(&points_, reduced ? *reduced : points);
  carried_by_b_ = Reach(*b) < Reach(*a);
  // Σ k·s and Σ k·p over the points each kept point stands for (the point itself, unreduced).
  AssignGrowing(&sensitivity_, points_.size(), Vector3::Zero().eval());
  AssignGrowing(&anchor_, points_.size(), Vector3::Zero().eval());
  AssignGrowing(&weight_, points_.size(), 0.0);
  for (size_t i = 0; i < points.size(); ++i) {
    const ContactPoint& point = points[i];
    const int j = reduced ? (*merged_into)[i] : static_cast<int>(i);
    if (j < 0) continue;
    // A point whose depth was bounded by the elements' overlap (hydro/depth_bound.h) moves with
    // that overlap, along the normal.
    Vector3 s;
    const double unbounded = -surface.polygon(point.polygon).pressure_at_centroid_Pa / point.g_Pa_per_m;
    if (point.phi0_m > unbounded + 1e-12 * (1 + std::abs(unbounded))) {
      s = -point.nhat_BA_W;
    } else {
      Vector3 grad_A, grad_B;
      const bool compliant_A = PressureGradient(*a, X_WSa, point.element_A, &grad_A);
      const bool compliant_B = PressureGradient(*b, X_WSb, point.element_B, &grad_B);
      s = CalcDepthSensitivity(point.nhat_BA_W, point.g_Pa_per_m, compliant_A ? &grad_A : nullptr,
                               compliant_B ? &grad_B : nullptr);
    }
    if (!reduced) {
      sensitivity_[i] = s;
      anchor_[i] = point.p_WC;
      continue;
    }
    sensitivity_[j] += point.stiffness_N_per_m * s;
    anchor_[j] += point.stiffness_N_per_m * point.p_WC;
    weight_[j] += point.stiffness_N_per_m;
  }
  if (reduced)
    for (size_t j = 0; j < points_.size(); ++j) {
      if (weight_[j] > 0) {
        sensitivity_[j] /= weight_[j];
        anchor_[j] /= weight_[j];
      } else {
        anchor_[j] = points_[j].p_WC;
      }
    }
  kept_ = true;
}

bool SurfaceReuse::Reuse(const ShapeGeometry* a, const RigidTransform& X_WSa, const ShapeGeometry* b,
                         const RigidTransform& X_WSb, std::vector<ContactPoint>* points, RigidTransform* carry) const {
  if (!kept_ || a != a_.get() || b != b_.get()) return false;
  // B's motion relative to A since the surface was computed, expressed at the kept poses: a point
  // of B at p then is at M·p now, seen from A. A point p = c + r of the patch moves by
  // (M·c − c) + (R − I)·r, at most |M·c − c| + ‖R − I‖₂·radius. For a rotation by θ,
  // ‖R − I‖₂ = 2·sin(θ/2) = ‖R − I‖_F/√2 (R − I has singular values 0 and twice 2·sin(θ/2)); the
  // Frobenius norm is taken entry by entry, which stays accurate at θ of 1e-9 where 3 − tr R is
  // rounding noise.
  const RigidTransform M = X_WSa_ * X_WSa.inverse() * X_WSb * X_WSb_.inverse();
  const double spin = (M.linear() - Matrix3::Identity()).norm() / std::sqrt(2.0);
  const double moved = (M * centre_ - centre_).norm() + spin * radius_;
  if (!(moved <= tolerance_m_)) return false;  // NaN: no
  // The carrier's motion takes the kept surface to the present poses.
  *carry = carried_by_b_ ? RigidTransform(X_WSb * X_WSb_.inverse()) : RigidTransform(X_WSa * X_WSa_.inverse());
  points->resize(points_.size());
  for (size_t i = 0; i < points_.size(); ++i) {
    const ContactPoint& kept = points_[i];
    ContactPoint& point = (*points)[i];
    point = kept;
    point.phi0_m = kept.phi0_m + sensitivity_[i].dot(M * anchor_[i] - anchor_[i]);
    point.fn0_N = point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);
    point.p_WC = *carry * kept.p_WC;
    point.nhat_BA_W = carry->linear() * kept.nhat_BA_W;
  }
  return true;
}

}  // namespace bullet
}  // namespace hydro
