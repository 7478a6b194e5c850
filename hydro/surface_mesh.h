#pragma once
// A triangle surface mesh in its own frame S: the boundary of a rigid body (001 §5.0.1). Triangles
// are counter-clockwise seen from outside, so face normals point out of the body.
#include <array>
#include <vector>

#include "hydro/math.h"

namespace hydro {

using Triangle = std::array<int, 3>;

class TriangleSurfaceMesh {
 public:
  // Validates on construction (throws InvalidInput naming the face or vertex): at least one
  // triangle, finite vertices, indices in range, and non-zero area for every face.
  TriangleSurfaceMesh(std::vector<Vector3> vertices, std::vector<Triangle> triangles);

  int num_vertices() const { return static_cast<int>(vertices_.size()); }
  int num_triangles() const { return static_cast<int>(triangles_.size()); }
  const std::vector<Vector3>& vertices() const { return vertices_; }
  const std::vector<Triangle>& triangles() const { return triangles_; }
  const Vector3& vertex(int v) const { return vertices_[v]; }
  const Triangle& triangle(int f) const { return triangles_[f]; }
  // Outward unit normal and area of face f, in frame S.
  const Vector3& face_normal(int f) const { return normals_[f]; }
  double area(int f) const { return areas_[f]; }
  double CalcTotalArea() const;
  // Volume enclosed (divergence theorem); meaningful for closed, outward-oriented meshes.
  double CalcEnclosedVolume() const;

 private:
  std::vector<Vector3> vertices_;
  std::vector<Triangle> triangles_;
  std::vector<Vector3> normals_;
  std::vector<double> areas_;
};

}  // namespace hydro
