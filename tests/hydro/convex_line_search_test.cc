// The exact line search of the Newton solvers: the minimum of a convex function along a descent
// direction, within its tolerance on the slope, in few trials.
#include "hydro/convex_line_search.h"

#include <gtest/gtest.h>

#include <cmath>

namespace hydro {
namespace {

TEST(ConvexLineSearchTest, AFullStepWithinTheToleranceIsTakenAfterOneTrial) {
  // A quadratic's Newton step lands on its minimum: slope(α) = slope0·(1 − α), up to round-off.
  for (const double residual : {0.0, 1e-5, -1e-5, 9e-4}) {
    int trials = 0;
    const double slope0 = -2.5;
    const double alpha = ConvexLineSearch(
        [&](double a) {
          ++trials;
          return slope0 * (1 - a) + residual * std::abs(slope0);
        },
        slope0);
    EXPECT_EQ(alpha, 1.0) << "residual " << residual;
    EXPECT_EQ(trials, 1) << "residual " << residual;
  }
}

TEST(ConvexLineSearchTest, FindsWhereAKinkedSlopeCrossesZero) {
  // A convex function with a kink at its minimum (its slope piecewise linear, 1e4 times steeper
  // past its zero, as where a contact point reaches stiff stick): the crossing is found to the
  // tolerance. Plain regula falsi, kept 5 % inside its bracket, was still 1e-2 off after 40 trials.
  for (const double root : {0.003, 0.02, 0.3, 0.7, 0.999}) {
    const double slope0 = -1;
    auto slope = [&](double a) {
      // Gentle before the root, steep after it (stiff stick): rises through zero at `root`.
      return a < root ? slope0 * (1 - a / root) : 1e4 * (a - root);
    };
    int trials = 0;
    const double alpha = ConvexLineSearch(
        [&](double a) {
          ++trials;
          return slope(a);
        },
        slope0);
    EXPECT_LE(std::abs(slope(alpha)), 1e-3 * std::abs(slope0)) << "root " << root;
    EXPECT_LE(trials, 45) << "root " << root;  // measured 19, 30, 41, 43 and 15
  }
}

TEST(ConvexLineSearchTest, AStepStillDescendingAtItsEndIsTakenWhole) {
  int trials = 0;
  const double alpha = ConvexLineSearch(
      [&](double a) {
        ++trials;
        return -1 + 0.5 * a;  // the minimum lies at α = 2, beyond the step
      },
      -1.0);
  EXPECT_EQ(alpha, 1.0);
  EXPECT_EQ(trials, 1);
}

}  // namespace
}  // namespace hydro
