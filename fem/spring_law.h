#pragma once
// The impulse law of a weld: a zero-length implicit spring of stiffness k between a point of A and
// a point of B (002 eq. 13's spring term; bubble-gripper attachments). With v the velocity of A's
// point relative to B's over the step and gap0 the gap at its start, the gap at the end of the step
// is e = gap0 + δt·v, and
//
//   ℓ(v) = ½·k·|e|²,   γ = −∂ℓ/∂v = −δt·k·e (the impulse on A),   H = −∂γ/∂v = δt²·k·I.
#include "hydro/math.h"

namespace hydro {
namespace fem {

struct SpringLaw {
  double stiffness_N_per_m{0};      // k, ≥ 0
  double dt_s{0};                   // δt
  Vector3 gap0_W{Vector3::Zero()};  // A's point minus B's at the start of the step
};

// The gap e at the end of the step for relative velocity v.
Vector3 CalcSpringGap(const SpringLaw& law, const Vector3& v_W);
// γ on A at relative velocity v, and the curvature δt²·k of H = −∂γ/∂v = δt²·k·I if asked.
Vector3 CalcSpringImpulse(const SpringLaw& law, const Vector3& v_W, double* curvature = nullptr);
// ℓ(v), the potential whose negative gradient CalcSpringImpulse returns.
double CalcSpringPotential(const SpringLaw& law, const Vector3& v_W);

}  // namespace fem
}  // namespace hydro
