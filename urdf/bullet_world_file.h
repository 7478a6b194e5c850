#pragma once
// A world saved by Bullet (btDefaultSerializer, PyBullet's saveBullet) as a .bullet file, loaded
// into a btMultiBodyDynamicsWorld by Bullet's own importer (btMultiBodyWorldImporter, Debian's
// libbullet-extras-dev): rigid bodies, multibodies, constraints, shapes, gravity and solver
// settings as the saving program had them. Compliance comes from rules (compliance_rules.h),
// since the binary file has no place for it.
#include <memory>
#include <string>
#include <vector>

#include "urdf/bullet_builder.h"
#include "urdf/compliance_rules.h"

namespace hydro {
namespace urdf {

// True for a path ending in ".bullet".
bool IsBulletWorldFile(const std::string& path);

// Loads the file's objects into `world` and tags their shapes by `rules` (when patch_contact).
// Bodies are named as the file names them (the serializer's registered names), else "body<i>";
// a multibody's links are "NAME::base" and "NAME::<link name>" (or "NAME::link<i>"). A
// compound shape's children are tagged one by one. Problems (no such file, not a .bullet file, a
// rule that fits no shape) go to `diagnostics` naming the file; on error the result is null and
// the world is left as it was.
std::unique_ptr<BuiltScene> LoadBulletWorldFile(const std::string& path, btMultiBodyDynamicsWorld* world,
                                                const std::vector<ComplianceRule>& rules, bool patch_contact,
                                                Diagnostics* diagnostics);

// The rule subject's shape type of a Bullet shape ("box", "convex", "compound", ...).
std::string ShapeTypeOf(const btCollisionShape& shape);

}  // namespace urdf
}  // namespace hydro
