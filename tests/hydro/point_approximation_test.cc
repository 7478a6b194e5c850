#include "hydro/point_approximation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact_test_util.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"

namespace hydro {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A 2 m × 1 m rectangle in z = 0 with pressure p = 100 + 50·x (Pa), normal +z.
void AddRectangle(ContactSurface* s, double grad_A, double grad_B, int element = 0) {
  const Vector3 p[4] = {Vector3(0, 0, 0), Vector3(2, 0, 0), Vector3(2, 1, 0), Vector3(0, 1, 0)};
  const double pressure[4] = {100, 200, 200, 100};
  s->AddPolygon(p, pressure, 4, Vector3::UnitZ(), grad_A, grad_B, element, element);
}

TEST(PointApproximationTest, StiffnessDistanceAndForceOf000Eq16) {
  ContactSurface surface;
  AddRectangle(&surface, 1e4, kInf);    // compliant–rigid: g = gA
  AddRectangle(&surface, 1e4, 1e4, 1);  // identical compliant sides: g = gA/2
  AddRectangle(&surface, 3e4, 6e4, 2);  // g = 3·6/9 = 2e4
  std::vector<ContactPoint> points;
  MakeContactPoints(surface, &points);
  ASSERT_EQ(points.size(), 3u);
  const double area = 2.0, p_centroid = 150.0;
  const double g[3] = {1e4, 5e3, 2e4};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(points[i].g_Pa_per_m, g[i], 1e-9);
    EXPECT_NEAR(points[i].stiffness_N_per_m, g[i] * area, 1e-9);
    EXPECT_NEAR(points[i].phi0_m, -p_centroid / g[i], 1e-15);
    EXPECT_NEAR(points[i].fn0_N, area * p_centroid, 1e-9);
    EXPECT_NEAR(-points[i].stiffness_N_per_m * points[i].phi0_m, points[i].fn0_N, 1e-9);
    EXPECT_NEAR((points[i].p_WC - Vector3(1, 0.5, 0)).norm(), 0, 1e-15);  // the area centroid
  }
}

TEST(PointApproximationTest, DropsPolygonsWithANonPositiveGradient) {
  ContactSurface surface;
  AddRectangle(&surface, 1e4, kInf);
  AddRectangle(&surface, -1e3, kInf);
  AddRectangle(&surface, 1e4, 0.0);
  AddRectangle(&surface, 2e4, -5e3);  // gA + gB > 0 but gB < 0: still dropped (000 §IV-A)
  std::vector<ContactPoint> points;
  MakeContactPoints(surface, &points);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].g_Pa_per_m, 1e4);  // the first polygon's
}

TEST(PointApproximationTest, ForceAfterStepIsTheImplicitPointLaw) {
  ContactSurface surface;
  AddRectangle(&surface, 1e4, kInf);
  std::vector<ContactPoint> points;
  MakeContactPoints(surface, &points);
  const ContactPoint& point = points[0];
  const double dt = 1e-3;
  EXPECT_NEAR(CalcPointForceAfterStep(point, 0.0, dt), point.fn0_N, 1e-9);
  // Separating at exactly −φ0/δt brings the force to zero; faster stays at zero.
  const double v_release = -point.phi0_m / dt;
  EXPECT_NEAR(CalcPointForceAfterStep(point, v_release, dt), 0.0, 1e-9);
  EXPECT_EQ(CalcPointForceAfterStep(point, 2 * v_release, dt), 0.0);
  // Approaching raises the force by k·δt·|vn|.
  EXPECT_NEAR(CalcPointForceAfterStep(point, -0.01, dt), point.fn0_N + point.stiffness_N_per_m * dt * 0.01, 1e-9);
}

TEST(PointApproximationTest, PointsCarryTheSurfaceNormalForce) {
  // Σ fn0 equals the surface's elastic force along the normal, for a real surface.
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.01), 1e5);
  RigidTransform X_WA = RigidTransform::Identity();
  X_WA.translation() = Vector3(0, 0, 0.04);
  ContactSurface surface;
  CalcContactSurface(sphere, X_WA, RigidHalfSpace{}, RigidTransform::Identity(), &surface);
  std::vector<ContactPoint> points;
  MakeContactPoints(surface, &points);
  ASSERT_EQ(static_cast<int>(points.size()), surface.num_polygons());
  double total = 0;
  for (const ContactPoint& p : points) total += p.fn0_N;
  EXPECT_NEAR(total, surface.CalcElasticForceOnA().z(), 1e-9 * total);
}

