#pragma once
// Elastic materials of FEM bodies (002 §V-B): Young's modulus and Poisson's ratio in, Lamé
// parameters derived; density and Rayleigh damping (002 eq. 5).
#include <string>

#include "hydro/math.h"

namespace hydro {
namespace fem {

enum class MaterialModel {
  kLinear,        // small-strain linear elasticity: not invariant to rotation
  kCorotational,  // linear corotational with the rotation lagged from the previous step (002 §V-B)
  kNeoHookean,    // compressible Neo-Hookean (fem/neo_hookean.h), stepped by Newton with line search
};

struct Material {
  double youngs_modulus_Pa{1e5};
  double poisson_ratio{0.3};
  double density_kg_per_m3{1000};
  double mass_damping_1_per_s{0};  // Rayleigh α: D = α·M + β·K
  double stiffness_damping_s{0};   // Rayleigh β
  MaterialModel model{MaterialModel::kCorotational};
};

struct LameParameters {
  double mu;      // shear modulus, E/(2(1+ν))
  double lambda;  // Eν/((1+ν)(1−2ν))
};

LameParameters ToLame(double youngs_modulus_Pa, double poisson_ratio);

// Throws InvalidInput "deformable '<body>': …" for E ≤ 0, ν outside (−1, 0.5), density ≤ 0,
// negative damping or non-finite values.
void ValidateMaterial(const Material& material, const std::string& body);

}  // namespace fem
}  // namespace hydro
