#include "plugin/btHydroelasticCollisionDispatcher.h"

#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>

#include <algorithm>

#include "hydro/parallel_for.h"
#include "plugin/btHydroelasticCollisionAlgorithm.h"

namespace {

// Pairs per task: a pair certified apart takes about 0.1 µs, a surface tens to hundreds; a few
// pairs a task keep the pool's shared counter off the hot path without unbalancing the threads.
constexpr int kPairsPerTask = 4;
// Large pairs (their surfaces split in pieces) per thread from which they are computed ahead.
constexpr int kManyLargePairsPerThread = 4;

}  // namespace

btHydroelasticCollisionDispatcher::btHydroelasticCollisionDispatcher(btCollisionConfiguration* collisionConfiguration)
    : btCollisionDispatcher(collisionConfiguration) {}

void btHydroelasticCollisionDispatcher::dispatchAllCollisionPairs(btOverlappingPairCache* pairCache,
                                                                  const btDispatcherInfo& dispatchInfo,
                                                                  btDispatcher* dispatcher) {
  m_ahead.clear();
  m_largeInDispatch = 0;
  const bool own_near_callback = getNearCallback() != &btCollisionDispatcher::defaultNearCallback;
  if (dispatchInfo.m_dispatchFunc == btDispatcherInfo::DISPATCH_DISCRETE && !own_near_callback &&
      hydro::ContactThreads() > 1) {
    // The pairs defaultNearCallback would process, in its order, with the wrappers it would make.
    // Reading tags and building geometries goes through the shape registry: here, one at a time.
    btBroadphasePair* pairs = pairCache->getOverlappingPairArrayPtr();
    const int num_pairs = pairCache->getNumOverlappingPairs();
    for (int i = 0; i < num_pairs; ++i) {
      btBroadphasePair& pair = pairs[i];
      if (!pair.m_algorithm) continue;
      auto* algorithm = dynamic_cast<btHydroelasticCollisionAlgorithm*>(pair.m_algorithm);
      if (!algorithm) continue;
      auto* object0 = static_cast<btCollisionObject*>(pair.m_pProxy0->m_clientObject);
      auto* object1 = static_cast<btCollisionObject*>(pair.m_pProxy1->m_clientObject);
      if (!needsCollision(object0, object1)) continue;
      const btCollisionObjectWrapper wrap0(nullptr, object0->getCollisionShape(), object0, object0->getWorldTransform(),
                                           -1, -1);
      const btCollisionObjectWrapper wrap1(nullptr, object1->getCollisionShape(), object1, object1->getWorldTransform(),
                                           -1, -1);
      bool large = false;
      if (algorithm->prepareAhead(&wrap0, &wrap1, &large)) m_ahead.push_back({algorithm, object0, object1, large});
    }
    // A few large surfaces (a gripper's fingers on a finely meshed object) are left to the dispatch,
    // where each is clipped in pieces on every thread: computed ahead, each would take one thread
    // while the others finish the small pairs and wait. Many (a wall of bricks whose every
    // surface would be split) are computed ahead, whole, side by side: the wall at 1e8 Pa took
    // 1.8 s a step that way against 2.1 s split (plugin_bench BM_StepWall/4/8 and /2/8).
    const int num_large =
        static_cast<int>(std::count_if(m_ahead.begin(), m_ahead.end(), [](const AheadPair& p) { return p.large; }));
    if (num_large > 0 && num_large < kManyLargePairsPerThread * hydro::ContactThreads()) {
      m_largeInDispatch = num_large;
      m_ahead.erase(std::remove_if(m_ahead.begin(), m_ahead.end(), [](const AheadPair& p) { return p.large; }),
                    m_ahead.end());
    }
    const int num_ahead = static_cast<int>(m_ahead.size());
    if (num_ahead > 1) {
      try {
        hydro::ParallelFor((num_ahead + kPairsPerTask - 1) / kPairsPerTask, [&](int task) {
          const int end = std::min(num_ahead, (task + 1) * kPairsPerTask);
          for (int k = task * kPairsPerTask; k < end; ++k) {
            const AheadPair& p = m_ahead[k];
            const btCollisionObjectWrapper wrap0(nullptr, p.object0->getCollisionShape(), p.object0,
                                                 p.object0->getWorldTransform(), -1, -1);
            const btCollisionObjectWrapper wrap1(nullptr, p.object1->getCollisionShape(), p.object1,
                                                 p.object1->getWorldTransform(), -1, -1);
            p.algorithm->computeAhead(&wrap0, &wrap1, dispatchInfo);
          }
        });
      } catch (...) {
        // The first failing pair's error, by pair order, as btCollisionDispatcher would throw it;
        // no pair emits this step's contact.
        for (const AheadPair& p : m_ahead) p.algorithm->discardAhead();
        m_ahead.clear();
        throw;
      }
    } else {
      m_ahead.clear();  // one pair: computed in the dispatch, where its own pieces can use the threads
    }
  }
  btCollisionDispatcher::dispatchAllCollisionPairs(pairCache, dispatchInfo, dispatcher);
  // Every pair computed ahead was processed (the default near callback processes each pair of the
  // cache, and removes none); should one not have been, it emits nothing from this step later.
  for (const AheadPair& p : m_ahead) p.algorithm->discardAhead();
}
