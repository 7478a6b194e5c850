#pragma once
// The impulse law of a velocity target (a joint motor) on one generalized speed s = J·u: the
// impulse λ = clamp(c·(s_target − s), ±λ_max) drives s toward the target, as a hard constraint for
// large c and with a bounded effort. It is the negative derivative of a convex potential (a Huber
// penalty on s − s_target), so it enters the step's convex problem (002 eq. 13) like a contact:
//
//   ℓ(s) = ½·c·(s − s_target)²                          while |λ| ≤ λ_max,
//   ℓ(s) = λ_max·|s − s_target| − λ_max²/(2c)           beyond,
//
// λ = −∂ℓ/∂s, and its curvature −∂λ/∂s is c inside the bound and 0 beyond.
namespace hydro {
namespace fem {

struct VelocityTargetLaw {
  double target{0};       // s_target (m/s or rad/s)
  double stiffness{0};    // c, > 0: N·s per m/s (or N·m·s per rad/s)
  double max_impulse{0};  // λ_max ≥ 0
};

// λ at speed s, and its curvature −∂λ/∂s (c or 0) if asked.
double CalcVelocityTargetImpulse(const VelocityTargetLaw& law, double speed, double* curvature = nullptr);
// ℓ(s), the potential whose negative derivative CalcVelocityTargetImpulse returns.
double CalcVelocityTargetPotential(const VelocityTargetLaw& law, double speed);

}  // namespace fem
}  // namespace hydro
