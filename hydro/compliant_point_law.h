#pragma once
// The impulse law of one compliant contact point over a time step, as a convex potential of the
// point's contact velocity (Castro et al. 2022, "SAP"; its point law is 000 eqs. 13–16 with the
// dissipation of 001 §5.2). With vc the velocity of A's material point relative to B's, vn = n̂·vc
// its normal part (positive when separating) and vt = vc − vn·n̂:
//
//   γn = ((v̂n − vn)/Rn)₊                                    normal impulse on A (N·s)
//   γt = −vt/Rt            if |vt| ≤ Rt·μ·γ̄n  (stiction)     regularized Coulomb friction:
//   γt = −μ·γ̄n·vt/|vt|     otherwise          (sliding)      the projection of −vt/Rt on the disk
//   ℓ(vc) = ½·Rn·γn² + ℓt(vt),  ℓt = |vt|²/(2·Rt) or μ·γ̄n·(|vt| − ½·Rt·μ·γ̄n),
//
// so that γ = −∂ℓ/∂vc and H = ∂²ℓ/∂vc² ⪰ 0 (ℓ is convex and C¹; Newton's method needs no more).
//
// where, for a point of stiffness k, signed distance φ0 at the start of the step and dissipation
// time scale τd (Kelvin–Voigt: fn = −k·(φ + τd·vn)₊ at the end of the step, φ = φ0 + δt·vn):
//
//   Rn = 1/(δt·k·(δt + τd)),   v̂n = −φ0/(δt + τd),
//
// which is γn = δt·k·(−φ0 − (δt + τd)·vn)₊, the implicit point law of 000 eq. 13 when τd = 0.
// γ̄n is the normal impulse the friction is bounded by, lagged (held fixed while the potential is
// minimized, then refreshed), which keeps ℓ convex; sliding is then exact Coulomb friction, and —
// unlike the friction cone of SAP, whose convexity lifts a sliding body by μ·|vt|·δt a step (a
// sliding coin at 1 GPa would hover, far above its 0.1 nm penetration) — sliding does not push the
// bodies apart. Rt = σ·wt·K/k, wt the inverse mass the point sees tangentially and K/k the inverse
// of its share of its patch's stiffness (N for N equal points; patch_problem.h says why), lets a
// stuck patch creep at σ·|Δv| the friction impulse makes: σ = 1e-3 (SAP's) creeps 12 µm in 2 s on a
// slope at 1 ms (a 20 cm block on tan θ = 0.4, μ = 0.5; a 10 cm cube: 11–34 µm).
//
// The near-rigid regime (Castro et al. 2022 §V): a point stiffer than the step can resolve for the
// mass it sees, w the inverse of that mass along n̂ (its Delassus estimate), has its compliance
// raised to Rn = β²/(4π²)·w: its period is then β·δt instead of far shorter, the velocity it aims
// at, v̂n, is unchanged. This is what keeps a 1 GPa contact at a 1/60 s step well conditioned.
#include <algorithm>

#include "hydro/math.h"

