#include "hydro/contact_wrench.h"

#include <gtest/gtest.h>

#include <limits>

namespace hydro {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The rectangle [0, 2] × [0, 1] in z = 0 with p0 = 100 + 50·x Pa and normal +z:
//   ∫ p0 dA = 300 N,  ∫ y·p0 dA = 150 N·m,  ∫ x·p0 dA = 200 + 400/3 N·m.
ContactSurface Rectangle() {
  ContactSurface s;
  const Vector3 p[4] = {Vector3(0, 0, 0), Vector3(2, 0, 0), Vector3(2, 1, 0), Vector3(0, 1, 0)};
  const double pressure[4] = {100, 200, 200, 100};
  s.AddPolygon(p, pressure, 4, Vector3::UnitZ(), 1e4, kInf, 0, 0);
  return s;
}

// A regular hexagon of circumradius 1 centred at the origin in z = 0 with uniform pressure.
ContactSurface Hexagon(double pressure) {
  ContactSurface s;
  Vector3 p[6];
  double values[6];
  for (int i = 0; i < 6; ++i) {
    p[i] = Vector3(std::cos(i * M_PI / 3), std::sin(i * M_PI / 3), 0);
    values[i] = pressure;
  }
  s.AddPolygon(p, values, 6, Vector3::UnitZ(), 1e4, kInf, 0, 0);
  return s;
}

TEST(ContactWrenchTest, StaticFrictionlessWrenchIsExact) {
  const ContactSurface s = Rectangle();
  const ContactWrench w = CalcContactWrench(s, {}, {}, {});
  EXPECT_NEAR((w.f_A_W - Vector3(0, 0, 300)).norm(), 0, 1e-12 * 300);
  // τ = ∫ (x, y, 0) × (0, 0, p) dA = (∫y·p, −∫x·p, 0).
  EXPECT_NEAR((w.tau_A_W - Vector3(150, -(200 + 400.0 / 3), 0)).norm(), 0, 1e-12 * 300);
  EXPECT_NEAR(w.normal_force_N, 300, 1e-12 * 300);
  EXPECT_NEAR(w.area_m2, 2.0, 1e-15);
  // Centre of pressure: (∫x·p, ∫y·p)/∫p.
  EXPECT_NEAR((w.p_WCoP - Vector3((200 + 400.0 / 3) / 300, 0.5, 0)).norm(), 0, 1e-12);
  // About another point: τ_O = τ_0 − p_WO × f.
  const Vector3 p_WO(0.3, -1, 2);
  const ContactWrench w_O = CalcContactWrench(s, {}, {}, {}, p_WO);
  EXPECT_NEAR((w_O.tau_A_W - (w.tau_A_W - p_WO.cross(w.f_A_W))).norm(), 0, 1e-12 * 300);
}

TEST(ContactWrenchTest, HuntCrossleyDissipation) {
  const ContactSurface s = Rectangle();
  ContactTractionParameters params;
  params.dissipation_s_per_m = 0.4;
  SpatialVelocity approaching, separating, fast;
  approaching.v_WP = Vector3(0, 0, -0.5);  // A moves toward B (against the normal)
  separating.v_WP = Vector3(0, 0, 1.0);
  fast.v_WP = Vector3(0, 0, 3.0);  // faster than 1/d: the pressure drops to zero, no suction
  EXPECT_NEAR(CalcContactWrench(s, approaching, {}, params).f_A_W.z(), 300 * 1.2, 1e-9);
  EXPECT_NEAR(CalcContactWrench(s, separating, {}, params).f_A_W.z(), 300 * 0.6, 1e-9);
  EXPECT_EQ(CalcContactWrench(s, fast, {}, params).f_A_W.z(), 0.0);
  // Only relative motion counts.
  EXPECT_NEAR(CalcContactWrench(s, {}, separating, params).f_A_W.z(), 300 * 1.4, 1e-9);
}

TEST(ContactWrenchTest, RegularizedCoulombFriction) {
  const ContactSurface s = Rectangle();
  ContactTractionParameters params;
  params.friction = 0.3;
  params.stiction_speed_m_per_s = 1e-4;
  SpatialVelocity sliding;
  sliding.v_WP = Vector3(1, 0, 0);
  ContactWrench w = CalcContactWrench(s, sliding, {}, params);
  EXPECT_NEAR((w.f_A_W - Vector3(-0.3 * 300, 0, 300)).norm(), 0, 1e-9);
  // Below the stiction speed the law is viscous: half of v_c gives half the friction.
  sliding.v_WP = Vector3(0, 0.5e-4, 0);
  w = CalcContactWrench(s, sliding, {}, params);
  EXPECT_NEAR(w.f_A_W.y(), -0.5 * 0.3 * 300, 1e-9);
  // Spinning about the normal on a symmetric patch: no net friction force, a torque opposing the
  // spin. For uniform p on a hexagon, |τ| = μ·p·∫ r dA.
  const ContactSurface hex = Hexagon(1000);
  SpatialVelocity spinning;
  spinning.w_W = Vector3(0, 0, 2.0);
  w = CalcContactWrench(hex, spinning, {}, params);
  EXPECT_NEAR(w.f_A_W.head<2>().norm(), 0, 1e-9);
  EXPECT_LT(w.tau_A_W.z(), 0);
  // ∫ r dA over the hexagon (circumradius 1) ≈ that of the disk of equal area within a few %.
  const double hex_area = 3 * std::sqrt(3.0) / 2;
  const double disk_r = std::sqrt(hex_area / M_PI);
  EXPECT_NEAR(-w.tau_A_W.z() / (0.3 * 1000 * 2 * M_PI * disk_r * disk_r * disk_r / 3), 1.0, 0.05);
}

TEST(ContactWrenchTest, RejectsBadParameters) {
  const ContactSurface s = Rectangle();
  ContactTractionParameters bad;
  bad.dissipation_s_per_m = -1;
  EXPECT_THROW(CalcContactWrench(s, {}, {}, bad), InvalidInput);
  bad = {};
  bad.friction = std::nan("");
  EXPECT_THROW(CalcContactWrench(s, {}, {}, bad), InvalidInput);
  bad = {};
  bad.stiction_speed_m_per_s = 0;
  EXPECT_THROW(CalcContactWrench(s, {}, {}, bad), InvalidInput);
  SpatialVelocity nan_velocity;
  nan_velocity.w_W.x() = std::nan("");
  EXPECT_THROW(CalcContactWrench(s, nan_velocity, {}, {}), InvalidInput);
}

}  // namespace
}  // namespace hydro
