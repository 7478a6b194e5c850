#pragma once
// Bullet's btMultiBodyWorldImporter, with the one thing it leaves out: Bullet 3.24 makes the link
// colliders of a file's multibodies only when the file was written by a double-precision build
// (btMultiBodyWorldImporter::convertAllObjects converts btMultiBodyLinkColliderDoubleData and
// skips the float records), so a .bullet file saved by a float program loaded its multibodies
// without any collision shapes. This importer makes them from float files the same way.
#include <BulletWorldImporter/btMultiBodyWorldImporter.h>

class btMultiBodyDynamicsWorld;

namespace hydro {
namespace urdf {

class MultiBodyWorldImporter final : public btMultiBodyWorldImporter {
 public:
  explicit MultiBodyWorldImporter(btMultiBodyDynamicsWorld* world);
  bool convertAllObjects(bParse::btBulletFile* file) override;

 private:
  btMultiBodyDynamicsWorld* world_;
};

}  // namespace urdf
}  // namespace hydro
