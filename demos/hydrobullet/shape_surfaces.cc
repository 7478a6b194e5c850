#include "demos/hydrobullet/shape_surfaces.h"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>

#include <algorithm>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_geometry.h"

namespace hydro {
namespace cli {

const ShapeSurfaces::Surfaces& ShapeSurfaces::Of(const btCollisionShape* shape) {
  if (auto it = cache_.find(shape); it != cache_.end()) return it->second;
  Surfaces surfaces;
  if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    for (int i = 0; i < compound->getNumChildShapes(); ++i)
      for (const auto& [mesh, X_CG] : Of(compound->getChildShape(i)))
        surfaces.emplace_back(mesh, bullet::ToRigidTransform(compound->getChildTransform(i)) * X_CG);
  } else {
    try {
      // Flat faces as they are (a box is 12 triangles; 1/20 of the diagonal made it 4,800, and
      // Bullet's slope.bullet wrote 9 MB a VTK frame), curved shapes with about 16 edges across.
      btVector3 lo, hi;
      shape->getAabb(btTransform::getIdentity(), lo, hi);
      const btScalar extent = (hi - lo).length();
      btHydroelasticProperties picture;
      picture.m_kind = btHydroelasticProperties::RIGID;
      const bool flat_faced = shape->isPolyhedral() || shape->isConcave();
      picture.m_resolutionHint = std::max<btScalar>(flat_faced ? extent : extent / 16, 1e-4);
      const bullet::ShapeGeometry geometry = bullet::MakeShapeGeometry(*shape, &picture);
      if (geometry.rigid_mesh) surfaces.emplace_back(geometry.rigid_mesh->mesh(), geometry.X_SG);
    } catch (const InvalidInput&) {
      // Shapes the plugin cannot mesh are left out of the picture.
    }
  }
  return cache_[shape] = surfaces;
}

}  // namespace cli
}  // namespace hydro
