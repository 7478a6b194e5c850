#include "hydro/volume_mesh.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hydro {

VolumeMesh::VolumeMesh(std::vector<Vector3> vertices, std::vector<Tet> tets, double min_volume_fraction)
    : vertices_(std::move(vertices)), tets_(std::move(tets)) {
  if (tets_.empty()) throw InvalidInput("VolumeMesh: the mesh has no tetrahedra");
  CheckFiniteVertices(vertices_, "VolumeMesh");
  for (int t = 0; t < num_tets(); ++t) {
    const Tet& tet = tets_[t];
    for (int i = 0; i < 4; ++i) {
      if (tet[i] < 0 || tet[i] >= num_vertices()) {
        std::ostringstream msg;
        msg << "VolumeMesh: tet " << t << " refers to vertex " << tet[i] << " but the mesh has " << num_vertices()
            << " vertices";
        throw InvalidInput(msg.str());
      }
      for (int j = 0; j < i; ++j) {
        if (tet[i] == tet[j]) {
          std::ostringstream msg;
          msg << "VolumeMesh: tet " << t << " uses vertex " << tet[i] << " twice";
          throw InvalidInput(msg.str());
        }
      }
    }
    double longest_edge = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j)
        longest_edge = std::max(longest_edge, (vertices_[tet[i]] - vertices_[tet[j]]).norm());
    const double volume = CalcTetVolume(t);
    const double min_volume = min_volume_fraction * longest_edge * longest_edge * longest_edge;
    if (!std::isfinite(min_volume) || !std::isfinite(volume)) {
      // Finite coordinates whose cube overflows: neither inverted nor degenerate, out of range.
      std::ostringstream msg;
      msg << "VolumeMesh: tet " << t << " (vertices " << tet[0] << ", " << tet[1] << ", " << tet[2] << ", " << tet[3]
          << ") is too large to measure: its longest edge is " << longest_edge << " m";
      throw InvalidInput(msg.str());
    }
    if (!(volume > min_volume)) {
      std::ostringstream msg;
      msg << "VolumeMesh: tet " << t << " (vertices " << tet[0] << ", " << tet[1] << ", " << tet[2] << ", " << tet[3]
          << ") is " << (volume < -min_volume ? "inverted" : "degenerate") << ": signed volume " << volume << " m³";
      throw InvalidInput(msg.str());
    }
  }
  face_normals_.resize(tets_.size());
  face_offsets_.resize(tets_.size());
  clip_tolerances_.resize(tets_.size());
  for (int t = 0; t < num_tets(); ++t) {
    const Tet& k = tets_[t];
    const std::array<Vector3, 4> corners{vertices_[k[0]], vertices_[k[1]], vertices_[k[2]], vertices_[k[3]]};
    CalcInwardFacePlanes(corners, &face_normals_[t], &face_offsets_[t]);
    clip_tolerances_[t] = internal::ClipTolerance(corners);
  }
}

double VolumeMesh::CalcTetVolume(int t) const {
  const Tet& k = tets_[t];
  return SignedTetVolume(vertices_[k[0]], vertices_[k[1]], vertices_[k[2]], vertices_[k[3]]);
}

double VolumeMesh::CalcTotalVolume() const {
  double total = 0;
  for (int t = 0; t < num_tets(); ++t) total += CalcTetVolume(t);
  return total;
}

void CalcInwardFacePlanes(const std::array<Vector3, 4>& tet, std::array<Vector3, 4>* normals,
                          std::array<double, 4>* offsets) {
  for (int i = 0; i < 4; ++i) {
    const Vector3& a = tet[(i + 1) % 4];
    const Vector3& b = tet[(i + 2) % 4];
    const Vector3& c = tet[(i + 3) % 4];
    Vector3 n = (b - a).cross(c - a).normalized();
    if (n.dot(tet[i] - a) < 0) n = -n;
    (*normals)[i] = n;
    (*offsets)[i] = n.dot(a);
  }
}

}  // namespace hydro
