#pragma once
// How far a convex polyhedron reaches along a direction (its support function), for bounds on how
// deep two bodies can be in each other. A mesh's bounding box bounds it too, but loosely once the
// mesh turns: a 0.22 m convex hull tumbling onto the ground had its box centimetres below its
// lowest vertex, its contact points' depths were bounded by that, and the solver pushed it out of
// 4 cm it was not in (it jumped 11 cm at 1e8 Pa, 60 Hz). Exact for a convex mesh, at a few dozen
// dot products: the maximum of a linear function over a closed convex triangulated surface is
// where no neighbouring vertex is higher (every vertex's triangles cover a neighbourhood of it on
// the surface, and a local maximum of a linear function there is the global one), so it is found
// by climbing the vertex graph from the best of 14 seeds, the extreme vertices along the axes and
// the cube's diagonals. A surface that folds inwards anywhere (beyond round-off) could stop the
// climb short; on one, every query takes the maximum over all vertices instead.
#include <array>
#include <utility>
#include <vector>

#include "hydro/math.h"
#include "hydro/surface_mesh.h"

namespace hydro {

class ConvexSupport {
 public:
  // `hull`: a closed triangle mesh in frame G, meant to be convex. The extents are widened along
  // n̂ by Σ|n̂_i|·widening_G[i], so that they also bound points up to widening_G[i] along axis i
  // outside the hull (a hull found on a grid leaves its input points up to a few grid steps
  // outside it).
  ConvexSupport(const TriangleSurfaceMesh& hull, const Vector3& widening_G);

  // [min, max] of n̂·p over the hull's vertices (frame G), widened; n̂ a unit vector in G.
  std::pair<double, double> ExtentAlong(const Vector3& nhat_G) const;
  // One end of it. A caller asking along many nearby directions (a patch's normals, GJK's search)
  // passes `hint`, a vertex it keeps from one query to the next: the climb starts there when it is
  // higher than the best of the seeds (any start ends at the maximum; a near one ends sooner), and
  // the vertex found is written back. −1 or out of range: the seeds alone.
  double MaxAlong(const Vector3& nhat_G, int* hint = nullptr) const;
  double MinAlong(const Vector3& nhat_G, int* hint = nullptr) const { return -MaxAlong(-nhat_G, hint); }

  // A vertex farthest along d (frame G, any length), not widened: for a search of a separating
  // direction, whose answer the caller checks with the widened extents. `hint` as for MaxAlong.
  const Vector3& SupportVertex(const Vector3& d_G, int* hint = nullptr) const { return vertices_[Highest(d_G, hint)]; }

  int num_vertices() const { return static_cast<int>(vertices_.size()); }
  // False when the surface folds inwards somewhere: the extents are then found over all vertices.
  bool climbs() const { return climbs_; }

 private:
  // The vertex with the greatest d·p: from the hint or the best seed uphill until no neighbour is
  // higher.
  int Highest(const Vector3& d, int* hint = nullptr) const;

  std::vector<Vector3> vertices_;
  std::vector<int> neighbour_start_;  // vertex v's neighbours: neighbours_[start[v], start[v + 1])
  std::vector<int> neighbours_;
  std::array<int, 14> seeds_{};
  Vector3 widening_G_;
  bool climbs_{true};
};

}  // namespace hydro
