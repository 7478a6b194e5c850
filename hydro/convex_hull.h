#pragma once
// The convex hull of a point set as a closed triangle mesh (outward, counter-clockwise), by
// incremental construction. Used for Bullet convex hulls and cones and for compliant convex meshes.
#include <vector>

#include "hydro/surface_mesh.h"

namespace hydro {

// Throws InvalidInput when there are fewer than 4 points, a coordinate is not finite, or the
// points are (nearly) coplanar, colinear or coincident (relative tolerance 1e-9 of their extent).
// Points inside the hull or within the tolerance of its faces are not used as vertices.
TriangleSurfaceMesh MakeConvexHull(const std::vector<Vector3>& points);

}  // namespace hydro
