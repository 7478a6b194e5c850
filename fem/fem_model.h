#pragma once
// The model of a FEM body (002 §V): its name, rest mesh, material and mass model, and what each
// linear tet needs at rest, computed once — its volume V, its shape-function gradients ∇N_a
// (which hold Dm⁻¹: F = Ds·Dm⁻¹), its rest element stiffness K0e = V·Bᵀ C B — and the lumped vertex
// masses. Immutable after construction; what changes as the body moves is its FemState.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <string>
#include <vector>

#include "fem/material.h"
#include "fem/tet_element.h"
#include "hydro/math.h"
#include "hydro/volume_mesh.h"

namespace hydro {
namespace fem {

enum class MassModel { kLumped, kConsistent };

class FemModel {
 public:
  // Validates everything (throws InvalidInput "deformable '<name>': …" naming the element or
  // vertex): the mesh (finite coordinates, no degenerate or inverted tets) and the material.
  // Vertices no tet uses are dropped; warnings() says how many.
  FemModel(std::string name, std::vector<Vector3> rest_positions, std::vector<Tet> tets, const Material& material,
           MassModel mass_model = MassModel::kLumped);

  const std::string& name() const { return name_; }
  const Material& material() const { return material_; }
  MassModel mass_model() const { return mass_model_; }
  int num_vertices() const { return static_cast<int>(rest_.size()); }
  int num_tets() const { return static_cast<int>(tets_.size()); }
  const std::vector<Vector3>& rest_positions() const { return rest_; }
  const std::vector<Tet>& tets() const { return tets_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Per tet e: V = det(Dm)/6 > 0 and K0e = V·Bᵀ C B in the rest frame.
  double volume(int e) const { return volumes_[e]; }
  const Matrix12& rest_stiffness(int e) const { return element_stiffness_[e]; }
  // Per vertex: ρ·V/4 summed over the tets that use it.
  double lumped_mass(int vertex) const { return lumped_mass_[vertex]; }

  // X_e, the 12 rest coordinates of tet e's corners.
  Vector12 RestCoordinates(int e) const;
  // ∇N_a of tet e's shape functions (∇N_1..3 the rows of Dm⁻¹; ∇N_0 = −Σ): kept, since every
  // Neo-Hookean evaluation of every Newton iteration reads them. The model keeps no Dm⁻¹ of its own.
  const std::array<Vector3, 4>& shape_gradients(int e) const { return shape_gradients_[e]; }
  // Dm⁻¹ of tet e, its rows ∇N_1..3 (the same bits as the inverse they were taken from).
  Matrix3 CalcDmInverse(int e) const;
  // F = Ds·Dm⁻¹ of tet e at positions x (3 per vertex).
  Matrix3 CalcDeformationGradient(const Eigen::VectorXd& x, int e) const;
  // Tet e's consistent mass matrix, of mass ρ·V.
  Matrix12 ConsistentElementMass(int e) const;
  // Triplets of the mass matrix M over every DoF: diag of the lumped masses, or the consistent
  // element masses summed.
  void AssembleMass(std::vector<Eigen::Triplet<double>>* M) const;
  // Σ of the lumped masses: ρ times the rest volume.
  double CalcMass() const;

 private:
  std::string name_;
  Material material_;
  MassModel mass_model_;
  std::vector<Vector3> rest_;
  std::vector<Tet> tets_;
  std::vector<std::string> warnings_;
  std::vector<double> volumes_;                          // per tet
  std::vector<Matrix12> element_stiffness_;              // per tet, K0e
  std::vector<std::array<Vector3, 4>> shape_gradients_;  // per tet, ∇N_a; ∇N_1..3 the rows of Dm⁻¹
  std::vector<double> lumped_mass_;                      // per vertex
};

}  // namespace fem
}  // namespace hydro
