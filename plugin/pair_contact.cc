#include "plugin/pair_contact.h"

#include "hydro/contact_surface_calculator.h"

namespace hydro {
namespace bullet {
namespace {

using Kind = ShapeGeometry::Kind;

// Surfaces with the compliant geometry first (the core's argument order); `c` is compliant.
bool CompliantFirst(const ShapeGeometry& c, const RigidTransform& X_WC, const ShapeGeometry& o,
                    const RigidTransform& X_WO, ContactSurface* surface) {
  if (c.kind == Kind::kCompliantMesh) {
    const CompliantMesh& mesh = *c.compliant_mesh;
    switch (o.kind) {
      case Kind::kCompliantMesh: ComputeContactSurface(mesh, X_WC, *o.compliant_mesh, X_WO, surface); return true;
      case Kind::kCompliantHalfSpace: ComputeContactSurface(mesh, X_WC, *o.compliant_half_space, X_WO, surface); return true;
      case Kind::kRigidMesh: ComputeContactSurface(mesh, X_WC, *o.rigid_mesh, X_WO, surface); return true;
      case Kind::kRigidHalfSpace: ComputeContactSurface(mesh, X_WC, RigidHalfSpace{}, X_WO, surface); return true;
      default: return false;
    }
  }
  if (c.kind == Kind::kCompliantHalfSpace) {
    if (o.kind == Kind::kRigidMesh) {
      ComputeContactSurface(*c.compliant_half_space, X_WC, *o.rigid_mesh, X_WO, surface);
      return true;
    }
    if (o.kind == Kind::kCompliantMesh) {
      ComputeContactSurface(*o.compliant_mesh, X_WO, *c.compliant_half_space, X_WC, surface);
      surface->SwapAB();
      return true;
    }
  }
  return false;
}

}  // namespace

bool ComputePairSurface(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                        const RigidTransform& X_WSb, ContactSurface* surface) {
  surface->Clear();
  const RigidTransform X_WA = X_WSa * a.X_SG;
  const RigidTransform X_WB = X_WSb * b.X_SG;
  if (a.is_compliant()) return CompliantFirst(a, X_WA, b, X_WB, surface);
  if (b.is_compliant()) {
    if (!CompliantFirst(b, X_WB, a, X_WA, surface)) return false;
    surface->SwapAB();
    return true;
  }
  return false;
}

}  // namespace bullet
}  // namespace hydro
