// Coulomb friction on an incline and energy behaviour of bouncing, with patch contact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

constexpr double kGravity = 9.81;

// A compliant 20 × 20 × 4 cm block (E = 1e5 Pa) on a rigid plane tilted by θ about x (μ = 0.5 on
// both objects, so the combined μ is 0.5). Flat enough that the whole base stays loaded at these
// slopes (the pressure centre shifts by h·tan θ ≤ 2 cm, inside the middle third of the base).
// Returns the distance slid down the slope between t = 0.2 s and t = 0.2 s + `duration` and the
// speed at both ends.
struct SlideResult {
  double distance, v_start, v_end;
};
SlideResult Slide(double theta, double duration) {
  btBoxShape box(btVector3(0.1, 0.1, 0.02));
  const ScopedHydroelastic tag(&box, Compliant(1e5, 0.025, 5.0));
  const btVector3 normal(0, -std::sin(theta), std::cos(theta));
  const btVector3 down_slope(0, -std::cos(theta), -std::sin(theta));
  btStaticPlaneShape ground(normal, 0);
  TestWorld world;
  btRigidBody* plane = world.AddBody(&ground, 0, btVector3(0, 0, 0));
  plane->setFriction(0.5);
  // Resting on the plane: centre one half-size (less the static depth) along the normal.
  btRigidBody* body = world.AddBody(&box, 1.0, normal * 0.0199, btQuaternion(btVector3(1, 0, 0), theta));
  body->setFriction(0.5);
  world.Step(200);
  const btVector3 p0 = body->getWorldTransform().getOrigin();
  const double v0 = body->getLinearVelocity().dot(down_slope);
  world.Step(static_cast<int>(std::lround(duration * 1000)));
  return {(body->getWorldTransform().getOrigin() - p0).dot(down_slope), v0, body->getLinearVelocity().dot(down_slope)};
}

TEST(FrictionTest, BlockHoldsBelowTheFrictionAngle) {
  const double theta = std::atan(0.4);  // tan θ = 0.4 < μ = 0.5
  const SlideResult r = Slide(theta, 2.0);
  std::printf("incline tan θ = 0.4, μ = 0.5: slid %.3e m in 2 s\n", r.distance);
  EXPECT_LT(std::abs(r.distance), 1e-6);
}

TEST(FrictionTest, BlockSlidesWithCoulombAcceleration) {
  for (double tan_theta : {0.7, 1.0}) {
    const double theta = std::atan(tan_theta);
    const double duration = 0.5;
    const SlideResult r = Slide(theta, duration);
    // Constant acceleration: a = 2·(d − v0·t)/t².
    const double a = 2 * (r.distance - r.v_start * duration) / (duration * duration);
    const double expected = kGravity * (std::sin(theta) - 0.5 * std::cos(theta));
    std::printf("incline tan θ = %.1f, μ = 0.5: a = %.4f m/s², g(sin θ − μ cos θ) = %.4f (%+.2f%%)\n", tan_theta, a,
                expected, 100 * (a / expected - 1));
    EXPECT_NEAR(a / expected, 1.0, 0.02);
  }
}

// Drops a compliant ball from 10 cm on a rigid plane and returns the successive peak heights of
// its centre above the resting contact height R.
std::vector<double> BouncePeaks(double dissipation, int steps) {
  const double R = 0.05;
  btSphereShape ball(R);
  const ScopedHydroelastic tag(&ball, Compliant(1e5, R / 4, dissipation));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.world()->getSolverInfo().m_numIterations = 50;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&ball, 0.5, btVector3(0, 0, R + 0.1));
  std::vector<double> peaks;
  double previous_vz = 0;
  for (int i = 0; i < steps; ++i) {
    world.Step(1);
    const double vz = body->getLinearVelocity().z();
    if (previous_vz > 0 && vz <= 0) peaks.push_back(body->getWorldTransform().getOrigin().z() - R);
    previous_vz = vz;
  }
  return peaks;
}

TEST(EnergyTest, UndampedBouncesNeverGrowAndDampingLowersRestitution) {
  const std::vector<double> peaks = BouncePeaks(0.0, 1500);
  ASSERT_GE(peaks.size(), 3u);
  std::printf("undamped bounce peaks (m):");
  for (double p : peaks) std::printf(" %.5f", p);
  std::printf("\n");
  EXPECT_LE(peaks[0], 0.1 + 1e-6);
  for (size_t i = 1; i < peaks.size(); ++i) EXPECT_LE(peaks[i], peaks[i - 1] + 1e-9) << "bounce " << i;
  // Restitution e = √(h1/h0) falls as the dissipation rises.
  double previous = 2;
  for (double d : {0.0, 0.5, 2.0, 8.0}) {
    const std::vector<double> p = BouncePeaks(d, 800);
    const double e = p.empty() ? 0.0 : std::sqrt(std::max(p[0], 0.0) / 0.1);
    std::printf("dissipation %.1f s/m: restitution %.4f\n", d, e);
    EXPECT_LT(e, previous) << "d = " << d;
    previous = e;
  }
}

}  // namespace
}  // namespace hydro
