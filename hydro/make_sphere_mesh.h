#pragma once
// Compliant sphere, ellipsoid and capsule meshes built from one "octant lattice" (004 §VI-A: the
// extent e = 1 − r/R, 0 on the surface and 1 at the centre).
//
// Each octant of the sphere is the cone over one face of an octahedron. Its lattice points
// i·A + j·B + k·C (A, B, C the octant's axes, i + j + k = m ≤ n) lie on n concentric shells; point m
// is moved to radius R·m/n along its own direction. The extent 1 − m/n is then exact at every
// vertex and every shell is an iso-surface of the interpolated field, so the only error is the
// shells' polyhedral sag (∝ R/n²). With lattice coordinates u = i + j + k, v = j + k, w = k the
// octant is the simplex 0 ≤ w ≤ v ≤ u ≤ n, which is exactly a union of Kuhn cells of the unit
// (u, v, w) grid: n³ tets per octant, and octants agree on their shared faces.
#include "hydro/mesh_builder.h"

namespace hydro {

// n = ⌈(π/2)·R/hint⌉ shells, so the arc length along an octant edge on the surface is ≤ hint;
// 8n³ tets. Throws InvalidInput for a non-finite or non-positive radius or hint.
VolumeMeshWithExtent MakeSphereVolumeMesh(double radius, double resolution_hint);

// The sphere lattice stretched to semi-axes (a, b, c) along x, y, z; e = 1 − (ellipsoidal radius).
VolumeMeshWithExtent MakeEllipsoidVolumeMesh(const Vector3& semi_axes, double resolution_hint);

// A capsule along z: radius R, cylindrical part of length L (total length L + 2R). The sphere
// lattice is split at its equator and the two halves joined by the equatorial disk extruded in
// layers; e = 1 − (distance to the axis segment)/R.
VolumeMeshWithExtent MakeCapsuleVolumeMesh(double radius, double length, double resolution_hint);

namespace internal {
// Shell count for a sphere-like shape of largest radius R.
int SphereShellCount(double radius, double resolution_hint);

// Visits the triangles of the 2D Kuhn lattice on 0 ≤ w ≤ v ≤ m (the unit squares of the (v, w)
// grid, each cut along its diagonal, the halves inside the simplex kept), handing each triangle's
// three corners to `emit` as `const int (&vw)[3][2]`.
template <typename EmitTriangle>
void ForEachKuhnTriangle(int m, EmitTriangle emit) {
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b)
      for (int up = 0; up < 2; ++up) {
        const int vw[3][2] = {{a, b}, {a + 1 - up, b + up}, {a + 1, b + 1}};
        bool inside = true;
        for (const auto& p : vw) inside = inside && 0 <= p[1] && p[1] <= p[0] && p[0] <= m;
        if (inside) emit(vw);
      }
}
}  // namespace internal

}  // namespace hydro
