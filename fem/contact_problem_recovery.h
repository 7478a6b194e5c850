#pragma once
// The full solution of the contact problem (fem/contact_problem.h) from its unknowns: every DoF's
// velocity and what the constraints gave each block. A block reduced to its participating DoFs P
// (fem/contact_problem_layout.h) has its other DoFs follow exactly (002 §VI-B): only P feels the
// constraints, so A(u − u*) = E_P·S·(u_P − u*_P) and
//
//   u = u* + A⁻¹·E_P·S·(u_P − u*_P),
//
// one more solve with the free motion's factorization. Internal to hydro_fem; tested in
// tests/fem/contact_problem_recovery_test.cc.
#include <Eigen/Core>

#include <vector>

#include "fem/contact_problem.h"
#include "fem/contact_problem_layout.h"

namespace hydro {
namespace fem {
namespace internal {

// The velocities of all of `block`'s DoFs, laid out by `L`, from the problem's unknowns u and
// their free motion u_star.
Eigen::VectorXd CalcBlockVelocities(const ContactProblemBlock& block, const BlockLayout& L, const Eigen::VectorXd& u,
                                    const Eigen::VectorXd& u_star);

// Adds Σ Jᵀ·on_A over the terms to the impulses of the blocks they name (per block, per DoF).
void AddBlockImpulses(const std::vector<VelocityTerm>& terms, const Vector3& on_A,
                      std::vector<Eigen::VectorXd>* impulse);

}  // namespace internal
}  // namespace fem
}  // namespace hydro
