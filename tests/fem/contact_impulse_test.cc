// The FEM contact point's impulse law: its values against the closed forms, and its derivative
// H = −∂γ/∂vc against central differences, randomised over decades of stiffness, stiction speed,
// step, friction bound and velocity (as ipc-toolkit checks its barriers).
#include "fem/contact_impulse.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <random>

namespace hydro {
namespace fem {
namespace {

TEST(ContactImpulseTest, NormalLawIsImplicitAndFrictionIsBoundedCoulomb) {
  ContactImpulseLaw law;
  law.nhat_W = Vector3(0, 0, 1);
  law.stiffness_N_per_m = 1e5;
  law.phi0_m = -1e-3;
  law.dt_s = 0.01;
  law.friction = 0.5;
  law.stiction_speed_m_per_s = 1e-4;
  // Approaching at 0.05 m/s: the end-of-step penetration is 1 mm + 0.5 mm.
  const ContactImpulse pressed = CalcContactImpulse(law, Vector3(0, 0, -0.05), 2.0);
  EXPECT_DOUBLE_EQ(pressed.gamma_n, 0.01 * 1e5 * 1.5e-3);
  EXPECT_DOUBLE_EQ(pressed.gamma_W.z(), pressed.gamma_n);
  EXPECT_EQ(pressed.gamma_W.head<2>().norm(), 0);
  // Leaving at 0.2 m/s: apart by the end of the step, no normal impulse.
  EXPECT_EQ(CalcContactImpulse(law, Vector3(0, 0, 0.2), 2.0).gamma_n, 0);
  // Sliding far faster than the stiction speed: Coulomb friction μ·γ̄n against the slip.
  const ContactImpulse sliding = CalcContactImpulse(law, Vector3(1, 0, 0), 2.0);
  EXPECT_NEAR(sliding.gamma_W.x(), -0.5 * 2.0, 1e-8);
  // Below the stiction speed friction fades linearly: at vs/100 it is 1/100 of the bound.
  EXPECT_NEAR(CalcContactImpulse(law, Vector3(1e-6, 0, 0), 2.0).gamma_W.x(), -1.0 * 1e-2, 1e-6);
}

TEST(ContactImpulseTest, DerivativeMatchesCentralDifferencesOverDecades) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0, 1), signed_unit(-1, 1);
  auto decade = [&](double lo, double hi) { return std::pow(10.0, lo + (hi - lo) * unit(rng)); };
  int checked = 0;
  double worst = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    ContactImpulseLaw law;
    law.nhat_W = Vector3(signed_unit(rng), signed_unit(rng), signed_unit(rng)).normalized();
    law.stiffness_N_per_m = decade(2, 10);
    law.dt_s = decade(-3.5, -1.5);
    law.friction = unit(rng);
    law.stiction_speed_m_per_s = decade(-6, -2);
    law.phi0_m = signed_unit(rng) * decade(-6, -2);
    const double lagged = decade(-6, 2);
    const double speed = law.stiction_speed_m_per_s * decade(-1, 2);
    const Vector3 vc = speed * Vector3(signed_unit(rng), signed_unit(rng), signed_unit(rng));
    const double h = 1e-5 * std::max(speed, law.stiction_speed_m_per_s);
    // The normal law has a kink where the end-of-step penetration is zero: keep clear of it.
    const double y = -law.phi0_m - law.dt_s * law.nhat_W.dot(vc);
    if (std::abs(y) < 10 * law.dt_s * h) continue;
    Matrix3 H;
    const ContactImpulse at = CalcContactImpulse(law, vc, lagged, &H);
    Matrix3 H_fd;
    for (int j = 0; j < 3; ++j) {
      const Vector3 dv = h * Vector3::Unit(j);
      H_fd.col(j) =
          -(CalcContactImpulse(law, vc + dv, lagged).gamma_W - CalcContactImpulse(law, vc - dv, lagged).gamma_W) /
          (2 * h);
    }
    const double scale = std::max(H.norm(), 1e-300);
    // Central differences err by O(h²) and by the round-off of γ over 2h: with a stiff, deep point
    // γ ≫ its change over h, so that part of the tolerance is the rounding of |γ|, not the law's.
    const double round_off = 1e-15 * at.gamma_W.norm() / h / scale;
    const double error = (H - H_fd).norm() / scale;
    worst = std::max(worst, error / (1e-6 + round_off));
    EXPECT_LT(error, 1e-6 + round_off) << "trial " << trial << ": k " << law.stiffness_N_per_m << ", vs "
                                       << law.stiction_speed_m_per_s << ", dt " << law.dt_s << "\nH\n"
                                       << H << "\nfinite differences\n"
                                       << H_fd;
    // H is symmetric positive semidefinite (the potential is convex).
    EXPECT_LT((H - H.transpose()).norm(), 1e-12 * scale);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Matrix3>(H).eigenvalues().minCoeff(), -1e-12 * scale);
    EXPECT_TRUE(std::isfinite(at.gamma_n));
    ++checked;
  }
  std::printf("contact impulse: %d random laws checked, worst derivative error %.2f of its tolerance\n", checked,
              worst);
  EXPECT_GT(checked, 1500);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
