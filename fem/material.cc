#include "fem/material.h"

#include <cmath>

namespace hydro {
namespace fem {

LameParameters ToLame(double E, double nu) { return {E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu))}; }

void ValidateMaterial(const Material& m, const std::string& body) {
  const std::string who = "deformable '" + body + "': ";
  auto finite = [&](double v, const char* what) {
    if (!std::isfinite(v)) throw InvalidInput(who + what + " is not finite");
  };
  finite(m.youngs_modulus_Pa, "Young's modulus");
  finite(m.poisson_ratio, "Poisson's ratio");
  finite(m.density_kg_per_m3, "density");
  finite(m.mass_damping_1_per_s, "mass damping");
  finite(m.stiffness_damping_s, "stiffness damping");
  if (!(m.youngs_modulus_Pa > 0))
    throw InvalidInput(who + "Young's modulus must be positive (got " + std::to_string(m.youngs_modulus_Pa) + ")");
  if (!(m.poisson_ratio > -1 && m.poisson_ratio < 0.5))
    throw InvalidInput(who + "Poisson's ratio must be in (-1, 0.5) (got " + std::to_string(m.poisson_ratio) + ")");
  if (!(m.density_kg_per_m3 > 0))
    throw InvalidInput(who + "density must be positive (got " + std::to_string(m.density_kg_per_m3) + ")");
  if (m.mass_damping_1_per_s < 0 || m.stiffness_damping_s < 0) throw InvalidInput(who + "damping must not be negative");
}

}  // namespace fem
}  // namespace hydro
