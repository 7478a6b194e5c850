// ∂φ0/∂δ of a contact point (hydro/depth_sensitivity.h) against finite differences of the fields.
#include <gtest/gtest.h>

#include <random>

#include "hydro/depth_sensitivity.h"
#include "hydro/point_approximation.h"

namespace hydro {
namespace {

Vector3 RandomVector(std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  return Vector3(u(*rng), u(*rng), u(*rng));
}

TEST(DepthSensitivityTest, GradientsAlongTheNormalCloseTheDistanceByTheApproach) {
  const Vector3 n = Vector3(1, 2, 3).normalized();
  const double gA = 3e9, gB = 7e8, g = EffectiveGradient(gA, gB);
  const Vector3 a = gA * n, b = -gB * n;
  EXPECT_LT((CalcDepthSensitivity(n, g, &a, &b) + n).norm(), 1e-12);
  EXPECT_LT((CalcDepthSensitivity(n, gA, &a, nullptr) + n).norm(), 1e-12);
  EXPECT_LT((CalcDepthSensitivity(n, gB, nullptr, &b) + n).norm(), 1e-12);
  // No gradient information, or no usable g: the approach along the normal.
  EXPECT_LT((CalcDepthSensitivity(n, g, nullptr, nullptr) + n).norm(), 1e-12);
  EXPECT_LT((CalcDepthSensitivity(n, 0, &a, &b) + n).norm(), 1e-12);
  EXPECT_LT((CalcDepthSensitivity(n, NAN, &a, &b) + n).norm(), 1e-12);
  EXPECT_LT((CalcDepthSensitivity(n, g, &a, &a) + n).norm(), 1e-12);  // equal fields: no plane
}

// Random linear fields pA = a·x + cA and pB = b·x + cB: B moved by δ, the pressure where the
// equal-pressure plane crosses the line through x0 along m̂ (compliant–compliant), or at x0 moved
// with the rigid side, by central differences against σ·(−g).
TEST(DepthSensitivityTest, MatchesFiniteDifferencesOfRandomLinearFields) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const Vector3 n = RandomVector(&rng).normalized();
    const Vector3 a = 1e8 * (n + 0.3 * RandomVector(&rng));
    const Vector3 b = 1e8 * (-n + 0.3 * RandomVector(&rng));
    const Vector3 x0 = 0.01 * RandomVector(&rng);
    const double cA = 1e5, cB = a.dot(x0) + cA - b.dot(x0);  // the plane passes through x0
    const Vector3 m = (a - b).normalized();
    const double g = EffectiveGradient(a.dot(n), -b.dot(n));
    ASSERT_GT(g, 0);
    // Pressure on the plane along x0 + s·m̂ when B has moved by δ.
    auto p_both = [&](const Vector3& delta) {
      const double s = -(b.dot(delta) + (a - b).dot(x0) + cA - cB) / (a - b).dot(m);
      return a.dot(x0 + s * m) + cA;
    };
    auto p_rigid_B = [&](const Vector3& delta) { return a.dot(x0 + delta) + cA; };
    auto p_rigid_A = [&](const Vector3& delta) { return b.dot(x0 - delta) + cB; };
    const double h = 1e-7;
    Vector3 fd_both, fd_rigid_B, fd_rigid_A;
    for (int k = 0; k < 3; ++k) {
      const Vector3 e = h * Vector3::Unit(k);
      fd_both[k] = -(p_both(e) - p_both(-e)) / (2 * h) / g;
      fd_rigid_B[k] = -(p_rigid_B(e) - p_rigid_B(-e)) / (2 * h) / a.dot(n);
      fd_rigid_A[k] = -(p_rigid_A(e) - p_rigid_A(-e)) / (2 * h) / (-b.dot(n));
    }
    EXPECT_LT((CalcDepthSensitivity(n, g, &a, &b) - fd_both).norm(), 1e-6 * fd_both.norm()) << trial;
    EXPECT_LT((CalcDepthSensitivity(n, a.dot(n), &a, nullptr) - fd_rigid_B).norm(), 1e-6 * fd_rigid_B.norm()) << trial;
    EXPECT_LT((CalcDepthSensitivity(n, -b.dot(n), nullptr, &b) - fd_rigid_A).norm(), 1e-6 * fd_rigid_A.norm()) << trial;
  }
}

}  // namespace
}  // namespace hydro
