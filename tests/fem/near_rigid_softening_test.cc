// Near-rigid softening (fem/near_rigid_softening.h): k_max = 4π²/(β²·δt²·w) with β = 1, the
// Delassus estimate w = trace(J·A⁻¹·Jᵀ)/3 against closed forms for rigid bodies and a dense
// inverse for a reduced block, and contacts the step resolves left as they are.
#include "fem/near_rigid_softening.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <vector>

#include "fem/deformable_contact.h"
#include "tests/fem/contact_problem_test_blocks.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

// The Delassus estimates of `contacts` over `blocks`, as the contact problem forms them.
std::vector<double> DelassusEstimates(const std::vector<ContactProblemBlock>& blocks,
                                      const std::vector<ContactConstraint>& contacts) {
  const ContactProblemLayout layout = MakeContactProblemLayout(blocks, contacts, {}, {});
  GroupedJacobian rows;
  for (const ContactConstraint& c : contacts) rows.Add(c.terms, layout.blocks);
  return CalcDelassusEstimates(layout, rows, static_cast<int>(contacts.size()));
}

TEST(NearRigidSofteningTest, TheLimitIsTheClosedForm) {
  const double dt = 0.04, w = 0.25;  // s, 1/kg
  EXPECT_DOUBLE_EQ(CalcNearRigidStiffnessLimit(dt, w), 4 * M_PI * M_PI / (dt * dt * w));
  EXPECT_NEAR(CalcNearRigidStiffnessLimit(dt, w), 98696.044010893586, 1e-9);  // 4π²·4/0.0016
  EXPECT_EQ(CalcNearRigidStiffnessLimit(dt, 0), std::numeric_limits<double>::infinity());
}

TEST(NearRigidSofteningTest, APointOfARigidBodySeesItsMassAndInertia) {
  // At the centre of mass w = 1/m; at r = h·ẑ, w = 1/m + (h²/Ix + h²/Iy)/3.
  const double m = 2, Ix = 0.02, Iy = 0.03, Iz = 0.05, h = 0.1;
  const Matrix3 inertia = Eigen::Vector3d(Ix, Iy, Iz).asDiagonal();
  const std::vector<ContactProblemBlock> blocks{MakeRigidBlock(m, inertia, Vector3::Zero(), Vector3::Zero())};
  std::vector<ContactConstraint> contacts(2);
  AppendRigidTerms(0, Vector3::Zero(), 1, &contacts[0].terms);
  AppendRigidTerms(0, Vector3(0, 0, h), 1, &contacts[1].terms);
  const std::vector<double> w = DelassusEstimates(blocks, contacts);
  EXPECT_NEAR(w[0], 1 / m, 1e-15);
  EXPECT_NEAR(w[1], 1 / m + (h * h / Ix + h * h / Iy) / 3, 1e-14);
}

TEST(NearRigidSofteningTest, APointBetweenTwoBodiesSeesBothMasses) {
  const std::vector<ContactProblemBlock> blocks{
      MakeRigidBlock(2, Matrix3::Identity(), Vector3::Zero(), Vector3::Zero()),
      MakeRigidBlock(0.5, Matrix3::Identity(), Vector3::Zero(), Vector3::Zero())};
  std::vector<ContactConstraint> contacts(1);
  AppendRigidTerms(0, Vector3::Zero(), 1, &contacts[0].terms);
  AppendRigidTerms(1, Vector3::Zero(), -1, &contacts[0].terms);
  EXPECT_NEAR(DelassusEstimates(blocks, contacts)[0], 1 / 2.0 + 1 / 0.5, 1e-15);
}

TEST(NearRigidSofteningTest, APointOfAReducedBlockSeesTheDenseInverse) {
  // A point halfway between DoF triples 3–5 and 6–8 of a factored 12-DoF chain, which the
  // layout reduces to those 6 DoFs: w = trace(J·A⁻¹·Jᵀ)/3 over all 12.
  const std::vector<ContactProblemBlock> blocks{test::MakeChainBlock(12, true)};
  std::vector<ContactConstraint> contacts(1);
  contacts[0].terms = {test::MakeTerm(0, 3, 0.5 * Matrix3::Identity()),
                       test::MakeTerm(0, 6, 0.5 * Matrix3::Identity())};
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3, 12);
  J.block(0, 3, 3, 3) = J.block(0, 6, 3, 3) = 0.5 * Matrix3::Identity();
  const double expected = (J * Eigen::MatrixXd(blocks[0].A).inverse() * J.transpose()).trace() / 3;
  EXPECT_NEAR(DelassusEstimates(blocks, contacts)[0], expected, 1e-15 * expected);
}

TEST(NearRigidSofteningTest, OnlyContactsStifferThanTheStepResolvesAreSoftened) {
  const double dt = 0.01, w = 0.5;
  const double k_max = CalcNearRigidStiffnessLimit(dt, w);
  std::vector<ContactConstraint> contacts(3);
  contacts[0].stiffness_N_per_m = 10 * k_max;   // near rigid
  contacts[1].stiffness_N_per_m = 0.1 * k_max;  // resolved by the step
  contacts[2].stiffness_N_per_m = 1e12;         // a point no block moves (w = 0)
  int softened = -1;
  const std::vector<double> k = SoftenNearRigidContacts(dt, contacts, {w, w, 0}, &softened);
  EXPECT_EQ(softened, 1);
  EXPECT_EQ(k[0], k_max);
  EXPECT_EQ(k[1], contacts[1].stiffness_N_per_m);
  EXPECT_EQ(k[2], contacts[2].stiffness_N_per_m);
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
