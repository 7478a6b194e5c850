#pragma once
// The impulse law of one FEM contact point over a step (002 eq. 13's point term): the implicit
// compliant normal law with smoothed Coulomb friction, as a function of the point's contact
// velocity, with its derivative for Newton's matrix.
//
// With n̂ the normal (out of B into A), vn = n̂·vc, vt = vc − vn·n̂ and y = −φ0 − δt·vn the
// penetration at the end of the step:
//
//   γn = δt·k·y₊,   γ = γn·n̂ − μ·γ̄n·vt/s,   s = √(|vt|² + vs²),
//
// with γ̄n the lagged normal impulse that bounds friction and vs the stiction speed below which
// friction fades linearly (the regularization of 001 eq. 5.16). H = −∂γ/∂vc is positive
// semidefinite: δt²·k·n̂n̂ᵀ while pressed, plus μ·γ̄n/s·(P − vt·vtᵀ/s²), P = I − n̂n̂ᵀ.
#include "hydro/math.h"

namespace hydro {
namespace fem {

struct ContactImpulseLaw {
  Vector3 nhat_W{Vector3::UnitZ()};
  double stiffness_N_per_m{0};  // k (after near-rigid softening)
  double phi0_m{0};             // signed distance at the start of the step (< 0: penetrating)
  double dt_s{0};
  double friction{0};                   // μ
  double stiction_speed_m_per_s{1e-4};  // vs
};

struct ContactImpulse {
  Vector3 gamma_W{Vector3::Zero()};  // the impulse on A (N·s)
  double gamma_n{0};                 // its normal part, γn
};

// γ at contact velocity vc (A's point relative to B's) with friction bounded by μ·γ̄n
// (`lagged_normal_impulse`), and H = −∂γ/∂vc if H is given.
ContactImpulse CalcContactImpulse(const ContactImpulseLaw& law, const Vector3& vc_W, double lagged_normal_impulse,
                                  Matrix3* H = nullptr);

}  // namespace fem
}  // namespace hydro
