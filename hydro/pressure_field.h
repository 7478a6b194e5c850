#pragma once
// A pressure field p0 that is linear inside each tet of a VolumeMesh (001 §5.0.1, 004 §VI-A):
// values at the vertices, one constant gradient per tet. Within tet t, p0(p_MQ) = ∇p_t·p_MQ + c_t.
#include <memory>
#include <vector>

#include "hydro/volume_mesh.h"

namespace hydro {

class PressureField {
 public:
  // Validates values (one per vertex, finite and ≥ 0) and precomputes per-tet gradients. The mesh
  // is shared: it is immutable and may back several fields.
  PressureField(std::shared_ptr<const VolumeMesh> mesh, std::vector<double> vertex_pressures_Pa);

  const VolumeMesh& mesh() const { return *mesh_; }
  const std::shared_ptr<const VolumeMesh>& shared_mesh() const { return mesh_; }
  const std::vector<double>& values() const { return values_; }
  double value(int v) const { return values_[v]; }
  double max_value() const { return max_value_; }

  // ∇p0 in tet t, expressed in the mesh frame M (Pa/m).
  const Vector3& gradient(int t) const { return gradients_[t]; }
  // p0 at p_MQ using tet t's linear function (extrapolates outside the tet).
  double EvaluateInTet(int t, const Vector3& p_MQ) const { return gradients_[t].dot(p_MQ) + offsets_[t]; }
  // True when the tet has a face whose three vertices all carry zero pressure (a boundary face of
  // the compliant body), reported as its index (opposite vertex) in *face, else -1.
  int ZeroPressureFace(int t) const { return zero_face_[t]; }
  // Smallest and largest vertex pressure of tet t (the range of p0 over the tet).
  double min_in_tet(int t) const { return range_[t][0]; }
  double max_in_tet(int t) const { return range_[t][1]; }
  const std::vector<std::array<double, 2>>& tet_ranges() const { return range_; }

 private:
  std::shared_ptr<const VolumeMesh> mesh_;
  std::vector<double> values_;
  std::vector<Vector3> gradients_;
  std::vector<double> offsets_;
  std::vector<int> zero_face_;
  std::vector<std::array<double, 2>> range_;
  double max_value_{0};
};

// Pressure field p0 = scale·e from an extent field e ∈ [0, 1] (004 §VI-A, 001 eq. 5.1), optionally
// with the nonlinear scale M(e) = M0/(1 − k·e) of 001 eq. 5.4 (0 ≤ k < 1; k = 0 is linear).
std::vector<double> PressuresFromExtent(const std::vector<double>& extent, double modulus_Pa,
                                        double stiffening_k = 0.0);

}  // namespace hydro
