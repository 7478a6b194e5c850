#pragma once
// The surfaces drawn for Bullet shapes, in each shape's frame: flat faces as they are, curved
// shapes with about 16 edges across (a picture, not a contact mesh). Compounds give their
// children's; planes and shapes the plugin cannot mesh give none. Built once per shape and cached.
// Used by the VTK series and the renderer alike.
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <map>
#include <utility>
#include <vector>

#include "hydro/surface_mesh.h"

namespace hydro {
namespace cli {

class ShapeSurfaces {
 public:
  using Surfaces = std::vector<std::pair<TriangleSurfaceMesh, RigidTransform>>;  // mesh, X_SG
  const Surfaces& Of(const btCollisionShape* shape);

 private:
  std::map<const btCollisionShape*, Surfaces> cache_;
};

}  // namespace cli
}  // namespace hydro
