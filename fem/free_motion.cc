#include "fem/free_motion.h"

namespace hydro {
namespace fem {

Eigen::SparseMatrix<double> MakeFreeDofMatrix(const std::vector<Eigen::Triplet<double>>& triplets,
                                              const std::vector<int>& free_index, int num_free) {
  std::vector<Eigen::Triplet<double>> kept;
  kept.reserve(triplets.size());
  for (const auto& t : triplets) {
    const int r = free_index[t.row()], c = free_index[t.col()];
    if (r >= 0 && c >= 0) kept.emplace_back(r, c, t.value());
  }
  Eigen::SparseMatrix<double> A(num_free, num_free);
  A.setFromTriplets(kept.begin(), kept.end());
  return A;
}

}  // namespace fem
}  // namespace hydro
