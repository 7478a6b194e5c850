#pragma once
// The live pairs with patch contact, so that a user can read every pair's contact surface after a
// step (plugin/btHydroelasticContactQuery.h). Thread-safe; states register for their lifetime.
#include <memory_resource>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "plugin/patch_state.h"

namespace hydro {
namespace bullet {

class PatchRegistry {
 public:
  static PatchRegistry& Instance();
  void Add(const PatchState* state);
  void Remove(const PatchState* state);
  // The states created by `dispatcher`'s pairs.
  std::vector<const PatchState*> StatesOf(const btDispatcher* dispatcher) const;
  // The manifolds a state writes its points into, so that a solver handed Bullet's manifolds can
  // find the patch each belongs to.
  void MapManifold(const btPersistentManifold* manifold, PatchState* state);
  void UnmapManifold(const btPersistentManifold* manifold);
  // The state whose points `manifold` holds, or null for any other manifold.
  PatchState* StateOfManifold(const btPersistentManifold* manifold) const;
  // StateOfManifold of each of `count` manifolds, in `states` (resized), under one lock: a solver
  // asks for a whole island's manifolds at once (a lock per manifold was 2 % of BasicDemo's step).
  void StatesOfManifolds(btPersistentManifold* const* manifolds, int count, std::vector<PatchState*>* states) const;

 private:
  mutable std::mutex mutex_;
  // Their nodes come from a pool that keeps what they free: a patch releases and takes manifolds as
  // its points come and go, and mapping a new one then reuses a node instead of allocating.
  std::pmr::unsynchronized_pool_resource pool_;  // guarded by mutex_, as the containers are
  std::pmr::unordered_set<const PatchState*> states_{&pool_};
  std::pmr::unordered_map<const btPersistentManifold*, PatchState*> manifold_states_{&pool_};
};

}  // namespace bullet
}  // namespace hydro
