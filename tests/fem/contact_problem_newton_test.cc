// Newton's method on the contact problem's objective (fem/contact_problem_newton.h): one step
// where the objective is quadratic, convergence to momentum balance where it is not, refinement
// rounds that reuse the last factored matrix, and an honest "not converged".
#include "fem/contact_problem_newton.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/fem/contact_problem_test_blocks.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

using test::PressedBody;

// The momentum residual ‖A(u − u*) − Σ Jᵀγ‖∞ relative to ‖A(u − u*)‖∞.
double RelativeResidual(PressedBody* p, const Eigen::VectorXd& u) {
  const double residual = p->objective.CalcGradient(u, nullptr).cwiseAbs().maxCoeff();
  return residual / p->objective.CalcMomentum(u).cwiseAbs().maxCoeff();
}

TEST(ContactProblemNewtonTest, AQuadraticObjectiveTakesOneStep) {
  // With the contacts lifted clear (φ0 = 1 m) and frictionless, only the weld and the target
  // (inside its bound) act: the objective is quadratic and one Newton step with α = 1 solves it.
  PressedBody p;
  for (ContactConstraint& c : p.contacts) c.phi0_m = 1;
  p.objective.set_friction_scale(0);
  ContactNewton newton(p.layout, &p.objective, &p.work, 0);
  Eigen::VectorXd u = p.layout.u_star;
  ASSERT_TRUE(newton.Minimize(100, false, &u));
  EXPECT_EQ(newton.iterations(), 1);
  EXPECT_EQ(newton.factorizations(), 1);
  EXPECT_LT(RelativeResidual(&p, u), 1e-12);
}

TEST(ContactProblemNewtonTest, ConvergesToMomentumBalance) {
  PressedBody p;
  ContactNewton newton(p.layout, &p.objective, &p.work, 0);
  Eigen::VectorXd u = p.layout.u_star;
  ASSERT_TRUE(newton.Minimize(100, false, &u));
  EXPECT_GT(newton.iterations(), 1);
  EXPECT_EQ(newton.factorizations(), newton.iterations());
  EXPECT_LT(RelativeResidual(&p, u), 1e-6);  // SAP's rule, εr = 1e-6, in its scaled norm
  // The body is held up: it no longer moves down at 0.5 m/s.
  EXPECT_GT(u[2], -0.1);
}

TEST(ContactProblemNewtonTest, ARefinementRoundReusesTheLastFactoredMatrix) {
  // A round with the lagged γn 1% higher starts from the last solution with its matrix: the
  // same minimum, with fewer factorizations than steps. With reuse off it refactors every step.
  for (int reuse_from : {0, std::numeric_limits<int>::max()}) {
    PressedBody p;
    ContactNewton newton(p.layout, &p.objective, &p.work, reuse_from);
    Eigen::VectorXd u = p.layout.u_star;
    ASSERT_TRUE(newton.Minimize(100, false, &u));
    const int iterations = newton.iterations(), factorizations = newton.factorizations();
    for (double& gamma_n : p.objective.lagged_normal_impulses()) gamma_n *= 1.01;
    ASSERT_TRUE(newton.Minimize(100, true, &u));
    const int refinement_steps = newton.iterations() - iterations;
    const int refactorizations = newton.factorizations() - factorizations;
    EXPECT_GT(refinement_steps, 0);
    EXPECT_LT(RelativeResidual(&p, u), 1e-6);
    if (reuse_from == 0) {
      EXPECT_LT(refactorizations, refinement_steps);
    } else {
      EXPECT_EQ(refactorizations, refinement_steps);
    }
  }
}

TEST(ContactProblemNewtonTest, SaysSoWhenItRunsOutOfIterations) {
  PressedBody p;
  ContactNewton newton(p.layout, &p.objective, &p.work, 0);
  Eigen::VectorXd u = p.layout.u_star;
  EXPECT_FALSE(newton.Minimize(1, false, &u));
  EXPECT_EQ(newton.iterations(), 1);
}

TEST(ContactProblemNewtonTest, StopsAtOnceAtTheMinimum) {
  PressedBody p;
  ContactNewton newton(p.layout, &p.objective, &p.work, 0);
  Eigen::VectorXd u = p.layout.u_star;
  ASSERT_TRUE(newton.Minimize(100, false, &u));
  const Eigen::VectorXd solution = u;
  const int iterations = newton.iterations();
  ASSERT_TRUE(newton.Minimize(100, false, &u));
  EXPECT_EQ(newton.iterations(), iterations);
  EXPECT_EQ(u, solution);
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
