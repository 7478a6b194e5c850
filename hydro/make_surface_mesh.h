#pragma once
// Rigid geometry: closed triangle surface meshes (outward, counter-clockwise) for every primitive,
// with the same resolution hint as the compliant meshes (001 §5.0.1).
#include "hydro/surface_mesh.h"
#include "hydro/volume_mesh.h"

namespace hydro {

// The faces of the volume mesh used by exactly one tet, oriented outward, with only the vertices
// they use. Sphere, ellipsoid, cylinder and capsule surfaces are the boundaries of their volume
// meshes, so a rigid and a compliant version of a shape have the same surface.
TriangleSurfaceMesh ExtractBoundarySurface(const VolumeMesh& mesh);

TriangleSurfaceMesh MakeSphereSurfaceMesh(double radius, double resolution_hint);
TriangleSurfaceMesh MakeEllipsoidSurfaceMesh(const Vector3& semi_axes, double resolution_hint);
TriangleSurfaceMesh MakeCylinderSurfaceMesh(double radius, double length, double resolution_hint);
TriangleSurfaceMesh MakeCapsuleSurfaceMesh(double radius, double length, double resolution_hint);
// A grid of ⌈size/hint⌉ cells along each edge, two triangles per cell.
TriangleSurfaceMesh MakeBoxSurfaceMesh(const Vector3& size, double resolution_hint);

}  // namespace hydro
