#pragma once
// Both cores for a world's contact surfaces, pair by pair (issue 15): a btCollisionDispatcher that
// computes the contact of every pair with a compliant shape side by side, on the contact threads
// (plugin/btHydroelasticThreads.h), before Bullet's own dispatch; that dispatch then writes each
// pair's points into its manifolds, in Bullet's order, on the stepping thread. Results are bit for
// bit btCollisionDispatcher's: a pair's computation reads only its own state and the bodies' poses
// and velocities, which a dispatch does not change, and everything that touches the dispatcher
// (manifolds, Bullet's own algorithms) stays in its serial order.
//
//   btHydroelasticCollisionConfiguration configuration;
//   btHydroelasticCollisionDispatcher dispatcher(&configuration);  // was btCollisionDispatcher
//
// As in btCollisionDispatcher, and on the stepping thread: a pair's first step (its algorithm is
// created in the dispatch), compound shapes (Bullet's compound algorithm dispatches their
// children), untagged pairs, time-of-impact dispatch, and every pair of a dispatcher given its
// own near callback (which may skip or change pairs); and large pairs, whose surfaces are split in
// pieces on the threads, when there are few of them.
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>

#include <vector>

class btCollisionObject;
class btHydroelasticCollisionAlgorithm;

class btHydroelasticCollisionDispatcher : public btCollisionDispatcher {
 public:
  explicit btHydroelasticCollisionDispatcher(btCollisionConfiguration* collisionConfiguration);

  void dispatchAllCollisionPairs(btOverlappingPairCache* pairCache, const btDispatcherInfo& dispatchInfo,
                                 btDispatcher* dispatcher) override;

  // Pairs computed ahead, side by side, at the last dispatch.
  int getNumPairsComputedAhead() const { return static_cast<int>(m_ahead.size()); }
  // Large pairs left to Bullet's dispatch at the last dispatch, there split in pieces (few of them).
  int getNumLargePairsInDispatch() const { return m_largeInDispatch; }

 private:
  struct AheadPair {
    btHydroelasticCollisionAlgorithm* algorithm;
    btCollisionObject* object0;
    btCollisionObject* object1;
    bool large;  // its surface is split in pieces (hydro::bullet::SplitsInPieces)
  };
  std::vector<AheadPair> m_ahead;  // kept: no allocation once grown
  int m_largeInDispatch{0};
};
