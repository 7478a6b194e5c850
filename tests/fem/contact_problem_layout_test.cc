// The contact problem's layout (fem/contact_problem_layout.h): which DoFs participate, how they
// are numbered as unknowns, and the Schur complement that weighs a reduced block, against dense
// inverses written out here.
#include "fem/contact_problem_layout.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <vector>

#include "tests/fem/contact_problem_test_blocks.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

using test::MakeChainBlock;
using test::MakeTerm;

// Block 0: a chain of 6 DoFs without factorization; block 1: a factored chain of 12 DoFs, of which
// a contact names 3–5 (with block 0's 0–2) and a spring 9–11; block 2: a chain of 6 DoFs that
// only a velocity target touches, with nonzero coefficients on DoFs 1 and 4.
struct TwoChainsAndATarget {
  std::vector<ContactProblemBlock> blocks{MakeChainBlock(6, false), MakeChainBlock(12, true), MakeChainBlock(6, false)};
  std::vector<ContactConstraint> contacts{1};
  std::vector<SpringConstraint> springs{1};
  std::vector<VelocityTargetConstraint> targets{1};
  TwoChainsAndATarget() {
    contacts[0].terms = {MakeTerm(1, 3), MakeTerm(0, 0, -Matrix3::Identity())};
    springs[0].terms = {MakeTerm(1, 9)};
    targets[0].block = 2;
    targets[0].J_s = Eigen::RowVectorXd::Zero(6);
    targets[0].J_s[1] = 1, targets[0].J_s[4] = -0.5;
  }
  ContactProblemLayout Layout() const { return MakeContactProblemLayout(blocks, contacts, springs, targets); }
};

std::vector<int> Participating(const std::vector<char>& participates) {
  std::vector<int> dofs;
  for (size_t i = 0; i < participates.size(); ++i)
    if (participates[i]) dofs.push_back(static_cast<int>(i));
  return dofs;
}

