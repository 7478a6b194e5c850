#include "adapters/shape_registry.h"

#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <set>

#include "hydro/contact_material.h"

static_assert(btHydroelasticProperties::kDefaultHydroelasticModulus == hydro::kDefaultHydroelasticModulus,
              "a shape tagged in code and one tagged in a file get the same default modulus");

namespace hydro {
namespace bullet {

ShapeRegistry& ShapeRegistry::Instance() {
  static ShapeRegistry registry;
  return registry;
}

namespace {

// The shapes a tag on `shape` lands on: a compound's children (recursively), or the shape itself.
// A compound meets other shapes child by child through Bullet's compound algorithm, which
// dispatches every child pair back to the plugin.
void CollectTaggedLeaves(const btCollisionShape* shape, std::vector<const btCollisionShape*>* leaves) {
  if (!shape->isCompound()) {
    leaves->push_back(shape);
    return;
  }
  const auto* compound = static_cast<const btCompoundShape*>(shape);
  for (int i = 0; i < compound->getNumChildShapes(); ++i) CollectTaggedLeaves(compound->getChildShape(i), leaves);
}

}  // namespace

void ShapeRegistry::ValidateHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties) {
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
  if (shape->isCompound() && properties.m_volumeMesh)
    throw InvalidInput(name + ": a volume mesh is one shape's; tag the compound's children one by one");
}

void ShapeRegistry::SetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties) {
  ValidateHydroelastic(shape, properties);
  std::vector<const btCollisionShape*> leaves;
  CollectTaggedLeaves(shape, &leaves);
  std::lock_guard<std::mutex> lock(mutex_);
  for (const btCollisionShape* leaf : leaves) {
    Entry& entry = entries_[leaf];
    entry.properties = properties;
    entry.geometry.reset();
  }
  version_.fetch_add(1, std::memory_order_release);
}

void ShapeRegistry::SetPointMaterial(const btCollisionShape* shape, const btPointContactMaterial& material) {
  if (!shape) throw InvalidInput("hydroSetPointContactMaterial: null shape");
  const std::string name = ShapeTypeName(shape->getShapeType());
  CheckPositive(material.m_youngsModulus, name + ": point contact Young's modulus");
  CheckNonNegative(material.m_dissipation, name + ": point contact dissipation");
  CheckPositive(material.m_characteristicRadius, name + ": point contact characteristic radius");
  std::vector<const btCollisionShape*> leaves;
  CollectTaggedLeaves(shape, &leaves);
  std::lock_guard<std::mutex> lock(mutex_);
  for (const btCollisionShape* leaf : leaves) entries_[leaf].point_material = material;
  version_.fetch_add(1, std::memory_order_release);
}

void ShapeRegistry::Remove(const btCollisionShape* shape) {
  if (!shape) return;
  std::vector<const btCollisionShape*> leaves;
  CollectTaggedLeaves(shape, &leaves);
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.erase(shape);
  for (const btCollisionShape* leaf : leaves) entries_.erase(leaf);
  version_.fetch_add(1, std::memory_order_release);
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

int ShapeRegistry::MaxPatchPoints(const btCollisionShape* a, const btCollisionShape* b) const {
  std::lock_guard<std::mutex> lock(mutex_);
  int result = 0;
  for (const btCollisionShape* shape : {a, b}) {
    const auto it = entries_.find(shape);
    if (it == entries_.end() || !it->second.properties) continue;
    const int n = it->second.properties->m_maxPatchPoints;
    if (n > 0) result = result > 0 ? std::min(result, n) : n;
  }
  return result;
}

bool ShapeRegistry::HasTaggedShapes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [shape, entry] : entries_)
    if (entry.properties || entry.point_material) return true;
  return false;
}

namespace {

// Everything MakeShapeGeometry reads from a shape and its properties, for the shapes it reads
// completely: primitives by their dimensions, convex hulls by their points. Empty for the others
// (triangle meshes are big and rarely duplicated; they are not shared).
std::vector<double> SharingKey(const btCollisionShape& shape, const btHydroelasticProperties* properties) {
  std::vector<double> key;
  switch (shape.getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
    case BOX_SHAPE_PROXYTYPE:
    case CYLINDER_SHAPE_PROXYTYPE:
    case CAPSULE_SHAPE_PROXYTYPE:
    case CONE_SHAPE_PROXYTYPE:
    case STATIC_PLANE_PROXYTYPE: {
      const ShapeFingerprintValues fingerprint = ShapeFingerprint(shape);
      key.assign(fingerprint.begin(), fingerprint.end());
      break;
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      const auto& hull = static_cast<const btConvexHullShape&>(shape);
      key = {static_cast<double>(shape.getShapeType()), hull.getLocalScaling().x(), hull.getLocalScaling().y(),
             hull.getLocalScaling().z(), static_cast<double>(hull.getNumPoints())};
      for (int i = 0; i < hull.getNumPoints(); ++i)
        for (int k = 0; k < 3; ++k) key.push_back(hull.getUnscaledPoints()[i][k]);
      break;
    }
    default:
      return key;
  }
  if (properties) {
    // Every property field that MakeShapeGeometry reads; a volume mesh is shared by address.
    key.insert(key.end(), {1.0, static_cast<double>(properties->m_kind), properties->m_hydroelasticModulus,
                           properties->m_huntCrossleyDissipation, properties->m_resolutionHint,
                           properties->m_slabThickness, properties->m_stiffening,
                           static_cast<double>(reinterpret_cast<std::uintptr_t>(properties->m_volumeMesh.get()))});
  } else {
    key.push_back(0.0);  // untagged: rigid
  }
  return key;
}

}  // namespace