// The points' stiffness is the derivative of the elastic wrench in pose: moving body A by a small
// twist q changes its wrench W = Σ fn0·[r × n̂; n̂] (about A's centre) by −K·q, K = Σ k·j·jᵀ,
// j = [r × n̂; n̂], the matrix an implicit step linearizes the surface with, so that a step agrees
// with the surface the next step computes. (Where they disagree, the part the solver does not see
// acts a step late: an explicit stiffness, which at a near-rigid stiffness, K·δt²/m ≈ 600, is unstable
// once it exceeds the implicit one.) Central differences of W (1e-7 m and rad) against K, for a
// 0.2 m box at its default resolution (1/8 of its size) 20 µm into the corner of another (the
// pyramid's contact: compliant–compliant, off-centre) and 20 µm into a rigid half-space: the
// diagonal entries for the normal translation and the two tilts, and their couplings, to 1 % of
// the diagonal (measured ≤ 0.15 %). The box on the half-space is tilted by 1.4e-4 rad: at exactly
// zero tilt, the side faces' slivers below the plane, whose gradient is then tangent to it, enter
// (g > 0) or leave (g ≤ 0, dropped) with the sign of the tilt, each with its force A·p0 — a step
// in W of 8e-3 N·m at 20 µm, which a difference across zero reads as a stiffness ∝ 1/h.
TEST(PointApproximationTest, StiffnessIsTheDerivativeOfTheElasticWrenchInPose) {
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.2, 0.2), 0.025), 1e8);
  const double depth = 2e-5;
  for (const bool on_box : {true, false}) {
    RigidTransform X_WB = RigidTransform::Identity();
    RigidTransform X_WA0 = RigidTransform::Identity();
    if (on_box) {
      X_WB.translation() = Vector3(0.1005, 0.1005, -0.1);
      X_WA0.translation() = Vector3(0, 0, 0.1 - depth);
    } else {
      X_WA0.linear() = Eigen::AngleAxisd(1.4e-4, Vector3(1, 1, 0).normalized()).toRotationMatrix();
      X_WA0.translation() = Vector3(0, 0, 0.1 - depth);
    }
    auto points_at = [&](const RigidTransform& X_WA) {
      ContactSurface surface;
      if (on_box)
        CalcContactSurface(box, X_WA, box, X_WB, &surface);
      else
        CalcContactSurface(box, X_WA, RigidHalfSpace{}, X_WB, &surface);
      std::vector<ContactPoint> points;
      MakeContactPoints(surface, &points);
      return points;
    };
    const std::vector<ContactPoint> points = points_at(X_WA0);
    ASSERT_GT(points.size(), 50u);
    const test::Matrix6 K = test::PointStiffness(points, X_WA0.translation());
    const test::Matrix6 D = test::ElasticWrenchDerivative(X_WA0, points_at, 1e-7);
    for (const int column : {0, 1, 5})
      for (const int row : {0, 1, 5})
        EXPECT_NEAR(D(row, column), K(row, column), 0.01 * std::sqrt(K(row, row) * K(column, column)))
            << (on_box ? "on a box" : "on a half-space") << ", row " << row << ", column " << column;
  }
}

