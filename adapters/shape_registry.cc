#include "adapters/shape_registry.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace hydro {
namespace bullet {

ShapeRegistry& ShapeRegistry::Instance() {
  static ShapeRegistry registry;
  return registry;
}

void ShapeRegistry::SetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties) {
  if (!shape) throw InvalidInput("hydroSetHydroelastic: null shape");
  const std::string name = ShapeTypeName(shape->getShapeType());
  if (properties.m_kind == btHydroelasticProperties::COMPLIANT) {
    CheckPositive(properties.m_hydroelasticModulus, name + ": hydroelastic modulus");
    if (!(properties.m_stiffening >= 0 && properties.m_stiffening < 1))
      throw InvalidInput(name + ": stiffening must lie in [0, 1), got " + std::to_string(properties.m_stiffening));
  }
  CheckNonNegative(properties.m_huntCrossleyDissipation, name + ": Hunt-Crossley dissipation");
  CheckNonNegative(properties.m_resolutionHint, name + ": resolution hint");
  CheckNonNegative(properties.m_slabThickness, name + ": slab thickness");
  if (properties.m_maxPatchPoints < 0)
    throw InvalidInput(name + ": max patch points must be 0 (all) or positive, got " +
                       std::to_string(properties.m_maxPatchPoints));
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = entries_[shape];
  entry.properties = properties;
  entry.geometry.reset();
}

void ShapeRegistry::SetPointMaterial(const btCollisionShape* shape, const btPointContactMaterial& material) {
  if (!shape) throw InvalidInput("hydroSetPointContactMaterial: null shape");
  const std::string name = ShapeTypeName(shape->getShapeType());
  CheckPositive(material.m_youngsModulus, name + ": point contact Young's modulus");
  CheckNonNegative(material.m_dissipation, name + ": point contact dissipation");
  CheckPositive(material.m_characteristicRadius, name + ": point contact characteristic radius");
  std::lock_guard<std::mutex> lock(mutex_);
  entries_[shape].point_material = material;
}

void ShapeRegistry::Remove(const btCollisionShape* shape) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.erase(shape);
}

bool ShapeRegistry::IsCompliant(const btCollisionShape* shape) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(shape);
  return it != entries_.end() && it->second.properties &&
         it->second.properties->m_kind == btHydroelasticProperties::COMPLIANT;
}

bool ShapeRegistry::IsHydroelastic(const btCollisionShape* shape) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(shape);
  return it != entries_.end() && it->second.properties.has_value();
}

std::optional<btPointContactMaterial> ShapeRegistry::PointMaterial(const btCollisionShape* shape) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(shape);
  if (it == entries_.end()) return std::nullopt;
  return it->second.point_material;
}

int ShapeRegistry::MaxPatchPoints(const btCollisionShape* a, const btCollisionShape* b, bool with_default) const {
  std::lock_guard<std::mutex> lock(mutex_);
  int result = 0;
  for (const btCollisionShape* shape : {a, b}) {
    const auto it = entries_.find(shape);
    if (it == entries_.end() || !it->second.properties) continue;
    const int n = it->second.properties->m_maxPatchPoints;
    if (n > 0) result = result > 0 ? std::min(result, n) : n;
  }
  return result > 0 ? result : (with_default ? default_max_patch_points_ : 0);
}

void ShapeRegistry::SetDefaultMaxPatchPoints(int max_points) {
  if (max_points < 0) throw InvalidInput("hydroSetDefaultMaxPatchPoints: must be 0 (all) or positive");
  std::lock_guard<std::mutex> lock(mutex_);
  default_max_patch_points_ = max_points;
}

bool ShapeRegistry::HasTaggedShapes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [shape, entry] : entries_)
    if (entry.properties || entry.point_material) return true;
  return false;
}

std::shared_ptr<const ShapeGeometry> ShapeRegistry::Geometry(const btCollisionShape* shape) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = entries_[shape];
  const ShapeFingerprintValues fingerprint = ShapeFingerprint(*shape);
  if (entry.geometry && entry.fingerprint != fingerprint)
    entry.geometry.reset();  // the address was reused by another shape, or the shape changed
  if (!entry.geometry) {
    auto geometry = std::make_shared<ShapeGeometry>();
    try {
      *geometry = MakeShapeGeometry(*shape, entry.properties ? &*entry.properties : nullptr);
    } catch (const InvalidInput& e) {
      geometry->kind = ShapeGeometry::Kind::kUnsupported;
      geometry->error = e.what();
    }
    if (geometry->kind == ShapeGeometry::Kind::kUnsupported) {
      // Report once per shape type (or per message), not every step.
      static std::set<std::string> reported;
      if (reported.insert(geometry->error).second) std::fprintf(stderr, "HydroBullet: %s\n", geometry->error.c_str());
    }
    entry.geometry = std::move(geometry);
    entry.fingerprint = fingerprint;
  }
  return entry.geometry;
}

}  // namespace bullet
}  // namespace hydro

void hydroSetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties) {
  hydro::bullet::ShapeRegistry::Instance().SetHydroelastic(shape, properties);
}

void hydroSetPointContactMaterial(const btCollisionShape* shape, const btPointContactMaterial& material) {
  hydro::bullet::ShapeRegistry::Instance().SetPointMaterial(shape, material);
}

void hydroSetDefaultMaxPatchPoints(int maxPoints) {
  hydro::bullet::ShapeRegistry::Instance().SetDefaultMaxPatchPoints(maxPoints);
}

void hydroRemoveShape(const btCollisionShape* shape) { hydro::bullet::ShapeRegistry::Instance().Remove(shape); }
