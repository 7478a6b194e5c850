#pragma once
// The continuous contact wrench (001 Algorithm 1, §5.2; 004 eqs. 4–7): traction integrated over
// the contact surface by quadrature on the centroid fan of each polygon (001 Fig. 5.1), with
// Hunt–Crossley dissipation and regularized Coulomb friction:
//   p   = p0·max(1 − d·vn, 0)                   (001 eq. 5.12; vn = separation speed)
//   t_f = −μ·p·v_t / max(|v_t|, v_c)            (001 eq. 5.16; v_t = slip of A relative to B)
//   f_A = ∫ (p·nhat + t_f) dA,  τ_A = ∫ (r − p_WO) × (p·nhat + t_f) dA
// Each fan triangle uses the 3-point edge-midpoint rule, exact for the quadratic integrands of
// the frictionless static case (001 §5.0.3).
#include "hydro/contact_surface.h"

namespace hydro {

// Rigid-body velocity: the velocity of a point Q is v_WP + w_W × (p_WQ − p_WP).
struct SpatialVelocity {
  Vector3 w_W{Vector3::Zero()};
  Vector3 v_WP{Vector3::Zero()};
  Vector3 p_WP{Vector3::Zero()};
  Vector3 VelocityAt(const Vector3& p_WQ) const { return v_WP + w_W.cross(p_WQ - p_WP); }
};

struct ContactTractionParameters {
  double dissipation_s_per_m{0};        // d (001: χ), ≥ 0
  double friction{0};                   // μ, ≥ 0
  double stiction_speed_m_per_s{1e-4};  // v_c of 001 eq. 5.16, > 0
};

struct ContactWrench {
  Vector3 f_A_W{Vector3::Zero()};    // force on A (B gets −f_A_W)
  Vector3 tau_A_W{Vector3::Zero()};  // torque on A about p_WO
  double normal_force_N{0};          // ∫ p dA (with dissipation)
  double area_m2{0};
  // Centre of pressure: the p-weighted mean of the quadrature points; meaningful when
  // normal_force_N > 0.
  Vector3 p_WCoP{Vector3::Zero()};
};

// Throws InvalidInput for negative or non-finite parameters or velocities.
ContactWrench CalcContactWrench(const ContactSurface& surface, const SpatialVelocity& V_WA, const SpatialVelocity& V_WB,
                                const ContactTractionParameters& params, const Vector3& p_WO = Vector3::Zero());

}  // namespace hydro
