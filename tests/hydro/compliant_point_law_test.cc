// The point law's impulse is the negative gradient of its potential and its Hessian the negative
// Jacobian of the impulse (checked by central differences, randomized over decades of stiffness,
// compliance and friction bound); it reduces to 000 eq. 13 and to SAP's near-rigid compliance.
#include "hydro/compliant_point_law.h"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <random>

namespace hydro {
namespace {

TEST(CompliantPointLawTest, NormalImpulseIsTheImplicitPointLawOf000WithoutDissipation) {
  const double k = 2e5, phi0 = -1e-4, dt = 1e-3;
  const CompliantPointLaw law = MakeCompliantPointLaw(Vector3::UnitZ(), k, phi0, dt, 0, 1.0, 1.0, 0, 1e-5);
  for (double vn : {-0.3, -0.01, 0.0, 0.05, 0.2}) {
    double gn = 0;
    CalcPointImpulse(law, Vector3(0, 0, vn), &gn);
    EXPECT_NEAR(gn, dt * k * std::max(-phi0 - dt * vn, 0.0), 1e-12) << "vn = " << vn;
  }
}

// The friction bounds are refreshed from CalcPointNormalImpulse (hydro/patch_problem.cc), and
// must be the γn that CalcPointImpulse reports, bit for bit, or a solve would stop at other bounds.
TEST(CompliantPointLawTest, TheNormalImpulseAloneIsTheFullLawsBitForBit) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> unit(-1, 1), decade(-3, 3);
  int pressing = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vector3 n = Vector3(unit(rng), unit(rng), unit(rng)).normalized();
    const double k = std::pow(10.0, 6 + decade(rng)), phi0 = 1e-4 * unit(rng),
                 dt = 1e-3 * std::pow(10.0, decade(rng) / 3);
    const CompliantPointLaw law =
        MakeCompliantPointLaw(n, k, phi0, dt, 1e-3 * (1 + unit(rng)), std::pow(10.0, decade(rng)), 1.0, 1.0, 1e-5);
    const Vector3 vc = std::pow(10.0, decade(rng)) * 0.01 * Vector3(unit(rng), unit(rng), unit(rng));
    double gn = -1;
    CalcPointImpulse(law, vc, &gn);
    EXPECT_EQ(CalcPointNormalImpulse(law, vc), gn) << trial;
    pressing += gn > 0;
  }
  EXPECT_GT(pressing, 200);  // both pressing and lifted-off points are drawn
  EXPECT_LT(pressing, 1800);
}

TEST(CompliantPointLawTest, DissipationTimeScaleIsKelvinVoigt) {
  // γn = δt·k·(−φ0 − (δt + τd)·vn)₊: the force at the end of the step is k·(−φ) − τd·k·vn.
  const double k = 1e6, phi0 = -2e-5, dt = 1e-3, tau = 4e-3;
  const CompliantPointLaw law = MakeCompliantPointLaw(Vector3::UnitZ(), k, phi0, dt, tau, 1.0, 1.0, 0, 1e-5);
  double gn = 0;
  CalcPointImpulse(law, Vector3(0, 0, -0.002), &gn);
  EXPECT_NEAR(gn, dt * k * (-phi0 + (dt + tau) * 0.002), 1e-12);
}

TEST(CompliantPointLawTest, StiffPointsAreSoftenedToAPeriodOfBetaSteps) {
  // SAP: Rn = max(1/(δt·k·(δt + τd)), β²/(4π²)·w). A 1 kg mass on a 1e12 N/m point at 1/60 s.
  const double dt = 1.0 / 60, w = 1.0;
  bool near_rigid = false;
  const CompliantPointLaw stiff =
      MakeCompliantPointLaw(Vector3::UnitZ(), 1e12, -1e-3, dt, 0, w, w, 1.0, 1e-5, &near_rigid);
  EXPECT_TRUE(near_rigid);
  EXPECT_NEAR(stiff.compliance_Rn, w / (4 * M_PI * M_PI), 1e-15);
  EXPECT_NEAR(stiff.target_normal_speed, 1e-3 / dt, 1e-12);  // the target is unchanged
  const CompliantPointLaw soft =
      MakeCompliantPointLaw(Vector3::UnitZ(), 10.0, -1e-3, dt, 0, w, w, 1.0, 1e-5, &near_rigid);
  EXPECT_FALSE(near_rigid);
  EXPECT_NEAR(soft.compliance_Rn, 1 / (dt * dt * 10.0), 1e-9);
}

