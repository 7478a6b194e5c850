#pragma once
// One pair's pressure-field contact, engine-facing: the surface between two shape geometries in
// the world frame, oriented so that A is Bullet's body0.
#include "adapters/shape_geometry.h"
#include "hydro/contact_surface.h"

namespace hydro {
namespace bullet {

// Computes the contact surface between geometry a (shape frame posed at X_WSa) and b, with the
// normal out of b into a. Returns false when the pair has no pressure-field contact (rigid–rigid,
// half-space–half-space, or an unsupported kind), leaving *surface empty.
bool ComputePairSurface(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                        const RigidTransform& X_WSb, ContactSurface* surface);

}  // namespace bullet
}  // namespace hydro
