#pragma once
// The discrete approximation of a contact surface for velocity-level solvers (000 §IV): every
// polygon becomes one compliant point at its centroid (000 §III-B's polygonal tessellation), or one
// per triangle of its centroid fan (001 §5, Fig. 5.1; 000 §III-B's triangular one), each triangle
// standing for a polygon of its own below.
//
//   g  = gA·gB/(gA + gB)   effective pressure gradient along the normal (000 eq. 23); a rigid
//                          side has g = ∞, so g is the compliant side's gradient
//   k  = g·A               stiffness (N/m)                                   (000 eq. 16)
//   φ0 = −p0(centroid)/g   signed distance, negative in penetration          (000 eq. 16)
//   fn = (−k·(φ0 + δt·vn))₊ normal force after a step with separation speed vn (000 eqs. 13–15)
//
// so that k·(−φ0) = A·p0(centroid), the polygon's exact elastic force (000 eq. 12). Polygons
// where gA ≤ 0 or gB ≤ 0 are dropped: pushing into them would lower the force (000 §IV-A).
#include <vector>

#include "hydro/contact_surface.h"

namespace hydro {

struct ContactPoint {
  Vector3 p_WC{Vector3::Zero()};        // the polygon's centroid, or its fan triangle's
  Vector3 nhat_BA_W{Vector3::UnitZ()};  // out of B into A
  double stiffness_N_per_m{0};
  double phi0_m{0};
  double fn0_N{0};  // force at φ0: A·p0 at p_WC
  double area_m2{0};
  double g_Pa_per_m{0};
  int element_A{-1};
  int element_B{-1};
  int fan_triangle{0};    // which triangle of the polygon's centroid fan (the fans), else 0
  double pressure_Pa{0};  // p0 at p_WC, before any bound on the depth: φ0 = −pressure_Pa/g unbounded
};

// Where a polygon's points stand. One point carries no stiffness against rocking about itself,
// and its force acts at the polygon's area centroid, not its centre of pressure. The fan keeps the
// polygon's force and stiffness, spreads the stiffness over the polygon, and brings the moment of a
// linear pressure nearer (3 % off on a 2:1 rectangle, against 10 %), for three to six times the
// points. Where a patch is a few polygons (a soft ball on a plane: slices of a tet mesh, as large
// as its elements), one point a polygon rolled a faceted 0.1 m ball at 1e6 Pa from facet to facet
// at 60 Hz, gaining up to 2.4e-3 J/kg a step with 16-point patches (2.5e-3 whole); the fan's
// points did not (tests/plugin/stiff_scenes_test.cc). Which of the fan's differences matters
// there is not pinned down.
//
// The scaled fan spreads only polygons that hold a large share of their patch's stiffness: a
// polygon's own second moment of stiffness about its centroid, which its centroid point leaves
// out, is about kᵢ·Aᵢ/(2π) (a disk's) and the patch's at least about K·A/(2π), so polygons under a
// share s of the patch's stiffness K leave out at most about a fraction s of the patch's
// (Σ kᵢ² ≤ s·K², for equal gradients); and a patch reduced to 16 points merges each sixteenth of
// it into one point anyway. It draws each polygon's fan points toward its centroid by
// w = clamp((sᵢ − s_none)/(s_full − s_none), 0, 1) of its share sᵢ = kᵢ/K: point c + w·(tⱼ − c),
// pressure p(c) + w·(p̄ⱼ − p(c)), area Aⱼ. Force and stiffness stay the polygon's for every w
// (Σ Aⱼ·tⱼ = A·c, p linear), the gain of its moment over the centroid point's is w² times the
// fan's; at w = 0 the points coincide at c and are the centroid point, so one is made, and w
// changes continuously as polygons grow and shrink. That this keeps what the fan fixed is
// measured, not derived: with 16-point patches the ball above rested in every orientation tried;
// with whole patches it was still rolling after 5 s in 7 of 16, against 2 with the whole fan
// (plugin/pair_contact.h).
constexpr double kFanShareNone = 0.01;  // s_none: polygons under 1 % of the patch are one point
constexpr double kFanShareFull = 0.04;  // s_full: above 4 %, the whole fan
enum class PointQuadrature {
  kPolygonCentroid,    // one point at the polygon's centroid
  kTriangleFan,        // one point at the centroid of each triangle (c, vᵢ, vᵢ₊₁) of the polygon's fan
  kScaledTriangleFan,  // the fan drawn toward the centroid by the polygon's share of the patch
};

// Effective gradient of two sides in series (000 eq. 23); infinity stands for a rigid side.
double EffectiveGradient(double grad_A, double grad_B);

// Clears *points and fills it with the points of every usable polygon, in the surface's order.
// Reuses the vector's storage.
void MakeContactPoints(const ContactSurface& surface, std::vector<ContactPoint>* points,
                       PointQuadrature quadrature = PointQuadrature::kPolygonCentroid);

// (−k·(φ0 + δt·vn))₊: the point's force after a step of length dt with separation speed vn.
double CalcPointForceAfterStep(const ContactPoint& point, double vn_m_per_s, double dt_s);

}  // namespace hydro
