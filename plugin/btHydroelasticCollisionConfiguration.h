#pragma once
// Switching patch contact on (DESIGN §3): put btHydroelasticCollisionConfiguration where the
// program had btDefaultCollisionConfiguration (or btHydroelasticSoftBodyRigidBodyCollisionConfiguration
// for btSoftBodyRigidBodyCollisionConfiguration), then tag shapes with hydroSetHydroelastic(). The
// configuration owns its world's patch-contact settings and statistics (getHydroelasticState(),
// plugin/btHydroelasticWorldState.h).
//
//   btHydroelasticCollisionConfiguration configuration;            // was btDefaultCollisionConfiguration
//   btCollisionDispatcher dispatcher(&configuration);
//
// Every pair type, in both orders and in both dispatch tables (contacts and closest points), gets
// a create function that hands untagged pairs to exactly the algorithm the base configuration
// would have created.
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>

#include <vector>

#include "plugin/btHydroelasticCollisionAlgorithm.h"
#include "plugin/btHydroelasticWorldState.h"

template <class Base>
class btHydroelasticCollisionConfigurationT : public Base {
 public:
  explicit btHydroelasticCollisionConfigurationT(
      const btDefaultCollisionConstructionInfo& constructionInfo = btDefaultCollisionConstructionInfo())
      : Base(constructionInfo),
        m_contact(MAX_BROADPHASE_COLLISION_TYPES * MAX_BROADPHASE_COLLISION_TYPES),
        m_closest(MAX_BROADPHASE_COLLISION_TYPES * MAX_BROADPHASE_COLLISION_TYPES) {
    for (int i = 0; i < MAX_BROADPHASE_COLLISION_TYPES; ++i)
      for (int j = 0; j < MAX_BROADPHASE_COLLISION_TYPES; ++j) {
        m_contact[index(i, j)].m_fallback = Base::getCollisionAlgorithmCreateFunc(i, j);
        m_closest[index(i, j)].m_fallback = Base::getClosestPointsAlgorithmCreateFunc(i, j);
        m_closest[index(i, j)].m_closestPoints = true;
        m_contact[index(i, j)].m_worldState = m_closest[index(i, j)].m_worldState = &m_worldState;
      }
  }

  btCollisionAlgorithmCreateFunc* getCollisionAlgorithmCreateFunc(int proxyType0, int proxyType1) override {
    return &m_contact[index(proxyType0, proxyType1)];
  }
  btCollisionAlgorithmCreateFunc* getClosestPointsAlgorithmCreateFunc(int proxyType0, int proxyType1) override {
    return &m_closest[index(proxyType0, proxyType1)];
  }

  // The world's patch-contact settings and statistics (one per configuration, so per world).
  btHydroelasticWorldState& getHydroelasticState() { return m_worldState; }
  const btHydroelasticWorldState& getHydroelasticState() const { return m_worldState; }

 private:
  static int index(int i, int j) { return i * MAX_BROADPHASE_COLLISION_TYPES + j; }
  btHydroelasticWorldState m_worldState;
  std::vector<btHydroelasticCollisionAlgorithm::CreateFunc> m_contact;
  std::vector<btHydroelasticCollisionAlgorithm::CreateFunc> m_closest;
};

using btHydroelasticCollisionConfiguration = btHydroelasticCollisionConfigurationT<btDefaultCollisionConfiguration>;
using btHydroelasticSoftBodyRigidBodyCollisionConfiguration =
    btHydroelasticCollisionConfigurationT<btSoftBodyRigidBodyCollisionConfiguration>;

// Installs patch contact on an existing dispatcher, wrapping whatever create functions it uses now.
// Pairs that already have an algorithm keep it until it is recreated: pass the world's pair cache
// (world->getPairCache()) to drop those algorithms so every pair picks up the new ones on the next
// step. Keep the installer alive as long as the dispatcher; its destructor restores the originals.
class btHydroelasticDispatcherInstaller {
 public:
  btHydroelasticDispatcherInstaller(btCollisionDispatcher* dispatcher, btOverlappingPairCache* pairCache = nullptr);
  ~btHydroelasticDispatcherInstaller();
  // Drops the cached algorithms of every pair so they are created anew (through this plugin).
  void refreshPairs(btOverlappingPairCache* pairCache);

  // The settings and statistics of the dispatcher's world.
  btHydroelasticWorldState& getHydroelasticState() { return m_worldState; }
  const btHydroelasticWorldState& getHydroelasticState() const { return m_worldState; }

 private:
  btHydroelasticWorldState m_worldState;
  btCollisionDispatcher* m_dispatcher;
  std::vector<btHydroelasticCollisionAlgorithm::CreateFunc> m_contact;
  std::vector<btHydroelasticCollisionAlgorithm::CreateFunc> m_closest;
};
