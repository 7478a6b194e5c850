#pragma once
// What the shape registry says of one pair's two shapes, read under its lock only when something
// changed: the registry (any tag set or removed: ShapeRegistry::Version), the shapes the pair is
// handed, or, for a geometry, its shape's fingerprint (type, scaling, dimensions). A pair reads
// its shapes' tags every step; under the registry's lock that was two to five lookups per pair
// and step, about 5 % of BasicDemo's step at rest (1,600 pairs, most of them confirming they are
// still apart). One per pair; not thread-safe (a pair is processed by one thread at a time).
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <cstdint>
#include <limits>
#include <memory>

#include "adapters/shape_geometry.h"
#include "adapters/shape_registry.h"

namespace hydro {
namespace bullet {

class ShapePairLookup {
 public:
  explicit ShapePairLookup(ShapeRegistry* registry = &ShapeRegistry::Instance()) : registry_(registry) {}

  // Reads the tags again if the registry or the shapes changed since the last call.
  void Update(const btCollisionShape* shape0, const btCollisionShape* shape1);

  // True when either shape is tagged COMPLIANT.
  bool compliant() const { return compliant_; }
  // ShapeRegistry::MaxPatchPoints of the two shapes.
  int max_patch_points() const { return max_patch_points_; }
  // The geometry of shape `side` (0 or 1) of the last Update, built on first use as
  // ShapeRegistry::Geometry builds it; the same object while neither the registry nor the shape
  // changes. The shape's fingerprint is read at the first call after each Update (a pair's
  // step calls this two to four times; reading it at each was 0.7 % of BasicDemo's step at rest
  // and 1 % of its drop), so a change to the shape shows at the next Update. The reference
  // stands until the next Update.
  const std::shared_ptr<const ShapeGeometry>& geometry(int side);

 private:
  ShapeRegistry* registry_;
  std::uint64_t version_{std::numeric_limits<std::uint64_t>::max()};
  const btCollisionShape* shapes_[2]{nullptr, nullptr};
  bool compliant_{false};
  int max_patch_points_{0};
  std::shared_ptr<const ShapeGeometry> geometry_[2];
  ShapeFingerprintValues fingerprint_[2]{};    // of the shape when its geometry was read
  bool fingerprint_checked_[2]{false, false};  // the fingerprint read since the last Update
};

}  // namespace bullet
}  // namespace hydro
