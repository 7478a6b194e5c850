#include "plugin/patch_registry.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <algorithm>
#include <limits>

namespace hydro {
namespace bullet {

PatchRegistry& PatchRegistry::Instance() {
  static PatchRegistry registry;
  return registry;
}

void PatchRegistry::Add(const PatchState* state) {
  std::lock_guard<std::mutex> lock(mutex_);
  states_.insert(state);
}

void PatchRegistry::Remove(const PatchState* state) {
  std::lock_guard<std::mutex> lock(mutex_);
  states_.erase(state);
}

std::vector<const PatchState*> PatchRegistry::StatesOf(const btDispatcher* dispatcher) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<const PatchState*> result;
  for (const PatchState* s : states_)
    if (s->dispatcher == dispatcher) result.push_back(s);
  // Ordered by the pair's objects' places in their world (the order they were added in), not by
  // their heap addresses, so that runs list pairs alike from run to run (objects not in a world
  // follow, by address).
  auto key = [](const PatchState* s) {
    auto place = [](const btCollisionObject* object) {
      const int index = object->getWorldArrayIndex();
      return std::make_pair(index < 0 ? std::numeric_limits<int>::max() : index, object);
    };
    return std::make_pair(place(s->body0), place(s->body1));
  };
  std::sort(result.begin(), result.end(), [&](const PatchState* a, const PatchState* b) { return key(a) < key(b); });
  return result;
}

void PatchRegistry::MapManifold(const btPersistentManifold* manifold, PatchState* state) {
  std::lock_guard<std::mutex> lock(mutex_);
  manifold_states_[manifold] = state;
}

void PatchRegistry::UnmapManifold(const btPersistentManifold* manifold) {
  std::lock_guard<std::mutex> lock(mutex_);
  manifold_states_.erase(manifold);
}

PatchState* PatchRegistry::StateOfManifold(const btPersistentManifold* manifold) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = manifold_states_.find(manifold);
  return it == manifold_states_.end() ? nullptr : it->second;
}

void PatchRegistry::StatesOfManifolds(btPersistentManifold* const* manifolds, int count,
                                      std::vector<PatchState*>* states) const {
  states->resize(std::max(count, 0));
  std::lock_guard<std::mutex> lock(mutex_);
  for (int m = 0; m < count; ++m) {
    const auto it = manifold_states_.find(manifolds[m]);
    (*states)[m] = it == manifold_states_.end() ? nullptr : it->second;
  }
}

}  // namespace bullet
}  // namespace hydro
