#include "hydro/contact_material.h"

#include <cmath>
#include <sstream>

namespace hydro {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

void Fail(const std::string& owner, const std::string& what, double value) {
  std::ostringstream msg;
  msg << owner << ": " << what << " (got " << value << ")";
  throw InvalidInput(msg.str());
}
}  // namespace

void ContactMaterial::Validate(const std::string& owner) const {
  if (std::isnan(hydroelastic_modulus_Pa) || !(hydroelastic_modulus_Pa > 0))
    Fail(owner, "hydroelastic modulus must be positive", hydroelastic_modulus_Pa);
  if (!std::isfinite(hunt_crossley_dissipation_s_per_m) || hunt_crossley_dissipation_s_per_m < 0)
    Fail(owner, "Hunt-Crossley dissipation must be finite and non-negative", hunt_crossley_dissipation_s_per_m);
  if (!std::isfinite(mu_static) || mu_static < 0)
    Fail(owner, "static friction must be finite and non-negative", mu_static);
  if (!std::isfinite(mu_dynamic) || mu_dynamic < 0)
    Fail(owner, "dynamic friction must be finite and non-negative", mu_dynamic);
  if (mu_static < mu_dynamic) {
    std::ostringstream msg;
    msg << owner << ": static friction " << mu_static << " is less than dynamic friction " << mu_dynamic;
    throw InvalidInput(msg.str());
  }
}

double CombineFriction(double mu_A, double mu_B) {
  if (mu_A + mu_B == 0) return 0;
  return 2 * mu_A * mu_B / (mu_A + mu_B);
}

double CombineDissipationByModulus(double modulus_A, double d_A, double modulus_B, double d_B) {
  if (modulus_A == kInfinity && modulus_B == kInfinity) return 0.5 * (d_A + d_B);
  if (modulus_A == kInfinity) return d_B;
  if (modulus_B == kInfinity) return d_A;
  return (modulus_B * d_A + modulus_A * d_B) / (modulus_A + modulus_B);
}

double CombineDissipationByCompliance(double chi_A, double length_A_m, double modulus_A, double chi_B,
                                      double length_B_m, double modulus_B) {
  const double c_A = modulus_A == kInfinity ? 0 : length_A_m / modulus_A;
  const double c_B = modulus_B == kInfinity ? 0 : length_B_m / modulus_B;
  if (c_A + c_B == 0) return 0;
  return (chi_A * c_A * c_A + chi_B * c_B * c_B) / ((c_A + c_B) * (c_A + c_B));
}

PointContactParameters CombinePointContact(const ContactMaterial& M, const ContactMaterial& N) {
  const double E_M = M.hydroelastic_modulus_Pa, E_N = N.hydroelastic_modulus_Pa;
  PointContactParameters p;
  if (E_M == kInfinity && E_N == kInfinity) {
    p.squish_M = p.squish_N = 0.5;
    p.modulus_Pa = kInfinity;
  } else if (E_M == kInfinity) {
    p.squish_M = 0;
    p.squish_N = 1;
    p.modulus_Pa = E_N;
  } else if (E_N == kInfinity) {
    p.squish_M = 1;
    p.squish_N = 0;
    p.modulus_Pa = E_M;
  } else {
    p.squish_M = E_N / (E_M + E_N);
    p.squish_N = 1 - p.squish_M;
    p.modulus_Pa = E_M * E_N / (E_M + E_N);
  }
  p.dissipation_s_per_m =
      p.squish_M * M.hunt_crossley_dissipation_s_per_m + p.squish_N * N.hunt_crossley_dissipation_s_per_m;
  return p;
}

Vector3 PointContactLocation(const PointContactParameters& params, const Vector3& p_WMc, const Vector3& p_WNc) {
  return params.squish_N * p_WMc + params.squish_M * p_WNc;
}

double PointContactStiffness(double combined_modulus_Pa, double characteristic_radius_m) {
  CheckPositive(characteristic_radius_m, "point contact characteristic radius");
  return 2 * combined_modulus_Pa * characteristic_radius_m;
}

}  // namespace hydro
