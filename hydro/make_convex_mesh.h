#pragma once
// Compliant mesh of a convex hull: concentric copies of the hull's (subdivided) surface scaled
// toward its volume centroid c at s = ℓ/n, joined by prisms. The extent e = 1 − s is the gauge
// function of the hull about c — 0 on the boundary, 1 at c, and linear in every prism's tets, so
// the field is represented exactly (the field Drake builds for convex meshes by joining every
// boundary face to one interior vertex, refined here to the resolution hint).
#include <vector>

#include "hydro/mesh_builder.h"
#include "hydro/surface_mesh.h"

namespace hydro {

// From a closed convex surface mesh (a hull: adapters/convex_hull.h makes one of points), every
// hull triangle split into k² triangles with k = ⌈longest hull edge/hint⌉ and
// n = ⌈(largest distance to c)/hint⌉ layers.
VolumeMeshWithExtent MakeConvexVolumeMesh(const TriangleSurfaceMesh& hull, double resolution_hint);

}  // namespace hydro
