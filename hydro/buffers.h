#pragma once
// Buffers a step reuses. A step must allocate nothing once its buffers have grown
// (tests/alloc/step_allocation_test.cc); std::vector::assign grows a vector to exactly what it is
// asked for, so one that holds a little more each step (a patch gaining points) would reallocate
// every step. These grow it geometrically, as push_back does.
#include <algorithm>
#include <vector>

namespace hydro {

// *v = n copies of value.
template <typename T, typename Allocator>
void AssignGrowing(std::vector<T, Allocator>* v, size_t n, const T& value) {
  if (n > v->capacity()) v->reserve(std::max(n, 2 * v->capacity()));
  v->assign(n, value);
}

// *to = from (std::vector's copy assignment, too, allocates exactly what it needs).
template <typename T, typename Allocator>
void CopyGrowing(std::vector<T, Allocator>* to, const std::vector<T, Allocator>& from) {
  if (from.size() > to->capacity()) to->reserve(std::max(from.size(), 2 * to->capacity()));
  to->assign(from.begin(), from.end());
}

// Room in *v for `extra` more elements, grown geometrically (std::vector::insert of a range grows
// to what it is asked for).
template <typename T, typename Allocator>
void ReserveGrowing(std::vector<T, Allocator>* v, size_t extra) {
  if (v->size() + extra > v->capacity()) v->reserve(std::max(v->size() + extra, 2 * v->capacity()));
}

}  // namespace hydro
