#pragma once
// What a body's contact-free step produces over its free DoFs (002 eq. 11) — whether one linear
// solve (linear, corotational) or Newton's method (Neo-Hookean, fem/neo_hookean_step.h) made
// it — and the time its parts took. The contact problem weights the body by A and starts from v*.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <chrono>
#include <memory>
#include <vector>

#include "fem/step_factorization.h"

namespace hydro {
namespace fem {

// The contact-free step of a body: its matrix over the free DoFs, that matrix's factorization,
// the new velocity of every DoF, and each DoF's index among the free ones (-1: fixed).
struct FreeMotion {
  Eigen::SparseMatrix<double> A;
  std::shared_ptr<const StepFactorization> factorization;
  Eigen::VectorXd v_star;
  std::vector<int> index;
  int num_free{0};
};

// Time spent in the parts of the last step, for benchmarks (seconds).
struct StepTimings {
  double assembly_s{0};
  double factorization_s{0};
  double solve_s{0};
};

using StepClock = std::chrono::steady_clock;

// Seconds from `since` to now, for StepTimings.
inline double SecondsSince(StepClock::time_point since) {
  return std::chrono::duration<double>(StepClock::now() - since).count();
}

// The free-DoF block of a sparse matrix given by triplets over all DoFs: `free_index` maps each
// DoF to its index among the `num_free` free ones, or −1 where it is fixed (FemState::IndexFreeDofs).
Eigen::SparseMatrix<double> MakeFreeDofMatrix(const std::vector<Eigen::Triplet<double>>& triplets,
                                              const std::vector<int>& free_index, int num_free);

}  // namespace fem
}  // namespace hydro
