// The weld's implicit spring: its impulse against the closed form, and its impulse and curvature
// against central differences of its potential and of its impulse, randomised over decades of
// stiffness, step and gap (as ipc-toolkit checks its barriers).
#include "fem/spring_law.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace hydro {
namespace fem {
namespace {

TEST(SpringLawTest, ImpulseClosesTheGapAtTheEndOfTheStep) {
  // 2 mm apart along x, A's point moving back toward B's at 0.1 m/s over 10 ms: the end-of-step
  // gap is 1 mm, and the impulse on A is −δt·k·e.
  const SpringLaw law{1e4, 0.01, Vector3(2e-3, 0, 0)};
  double curvature = 0;
  const Vector3 gamma = CalcSpringImpulse(law, Vector3(-0.1, 0, 0), &curvature);
  EXPECT_NEAR(gamma.x(), -0.01 * 1e4 * 1e-3, 1e-15);
  EXPECT_EQ(gamma.tail<2>().norm(), 0);
  EXPECT_DOUBLE_EQ(curvature, 0.01 * 0.01 * 1e4);
}

TEST(SpringLawTest, ImpulseAndCurvatureMatchCentralDifferencesOverDecades) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0, 1), signed_unit(-1, 1);
  auto decade = [&](double lo, double hi) { return std::pow(10.0, lo + (hi - lo) * unit(rng)); };
  auto random_vector = [&](double size) {
    return Vector3(size * Vector3(signed_unit(rng), signed_unit(rng), signed_unit(rng)));
  };
  for (int trial = 0; trial < 500; ++trial) {
    const SpringLaw law{decade(1, 10), decade(-4, -1), random_vector(decade(-7, -2))};
    const Vector3 v = random_vector(decade(-5, 1));
    const double h = 1e-6 * std::max(v.norm(), law.gap0_W.norm() / law.dt_s);
    double curvature = 0;
    const Vector3 gamma = CalcSpringImpulse(law, v, &curvature);
    Vector3 gamma_fd;
    Matrix3 H_fd;
    for (int j = 0; j < 3; ++j) {
      const Vector3 dv = h * Vector3::Unit(j);
      gamma_fd[j] = -(CalcSpringPotential(law, v + dv) - CalcSpringPotential(law, v - dv)) / (2 * h);
      H_fd.col(j) = -(CalcSpringImpulse(law, v + dv) - CalcSpringImpulse(law, v - dv)) / (2 * h);
    }
    // The potential is quadratic, so central differences are exact up to round-off: of ℓ over 2h
    // for γ, of γ over 2h for H.
    const double gamma_tolerance = 1e-6 * gamma.norm() + 1e-14 * CalcSpringPotential(law, v) / h;
    EXPECT_LT((gamma - gamma_fd).norm(), gamma_tolerance) << "trial " << trial;
    const Matrix3 H = curvature * Matrix3::Identity();
    EXPECT_LT((H - H_fd).norm(), 1e-6 * H.norm() + 1e-14 * gamma.norm() / h) << "trial " << trial;
  }
}

}  // namespace
}  // namespace fem
}  // namespace hydro