TEST(ContactProblemLayoutTest, ADofParticipatesWhereAConstraintNamesIt) {
  const TwoChainsAndATarget p;
  const std::vector<std::vector<char>> participates = FindParticipatingDofs(p.blocks, p.contacts, p.springs, p.targets);
  ASSERT_EQ(participates.size(), 3u);
  EXPECT_EQ(Participating(participates[0]), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(Participating(participates[1]), (std::vector<int>{3, 4, 5, 9, 10, 11}));
  EXPECT_EQ(Participating(participates[2]), (std::vector<int>{1, 4}));  // a target's zeros name nothing
}

TEST(ContactProblemLayoutTest, AFactoredBlockIsReducedToItsParticipatingDofs) {
  const TwoChainsAndATarget p;
  const ContactProblemLayout layout = p.Layout();
  // Blocks without a factorization stay whole: 6 + 6 unknowns, and 6 for block 1's P.
  EXPECT_EQ(layout.total_dofs, 24);
  ASSERT_EQ(layout.num_unknowns, 18);
  EXPECT_FALSE(layout.blocks[0].reduced);
  EXPECT_TRUE(layout.blocks[1].reduced);
  EXPECT_FALSE(layout.blocks[2].reduced);
  EXPECT_EQ(layout.blocks[1].offset, 6);
  EXPECT_EQ(layout.blocks[2].offset, 12);
  const std::vector<int> P{3, 4, 5, 9, 10, 11};
  EXPECT_EQ(layout.blocks[1].participating, P);
  for (int i = 0; i < 12; ++i) {
    const auto j = std::find(P.begin(), P.end(), i);
    EXPECT_EQ(layout.blocks[1].unknown[i], j == P.end() ? -1 : 6 + static_cast<int>(j - P.begin())) << i;
  }
  for (int i = 0; i < layout.num_unknowns; ++i) EXPECT_EQ(layout.block_of[i], i < 6 ? 0 : i < 12 ? 1 : 2) << i;
  EXPECT_EQ(layout.u_star.segment(0, 6), p.blocks[0].u_star);
  EXPECT_EQ(layout.u_star[6], p.blocks[1].u_star[3]);
  EXPECT_EQ(layout.u_star[11], p.blocks[1].u_star[11]);
  EXPECT_EQ(layout.u_star.segment(12, 6), p.blocks[2].u_star);
}

TEST(ContactProblemLayoutTest, TheReducedWeightIsTheSchurComplement) {
  const TwoChainsAndATarget p;
  const ContactProblemLayout layout = p.Layout();
  const std::vector<int> P{3, 4, 5, 9, 10, 11};
  const Eigen::MatrixXd inverse = Eigen::MatrixXd(p.blocks[1].A).inverse();
  Eigen::MatrixXd inverse_PP(6, 6);
  for (int j = 0; j < 6; ++j)
    for (int k = 0; k < 6; ++k) inverse_PP(j, k) = inverse(P[j], P[k]);
  const Eigen::MatrixXd S = inverse_PP.inverse();
  EXPECT_LT((layout.blocks[1].W - inverse_PP).norm(), 1e-14 * inverse_PP.norm());
  EXPECT_LT((layout.blocks[1].S - S).norm(), 1e-12 * S.norm());
  // Exactly symmetric (an in-place average would leave its upper triangle ¾·S + ¼·Sᵀ).
  EXPECT_EQ(layout.blocks[1].S, layout.blocks[1].S.transpose());
  // The problem's weight is block-diagonal: A₀, S, A₂.
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(18, 18);
  expected.block(0, 0, 6, 6) = Eigen::MatrixXd(p.blocks[0].A);
  expected.block(6, 6, 6, 6) = layout.blocks[1].S;
  expected.block(12, 12, 6, 6) = Eigen::MatrixXd(p.blocks[2].A);
  EXPECT_EQ(Eigen::MatrixXd(layout.A), expected);
  // A small whole block carries its dense inverse, for the Delassus estimate.
  EXPECT_LT((layout.blocks[0].W - Eigen::MatrixXd(p.blocks[0].A).inverse()).norm(), 1e-14);
}

TEST(ContactProblemLayoutTest, LargeBlocksStayWholeWhereMoreThanAThirdParticipates) {
  // 600 DoFs (past the small-block size, 512): a contact on 3 DoFs reduces a factored block; one
  // on 201 DoFs keeps it whole, with only diag(A)⁻¹ for the Delassus estimate.
  const std::vector<ContactProblemBlock> blocks{MakeChainBlock(600, true)};
  std::vector<ContactConstraint> few(1), many(67);
  few[0].terms = {MakeTerm(0, 30)};
  for (int k = 0; k < 67; ++k) many[k].terms = {MakeTerm(0, 3 * k)};
  const ContactProblemLayout reduced = MakeContactProblemLayout(blocks, few, {}, {});
  const ContactProblemLayout whole = MakeContactProblemLayout(blocks, many, {}, {});
  EXPECT_TRUE(reduced.blocks[0].reduced);
  EXPECT_EQ(reduced.num_unknowns, 3);
  EXPECT_FALSE(whole.blocks[0].reduced);
  EXPECT_EQ(whole.num_unknowns, 600);
  EXPECT_EQ(whole.blocks[0].W.size(), 0);
  EXPECT_EQ(whole.blocks[0].W_diagonal, Eigen::VectorXd(blocks[0].A.diagonal()).cwiseInverse());
}

TEST(ContactProblemLayoutTest, TheInverseOverUnknownsIsZeroBetweenBlocks) {
  const TwoChainsAndATarget p;
  const ContactProblemLayout layout = p.Layout();
  const std::vector<int> unknowns{7, 0, 11, 2};  // block 1, block 0, block 1, block 0
  const Eigen::MatrixXd W = CalcInverseOverUnknowns(layout, unknowns);
  const Eigen::MatrixXd& W0 = layout.blocks[0].W;
  const Eigen::MatrixXd& W1 = layout.blocks[1].W;
  Eigen::Matrix4d expected;
  expected << W1(1, 1), 0, W1(1, 5), 0,  //
      0, W0(0, 0), 0, W0(0, 2),          //
      W1(5, 1), 0, W1(5, 5), 0,          //
      0, W0(2, 0), 0, W0(2, 2);
  EXPECT_EQ(W, Eigen::MatrixXd(expected));
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
