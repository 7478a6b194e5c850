// The Bullet shapes of a model's collision geometry, as PyBullet makes them, tagged for patch
// or point contact from the model's contact properties.
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_registry.h"
#include "hydro/make_meshes.h"
#include "urdf/bullet_builder_internal.h"
#include "urdf/mesh_files.h"

namespace hydro {
namespace urdf {

using bullet::ToBullet;
using internal::kCollisionMargin;

namespace {

// A convex hull shape of `points` (in the shape's frame), with PyBullet's margin.
btConvexHullShape* MakeHullShape(const std::vector<Vector3>& points) {
  auto* hull = new btConvexHullShape();
  for (const Vector3& p : points) hull->addPoint(ToBullet(p), false);
  hull->setMargin(kCollisionMargin);
  hull->recalcLocalAabb();
  return hull;
}

}  // namespace

namespace internal {

btCollisionShape* Builder::Keep(btCollisionShape* shape) {
  built->shapes_.emplace_back(shape);
  return shape;
}

btCollisionShape* Builder::MakeShape(const Collision& collision, bool dynamic) {
  const Geometry& g = collision.geometry;
  const ContactProperties& c = collision.contact;
  btCollisionShape* shape = nullptr;
  std::shared_ptr<const VolumeMeshWithExtent> volume;
  try {
    switch (g.type) {
      case GeometryType::kBox:
        shape = Keep(new btBoxShape(ToBullet(0.5 * g.size)));
        break;
      case GeometryType::kSphere:
        shape = Keep(new btSphereShape(g.radius));
        break;
      case GeometryType::kCylinder:
        shape = Keep(new btCylinderShapeZ(btVector3(g.radius, g.radius, 0.5 * g.length)));
        break;
      case GeometryType::kCapsule:
        shape = Keep(new btCapsuleShapeZ(g.radius, g.length));
        break;
      case GeometryType::kEllipsoid: {
        // A hull through a fine ellipsoid surface: Bullet has no ellipsoid, and the plugin's
        // convex-hull field is exact for it.
        const TriangleSurfaceMesh surface = MakeEllipsoidSurfaceMesh(g.size, g.size.minCoeff() / 6);
        shape = Keep(MakeHullShape(surface.vertices()));
        break;
      }
      case GeometryType::kPlane:
        if (dynamic) {
          Error(collision.where, "collision '" + collision.name + "': a plane can only belong to a static link");
          return nullptr;
        }
        shape = Keep(new btStaticPlaneShape(ToBullet(g.normal), 0));
        break;
      case GeometryType::kMesh:
        shape = MakeMeshShape(collision, dynamic, &volume);
        break;
    }
  } catch (const InvalidInput& e) {
    Error(collision.where, "collision '" + collision.name + "': " + e.what());
    return nullptr;
  }
  if (!shape) return nullptr;
  // PyBullet's margin (see kCollisionMargin); hulls got it in MakeHullShape, a static mesh keeps 0.
  if (g.type != GeometryType::kMesh && g.type != GeometryType::kEllipsoid) shape->setMargin(kCollisionMargin);
  if (!options.patch_contact) return shape;
  if (c.compliance != Compliance::kNone) {
    if (shape->getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE) {  // no margin: see kCollisionMargin
      auto* hull = static_cast<btConvexHullShape*>(shape);
      hull->setMargin(0);
      hull->recalcLocalAabb();
    }
    btHydroelasticProperties properties = HydroelasticProperties(c);
    properties.m_volumeMesh = volume;
    hydro::bullet::ShapeRegistry::Instance().SetHydroelastic(shape, properties);
    built->tagged_.push_back(shape);
  } else if (c.has_drake_compliance) {
    btPointContactMaterial material;
    material.m_youngsModulus = c.youngs_modulus_Pa;
    material.m_dissipation = c.dissipation_s_per_m;
    hydro::bullet::ShapeRegistry::Instance().SetPointMaterial(shape, material);
    built->tagged_.push_back(shape);
  }
  return shape;
}

btCollisionShape* Builder::MakeMeshShape(const Collision& collision, bool dynamic,
                                         std::shared_ptr<const VolumeMeshWithExtent>* volume) {
  const Geometry& g = collision.geometry;
  std::vector<Vector3> vertices;
  std::vector<std::array<int, 3>> triangles;
  if (IsVtkFile(g.mesh_path)) {
    auto mesh = std::make_shared<VolumeMeshWithExtent>(ReadVtkVolumeMesh(g.mesh_path));
    // Scale the tet mesh itself so the compliant volume matches the collision shape.
    std::vector<Vector3> scaled;
    for (const Vector3& p : mesh->mesh->vertices()) scaled.push_back(p.cwiseProduct(g.scale));
    mesh->mesh = std::make_shared<VolumeMesh>(scaled, mesh->mesh->tets());
    const TriangleSurfaceMesh boundary = ExtractBoundarySurface(*mesh->mesh);
    vertices = boundary.vertices();
    triangles = boundary.triangles();
    *volume = mesh;
    if (dynamic && !g.declare_convex) {
      Error(collision.where, "collision '" + collision.name +
                                 "': a tet mesh on a moving link must be declared convex (drake:declare_convex); "
                                 "non-convex compliant meshes are supported on static links");
      return nullptr;
    }
  } else {
    const SurfaceMeshData mesh = ReadSurfaceMesh(g.mesh_path);
    for (const Vector3& p : mesh.vertices) vertices.push_back(p.cwiseProduct(g.scale));
    triangles = mesh.triangles;
    // On a moving link Bullet collides with the mesh's convex hull (as PyBullet does), so the
    // hull is the compliant volume too; a static surface mesh has no volume to press.
    if (collision.contact.compliance == Compliance::kCompliant && !g.declare_convex && !dynamic) {
      Error(collision.where, "collision '" + collision.name + "': a compliant surface mesh (" + g.mesh_uri +
                                 ") on a static link has no volume; declare it convex (drake:declare_convex) or "
                                 "give a .vtk tet mesh");
      return nullptr;
    }
  }
  if (dynamic || g.declare_convex) {
    // Bullet moves only convex shapes; the plugin's hull field is exact for them.
    return Keep(MakeHullShape(vertices));
  }
  auto* interface = new btTriangleMesh();
  built->meshes_.emplace_back(interface);
  for (const auto& t : triangles)
    interface->addTriangle(ToBullet(vertices[t[0]]), ToBullet(vertices[t[1]]), ToBullet(vertices[t[2]]));
  return Keep(new btBvhTriangleMeshShape(interface, true));
}

btCollisionShape* Builder::LinkShape(const Link& link, const RigidTransform& X_LB, bool dynamic) {
  if (link.collisions.empty()) return nullptr;
  std::vector<std::pair<btCollisionShape*, RigidTransform>> children;
  for (const Collision& collision : link.collisions) {
    btCollisionShape* shape = MakeShape(collision, dynamic);
    if (!shape) {
      continue;
    }
    children.emplace_back(shape, X_LB.inverse() * collision.X_LG);
  }
  if (Failed()) return nullptr;
  if (children.size() == 1 && children[0].second.isApprox(RigidTransform::Identity(), 1e-14)) return children[0].first;
  auto* compound = new btCompoundShape();
  compound->setMargin(kCollisionMargin);  // PyBullet's: see kCollisionMargin
  for (const auto& [shape, X_BG] : children) compound->addChildShape(ToBullet(X_BG), shape);
  return Keep(compound);
}

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
