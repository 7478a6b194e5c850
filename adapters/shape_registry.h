#pragma once
// The per-shape compliance registry: which btCollisionShapes are hydroelastic (and how), keyed by
// the shape pointer — never by Bullet's user pointer or index, which belong to the application.
// Geometry (mesh, field, BVH) is built once per shape, on first contact, and shared: by every object
// that uses the shape, and by every shape of equal type, dimensions and properties (Bullet
// programs often make a shape per body).
//
// Thread-safe. A shape deleted while tagged should be untagged (hydroRemoveShape); cached geometry
// carries its shape's fingerprint (type, scaling, dimensions), so a new shape at a reused address,
// or a shape whose scaling changed, gets its geometry rebuilt.
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "adapters/btHydroelasticShapes.h"
#include "adapters/hydroelastic_properties.h"
#include "adapters/shape_geometry.h"

namespace hydro {
namespace bullet {

class ShapeRegistry {
 public:
  static ShapeRegistry& Instance();

  // Throws InvalidInput naming the shape type and the bad value.
  static void ValidateHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties);
  // Validates and records the properties (on a compound's children, recursively); drops cached
  // geometry.
  void SetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties);
  void SetPointMaterial(const btCollisionShape* shape, const btPointContactMaterial& material);
  void Remove(const btCollisionShape* shape);

  // True when the shape is tagged COMPLIANT.
  bool IsCompliant(const btCollisionShape* shape) const;
  // True when the shape is tagged hydroelastic (compliant or rigid).
  bool IsHydroelastic(const btCollisionShape* shape) const;
  std::optional<btPointContactMaterial> PointMaterial(const btCollisionShape* shape) const;
  // The point budget the two shapes ask for: the smallest positive m_maxPatchPoints of either, or 0
  // (then the world's default applies: btHydroelasticWorldState).
  int MaxPatchPoints(const btCollisionShape* a, const btCollisionShape* b) const;

  // The shape's geometry, built on first use (untagged shapes are rigid). Unsupported shapes give
  // kind kUnsupported; the first time a shape type is unsupported a message goes to stderr.
  std::shared_ptr<const ShapeGeometry> Geometry(const btCollisionShape* shape);

  // True when some shape is tagged (hydroelastic or point material).
  bool HasTaggedShapes() const;

  // Changes whenever a tag is set or removed (SetHydroelastic, SetPointMaterial, Remove): what a
  // caller read of a shape stands while the version does (adapters/shape_pair_lookup.h), except
  // its geometry, which also follows the shape's fingerprint.
  std::uint64_t Version() const { return version_.load(std::memory_order_acquire); }

 private:
  struct Entry {
    std::optional<btHydroelasticProperties> properties;
    std::optional<btPointContactMaterial> point_material;
    std::shared_ptr<const ShapeGeometry> geometry;
    ShapeFingerprintValues fingerprint{};  // of the shape the geometry was built from
  };
  mutable std::mutex mutex_;
  std::atomic<std::uint64_t> version_{0};  // raised under mutex_ by every change of a tag
  std::unordered_map<const btCollisionShape*, Entry> entries_;
  // Built geometry by everything it was built from (SharingKey), while some shape uses it.
  std::map<std::vector<double>, std::weak_ptr<const ShapeGeometry>> shared_;
};

// Reports a failure through hydroSetErrorCallback's callback (stderr by default).
void ReportError(const std::string& message);

}  // namespace bullet
}  // namespace hydro
