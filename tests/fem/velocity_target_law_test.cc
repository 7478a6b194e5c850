// The motor's velocity target: its impulse against the closed form (bounded effort), and its
// impulse and curvature against central differences of its Huber potential and of its impulse,
// randomised over decades of stiffness, effort bound and speed error (as ipc-toolkit checks its
// barriers).
#include "fem/velocity_target_law.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace hydro {
namespace fem {
namespace {

TEST(VelocityTargetLawTest, ImpulseDrivesTowardTheTargetWithinItsBound) {
  const VelocityTargetLaw law{2.0, 10.0, 5.0};  // target 2 rad/s, c = 10, at most 5
  double curvature = -1;
  EXPECT_DOUBLE_EQ(CalcVelocityTargetImpulse(law, 1.8, &curvature), 10.0 * 0.2);
  EXPECT_EQ(curvature, 10.0);
  EXPECT_DOUBLE_EQ(CalcVelocityTargetImpulse(law, -3.0, &curvature), 5.0);  // bounded
  EXPECT_EQ(curvature, 0.0);
  EXPECT_DOUBLE_EQ(CalcVelocityTargetImpulse(law, 7.0, &curvature), -5.0);
  EXPECT_EQ(CalcVelocityTargetImpulse(law, 2.0), 0.0);
  // The potential is C¹ across the bound: both branches meet at |c·(s − target)| = λ_max.
  const double edge = 2.0 + 5.0 / 10.0;
  EXPECT_NEAR(CalcVelocityTargetPotential(law, edge - 1e-12), CalcVelocityTargetPotential(law, edge + 1e-12), 1e-10);
}

TEST(VelocityTargetLawTest, ImpulseAndCurvatureMatchCentralDifferencesOverDecades) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> unit(0, 1), sign(-1, 1);
  auto decade = [&](double lo, double hi) { return std::pow(10.0, lo + (hi - lo) * unit(rng)); };
  int inside = 0, beyond = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const VelocityTargetLaw law{sign(rng) * decade(-3, 2), decade(-2, 6), decade(-4, 3)};
    const double error = (sign(rng) < 0 ? -1 : 1) * decade(-3, 1) * law.max_impulse / law.stiffness;
    const double s = law.target + error;
    // s is a sum: its last bits are those of |s|, so h keeps above a thousandth of |s|'s.
    const double h = 1e-6 * std::max(std::abs(error), 1e-3 * std::abs(s));
    // The curvature jumps at the bound: keep the differences on one side of it.
    if (std::abs(std::abs(error) * law.stiffness - law.max_impulse) < 10 * h * law.stiffness) continue;
    double curvature = 0;
    const double lambda = CalcVelocityTargetImpulse(law, s, &curvature);
    (curvature > 0 ? inside : beyond)++;
    const double lambda_fd =
        -(CalcVelocityTargetPotential(law, s + h) - CalcVelocityTargetPotential(law, s - h)) / (2 * h);
    const double curvature_fd =
        -(CalcVelocityTargetImpulse(law, s + h) - CalcVelocityTargetImpulse(law, s - h)) / (2 * h);
    // Round-off: of ℓ over 2h for λ, of λ over 2h for the curvature, and of s ± h itself.
    const double s_round_off = 1e-15 * std::abs(s) / h;
    const double round_off = 1e-15 * std::abs(CalcVelocityTargetPotential(law, s)) / h + s_round_off * std::abs(lambda);
    EXPECT_LT(std::abs(lambda - lambda_fd), 1e-6 * std::abs(lambda) + round_off) << "trial " << trial;
    EXPECT_LT(std::abs(curvature - curvature_fd), (1e-6 + s_round_off) * law.stiffness + 1e-15 * std::abs(lambda) / h)
        << "trial " << trial;
  }
  EXPECT_GT(inside, 300);
  EXPECT_GT(beyond, 300);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
