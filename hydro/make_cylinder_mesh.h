#pragma once
// Compliant cylinder mesh along z: the sphere lattice's equatorial disk (ring m at radius R·m/n,
// pushed out so each ring polygon has its circle's area) extruded in layers, with the extent
// e = min(R − ρ, L/2 − |z|)/min(R, L/2) — the normalized distance to the boundary — sampled at the
// vertices. Away from the medial surface (where the side and the caps are equally near) the field
// is exact along rings; across it, it is the linear interpolant of the distance, within one
// element of it.
#include "hydro/mesh_builder.h"

namespace hydro {

VolumeMeshWithExtent MakeCylinderVolumeMesh(double radius, double length, double resolution_hint);

}  // namespace hydro
