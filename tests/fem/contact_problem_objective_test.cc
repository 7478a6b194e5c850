// The contact problem's objective (fem/contact_problem_objective.h) on a rigid body pressed onto a
// reduced chain: its gradient is the momentum minus every constraint's impulse, Newton's matrix is
// the gradient's derivative (central differences), and the line search's slope is the gradient's
// projection on the step.
#include "fem/contact_problem_objective.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <random>

#include "tests/fem/contact_problem_test_blocks.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

using test::PressedBody;

Eigen::VectorXd RandomVector(int n, double scale, std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = u(*rng);
  return x;
}

// A constraint's dense row over the problem's unknowns.
Eigen::MatrixXd DenseRow(const std::vector<VelocityTerm>& terms, const ContactProblemLayout& layout) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3, layout.num_unknowns);
  for (const VelocityTerm& t : terms)
    for (int c = 0; c < t.Jv_BcAc_W.cols(); ++c)
      J.col(layout.blocks[t.block].unknown[t.first_dof + c]) += t.Jv_BcAc_W.col(c);
  return J;
}

TEST(ContactProblemObjectiveTest, TheGradientIsTheMomentumMinusEveryImpulse) {
  PressedBody p;
  std::mt19937 rng(1);
  const Eigen::VectorXd x = p.layout.u_star + RandomVector(p.layout.num_unknowns, 1e-3, &rng);
  const Eigen::VectorXd gradient = p.objective.CalcGradient(x, nullptr);
  std::vector<Vector3> contact_impulses, spring_impulses;
  p.objective.CalcConstraintImpulses(x, &contact_impulses, &spring_impulses);
  Eigen::VectorXd expected = Eigen::MatrixXd(p.layout.A) * (x - p.layout.u_star);
  for (int i = 0; i < 3; ++i) {
    EXPECT_GT(p.contacts[i].nhat_W.dot(contact_impulses[i]), 0) << "contact " << i << " is pressed";
    expected -= DenseRow(p.contacts[i].terms, p.layout).transpose() * contact_impulses[i];
  }
  expected -= DenseRow(p.springs[0].terms, p.layout).transpose() * spring_impulses[0];
  expected[0] -= p.objective.CalcTargetImpulse(0, x);  // the target's row: the body's x velocity
  EXPECT_LT((gradient - expected).norm(), 1e-14 * expected.norm());
}

TEST(ContactProblemObjectiveTest, NewtonsMatrixIsTheGradientsDerivative) {
  PressedBody p;
  const int n = p.layout.num_unknowns;
  std::mt19937 rng(2);
  const Eigen::VectorXd x = p.layout.u_star + RandomVector(n, 1e-3, &rng);
  // As Newton assembles it: the weight's lower triangle, then the constraints'.
  HessianAssembly hessian;
  hessian.Begin();
  for (const Eigen::Triplet<double>& t : p.layout.A_triplets)
    if (t.row() >= t.col()) hessian.Add(t.row(), t.col(), t.value());
  p.objective.CalcGradient(x, &hessian);
  const Eigen::MatrixXd lower(hessian.Finish(n));
  const Eigen::MatrixXd H = lower + lower.transpose() - Eigen::MatrixXd(lower.diagonal().asDiagonal());
  const double h = 1e-7;
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd d = RandomVector(n, 1, &rng);
    const Eigen::VectorXd plus = p.objective.CalcGradient(x + h * d, nullptr);
    const Eigen::VectorXd minus = p.objective.CalcGradient(x - h * d, nullptr);
    const Eigen::VectorXd difference = (plus - minus) / (2 * h);
    EXPECT_LT((H * d - difference).norm(), 1e-6 * difference.norm()) << "trial " << trial;
  }
}

TEST(ContactProblemObjectiveTest, TheSlopeAlongAStepIsTheGradientsProjection) {
  PressedBody p;
  const int n = p.layout.num_unknowns;
  std::mt19937 rng(3);
  const Eigen::VectorXd u = p.layout.u_star + RandomVector(n, 1e-3, &rng);
  const Eigen::VectorXd d = RandomVector(n, 0.2, &rng);
  p.objective.PrepareLineSearch(u, d);
  for (double alpha : {0.0, 0.3, 1.0}) {
    const double slope = p.objective.CalcSlope(alpha);
    const double expected = p.objective.CalcGradient(u + alpha * d, nullptr).dot(d);
    EXPECT_NEAR(slope, expected, 1e-12 * std::abs(expected)) << "α = " << alpha;
  }
}

TEST(ContactProblemObjectiveTest, FrictionIsBoundedByTheLaggedNormalImpulse) {
  PressedBody p;
  const Eigen::VectorXd& x = p.layout.u_star;  // sliding at 0.1 m/s: friction at its bound
  std::vector<double> gamma_n(3);
  p.objective.CalcNormalImpulses(x, &gamma_n);
  p.objective.lagged_normal_impulses() = {0.5 * gamma_n[0], gamma_n[1], 2 * gamma_n[2]};
  std::vector<Vector3> gamma, spring;
  p.objective.CalcConstraintImpulses(x, &gamma, &spring);
  for (int i = 0; i < 3; ++i) {
    const Vector3& n_W = p.contacts[i].nhat_W;
    EXPECT_NEAR(n_W.dot(gamma[i]), gamma_n[i], 1e-15) << i;  // the normal law ignores the lagged γn
    const double friction = (gamma[i] - n_W.dot(gamma[i]) * n_W).norm();
    EXPECT_LE(friction, 0.5 * p.objective.lagged_normal_impulses()[i]) << i;
    EXPECT_GT(friction, 0.499 * p.objective.lagged_normal_impulses()[i]) << i;
  }
  p.objective.set_friction_scale(0);  // the frictionless problem
  p.objective.CalcConstraintImpulses(x, &gamma, &spring);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(gamma[i], gamma_n[i] * p.contacts[i].nhat_W) << i;
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
