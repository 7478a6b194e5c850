#pragma once
// The convex hull of a point set as a closed triangle mesh (outward, counter-clockwise), computed
// by Bullet's btConvexHullComputer (Preparata–Hong divide and conquer on exact integer
// coordinates, O(n log n)): robust on real meshes' many coplanar and duplicate vertices, where
// an incremental hull written here took minutes for a 3,000-triangle STL. Hull vertices are the
// input points themselves, not their quantized images; but Bullet chooses them, and merges
// nearly coplanar faces, on a grid of 1/10216 of the points' extent, so a point may lie outside
// the hull by up to about that much (1e-4 of the size, far below any mesh resolution hint).
// When a face only a few grid steps across would fold inwards at the exact points, the hull is
// given at Bullet's own (grid) vertices instead, which are convex by construction.
#include <vector>

#include "hydro/surface_mesh.h"

namespace hydro {
namespace bullet {

// Throws InvalidInput when there are fewer than 4 points, a coordinate is not finite, or the
// points are (nearly) coplanar, colinear or coincident (relative tolerance 1e-9 of their extent).
// Each planar face of the hull is split into a fan of triangles. Points that are exactly colinear
// (the sampled border of a plate) zigzag on Bullet's grid and may stay hull vertices; a fan
// triangle of zero area through them is flipped away with its neighbour, so the hull is closed
// (every edge shared by two triangles, outward), every triangle has area, and the surface is the
// exact points' hull. Only when no flip removes one are Bullet's grid vertices used instead.
TriangleSurfaceMesh MakeConvexHull(const std::vector<Vector3>& points);

}  // namespace bullet
}  // namespace hydro
