#include "hydro/surface_mesh.h"

#include <sstream>

namespace hydro {

TriangleSurfaceMesh::TriangleSurfaceMesh(std::vector<Vector3> vertices, std::vector<Triangle> triangles)
    : vertices_(std::move(vertices)), triangles_(std::move(triangles)) {
  if (triangles_.empty()) throw InvalidInput("TriangleSurfaceMesh: the mesh has no triangles");
  CheckFiniteVertices(vertices_, "TriangleSurfaceMesh");
  normals_.resize(triangles_.size());
  areas_.resize(triangles_.size());
  for (int f = 0; f < num_triangles(); ++f) {
    const Triangle& t = triangles_[f];
    for (int i = 0; i < 3; ++i) {
      if (t[i] < 0 || t[i] >= num_vertices()) {
        std::ostringstream msg;
        msg << "TriangleSurfaceMesh: triangle " << f << " refers to vertex " << t[i] << " but the mesh has "
            << num_vertices() << " vertices";
        throw InvalidInput(msg.str());
      }
    }
    const Vector3 cross = (vertices_[t[1]] - vertices_[t[0]]).cross(vertices_[t[2]] - vertices_[t[0]]);
    const double twice_area = cross.norm();
    const double scale =
        std::max({(vertices_[t[1]] - vertices_[t[0]]).squaredNorm(), (vertices_[t[2]] - vertices_[t[0]]).squaredNorm(),
                  (vertices_[t[2]] - vertices_[t[1]]).squaredNorm()});
    if (!(twice_area > 1e-12 * scale)) {
      std::ostringstream msg;
      msg << "TriangleSurfaceMesh: triangle " << f << " (vertices " << t[0] << ", " << t[1] << ", " << t[2]
          << ") has zero area";
      throw InvalidInput(msg.str());
    }
    normals_[f] = cross / twice_area;
    areas_[f] = 0.5 * twice_area;
  }
}

double TriangleSurfaceMesh::CalcTotalArea() const {
  double total = 0;
  for (double a : areas_) total += a;
  return total;
}

double TriangleSurfaceMesh::CalcEnclosedVolume() const {
  double volume = 0;
  for (const Triangle& t : triangles_) volume += vertices_[t[0]].dot(vertices_[t[1]].cross(vertices_[t[2]])) / 6.0;
  return volume;
}

}  // namespace hydro
