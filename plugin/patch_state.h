#pragma once
// What a pair's collision algorithm keeps between steps: its manifolds, the element-pair key of
// every point it wrote (for warm starting), and the latest contact surface (for tactile queries).
// Allocated once per pair and reused: no allocation inside a step once buffers have grown.
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "hydro/contact_surface.h"
#include "hydro/point_approximation.h"

class btCollisionObject;
class btDispatcher;

namespace hydro {
namespace bullet {

struct PatchState {
  btDispatcher* dispatcher{nullptr};
  const btCollisionObject* body0{nullptr};
  const btCollisionObject* body1{nullptr};
  std::vector<btPersistentManifold*> manifolds;
  // keys[4·m + i]: the element pair of point i of manifold m.
  std::vector<std::uint64_t> keys;
  // Normal impulse each element pair carried at the end of the last solve. (Bullet 3.24 restarts
  // friction rows from zero whatever a point carries, so only the normal impulse is kept.)
  // (element-pair key, normal impulse) of the last step's points, sorted by key: no allocation
  // once warm, and a binary search per new point.
  std::vector<std::pair<std::uint64_t, btScalar>> warm_start;
  ContactSurface surface;              // world frame, A = body0, normal out of body1 into body0
  std::vector<ContactPoint> points;    // the solver points made from `surface`
  std::vector<ContactPoint> reduced_points;  // scratch for the optional point reduction
  int num_points_emitted{0};
  double combined_friction{0};
  double combined_dissipation_s_per_m{0};
  bool closest_points{false};  // a query's algorithm: reports points, keeps no manifolds
};

inline std::uint64_t ElementPairKey(int element_A, int element_B) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(element_A)) << 32) |
         static_cast<std::uint32_t>(element_B);
}

}  // namespace bullet
}  // namespace hydro
