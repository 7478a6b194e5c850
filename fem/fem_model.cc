#include "fem/fem_model.h"

#include <string>
#include <utility>

#include "hydro/compact_vertices.h"

namespace hydro {
namespace fem {

FemModel::FemModel(std::string name, std::vector<Vector3> rest_positions, std::vector<Tet> tets,
                   const Material& material, MassModel mass_model)
    : name_(std::move(name)), material_(material), mass_model_(mass_model) {
  ValidateMaterial(material, name_);
  // The core's mesh checks (finite coordinates, indices, distinct corners, positive volume),
  // reported for this body.
  try {
    const VolumeMesh check(rest_positions, tets);
  } catch (const InvalidInput& e) {
    throw InvalidInput("deformable '" + name_ + "': " + e.what());
  }
  // A vertex no tet uses would be a DoF with no mass and no stiffness.
  const int dropped = CompactVertices(&rest_positions, &tets);
  if (dropped > 0)
    warnings_.push_back("deformable '" + name_ + "': " + std::to_string(dropped) +
                        " vertices no tet uses were dropped");
  rest_ = std::move(rest_positions);
  tets_ = std::move(tets);
  const LameParameters lame = ToLame(material.youngs_modulus_Pa, material.poisson_ratio);
  lumped_mass_.assign(rest_.size(), 0.0);
  for (const Tet& t : tets_) {
    Matrix3 Dm;
    for (int i = 0; i < 3; ++i) Dm.col(i) = rest_[t[i + 1]] - rest_[t[0]];
    const double volume = Dm.determinant() / 6;
    volumes_.push_back(volume);
    shape_gradients_.push_back(CalcShapeGradients(Dm.inverse()));
    element_stiffness_.push_back(CalcElementStiffness(shape_gradients_.back(), volume, lame));
    for (int v : t) lumped_mass_[v] += material.density_kg_per_m3 * volume / 4;
  }
}

Vector12 FemModel::RestCoordinates(int e) const {
  Vector12 X_e;
  for (int a = 0; a < 4; ++a) X_e.segment<3>(3 * a) = rest_[tets_[e][a]];
  return X_e;
}

Matrix3 FemModel::CalcDmInverse(int e) const {
  const std::array<Vector3, 4>& g = shape_gradients_[e];
  Matrix3 Dm_inverse;
  for (int i = 0; i < 3; ++i) Dm_inverse.row(i) = g[i + 1].transpose();
  return Dm_inverse;
}

Matrix3 FemModel::CalcDeformationGradient(const Eigen::VectorXd& x, int e) const {
  return fem::CalcDeformationGradient(x, tets_[e], CalcDmInverse(e));
}

Matrix12 FemModel::ConsistentElementMass(int e) const {
  return CalcConsistentElementMass(material_.density_kg_per_m3 * volumes_[e]);
}

void FemModel::AssembleMass(std::vector<Eigen::Triplet<double>>* M) const {
  if (mass_model_ == MassModel::kLumped) {
    for (size_t v = 0; v < rest_.size(); ++v)
      for (int k = 0; k < 3; ++k) M->emplace_back(3 * v + k, 3 * v + k, lumped_mass_[v]);
    return;
  }
  for (int e = 0; e < num_tets(); ++e) {
    const Matrix12 Me = ConsistentElementMass(e);
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int k = 0; k < 3; ++k) M->emplace_back(3 * tets_[e][a] + k, 3 * tets_[e][b] + k, Me(3 * a + k, 3 * b + k));
  }
}

double FemModel::CalcMass() const {
  double m = 0;
  for (double mv : lumped_mass_) m += mv;
  return m;
}

}  // namespace fem
}  // namespace hydro
