#include "plugin/btHydroelasticCollisionConfiguration.h"

#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>

namespace {

// The dispatcher's tables are protected; a pointer to member taken in a derived class's scope
// reads them from any dispatcher without copying Bullet's code.
struct DispatchTables : btCollisionDispatcher {
  using Table = btCollisionAlgorithmCreateFunc* [MAX_BROADPHASE_COLLISION_TYPES][MAX_BROADPHASE_COLLISION_TYPES];
  static Table& Contacts(btCollisionDispatcher* d) { return d->*(&DispatchTables::m_doubleDispatchContactPoints); }
  static Table& Closest(btCollisionDispatcher* d) { return d->*(&DispatchTables::m_doubleDispatchClosestPoints); }
};

}  // namespace

btHydroelasticDispatcherInstaller::btHydroelasticDispatcherInstaller(btCollisionDispatcher* dispatcher,
                                                                     btOverlappingPairCache* pairCache)
    : m_dispatcher(dispatcher),
      m_contact(MAX_BROADPHASE_COLLISION_TYPES * MAX_BROADPHASE_COLLISION_TYPES),
      m_closest(MAX_BROADPHASE_COLLISION_TYPES * MAX_BROADPHASE_COLLISION_TYPES) {
  for (int i = 0; i < MAX_BROADPHASE_COLLISION_TYPES; ++i)
    for (int j = 0; j < MAX_BROADPHASE_COLLISION_TYPES; ++j) {
      const int k = i * MAX_BROADPHASE_COLLISION_TYPES + j;
      m_contact[k].m_fallback = DispatchTables::Contacts(dispatcher)[i][j];
      m_closest[k].m_fallback = DispatchTables::Closest(dispatcher)[i][j];
      m_closest[k].m_closestPoints = true;
      m_contact[k].m_worldState = m_closest[k].m_worldState = &m_worldState;
      dispatcher->registerCollisionCreateFunc(i, j, &m_contact[k]);
      dispatcher->registerClosestPointsCreateFunc(i, j, &m_closest[k]);
    }
  if (pairCache) refreshPairs(pairCache);
}

btHydroelasticDispatcherInstaller::~btHydroelasticDispatcherInstaller() {
  for (int i = 0; i < MAX_BROADPHASE_COLLISION_TYPES; ++i)
    for (int j = 0; j < MAX_BROADPHASE_COLLISION_TYPES; ++j) {
      const int k = i * MAX_BROADPHASE_COLLISION_TYPES + j;
      m_dispatcher->registerCollisionCreateFunc(i, j, m_contact[k].m_fallback);
      m_dispatcher->registerClosestPointsCreateFunc(i, j, m_closest[k].m_fallback);
    }
}

void btHydroelasticDispatcherInstaller::refreshPairs(btOverlappingPairCache* pairCache) {
  btBroadphasePairArray& pairs = pairCache->getOverlappingPairArray();
  for (int i = 0; i < pairs.size(); ++i) pairCache->cleanOverlappingPair(pairs[i], m_dispatcher);
}