TEST(CompliantPointLawTest, FrictionIsCoulombWhenSlidingAndRegularizedWhenStuck) {
  CompliantPointLaw law = MakeCompliantPointLaw(Vector3::UnitZ(), 1e5, -1e-3, 1e-3, 0, 1.0, 1.0, 0, 1e-5);
  law.friction_bound = 0.02;
  // Sliding at 0.3 m/s along x: exactly −μ·γ̄n along the slip.
  const Vector3 sliding = CalcPointImpulse(law, Vector3(0.3, 0, 0), nullptr);
  EXPECT_NEAR(sliding.x(), -0.02, 1e-15);
  EXPECT_NEAR(sliding.y(), 0, 1e-15);
  // Stuck: a slip within Rt·μ·γ̄n gets −vt/Rt, below the bound.
  const Vector3 stuck = CalcPointImpulse(law, Vector3(0, 0.5 * law.compliance_Rt * 0.02, 0), nullptr);
  EXPECT_NEAR(stuck.y(), -0.01, 1e-15);
}

// Central differences of ℓ and γ, at random points away from the law's kinks (contact onset and
// the stick–slip boundary), over decades of every parameter.
TEST(CompliantPointLawTest, ImpulseAndHessianMatchFiniteDifferencesOverDecades) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  int checked = 0;
  for (int trial = 0; trial < 2000 && checked < 400; ++trial) {
    const double k = std::pow(10, 3 + 9 * (unit(random) + 1) / 2);      // 1e3 … 1e12 N/m
    const double dt = std::pow(10, -3.5 + 2 * (unit(random) + 1) / 2);  // 3e-4 … 3e-2 s
    const double w = std::pow(10, -2 + 4 * (unit(random) + 1) / 2);     // 1e-2 … 1e2 1/kg
    const double phi0 = 1e-3 * unit(random);
    const Vector3 n = Vector3(unit(random), unit(random), unit(random)).normalized();
    CompliantPointLaw law = MakeCompliantPointLaw(n, k, phi0, dt, 0.01 * (unit(random) + 1), w, w, 1.0,
                                                  std::pow(10, -6 + 4 * (unit(random) + 1) / 2));
    law.friction_bound = std::pow(10, -4 + 4 * (unit(random) + 1) / 2);
    const double speed_scale = std::pow(10, -3 + 3 * (unit(random) + 1) / 2);
    const Vector3 v = speed_scale * Vector3(unit(random), unit(random), unit(random));
    // Stay away from the kinks by more than the difference step.
    const double h = 1e-7 * speed_scale;
    const double vn = n.dot(v);
    const double stick_radius = law.compliance_Rt * law.friction_bound;
    const double slip = (v - vn * n).norm();
    if (std::abs(law.target_normal_speed - vn) < 100 * h || std::abs(slip - stick_radius) < 100 * h || slip < 100 * h)
      continue;
    ++checked;
    Matrix3 H;
    const Vector3 gamma = CalcPointImpulse(law, v, nullptr, &H);
    for (int a = 0; a < 3; ++a) {
      Vector3 dv = Vector3::Zero();
      dv[a] = h;
      const double dl = (CalcPointPotential(law, v + dv) - CalcPointPotential(law, v - dv)) / (2 * h);
      const double scale = gamma.norm() + 1e-300;
      EXPECT_NEAR(-dl, gamma[a], 1e-5 * scale) << "trial " << trial << " component " << a;
      const Vector3 dgamma =
          (CalcPointImpulse(law, v + dv, nullptr) - CalcPointImpulse(law, v - dv, nullptr)) / (2 * h);
      const double h_scale = H.norm() + 1e-300;
      for (int b = 0; b < 3; ++b) EXPECT_NEAR(-dgamma[b], H(b, a), 1e-5 * h_scale) << "trial " << trial;
    }
    // Convexity: H is symmetric positive semidefinite.
    EXPECT_LT((H - H.transpose()).norm(), 1e-9 * (H.norm() + 1e-300));
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Matrix3>(0.5 * (H + H.transpose())).eigenvalues().minCoeff(),
              -1e-9 * H.norm());
  }
  EXPECT_GE(checked, 400);
}

