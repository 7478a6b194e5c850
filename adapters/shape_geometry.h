#pragma once
// The hydroelastic geometry of a Bullet shape, in the shape's own frame S (the frame Bullet gives
// its collision object, or a compound child): built once per shape and shared.
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "adapters/hydroelastic_properties.h"
#include "hydro/compliant_box.h"
#include "hydro/convex_support.h"
#include "hydro/hydroelastic_geometry.h"

namespace hydro {
namespace bullet {

struct ShapeGeometry {
  enum class Kind { kUnsupported, kCompliantMesh, kCompliantHalfSpace, kRigidMesh, kRigidHalfSpace };
  Kind kind{Kind::kUnsupported};
  std::shared_ptr<const CompliantMesh> compliant_mesh;
  std::shared_ptr<const CompliantHalfSpace> compliant_half_space;
  std::shared_ptr<const RigidMesh> rigid_mesh;
  // Beside compliant_mesh for a compliant box with a linear field: box–box surfaces in closed form
  // (hydro/compliant_box.h), the same as the meshes give at a fraction of the cost.
  std::shared_ptr<const CompliantBox> compliant_box;
  // Beside rigid_mesh for a rigid box: its faces against a compliant box in closed form.
  std::shared_ptr<const RigidBox> rigid_box;
  // Beside a mesh that is not a box (whose bounding box is exact): its convex hull's support, which
  // bounds how far it reaches along a direction (plugin/pair_contact.h) where its bounding box,
  // turned with it, reaches centimetres past it. Null when no hull can be made (a flat rigid
  // ground mesh).
  std::shared_ptr<const ConvexSupport> support;
  // Pose of the geometry's frame G in the shape frame S (a Y-up cylinder's mesh is built along z;
  // a plane's half-space frame has z along the plane normal).
  RigidTransform X_SG{RigidTransform::Identity()};
  double modulus_Pa{0};  // +infinity for rigid kinds
  double dissipation_s_per_m{0};
  std::string error;  // why the shape is unsupported
  bool is_compliant() const { return kind == Kind::kCompliantMesh || kind == Kind::kCompliantHalfSpace; }
  bool is_half_space() const { return kind == Kind::kCompliantHalfSpace || kind == Kind::kRigidHalfSpace; }
};

// The most tets a generated mesh has when the shape gives no resolution hint (with one, the user
// decides): about 1 MB of mesh, field and BVH.
constexpr int kMaxDefaultTets = 20000;

// Builds the geometry for `shape`. `properties` is null for an untagged shape (made rigid).
// Supported: sphere, box, cylinder (X/Y/Z), capsule (X/Y/Z), cone (X/Y/Z), convex hull, convex
// triangle mesh, BVH triangle mesh and its scaled variant (rigid, or compliant from a user tet
// mesh), static plane (rigid half-space or compliant slab); local scaling throughout; a rigid hull's
// triangles split to the resolution hint, as a rigid box's faces are gridded. Anything else
// gives kind kUnsupported with `error` set. Throws InvalidInput for invalid properties or a
// degenerate shape (zero size).
ShapeGeometry MakeShapeGeometry(const btCollisionShape& shape, const btHydroelasticProperties* properties);

// The numbers that define a shape's geometry (type, scaling, margin, dimensions, plane, mesh
// identity): a cached geometry is valid while its shape's fingerprint is unchanged, which also
// catches a new shape allocated at a deleted shape's address. Fixed size and O(1) (a hull is
// identified by its point count and array, first and last point), since it is checked every step.
using ShapeFingerprintValues = std::array<double, 16>;
ShapeFingerprintValues ShapeFingerprint(const btCollisionShape& shape);

// How far Bullet's own contact reaches out of the shape's hydroelastic geometry, in m. Bullet
// collides a convex hull, a convex or concave triangle mesh and a cone as their surface grown
// outwards by the collision margin (0.04 m unless set; a hull read from a .bullet file keeps the
// margin it was saved with), so its distance between two shapes is their geometries' distance less
// both these margins. A sphere's, capsule's, box's and cylinder's margin lies within their
// dimensions (Bullet shrinks their core by it), and a static plane's is not used
// (btConvexPlaneCollisionAlgorithm takes the other shape's support point): 0 for those.
double MarginOutsideGeometry(const btCollisionShape& shape);

// Bullet's name for a shape type, for messages.
std::string ShapeTypeName(int shape_type);

}  // namespace bullet
}  // namespace hydro