std::shared_ptr<const ShapeGeometry> ShapeRegistry::Geometry(const btCollisionShape* shape) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = entries_[shape];
  const ShapeFingerprintValues fingerprint = ShapeFingerprint(*shape);
  if (entry.geometry && entry.fingerprint != fingerprint)
    entry.geometry.reset();  // the address was reused by another shape, or the shape changed
  if (!entry.geometry) {
    const btHydroelasticProperties* properties = entry.properties ? &*entry.properties : nullptr;
    const std::vector<double> key = SharingKey(*shape, properties);
    if (!key.empty()) {
      const auto found = shared_.find(key);
      if (auto existing = found != shared_.end() ? found->second.lock() : nullptr) {
        entry.geometry = std::move(existing);
        entry.fingerprint = fingerprint;
        return entry.geometry;
      }
    }
    auto geometry = std::make_shared<ShapeGeometry>();
    try {
      *geometry = MakeShapeGeometry(*shape, properties);
    } catch (const InvalidInput& e) {
      geometry->kind = ShapeGeometry::Kind::kUnsupported;
      geometry->error = e.what();
    }
    if (geometry->kind == ShapeGeometry::Kind::kUnsupported) {
      // Report once per shape type (or per message), not every step.
      static std::set<std::string> reported;
      if (reported.insert(geometry->error).second) ReportError(geometry->error);
    }
    entry.geometry = std::move(geometry);
    entry.fingerprint = fingerprint;
    if (!key.empty()) {
      for (auto it = shared_.begin(); it != shared_.end();)
        it = it->second.expired() ? shared_.erase(it) : std::next(it);
      shared_[key] = entry.geometry;
    }
  }
  return entry.geometry;
}

}  // namespace bullet
}  // namespace hydro

namespace {

std::atomic<btHydroelasticErrorCallback> g_error_callback{nullptr};

// Runs a registry call, turning its InvalidInput into a false return and a reported message.
template <class Call>
bool Reported(Call&& call) {
  try {
    call();
    return true;
  } catch (const hydro::InvalidInput& e) {
    hydro::bullet::ReportError(e.what());
    return false;
  }
}

}  // namespace

namespace hydro {
namespace bullet {

void ReportError(const std::string& message) {
  if (btHydroelasticErrorCallback callback = g_error_callback.load()) {
    callback(message.c_str());
    return;
  }
  std::fprintf(stderr, "HydroBullet: %s\n", message.c_str());
}

}  // namespace bullet
}  // namespace hydro

void hydroSetErrorCallback(btHydroelasticErrorCallback callback) { g_error_callback = callback; }

bool hydroSetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties) {
  return Reported([&] { hydro::bullet::ShapeRegistry::Instance().SetHydroelastic(shape, properties); });
}

bool hydroSetPointContactMaterial(const btCollisionShape* shape, const btPointContactMaterial& material) {
  return Reported([&] { hydro::bullet::ShapeRegistry::Instance().SetPointMaterial(shape, material); });
}

void hydroRemoveShape(const btCollisionShape* shape) { hydro::bullet::ShapeRegistry::Instance().Remove(shape); }

int hydroSetHydroelasticWorld(btCollisionWorld* world, const btHydroelasticProperties& properties) {
  hydro::bullet::ShapeRegistry& registry = hydro::bullet::ShapeRegistry::Instance();
  std::vector<const btCollisionShape*> shapes;
  for (int i = 0; i < world->getNumCollisionObjects(); ++i) {
    const btCollisionObject* object = world->getCollisionObjectArray()[i];
    if (object->isStaticOrKinematicObject() || (object->getInternalType() & btCollisionObject::CO_SOFT_BODY)) continue;
    const btCollisionShape* shape = object->getCollisionShape();
    if (shape && std::find(shapes.begin(), shapes.end(), shape) == shapes.end()) shapes.push_back(shape);
  }
  // All or nothing: every shape is checked before any is tagged.
  const bool valid = Reported([&] {
    for (const btCollisionShape* shape : shapes) registry.ValidateHydroelastic(shape, properties);
  });
  if (!valid) return -1;
  for (const btCollisionShape* shape : shapes) registry.SetHydroelastic(shape, properties);
  // Pairs that met before the tags keep the algorithm they were given until it is made anew.
  btOverlappingPairCache* pairs = world->getBroadphase()->getOverlappingPairCache();
  btBroadphasePairArray& array = pairs->getOverlappingPairArray();
  for (int i = 0; i < array.size(); ++i) pairs->cleanOverlappingPair(array[i], world->getDispatcher());
  return static_cast<int>(shapes.size());
}
