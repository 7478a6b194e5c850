// Recovery of the contact problem's full solution (fem/contact_problem_recovery.h): a reduced
// block's DoFs outside P follow exactly — the participating ones keep their solved velocities and
// A(u − u*) vanishes off P — and each block's impulse is Σ Jᵀ·γ over the terms naming it.
#include "fem/contact_problem_recovery.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/fem/contact_problem_test_blocks.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

TEST(ContactProblemRecoveryTest, AReducedBlocksOtherDofsFeelNoForce) {
  // A factored 12-DoF chain reduced to DoFs 3–5 and 9–11, solved to some u_P.
  const std::vector<ContactProblemBlock> blocks{test::MakeChainBlock(12, true)};
  std::vector<ContactConstraint> contacts(2);
  contacts[0].terms = {test::MakeTerm(0, 3)};
  contacts[1].terms = {test::MakeTerm(0, 9)};
  const ContactProblemLayout layout = MakeContactProblemLayout(blocks, contacts, {}, {});
  ASSERT_TRUE(layout.blocks[0].reduced);
  ASSERT_EQ(layout.num_unknowns, 6);
  Eigen::VectorXd u(6);
  u << 0.3, -0.2, 0.5, 0.1, -0.4, 0.2;
  const Eigen::VectorXd v = CalcBlockVelocities(blocks[0], layout.blocks[0], u, layout.u_star);
  ASSERT_EQ(v.size(), 12);
  const std::vector<int>& P = layout.blocks[0].participating;
  for (int j = 0; j < 6; ++j) EXPECT_NEAR(v[P[j]], u[j], 1e-14) << "participating DoF " << P[j];
  const Eigen::VectorXd momentum = blocks[0].A * (v - blocks[0].u_star);
  for (int i : {0, 1, 2, 6, 7, 8}) EXPECT_NEAR(momentum[i], 0, 1e-14) << "DoF " << i;
  // On P, the momentum is the Schur complement's S·(u_P − u*_P).
  const Eigen::VectorXd S_delta = layout.blocks[0].S * (u - layout.u_star);
  for (int j = 0; j < 6; ++j) EXPECT_NEAR(momentum[P[j]], S_delta[j], 1e-13) << "participating DoF " << P[j];
}

TEST(ContactProblemRecoveryTest, AWholeBlockReadsItsUnknowns) {
  const std::vector<ContactProblemBlock> blocks{test::MakeChainBlock(3, false), test::MakeChainBlock(6, false)};
  std::vector<ContactConstraint> contacts(1);
  contacts[0].terms = {test::MakeTerm(1, 0)};
  const ContactProblemLayout layout = MakeContactProblemLayout(blocks, contacts, {}, {});
  const Eigen::VectorXd u = Eigen::VectorXd::LinSpaced(9, 1, 9);
  EXPECT_EQ(CalcBlockVelocities(blocks[1], layout.blocks[1], u, layout.u_star), u.tail(6));
}

TEST(ContactProblemRecoveryTest, EachBlockGetsTheTransposedJacobianTimesTheImpulse) {
  Matrix3 J;
  J << 1, 2, 3, 4, 5, 6, 7, 8, 10;
  const std::vector<VelocityTerm> terms{test::MakeTerm(0, 0, J), test::MakeTerm(1, 2, -Matrix3::Identity()),
                                        test::MakeTerm(1, 3, 0.5 * Matrix3::Identity())};  // DoFs 3–4 named twice
  std::vector<Eigen::VectorXd> impulse{Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(7)};
  const Vector3 gamma(0.1, -0.2, 0.4);
  AddBlockImpulses(terms, gamma, &impulse);
  EXPECT_EQ(impulse[0], Eigen::VectorXd(J.transpose() * gamma));
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(7);
  expected.segment(2, 3) -= gamma;
  expected.segment(3, 3) += 0.5 * gamma;
  EXPECT_LT((impulse[1] - expected).norm(), 1e-16);
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