// The majorizing curvature of a sliding point in contact: the quadratic model of ℓ at vc0 built
// with it, q(v) = ℓ(vc0) − γ0·(v − vc0) + ½·(v − vc0)ᵀ·H·(v − vc0), lies above ℓ everywhere — through
// the stick disk, across the friction's kink at vt = 0 and off the contact ((x₊)² ≤ x²) — so a
// Newton step on it never overshoots. The exact curvature's model does not: it falls below ℓ where
// the slip stops. Random states over decades of every parameter, random v near and far; the
// impulse is the same either way.
TEST(CompliantPointLawTest, TheMajorizingSlipCurvatureBoundsThePotentialFromAbove) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  int sliding_states = 0, exact_below = 0;
  for (int trial = 0; trial < 3000 && sliding_states < 300; ++trial) {
    const double k = std::pow(10, 3 + 9 * (unit(random) + 1) / 2);
    const double dt = std::pow(10, -3.5 + 2 * (unit(random) + 1) / 2);
    const double w = std::pow(10, -2 + 4 * (unit(random) + 1) / 2);
    const Vector3 n = Vector3(unit(random), unit(random), unit(random)).normalized();
    CompliantPointLaw law = MakeCompliantPointLaw(n, k, -1e-3 * (unit(random) + 1.01), dt, 0, w, w, 1.0,
                                                  std::pow(10, -6 + 4 * (unit(random) + 1) / 2));
    law.friction_bound = std::pow(10, -4 + 4 * (unit(random) + 1) / 2);
    const double speed_scale = std::pow(10, -3 + 3 * (unit(random) + 1) / 2);
    const Vector3 v0 = speed_scale * Vector3(unit(random), unit(random), unit(random));
    const double vn0 = n.dot(v0);
    double gn0 = 0;
    Matrix3 H_exact, H_major;
    const Vector3 gamma0 = CalcPointImpulse(law, v0, &gn0, &H_exact);
    const Vector3 gamma_major = CalcPointImpulse(law, v0, nullptr, &H_major, SlipCurvature::Majorizing());
    EXPECT_EQ(gamma0, gamma_major);
    if ((v0 - vn0 * n).norm() <= law.compliance_Rt * law.friction_bound) {
      EXPECT_EQ(H_exact, H_major) << "trial " << trial << ": only a sliding point's curvature differs";
      continue;
    }
    if (gn0 <= 0) continue;  // off the contact, no model bounds the contact's onset
    ++sliding_states;
    const double l0 = CalcPointPotential(law, v0);
    auto model = [&](const Matrix3& H, const Vector3& v) {
      const Vector3 d = v - v0;
      return l0 - gamma0.dot(d) + 0.5 * d.dot(H * d);
    };
    for (int sample = 0; sample < 20; ++sample) {
      // Around v0, and around the point where the slip stops (v0 without its slip).
      const Vector3 centre = sample % 2 ? v0 : Vector3(vn0 * n);
      const Vector3 v = centre + speed_scale * std::pow(10, -3 + 3 * (unit(random) + 1) / 2) *
                                     Vector3(unit(random), unit(random), unit(random));
      const double l = CalcPointPotential(law, v);
      EXPECT_GE(model(H_major, v), l - 1e-9 * (std::abs(l) + std::abs(l0))) << "trial " << trial;
      if (model(H_exact, v) < l - 1e-6 * (std::abs(l) + std::abs(l0))) ++exact_below;
    }
  }
  EXPECT_GE(sliding_states, 300);
  EXPECT_GT(exact_below, 100);  // the test tells the two apart
}

// A share w of the majorizing curvature is the exact curvature plus w times their difference,
// which lies along the slip alone: t̂ᵀ·H·t̂ = w·μ·γ̄n/|vt|, the rest of H unchanged.
TEST(CompliantPointLawTest, ABlendedSlipCurvatureKeepsItsShareAlongTheSlip) {
  CompliantPointLaw law = MakeCompliantPointLaw(Vector3::UnitZ(), 1e6, -1e-3, 1e-3, 0, 1, 1, 1.0, 1e-3);
  law.friction_bound = 0.2;
  const Vector3 vc(0.3, -0.4, -0.01);  // sliding at 0.5 m/s along t̂ = (0.6, −0.8, 0), pressed in
  const Vector3 t(0.6, -0.8, 0);
  Matrix3 H_exact, H_major, H_blend;
  const Vector3 gamma = CalcPointImpulse(law, vc, nullptr, &H_exact, SlipCurvature::Exact());
  CalcPointImpulse(law, vc, nullptr, &H_major, SlipCurvature::Majorizing());
  EXPECT_EQ(CalcPointImpulse(law, vc, nullptr, &H_blend, SlipCurvature{0.3}), gamma);
  const double slip_curvature = 0.2 / 0.5;
  EXPECT_NEAR(t.dot(H_exact * t), 0, 1e-12);
  EXPECT_NEAR(t.dot(H_major * t), slip_curvature, 1e-12);
  EXPECT_NEAR(t.dot(H_blend * t), 0.3 * slip_curvature, 1e-12);
  EXPECT_LT((H_blend - (0.7 * H_exact + 0.3 * H_major)).norm(), 1e-9 * H_exact.norm());
  const Vector3 across(0.8, 0.6, 0);
  EXPECT_NEAR(across.dot(H_blend * across), slip_curvature, 1e-12);
  EXPECT_NEAR(H_blend(2, 2), 1 / law.compliance_Rn, 1e-12);  // the normal curvature too
}

}  // namespace
}  // namespace hydro
