#pragma once
// Contact surfaces between every supported pair of hydroelastic geometries (004 §VI-B, 001 §5.0.2).
// Each function clears *surface and fills it in the world frame W, with A the first argument and
// nhat_BA_W pointing out of B into A. Rigid–rigid pairs have no pressure-field contact (the host
// engine keeps its own point contact). Poses are validated (CheckPose): a non-finite or non-rigid
// pose throws InvalidInput naming the argument.
//
// A rigid face (or an equal-pressure plane) takes part only where its normal agrees with the
// compliant side's pressure gradient to within kMaxNormalGradientAngle: the back face of a thin
// rigid plate buried in a soft body would otherwise pull the plate further in.
#include "hydro/contact_surface.h"
#include "hydro/hydroelastic_geometry.h"

namespace hydro {

class CompliantBox;
class RigidBox;

// 5π/8, the angle Drake uses: generous enough that faces near an edge of the rigid mesh keep
// contributing while the rigid body rolls, strict enough to reject faces that oppose ∇p.
constexpr double kMaxNormalGradientAngle = 5.0 * M_PI / 8.0;

// Compliant mesh A vs rigid triangle mesh B: each rigid triangle clipped by each overlapping tet;
// pressure from the tet's linear field (001 §5.0.2 "Rigid-compliant contacts").
void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const RigidMesh& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

// Compliant mesh A vs rigid half-space B: each tet sliced by B's boundary plane.
void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const RigidHalfSpace& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

// Compliant half-space A vs rigid mesh B: the rigid triangles below A's plane, p0 = E·depth/H.
void CalcContactSurface(const CompliantHalfSpace& A, const RigidTransform& X_WA, const RigidMesh& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

// Compliant mesh A vs compliant mesh B: per overlapping tet pair, the plane where the two linear
// fields are equal (004 App. X-B, eq. 16), sliced by tet A and clipped by tet B, with the
// duplicate-clip rule of 001 §5.0.2.
void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const CompliantMesh& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

// Compliant box A vs compliant box B in closed form (hydro/compliant_box.h): per pair of face
// regions, the equal-pressure plane clipped by both regions, cut into pieces along both boxes'
// surface grids. The same surface as the boxes' meshes give, cut into other pieces.
void CalcContactSurface(const CompliantBox& A, const RigidTransform& X_WA, const CompliantBox& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

// Compliant box A vs rigid box B in closed form: per rigid face and compliant face region, the
// face clipped by the region, cut into pieces along both boxes' surface grids.
void CalcContactSurface(const CompliantBox& A, const RigidTransform& X_WA, const RigidBox& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

// Compliant mesh A vs compliant half-space B: as compliant–compliant with B's field linear
// everywhere below its plane.
void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const CompliantHalfSpace& B,
                        const RigidTransform& X_WB, ContactSurface* surface);

}  // namespace hydro