namespace hydro {

struct CompliantPointLaw {
  Vector3 nhat_W{Vector3::UnitZ()};  // out of B into A
  double compliance_Rn{0};           // Rn (s/kg), > 0
  double target_normal_speed{0};     // v̂n (m/s)
  double friction_bound{0};          // μ·γ̄n (N·s), ≥ 0
  double compliance_Rt{1e-8};        // Rt (s/kg), > 0
};

// The factor (≤ 1) by which a point's stiffness k must be scaled for δt to resolve it, with the
// near-rigid threshold β of SAP (Castro et al. 2022): its compliance 1/(δt·k·(δt + τd)) is at
// least β²·wn/(4π²), the compliance of a spring whose period is β·δt for inverse mass wn. 1 when
// β = 0 or when k is resolved already.
double NearRigidScale(double stiffness_N_per_m, double dt_s, double dissipation_time_s, double inverse_mass_wn,
                      double beta);

// The same rule for a whole patch, softened uniformly (patch_problem.cc says why): the factor (≤ 1)
// for every point's stiffness so that the patch, of horizon stiffness Σ k_i·(δt + τd_i)/δt, has a
// period of at least β·δt/kPatchPeriodDivisor for the inverse mass w it sees at its centre of
// stiffness along its mean normal.
constexpr double kPatchPeriodDivisor = 4;
double PatchNearRigidScale(double horizon_stiffness_N_per_m, double dt_s, double inverse_mass_w, double beta);

// Builds the law of a point with stiffness k (N/m) and signed distance φ0 (m) over a step δt (s),
// with dissipation time scale τd (s) and near-rigid threshold β (0 turns the regime off), where wn
// and wt (1/kg) are the inverse masses the point sees along its normal and tangentially, and σ
// the stiction regularization. The friction bound is left at 0. `near_rigid`, if given, tells
// whether the regime applied.
CompliantPointLaw MakeCompliantPointLaw(const Vector3& nhat_W, double stiffness_N_per_m, double phi0_m, double dt_s,
                                        double dissipation_time_s, double inverse_mass_wn, double inverse_mass_wt,
                                        double beta, double sigma, bool* near_rigid = nullptr);

// The curvature CalcPointImpulse gives a sliding point: (μ·γ̄n/|vt|)·(P − (1 − w)·t̂·t̂ᵀ), P the
// tangent plane's projector, t̂ = vt/|vt| and w = `along_slip` ∈ [0, 1] the share kept along t̂.
// Exact() (w = 0) is ℓ's, none along t̂ since the friction is constant while sliding. Majorizing()
// (w = 1) is the curvature of the quadratic that touches ℓt at vt and lies above it everywhere
// (μ·γ̄n·|v| ≤ μ·γ̄n·(|vt|² + |v|²)/(2·|vt|)): iteratively reweighted least squares. Newton's
// model with the exact curvature sees no friction change until a sliding point reaches stick, so
// a step that stops many sliding points overshoots through their stick disks (steps of
// 0.005–0.03 along it in a landing pile); the majorizing one aims at vt = 0, and its steps are
// taken whole, but converges only linearly. A share in between is still positive semidefinite,
// so Newton's step with it is still a descent direction for the exact line search.
struct SlipCurvature {
  double along_slip{0};  // w
  static constexpr SlipCurvature Exact() { return {0}; }
  static constexpr SlipCurvature Majorizing() { return {1}; }
};
// γ on A at contact velocity vc (world), and H = −∂γ/∂vc if H is given (for a sliding point, per
// `slip`). Returns γn in *gamma_n.
Vector3 CalcPointImpulse(const CompliantPointLaw& law, const Vector3& vc_W, double* gamma_n, Matrix3* H = nullptr,
                         SlipCurvature slip = SlipCurvature::Exact());

// H = −∂γ/∂vc by its parts, for every slip rule at once:
//   H = b·I + (a − b)·n̂·n̂ᵀ − (1 − w)·s·t̂·t̂ᵀ,
// a = 1/Rn while the point presses (0 apart); stuck, b = 1/Rt (0 without friction) and s = 0;
// sliding, b = s = μ·γ̄n/|vt|, t̂ = vt/|vt|. Each term has rank one or is a multiple of I, so the
// patch problem sums Jᵀ·H·J over a patch with outer products of r × n̂ and r × t̂ instead of 3 × 3
// matrix products, and picks w after the sums.
struct PointCurvature {
  double b{0}, a_minus_b{0}, slip{0};
  Vector3 t_W{Vector3::Zero()};
};
// γ as CalcPointImpulse gives it, and H's parts in *curvature if it is given (null: γ alone, the
// gradient's pass over the points without a call through the Matrix3 form).
Vector3 CalcPointImpulseAndCurvature(const CompliantPointLaw& law, const Vector3& vc_W, double* gamma_n,
                                     PointCurvature* curvature);

// γn alone, as CalcPointImpulse computes it: what the friction bounds μ·γn are refreshed from,
// a pass over every point that needs neither the friction nor a call.
inline double CalcPointNormalImpulse(const CompliantPointLaw& law, const Vector3& vc_W) {
  return std::max((law.target_normal_speed - law.nhat_W.dot(vc_W)) / law.compliance_Rn, 0.0);
}

// ℓ(vc), the potential whose negative gradient CalcPointImpulse returns.
double CalcPointPotential(const CompliantPointLaw& law, const Vector3& vc_W);

}  // namespace hydro
