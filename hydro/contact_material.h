#pragma once
// Per-geometry contact materials and the rules that combine two of them (seed 003; 001 §5.2).
#include <limits>
#include <string>

#include "hydro/math.h"

namespace hydro {

// E of a compliant shape that names none (Pa; Drake's SceneGraph default), for pressure-field
// contact: its one definition, used by the model files and checked against btHydroelasticProperties'
// default at compile time (adapters/shape_registry.cc).
constexpr double kDefaultHydroelasticModulus = 1e7;

struct ContactMaterial {
  // Defaults. Seed 003 speaks of "universal default values" without numbers; E = 1e8 Pa and
  // d = 0.32 s/m are the values Drake's compliant point contact used for them. μ = 0.5 is
  // Bullet's own btCollisionObject friction, so tagging a shape does not change how it slides.
  static constexpr double kDefaultModulus = 1e8;       // Pa
  static constexpr double kDefaultDissipation = 0.32;  // s/m
  static constexpr double kDefaultFriction = 0.5;

  double hydroelastic_modulus_Pa{kDefaultModulus};  // E of p0 = E·e; +infinity: rigid
  double hunt_crossley_dissipation_s_per_m{kDefaultDissipation};
  double mu_static{kDefaultFriction};
  double mu_dynamic{kDefaultFriction};

  // Throws InvalidInput naming `owner` and the value: E ≤ 0 or NaN (+infinity is allowed and
  // means rigid), negative or non-finite dissipation, negative or non-finite friction, and
  // μ_static < μ_dynamic (003: "the static_friction value must be greater than or equal to the
  // dynamic_friction value").
  void Validate(const std::string& owner) const;
  bool is_rigid() const { return hydroelastic_modulus_Pa == std::numeric_limits<double>::infinity(); }
};

// 003: μ = 2·μA·μB/(μA + μB) (the harmonic mean; 0 when both are 0). Used for μs and μd alike.
double CombineFriction(double mu_A, double mu_B);

// Hydroelastic dissipation of a pair by the modulus-weighted rule: each side's d weighted by the
// other side's modulus (the softer side dominates),
//   d = (E_B·d_A + E_A·d_B)/(E_A + E_B);
// a rigid side (E = ∞) contributes nothing, so compliant–rigid gives the compliant side's d.
double CombineDissipationByModulus(double modulus_A, double d_A, double modulus_B, double d_B);

// 001 eq. 5.14: χ = (χA·cA² + χB·cB²)/(cA + cB)², with the average compliances cA = LA/MA
// (eq. 5.13: characteristic length over modulus). A rigid side has c = 0.
double CombineDissipationByCompliance(double chi_A, double length_A_m, double modulus_A, double chi_B,
                                      double length_B_m, double modulus_B);

// The point-contact rules of seed 003 for bodies M and N.
struct PointContactParameters {
  double squish_M{0.5};  // sₘ = Eₙ/(Eₘ + Eₙ): the share of the deformation taken by M
  double squish_N{0.5};
  double modulus_Pa{0};           // E = sₘ·Eₘ = Eₘ·Eₙ/(Eₘ + Eₙ)
  double dissipation_s_per_m{0};  // d = sₘ·dₘ + sₙ·dₙ
};
PointContactParameters CombinePointContact(const ContactMaterial& M, const ContactMaterial& N);

// 003: the contact point C = sₙ·Mc + sₘ·Nc, where Mc is the point of M deepest in N and vice versa.
Vector3 PointContactLocation(const PointContactParameters& params, const Vector3& p_WMc, const Vector3& p_WNc);

// 003: the "corruption of the Hertz model" fₖ = 2·E·R·x gives the point stiffness k = 2·E·R for a
// characteristic radius R (m).
double PointContactStiffness(double combined_modulus_Pa, double characteristic_radius_m);

}  // namespace hydro
