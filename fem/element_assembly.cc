#include "fem/element_assembly.h"

#include <algorithm>

namespace hydro {
namespace fem {

ElementAssembly::ElementAssembly(const std::vector<std::array<int, 4>>& tets, const std::vector<int>& free_index,
                                 int num_free)
    : num_free_(num_free) {
  auto free_dof = [&](const std::array<int, 4>& t, int k) { return free_index[3 * t[k / 3] + k % 3]; };
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(144 * tets.size() + num_free);
  for (int i = 0; i < num_free; ++i) entries.emplace_back(i, i, 0.0);  // the diagonal, always
  for (const auto& t : tets)
    for (int c = 0; c < 12; ++c)
      for (int r = 0; r < 12; ++r)
        if (free_dof(t, r) >= 0 && free_dof(t, c) >= 0) entries.emplace_back(free_dof(t, r), free_dof(t, c), 0.0);
  pattern_.resize(num_free, num_free);
  pattern_.setFromTriplets(entries.begin(), entries.end());
  pattern_.makeCompressed();
  auto slot_of = [&](int row, int col) {
    const int* begin = pattern_.innerIndexPtr() + pattern_.outerIndexPtr()[col];
    const int* end = pattern_.innerIndexPtr() + pattern_.outerIndexPtr()[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, row) - pattern_.innerIndexPtr());
  };
  slots_.resize(144 * tets.size());
  for (size_t e = 0; e < tets.size(); ++e)
    for (int c = 0; c < 12; ++c)
      for (int r = 0; r < 12; ++r) {
        const int row = free_dof(tets[e], r), col = free_dof(tets[e], c);
        slots_[144 * e + 12 * c + r] = row >= 0 && col >= 0 ? slot_of(row, col) : -1;
      }
  diagonal_slots_.resize(num_free);
  for (int i = 0; i < num_free; ++i) diagonal_slots_[i] = slot_of(i, i);
}

int ElementAssembly::Slot(int row, int col) const {
  if (row < 0 || col < 0) return -1;
  const int* begin = pattern_.innerIndexPtr() + pattern_.outerIndexPtr()[col];
  const int* end = pattern_.innerIndexPtr() + pattern_.outerIndexPtr()[col + 1];
  const int* found = std::lower_bound(begin, end, row);
  return found != end && *found == row ? static_cast<int>(found - pattern_.innerIndexPtr()) : -1;
}

}  // namespace fem
}  // namespace hydro