// The centroid fan's points (001 §5, Fig. 5.1): one per triangle (c, vᵢ, vᵢ₊₁), all of the polygon's
// gradient and normal, so that their force Σ A·p0 and stiffness Σ g·A are the polygon's, and their
// moment Σ fn0·p is nearer the exact ∫p0·p dA (ContactSurface::CalcPressureFirstMoment) than the
// single point's A·p0(c)·c. For the rectangle's p = 100 + 50·x: exact 333.3 N·m about the y axis,
// the single point's 300 (10 % low), the fan's 322.2
// (3.3 % low; tolerance 4 %). A fan spreads the polygon's stiffness
// about its centroid, where the single point has none: a patch of a few polygons (a soft ball's)
// then resists rocking.
TEST(PointApproximationTest, TheTriangleFanKeepsForceAndStiffnessAndNearsTheMoment) {
  ContactSurface surface;
  AddRectangle(&surface, 1e4, kInf);
  std::vector<ContactPoint> single, fan;
  MakeContactPoints(surface, &single);
  MakeContactPoints(surface, &fan, PointQuadrature::kTriangleFan);
  ASSERT_EQ(fan.size(), 4u);
  double force = 0, stiffness = 0, area = 0, spread = 0;
  Vector3 moment = Vector3::Zero();
  for (const ContactPoint& p : fan) {
    EXPECT_EQ(p.nhat_BA_W, Vector3::UnitZ());
    EXPECT_EQ(p.g_Pa_per_m, 1e4);
    EXPECT_NEAR(p.fn0_N, -p.stiffness_N_per_m * p.phi0_m, 1e-9);
    EXPECT_NEAR(p.pressure_Pa, -p.g_Pa_per_m * p.phi0_m, 1e-9);
    force += p.fn0_N;
    stiffness += p.stiffness_N_per_m;
    area += p.area_m2;
    moment += p.fn0_N * p.p_WC;
    spread += p.stiffness_N_per_m * (p.p_WC - single[0].p_WC).squaredNorm();
  }
  EXPECT_NEAR(force, single[0].fn0_N, 1e-9);
  EXPECT_NEAR(stiffness, single[0].stiffness_N_per_m, 1e-9);
  EXPECT_NEAR(area, 2.0, 1e-12);
  const Vector3 exact = surface.CalcPressureFirstMoment();
  EXPECT_NEAR(exact.x(), 1000.0 / 3, 1e-9);
  EXPECT_NEAR(single[0].fn0_N * single[0].p_WC.x(), 300.0, 1e-9);
  EXPECT_NEAR(moment.x(), exact.x(), 0.04 * exact.x());
  EXPECT_NEAR(moment.y(), exact.y(), 1e-9);
  EXPECT_GT(spread, 0.1 * stiffness);  // Σ k·|p − c|² over Σ k: (0.32 m)² or more across a 2 m × 1 m
}

// A vertex that appears as the polygon moves (a corner cut off by ε) adds a fan triangle of area
// O(ε²) and moves the others by O(ε): every sum over the points changes continuously, which is what
// keeps the solver's wrench continuous in pose (001 §5). (This cut does not tell the centroid's
// fan from a fan about a vertex away from the cut; the centroid's is chosen because it does not
// depend on which vertex comes first.)
TEST(PointApproximationTest, TheTriangleFanChangesContinuouslyAsAVertexAppears) {
  auto sums = [](double cut) {
    ContactSurface surface;
    std::vector<Vector3> p = {Vector3(0, 0, 0), Vector3(2, 0, 0), Vector3(2, 1, 0), Vector3(0, 1, 0)};
    std::vector<double> pressure = {100, 200, 200, 100};
    if (cut > 0) {  // the corner (2, 1) cut to two vertices `cut` from it
      p = {Vector3(0, 0, 0), Vector3(2, 0, 0), Vector3(2, 1 - cut, 0), Vector3(2 - cut, 1, 0), Vector3(0, 1, 0)};
      pressure = {100, 200, 200, 200 - 50 * cut, 100};
    }
    surface.AddPolygon(p.data(), pressure.data(), static_cast<int>(p.size()), Vector3::UnitZ(), 1e4, kInf, 0, 0);
    std::vector<ContactPoint> points;
    MakeContactPoints(surface, &points, PointQuadrature::kTriangleFan);
    Eigen::Matrix<double, 5, 1> s = Eigen::Matrix<double, 5, 1>::Zero();
    for (const ContactPoint& q : points)
      s += (Eigen::Matrix<double, 5, 1>() << q.fn0_N, q.fn0_N * q.p_WC.x(), q.fn0_N * q.p_WC.y(),
            q.stiffness_N_per_m * q.p_WC.x() * q.p_WC.x(), q.stiffness_N_per_m * q.p_WC.y() * q.p_WC.y())
               .finished();
    return std::make_pair(s, points.size());
  };
  const auto [whole, n_whole] = sums(0);
  for (const double cut : {1e-3, 1e-6}) {
    const auto [cut_sums, n_cut] = sums(cut);
    EXPECT_EQ(n_cut, n_whole + 1);
    // Each sum moves by at most about its own size times the cut (measured: ≤ 0.6·cut).
    for (int k = 0; k < 5; ++k) EXPECT_NEAR(cut_sums(k), whole(k), 2 * cut * std::abs(whole(k))) << cut << " " << k;
  }
}

