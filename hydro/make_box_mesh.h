#pragma once
// Compliant box mesh whose extent is the normalized distance to the boundary,
//   e = min(hx − |x|, hy − |y|, hz − |z|) / min(hx, hy, hz),
// so every face has the same stiffness E/Hmin (the field Drake uses for boxes). The mesh
// conforms to the medial axis, which makes the piecewise-linear field exact.
//
// Construction: n + 1 nested boxes with half-sizes h − t_k, t_k = Hmin·k/n (the innermost one is
// flat, a segment or a point). Every point on box k is at distance t_k from the boundary, and the
// segment joining a point of box k to the matching grid point of box k+1 runs along a medial plane
// at the box's edges. Each shell between two boxes is therefore cut into hexahedra lying inside a
// single face's region, where the distance is linear; the hexes are split into Kuhn tets and the
// cells that collapse in the innermost shell are dropped.
#include "hydro/mesh_builder.h"

namespace hydro {

// size: full edge lengths along x, y, z. Throws InvalidInput for non-finite or non-positive input.
VolumeMeshWithExtent MakeBoxVolumeMesh(const Vector3& size, double resolution_hint);

}  // namespace hydro
