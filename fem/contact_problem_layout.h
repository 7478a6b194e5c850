#pragma once
// Which DoFs take part in the contact problem (fem/contact_problem.h) and what they become: its
// unknowns, numbered block after block, and their weight — a block's A where it is kept whole, or
// the Schur complement S = ((A⁻¹)_PP)⁻¹ over its participating DoFs P where it is reduced
// (002 §VI-A, VI-B). Internal to hydro_fem; tested in tests/fem/contact_problem_layout_test.cc.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

#include "fem/contact_problem.h"

namespace hydro {
namespace fem {
namespace internal {

// How a block's DoFs map to the problem's unknowns.
struct BlockLayout {
  std::vector<int> unknown;  // per DoF, -1 where it does not participate
  bool reduced{false};
  std::vector<int> participating;  // reduced: the DoFs P, in order
  Eigen::MatrixXd S;               // reduced: ((A⁻¹)_PP)⁻¹
  // A⁻¹ over the block's unknowns (reduced: (A⁻¹)_PP), or, for a large block that was not
  // reduced, only its diagonal estimate diag(A)⁻¹: for the Delassus estimate of each contact.
  Eigen::MatrixXd W;
  Eigen::VectorXd W_diagonal;
  int offset{0};
};

// Every block's layout and the problem over its unknowns.
struct ContactProblemLayout {
  std::vector<BlockLayout> blocks;  // per block
  std::vector<int> block_of;        // per unknown: its block
  // The unknowns' weight, block-diagonal (a block's A or S), as the entries Newton's matrix
  // starts from, and as a matrix: num_unknowns².
  std::vector<Eigen::Triplet<double>> A_triplets;
  Eigen::SparseMatrix<double> A;
  Eigen::VectorXd u_star;  // per unknown: the free motion
  int num_unknowns{0};
  int total_dofs{0};  // of every block, before reduction
  double schur_s{0};  // time spent forming the Schur complements
};

// Per block, per DoF: whether some contact or spring term names it, or some velocity target has a
// nonzero coefficient on it. The constraints must name existing blocks and DoFs.
std::vector<std::vector<char>> FindParticipatingDofs(const std::vector<ContactProblemBlock>& blocks,
                                                     const std::vector<ContactConstraint>& contacts,
                                                     const std::vector<SpringConstraint>& springs,
                                                     const std::vector<VelocityTargetConstraint>& targets);

// The layout of one block whose unknowns start at `offset`, its weight's entries appended to
// `A_triplets`. A block given with its factorization is reduced to the DoFs that participate
// when they are at most a third of it, or when it is small; otherwise it is kept whole.
BlockLayout MakeBlockLayout(const ContactProblemBlock& block, const std::vector<char>& participates, int offset,
                            std::vector<Eigen::Triplet<double>>* A_triplets);

// The layout of the whole problem. The blocks' matrices must match their velocities.
ContactProblemLayout MakeContactProblemLayout(const std::vector<ContactProblemBlock>& blocks,
                                              const std::vector<ContactConstraint>& contacts,
                                              const std::vector<SpringConstraint>& springs,
                                              const std::vector<VelocityTargetConstraint>& targets);

// A block's velocities written at its unknowns in `x` (num_unknowns).
void ScatterToUnknowns(const BlockLayout& block, const Eigen::VectorXd& u_b, Eigen::VectorXd* x);

// A⁻¹ over the given unknowns, m×m: each block's W (or diag(A)⁻¹) where two unknowns share a
// block, zero between blocks.
Eigen::MatrixXd CalcInverseOverUnknowns(const ContactProblemLayout& layout, const std::vector<int>& unknowns);

}  // namespace internal
}  // namespace fem
}  // namespace hydro
