#include "adapters/shape_pair_lookup.h"

namespace hydro {
namespace bullet {

void ShapePairLookup::Update(const btCollisionShape* shape0, const btCollisionShape* shape1) {
  fingerprint_checked_[0] = fingerprint_checked_[1] = false;
  const std::uint64_t version = registry_->Version();
  if (version == version_ && shape0 == shapes_[0] && shape1 == shapes_[1]) return;
  // The version first: a change made while the tags below are read raises it again, and the
  // next Update reads them once more.
  version_ = version;
  shapes_[0] = shape0;
  shapes_[1] = shape1;
  compliant_ = registry_->IsCompliant(shape0) || registry_->IsCompliant(shape1);
  max_patch_points_ = registry_->MaxPatchPoints(shape0, shape1);
  geometry_[0].reset();
  geometry_[1].reset();
}

const std::shared_ptr<const ShapeGeometry>& ShapePairLookup::geometry(int side) {
  const btCollisionShape* shape = shapes_[side];
  std::shared_ptr<const ShapeGeometry>& geometry = geometry_[side];
  if (geometry && fingerprint_checked_[side]) return geometry;
  fingerprint_checked_[side] = true;
  const ShapeFingerprintValues fingerprint = ShapeFingerprint(*shape);
  if (geometry && fingerprint == fingerprint_[side]) return geometry;
  geometry = registry_->Geometry(shape);
  fingerprint_[side] = fingerprint;
  return geometry;
}

}  // namespace bullet
}  // namespace hydro
