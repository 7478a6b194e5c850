#pragma once
// 000 eq. 16 takes a point's distance to separation as φ0 = −p0/g. Where a polygon's tet has its
// pressure gradient nearly perpendicular to the normal (an edge tet cut in a thin sliver — the rim
// of a box's base), g is tiny and −p0/g lies metres deep, far deeper than the elements overlap at
// all: the velocity-level law would then push with the polygon's whole A·p0 until the bodies are
// metres apart, and a box resting on the ground at 1e8 Pa is thrown up at 20 m/s. The elements of
// a polygon stop touching once they are apart by their overlap along n, so φ0 is bounded by it;
// the point keeps its stiffness k = A·g, what the field's growth along n gives: such a point
// pushes with k·overlap, less than its polygon's A·p0 — the sliver's pressure grows with its
// area, not along n. (Raising k to keep A·p0 instead put springs 10⁴ stiffer than the field on
// the rim slivers of a stone block's base, which rocked it at the step rate.)
#include <utility>

#include "hydro/math.h"
#include "hydro/volume_mesh.h"

namespace hydro {

// [min, max] of n·p over the vertices of tet t of `mesh` posed at X_WM.
std::pair<double, double> CalcTetExtentAlong(const VolumeMesh& mesh, const RigidTransform& X_WM, int t,
                                             const Vector3& n_W);

// φ0 := max(φ0, −overlap), with an overlap of at least 1 nm.
void BoundDepthByOverlap(double overlap_m, double* phi0_m);

}  // namespace hydro
