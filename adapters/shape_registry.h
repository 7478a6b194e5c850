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
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <map>
#include <unordered_map>
#include <vector>

#include "adapters/btHydroelasticShapes.h"
#include "adapters/hydroelastic_properties.h"
#include "adapters/shape_geometry.h"

namespace hydro {
namespace bullet {

// Solver points per patch solved by btHydroelasticConstraintSolver unless a shape or the program
// asks otherwise: the merged points keep a patch's force, moment, stiffness and torsional friction
// (hydro/point_reduction.h), and averaging the slanted polygons between the rim tets of two
// stacked boxes keeps a pile of stiff boxes at 60 Hz from pushing itself apart (measured: a 3×3×3
// block of 0.2 m boxes at 1e8 Pa stays within free-fall speed with 16 points a patch, and is
// thrown apart at 17 m/s with whole patches). A sliding and spinning coin needs whole patches
// (hydroSetDefaultMaxPatchPoints(0)): with 16–64 merged points its ε is off by 10–45 %.
constexpr int kDefaultMaxPatchPoints = 16;

class ShapeRegistry {
 public:
  static ShapeRegistry& Instance();

  // Validates (InvalidInput on bad values) and records the properties; drops cached geometry.
  void SetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties);
  void SetPointMaterial(const btCollisionShape* shape, const btPointContactMaterial& material);
  void Remove(const btCollisionShape* shape);

  // True when the shape is tagged COMPLIANT.
  bool IsCompliant(const btCollisionShape* shape) const;
  // True when the shape is tagged hydroelastic (compliant or rigid).
  bool IsHydroelastic(const btCollisionShape* shape) const;
  std::optional<btPointContactMaterial> PointMaterial(const btCollisionShape* shape) const;
  // The point budget for a patch between the two shapes: the smallest positive m_maxPatchPoints
  // of either, else (when `with_default`) the world-wide default (0: no reduction).
  int MaxPatchPoints(const btCollisionShape* a, const btCollisionShape* b, bool with_default = true) const;
  void SetDefaultMaxPatchPoints(int max_points);
  // Whether pairs at rest keep their contact surface across steps (plugin/surface_reuse.h).
  bool SurfaceReuse() const { return surface_reuse_.load(std::memory_order_relaxed); }
  void SetSurfaceReuse(bool on) { surface_reuse_ = on; }

  // The shape's geometry, built on first use (untagged shapes are rigid). Unsupported shapes give
  // kind kUnsupported; the first time a shape type is unsupported a message goes to stderr.
  std::shared_ptr<const ShapeGeometry> Geometry(const btCollisionShape* shape);

  // True when some shape is tagged (hydroelastic or point material).
  bool HasTaggedShapes() const;

 private:
  struct Entry {
    std::optional<btHydroelasticProperties> properties;
    std::optional<btPointContactMaterial> point_material;
    std::shared_ptr<const ShapeGeometry> geometry;
    ShapeFingerprintValues fingerprint{};  // of the shape the geometry was built from
  };
  mutable std::mutex mutex_;
  std::unordered_map<const btCollisionShape*, Entry> entries_;
  // Built geometry by everything it was built from (SharingKey), while some shape uses it.
  std::map<std::vector<double>, std::weak_ptr<const ShapeGeometry>> shared_;
  int default_max_patch_points_{kDefaultMaxPatchPoints};
  std::atomic<bool> surface_reuse_{true};
};

// Reports a failure through hydroSetErrorCallback's callback (stderr by default).
void ReportError(const std::string& message);

}  // namespace bullet
}  // namespace hydro
