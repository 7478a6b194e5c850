#pragma once
// A tetrahedral volume mesh in its own frame M (001 §5.0.1): vertices p_MV and tets as four vertex
// indices, ordered so that the signed volume (b−a)·((c−a)×(d−a))/6 is positive.
#include <array>
#include <vector>

#include "hydro/math.h"

namespace hydro {

using Tet = std::array<int, 4>;

class VolumeMesh {
 public:
  // Validates on construction and throws InvalidInput naming the offending tet or vertex:
  // at least one tet, finite vertices, indices in range, four distinct vertices per tet, and
  // signed volume above `min_volume_fraction`·(longest edge)³ (rejects degenerate and inverted
  // tets). Vertices no tet references are kept (they carry no volume).
  VolumeMesh(std::vector<Vector3> vertices, std::vector<Tet> tets, double min_volume_fraction = 1e-12);

  int num_vertices() const { return static_cast<int>(vertices_.size()); }
  int num_tets() const { return static_cast<int>(tets_.size()); }
  const std::vector<Vector3>& vertices() const { return vertices_; }
  const std::vector<Tet>& tets() const { return tets_; }
  const Vector3& vertex(int v) const { return vertices_[v]; }
  const Tet& tet(int t) const { return tets_[t]; }

  double CalcTetVolume(int t) const;
  double CalcTotalVolume() const;

  // The four face planes of tet t as inward unit normals and offsets (computed once, at
  // construction): a point p is inside the tet iff n_i·p ≥ d_i for every face i. Face i is the
  // face opposite vertex i.
  const std::array<Vector3, 4>& inward_normals(int t) const { return face_normals_[t]; }
  const std::array<double, 4>& face_offsets(int t) const { return face_offsets_[t]; }
  // The length below which clipping by tet t's faces treats a point as on a face: 1e-12 of the
  // tet's size, Σᵢ ‖vᵢ − v₀‖∞ over i = 1, 2, 3 (computed once, at construction).
  double clip_tolerance(int t) const { return clip_tolerances_[t]; }

 private:
  std::vector<Vector3> vertices_;
  std::vector<Tet> tets_;
  std::vector<std::array<Vector3, 4>> face_normals_;
  std::vector<std::array<double, 4>> face_offsets_;
  std::vector<double> clip_tolerances_;
};

namespace internal {
// 1e-12 of the tet's size (VolumeMesh::clip_tolerance), for clipping by tets that are not a mesh's.
inline double ClipTolerance(const std::array<Vector3, 4>& tet) {
  return 1e-12 * ((tet[1] - tet[0]).cwiseAbs().maxCoeff() + (tet[2] - tet[0]).cwiseAbs().maxCoeff() +
                  (tet[3] - tet[0]).cwiseAbs().maxCoeff());
}
}  // namespace internal

// Inward unit normals n_i and offsets d_i of the faces of the tet (a, b, c, d): a point p is
// inside iff n_i·p ≥ d_i for all i; face i is opposite vertex i.
void CalcInwardFacePlanes(const std::array<Vector3, 4>& tet, std::array<Vector3, 4>* normals,
                          std::array<double, 4>* offsets);

// Signed volume of the tet (a, b, c, d): positive when (b−a, c−a, d−a) is right-handed.
inline double SignedTetVolume(const Vector3& a, const Vector3& b, const Vector3& c, const Vector3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

}  // namespace hydro
