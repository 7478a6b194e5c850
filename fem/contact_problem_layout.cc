#include "fem/contact_problem_layout.h"

#include <Eigen/Cholesky>

#include <chrono>

namespace hydro {
namespace fem {
namespace internal {

std::vector<std::vector<char>> FindParticipatingDofs(const std::vector<ContactProblemBlock>& blocks,
                                                     const std::vector<ContactConstraint>& contacts,
                                                     const std::vector<SpringConstraint>& springs,
                                                     const std::vector<VelocityTargetConstraint>& targets) {
  std::vector<std::vector<char>> participates(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) participates[b].assign(blocks[b].u_star.size(), 0);
  auto mark = [&](const std::vector<VelocityTerm>& terms) {
    for (const VelocityTerm& t : terms)
      for (int c = 0; c < t.Jv_BcAc_W.cols(); ++c) participates[t.block][t.first_dof + c] = 1;
  };
  for (const ContactConstraint& c : contacts) mark(c.terms);
  for (const SpringConstraint& s : springs) mark(s.terms);
  for (const VelocityTargetConstraint& t : targets)
    for (int i = 0; i < t.J_s.size(); ++i)
      if (t.J_s[i] != 0) participates[t.block][i] = 1;
  return participates;
}

BlockLayout MakeBlockLayout(const ContactProblemBlock& block, const std::vector<char>& participates, int offset,
                            std::vector<Eigen::Triplet<double>>* A_triplets) {
  BlockLayout L;
  const int n = static_cast<int>(block.u_star.size());
  L.offset = offset;
  L.unknown.assign(n, -1);
  for (int i = 0; i < n; ++i)
    if (participates[i]) L.participating.push_back(i);
  const int p = static_cast<int>(L.participating.size());
  // The Schur complement S is dense: it pays where few DoFs participate. Past a third of a
  // block, Newton's matrix factors faster with the block kept whole and sparse (the grasp's
  // 1,296-tet cube, 462 of its 1,029 DoFs participating: 165 ms a step reduced, 41 ms whole).
  // Small blocks are reduced whatever p, for the exact Delassus estimate
  // (fem/near_rigid_softening.h).
  constexpr int kSmallBlock = 512;
  L.reduced = block.factorization != nullptr && p > 0 && (3 * p <= n || n <= kSmallBlock);
  if (!L.reduced) {
    if (n <= 64) {
      L.W = Eigen::MatrixXd(block.A).ldlt().solve(Eigen::MatrixXd::Identity(n, n));
    } else {
      L.W_diagonal = Eigen::VectorXd(block.A.diagonal()).cwiseInverse();
    }
    for (int i = 0; i < n; ++i) L.unknown[i] = offset + i;
    for (int k = 0; k < block.A.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(block.A, k); it; ++it)
        A_triplets->emplace_back(offset + it.row(), offset + it.col(), it.value());
    return L;
  }
  // 002 §VI-B: (A⁻¹)_PP from the free motion's factorization, then its inverse.
  L.W = InverseSubmatrix(*block.factorization, L.participating);
  L.S = L.W.ldlt().solve(Eigen::MatrixXd::Identity(p, p));
  // Symmetrized through a temporary: written in place, Eigen would read Sᵀ while writing S column
  // by column, and the upper triangle (which the momentum A(u − u*) and the recovery read) would
  // come out as ¾·S + ¼·Sᵀ.
  L.S = (0.5 * (L.S + L.S.transpose())).eval();
  for (int j = 0; j < p; ++j) {
    L.unknown[L.participating[j]] = offset + j;
    for (int k = 0; k < p; ++k) A_triplets->emplace_back(offset + j, offset + k, L.S(j, k));
  }
  return L;
}

ContactProblemLayout MakeContactProblemLayout(const std::vector<ContactProblemBlock>& blocks,
                                              const std::vector<ContactConstraint>& contacts,
                                              const std::vector<SpringConstraint>& springs,
                                              const std::vector<VelocityTargetConstraint>& targets) {
  const int num_blocks = static_cast<int>(blocks.size());
  ContactProblemLayout layout;
  for (const ContactProblemBlock& block : blocks) layout.total_dofs += static_cast<int>(block.u_star.size());
  const std::vector<std::vector<char>> participates = FindParticipatingDofs(blocks, contacts, springs, targets);

  using Clock = std::chrono::steady_clock;
  const auto schur_start = Clock::now();
  layout.blocks.resize(num_blocks);
  for (int b = 0; b < num_blocks; ++b) {
    layout.blocks[b] = MakeBlockLayout(blocks[b], participates[b], layout.num_unknowns, &layout.A_triplets);
    layout.num_unknowns +=
        static_cast<int>(layout.blocks[b].reduced ? layout.blocks[b].participating.size() : blocks[b].u_star.size());
  }
  layout.schur_s = std::chrono::duration<double>(Clock::now() - schur_start).count();

  const int n = layout.num_unknowns;
  layout.A.resize(n, n);
  layout.A.setFromTriplets(layout.A_triplets.begin(), layout.A_triplets.end());
  layout.u_star.resize(n);
  layout.block_of.assign(n, -1);
  for (int b = 0; b < num_blocks; ++b) {
    ScatterToUnknowns(layout.blocks[b], blocks[b].u_star, &layout.u_star);
    for (int x : layout.blocks[b].unknown)
      if (x >= 0) layout.block_of[x] = b;
  }
  return layout;
}

void ScatterToUnknowns(const BlockLayout& block, const Eigen::VectorXd& u_b, Eigen::VectorXd* x) {
  for (size_t i = 0; i < block.unknown.size(); ++i)
    if (block.unknown[i] >= 0) (*x)[block.unknown[i]] = u_b[i];
}

Eigen::MatrixXd CalcInverseOverUnknowns(const ContactProblemLayout& layout, const std::vector<int>& unknowns) {
  const int m = static_cast<int>(unknowns.size());
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(m, m);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c) {
      if (layout.block_of[unknowns[r]] != layout.block_of[unknowns[c]]) continue;
      const BlockLayout& L = layout.blocks[layout.block_of[unknowns[r]]];
      const int x = unknowns[r] - L.offset, y = unknowns[c] - L.offset;
      W(r, c) = L.W.size() > 0 ? L.W(x, y) : (x == y ? L.W_diagonal[x] : 0.0);
    }
  return W;
}

}  // namespace internal
}  // namespace fem
}  // namespace hydro
