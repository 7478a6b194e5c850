#include "urdf/multibody_world_importer.h"

#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <BulletFileLoader/btBulletFile.h>

namespace hydro {
namespace urdf {

MultiBodyWorldImporter::MultiBodyWorldImporter(btMultiBodyDynamicsWorld* world)
    : btMultiBodyWorldImporter(world), world_(world) {}

bool MultiBodyWorldImporter::convertAllObjects(bParse::btBulletFile* file) {
  const int multibodies_before = world_->getNumMultibodies();
  if (!btMultiBodyWorldImporter::convertAllObjects(file)) return false;
  if (file->getFlags() & bParse::FD_DOUBLE_PRECISION) return true;  // Bullet made them
  // Bullet adds the file's multibodies to the world in the file's order; a collider's record
  // points at its multibody's record.
  const int converted = world_->getNumMultibodies() - multibodies_before;
  for (int i = 0; i < file->m_multiBodyLinkColliders.size(); ++i) {
    auto* record = reinterpret_cast<btMultiBodyLinkColliderFloatData*>(file->m_multiBodyLinkColliders[i]);
    int index = -1;
    for (int m = 0; m < file->m_multiBodies.size() && m < converted; ++m)
      if (reinterpret_cast<const void*>(file->m_multiBodies[m]) == reinterpret_cast<const void*>(record->m_multiBody))
        index = m;
    if (index < 0) continue;
    btMultiBody* multibody = world_->getMultiBody(multibodies_before + index);
    const int link = record->m_link;
    if (link < -1 || link >= multibody->getNumLinks()) continue;
    btCollisionShape** shape = m_shapeMap.find(record->m_colObjData.m_collisionShape);
    if (!shape || !*shape) continue;
    auto* collider = new btMultiBodyLinkCollider(multibody, link);
    collider->setCollisionShape(*shape);
    collider->setFriction(btScalar(record->m_colObjData.m_friction));
    collider->setRestitution(btScalar(record->m_colObjData.m_restitution));
    if (link == -1) {
      collider->setWorldTransform(multibody->getBaseWorldTransform());
      multibody->setBaseCollider(collider);
    } else {
      collider->setWorldTransform(multibody->getLink(link).m_cachedWorldTransform);
      multibody->getLink(link).m_collider = collider;
    }
    // As Bullet files them: a fixed base is static, everything else dynamic.
    const bool dynamic = !(link < 0 && multibody->hasFixedBase());
    const int group = dynamic ? int(btBroadphaseProxy::DefaultFilter) : int(btBroadphaseProxy::StaticFilter);
    const int mask = dynamic ? int(btBroadphaseProxy::AllFilter)
                             : int(btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter);
    world_->addCollisionObject(collider, group, mask);
  }
  return true;
}

}  // namespace urdf
}  // namespace hydro