// The scaled fan (kScaledTriangleFan): the 2 m × 1 m rectangle beside 200 small squares that
// bring its share of the patch's stiffness to s. At s ≥ kFanShareFull it has the whole fan's
// points; at s ≤ kFanShareNone one point, the centroid's; between, the fan's points drawn toward
// the centroid by w = (s − 1 %)/3 %: their second moment about it, and their moment's gain over
// the centroid point's, are w² times the fan's. Force and stiffness are the polygon's throughout,
// and nothing jumps as s passes 1 %. The squares (each under 1 %) are one point each.
TEST(PointApproximationTest, TheScaledFanSpreadsOnlyPolygonsThatHoldALargeShareOfThePatch) {
  struct Sums {
    size_t rectangle_points{0}, points{0};
    double force{0}, stiffness{0}, moment_x{0}, second_moment{0};  // of the rectangle's points
  };
  auto make = [](double share, PointQuadrature quadrature) {
    ContactSurface surface;
    AddRectangle(&surface, 1e4, kInf, 7);
    const double side = std::sqrt((2 / share - 2) / 200);
    for (int k = 0; k < 200; ++k) {
      const Vector3 o(10 + 2 * side * (k % 20), 2 * side * (k / 20), 0);
      const Vector3 p[4] = {o, o + Vector3(side, 0, 0), o + Vector3(side, side, 0), o + Vector3(0, side, 0)};
      const double pressure[4] = {100, 100, 100, 100};
      surface.AddPolygon(p, pressure, 4, Vector3::UnitZ(), 1e4, kInf, k + 100, k + 100);
    }
    std::vector<ContactPoint> points;
    MakeContactPoints(surface, &points, quadrature);
    Sums sums;
    sums.points = points.size();
    const Vector3 centroid(1, 0.5, 0);
    for (const ContactPoint& q : points) {
      if (q.element_A != 7) continue;
      ++sums.rectangle_points;
      sums.force += q.fn0_N;
      sums.stiffness += q.stiffness_N_per_m;
      sums.moment_x += q.fn0_N * q.p_WC.x();
      sums.second_moment += q.stiffness_N_per_m * (q.p_WC - centroid).squaredNorm();
    }
    return sums;
  };
  const Sums fan = make(0.5, PointQuadrature::kTriangleFan);
  const Sums single = make(0.5, PointQuadrature::kPolygonCentroid);
  ASSERT_EQ(fan.rectangle_points, 4u);
  ASSERT_GT(fan.second_moment, 0);
  for (const double share : {0.5, 0.04, 0.03, 0.02, 0.0101, 0.0099, 0.005}) {
    const Sums scaled = make(share, PointQuadrature::kScaledTriangleFan);
    const double w = std::clamp((share - kFanShareNone) / (kFanShareFull - kFanShareNone), 0.0, 1.0);
    EXPECT_EQ(scaled.rectangle_points, w > 0 ? 4u : 1u) << share;
    EXPECT_EQ(scaled.points, scaled.rectangle_points + 200) << share;  // the squares: one each
    EXPECT_NEAR(scaled.force, single.force, 1e-9 * single.force) << share;
    EXPECT_NEAR(scaled.stiffness, single.stiffness, 1e-9 * single.stiffness) << share;
    EXPECT_NEAR(scaled.second_moment, w * w * fan.second_moment, 1e-9 * fan.second_moment) << share;
    // Σ Aⱼ·(p(c) + w·Δpⱼ)·(c + w·Δtⱼ): the terms in w vanish (Σ Aⱼ·Δtⱼ = 0, Σ Aⱼ·Δpⱼ = 0).
    EXPECT_NEAR(scaled.moment_x, single.moment_x + w * w * (fan.moment_x - single.moment_x), 1e-9 * single.moment_x)
        << share;
  }
  // Across s = 1 %: no jump (the sums just above equal those at and below to O(Δs)).
  const Sums above = make(0.01 + 1e-9, PointQuadrature::kScaledTriangleFan);
  const Sums below = make(0.01 - 1e-9, PointQuadrature::kScaledTriangleFan);
  EXPECT_EQ(above.rectangle_points, 4u);
  EXPECT_EQ(below.rectangle_points, 1u);
  EXPECT_NEAR(above.moment_x, below.moment_x, 1e-6 * below.moment_x);
  EXPECT_NEAR(above.second_moment, 0, 1e-9 * fan.second_moment);
}

}  // namespace
}  // namespace hydro
