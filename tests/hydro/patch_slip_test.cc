#include "hydro/patch_slip.h"

#include <gtest/gtest.h>

#include <cmath>

namespace hydro {
namespace {

// A disk of radius R in the plane through p_WC with normal nhat_W, as a fine lattice of equal
// points (each with force `force` and area h²).
std::vector<ContactPoint> Disk(double R, const Vector3& p_WC, const Vector3& nhat_W, double force = 1.0) {
  const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(Vector3::UnitZ(), nhat_W);
  std::vector<ContactPoint> points;
  const double h = R / 40;
  for (double x = -R + h / 2; x < R; x += h)
    for (double y = -R + h / 2; y < R; y += h) {
      if (x * x + y * y > R * R) continue;
      ContactPoint point;
      point.p_WC = p_WC + q * Vector3(x, y, 0);
      point.nhat_BA_W = nhat_W;
      point.fn0_N = force;
      point.area_m2 = h * h;
      points.push_back(point);
    }
  return points;
}

TEST(PatchSlipTest, AnEmptyPatchHasNoSlip) {
  const PatchSlip slip = CalcPatchSlip({}, Vector3::Zero(), Vector3(1, 0, 0), Vector3(0, 0, 1));
  EXPECT_EQ(slip.slide_m_per_s, 0);
  EXPECT_EQ(slip.spin_m_per_s, 0);
}

TEST(PatchSlipTest, ASpinningDiskSpinsAtItsRimAndDoesNotSlide) {
  // Spin about the disk's own axis: slide 0, spin ω·R (the lattice's disk within 1 %).
  const double R = 0.01, omega = 30;
  const Vector3 p_WC(0.2, -0.1, 0.05), nhat_W = Vector3(0.3, -0.2, 1).normalized();
  const PatchSlip slip = CalcPatchSlip(Disk(R, p_WC, nhat_W), p_WC, Vector3::Zero(), omega * nhat_W);
  EXPECT_NEAR(slip.slide_m_per_s, 0, 1e-12);
  EXPECT_NEAR(slip.spin_m_per_s, omega * R, 0.01 * omega * R);
}

TEST(PatchSlipTest, ASlidingDiskSlidesAlongItsPlaneOnly) {
  // The velocity's normal part is approach, not slip; a spin about an axis in the plane (rolling)
  // is not spin about the normal.
  const Vector3 p_WC(1, 2, 3), nhat_W = Vector3(0, 1, 1).normalized();
  const Vector3 tangent = Vector3(1, 0, 0), v_W = 0.4 * tangent + 2.0 * nhat_W;
  const PatchSlip slip = CalcPatchSlip(Disk(0.05, p_WC, nhat_W), p_WC, v_W, 5.0 * tangent);
  EXPECT_NEAR(slip.slide_m_per_s, 0.4, 1e-12);
  EXPECT_NEAR(slip.spin_m_per_s, 0, 1e-12);
}

TEST(PatchSlipTest, TheSlideIsTakenAtTheForceWeightedCentroid) {
  // A disk spinning about a point O off its centre slides at |w × (C − O)| at its centroid C; the
  // points without force (here a second disk beside it) do not move the centroid.
  const double R = 0.02, omega = 10;
  const Vector3 nhat_W = Vector3::UnitZ(), p_WC(0.1, 0, 0);
  std::vector<ContactPoint> points = Disk(R, p_WC, nhat_W);
  for (ContactPoint point : Disk(R, Vector3(0.3, 0, 0), nhat_W, 0.0)) points.push_back(point);
  const PatchSlip slip = CalcPatchSlip(points, Vector3::Zero(), Vector3::Zero(), omega * nhat_W);
  EXPECT_NEAR(slip.slide_m_per_s, omega * 0.1, 1e-9);
  EXPECT_NEAR(slip.spin_m_per_s, omega * R, 0.01 * omega * R);
}

TEST(PatchSlipTest, APatchWithoutForceIsWeighedByArea) {
  const double R = 0.02, omega = 10;
  const PatchSlip slip = CalcPatchSlip(Disk(R, Vector3::Zero(), Vector3::UnitZ(), 0.0), Vector3::Zero(),
                                       Vector3::Zero(), omega * Vector3::UnitZ());
  EXPECT_NEAR(slip.spin_m_per_s, omega * R, 0.01 * omega * R);
}

TEST(PatchSlipTest, FrictionTurnsWhenTheSpinIsATwentiethOfTheSlideWithHysteresis) {
  auto turns = [](double slide, double spin, bool last) {
    PatchSlip slip;
    slip.slide_m_per_s = slide;
    slip.spin_m_per_s = spin;
    return PatchFrictionTurns(slip, last);
  };
  EXPECT_TRUE(turns(1.0, 0.051, false));
  EXPECT_FALSE(turns(1.0, 0.049, false));
  EXPECT_TRUE(turns(1.0, 0.026, true));  // down to half the threshold once turning
  EXPECT_FALSE(turns(1.0, 0.024, true));
  EXPECT_TRUE(turns(0.0, 1.1e-3, false));  // the floor: 1 mm/s
  EXPECT_FALSE(turns(0.0, 0.9e-3, false));
  EXPECT_TRUE(turns(0.0, 0.6e-3, true));
  EXPECT_FALSE(turns(0.0, 0.4e-3, true));
  EXPECT_FALSE(turns(0.0, 0.0, false));
}

}  // namespace
}  // namespace hydro
