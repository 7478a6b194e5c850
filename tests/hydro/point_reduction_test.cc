#include "hydro/point_reduction.h"

#include <gtest/gtest.h>

#include "contact_test_util.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"

namespace hydro {
namespace {

struct Totals {
  double force{0}, stiffness{0};
  Vector3 moment{Vector3::Zero()};  // of the elastic forces about the origin
};

Totals Sum(const std::vector<ContactPoint>& points) {
  Totals t;
  for (const ContactPoint& p : points) {
    t.force += p.fn0_N;
    t.stiffness += p.stiffness_N_per_m;
    t.moment += p.p_WC.cross(p.fn0_N * p.nhat_BA_W);
  }
  return t;
}

TEST(PointReductionTest, KeepsForceMomentAndStiffnessOfAFlatPatch) {
  // A compliant sphere pressed off-centre into a rigid plane: a flat patch of a few hundred points.
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.05 / 8), 1e5);
  RigidTransform X_WA = RigidTransform::Identity();
  X_WA.translation() = Vector3(0.3, -0.2, 0.04);
  X_WA.linear() = Eigen::AngleAxisd(0.3, Vector3(1, 2, 0).normalized()).toRotationMatrix();
  ContactSurface surface;
  CalcContactSurface(sphere, X_WA, RigidHalfSpace{}, RigidTransform::Identity(), &surface);
  std::vector<ContactPoint> points, reduced;
  MakeContactPoints(surface, &points);
  ASSERT_GT(points.size(), 100u);
  const Totals full = Sum(points);
  for (int n : {1, 3, 4, 8}) {
    ReduceContactPoints(points, n, &reduced);
    EXPECT_LE(static_cast<int>(reduced.size()), n);
    const Totals r = Sum(reduced);
    EXPECT_NEAR(r.force, full.force, 1e-12 * full.force) << n;
    EXPECT_NEAR(r.stiffness, full.stiffness, 1e-12 * full.stiffness) << n;
    EXPECT_NEAR((r.moment - full.moment).norm(), 0, 1e-12 * full.force) << n;
    for (const ContactPoint& p : reduced) {
      EXPECT_NEAR(-p.stiffness_N_per_m * p.phi0_m, p.fn0_N, 1e-12 * full.force);
      EXPECT_NEAR(p.nhat_BA_W.z(), 1.0, 1e-12);
    }
  }
  // Several points are spread over the patch, not stacked in one place.
  ReduceContactPoints(points, 4, &reduced);
  ASSERT_EQ(reduced.size(), 4u);
  double spread = 0;
  for (const ContactPoint& p : reduced) spread = std::max(spread, (p.p_WC - reduced[0].p_WC).norm());
  EXPECT_GT(spread, 0.01);
  // Few points: copied as they are.
  std::vector<ContactPoint> few(points.begin(), points.begin() + 3);
  ReduceContactPoints(few, 4, &reduced);
  EXPECT_EQ(reduced.size(), 3u);
  EXPECT_THROW(ReduceContactPoints(points, 0, &reduced), InvalidInput);
}

// The solver steps with the reduced points' K = Σ k·j·jᵀ, and the next step's reduced points give
// the wrench it meets: the two must agree, or the difference acts a step late. A 0.2 m box 150 µm
// into another's corner (a loaded pyramid's contact, here at hint 0.05) is where they did not:
// the side-face slivers there appear with the sign of a tilt, and a grid spanning the points'
// bounding box jumped with them, so that the reduced wrench's rocking stiffness read 4× K. Central
// differences against K for the translation along the normal and the two tilts, to 2 % of the
// diagonal (measured ≤ 0.5 % at 16 and at 64 points).
TEST(PointReductionTest, StiffnessIsTheDerivativeOfTheReducedWrench) {
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.2, 0.2), 0.05), 1e8);
  RigidTransform X_WB = RigidTransform::Identity();
  X_WB.translation() = Vector3(0.1, 0.1, -0.1);
  RigidTransform X_WA0 = RigidTransform::Identity();
  X_WA0.translation() = Vector3(0, 0, 0.1 - 150e-6);
  for (const int n : {16, 64}) {
    auto reduced_at = [&](const RigidTransform& X_WA) {
      ContactSurface surface;
      CalcContactSurface(box, X_WA, box, X_WB, &surface);
      std::vector<ContactPoint> points, reduced;
      MakeContactPoints(surface, &points);
      ReduceContactPoints(points, n, &reduced);
      return reduced;
    };
    const std::vector<ContactPoint> reduced = reduced_at(X_WA0);
    ASSERT_LE(static_cast<int>(reduced.size()), n);  // some cells of the 64 are empty
    ASSERT_GT(static_cast<int>(reduced.size()), n / 4);
    const test::Matrix6 K = test::PointStiffness(reduced, X_WA0.translation());
    const test::Matrix6 D = test::ElasticWrenchDerivative(X_WA0, reduced_at, 1e-7);
    for (const int column : {0, 1, 5})
      for (const int row : {0, 1, 5})
        EXPECT_NEAR(D(row, column), K(row, column), 0.02 * std::sqrt(K(row, row) * K(column, column)))
            << n << " points, row " << row << ", column " << column;
  }
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

TEST(PointReductionTest, KeepsTheTorsionalFrictionMomentOfAUniformDisk) {
  // A rigid coin pressed flat into a compliant half-space: uniform pressure over a disk. The
  // friction moment μ·Σ fn·|r| that resists spinning in place must survive the reduction (a coin's
  // spin–slide coupling depends on it), as must the force, its moment and the stiffness.
  const double R = 0.01213;
  const RigidMesh coin(MakeCylinderSurfaceMesh(R, 0.00175, R / 8));
  const CompliantHalfSpace slab(1e9, 0.01);
  RigidTransform X_WC = RigidTransform::Identity();
  X_WC.translation() = Vector3(0.1, 0.2, 0.000875 - 1e-6);
  ContactSurface surface;
  CalcContactSurface(slab, RigidTransform::Identity(), coin, X_WC, &surface);
  std::vector<ContactPoint> points, reduced;
  MakeContactPoints(surface, &points);
  ASSERT_GT(points.size(), 50u);
  auto torsion = [](const std::vector<ContactPoint>& pts) {
    Vector3 c = Vector3::Zero();
    double f = 0, t = 0;
    for (const ContactPoint& p : pts) c += p.fn0_N * p.p_WC, f += p.fn0_N;
    c /= f;
    for (const ContactPoint& p : pts) t += p.fn0_N * (p.p_WC - c).head<2>().norm();
    return t;
  };
  const Totals full = Sum(points);
  for (int n : {4, 8, 16, 32}) {
    ReduceContactPoints(points, n, &reduced);
    EXPECT_LE(static_cast<int>(reduced.size()), n);
    EXPECT_NEAR(torsion(reduced), torsion(points), 1e-9 * torsion(points)) << n;
    const Totals r = Sum(reduced);
    EXPECT_NEAR(r.force, full.force, 1e-12 * full.force) << n;
    EXPECT_NEAR(r.stiffness, full.stiffness, 1e-12 * full.stiffness) << n;
    EXPECT_NEAR((r.moment - full.moment).norm(), 0, 1e-9 * full.force) << n;
  }
}

TEST(PointReductionTest, AnIsotropicPatchKeepsItsGridAxisWhileItsBodySpins) {
  // The rigid coin on the slab again, turned about its axis step by step: a disk's principal axes
  // are whatever its lattice and rounding make them, so the grid is held along the axis it had.
  // The reduced set still keeps the force, its moment, the stiffness and the torsion.
  const double R = 0.01213;
  const RigidMesh coin(MakeCylinderSurfaceMesh(R, 0.00175, R / 8));
  const CompliantHalfSpace slab(1e9, 0.01);
  Vector3 axis = Vector3::Zero();
  Vector3 first = Vector3::Zero();
  for (int step = 0; step < 12; ++step) {
    RigidTransform X_WC = RigidTransform::Identity();
    X_WC.linear() = Eigen::AngleAxisd(0.03 * step, Vector3::UnitZ()).toRotationMatrix();
    X_WC.translation() = Vector3(0.1, 0.2, 0.000875 - 1e-6);
    ContactSurface surface;
    CalcContactSurface(slab, RigidTransform::Identity(), coin, X_WC, &surface);
    std::vector<ContactPoint> points, reduced;
    MakeContactPoints(surface, &points);
    ReduceContactPoints(points, 64, &reduced, nullptr, &axis);
    if (step == 0) first = axis;
    EXPECT_NEAR(axis.norm(), 1.0, 1e-12);
    EXPECT_NEAR(std::abs(axis.z()), 0.0, 1e-12) << "in the patch's plane";
    EXPECT_LT((axis - first).norm(), 1e-12) << "step " << step;
    const Totals full = Sum(points), r = Sum(reduced);
    EXPECT_NEAR(r.force, full.force, 1e-12 * full.force);
    EXPECT_NEAR(r.stiffness, full.stiffness, 1e-12 * full.stiffness);
    EXPECT_NEAR((r.moment - full.moment).norm(), 0, 1e-9 * full.force);
  }
}

TEST(PointReductionTest, AnElongatedPatchLaysItsGridAlongItsLongAxisWhateverTheLastAxis) {
  // A rigid 4 cm × 1 cm plate pressed flat into the slab, its long side along (cos 0.4, sin 0.4):
  // its own axes are well defined, and the axis passed in is replaced by the long one.
  const RigidMesh plate(MakeBoxSurfaceMesh(Vector3(0.04, 0.01, 0.01), 0.0025));
  const CompliantHalfSpace slab(1e9, 0.01);
  RigidTransform X_WP = RigidTransform::Identity();
  X_WP.linear() = Eigen::AngleAxisd(0.4, Vector3::UnitZ()).toRotationMatrix();
  X_WP.translation() = Vector3(0, 0, 0.005 - 1e-6);
  ContactSurface surface;
  CalcContactSurface(slab, RigidTransform::Identity(), plate, X_WP, &surface);
  std::vector<ContactPoint> points, reduced;
  MakeContactPoints(surface, &points);
  Vector3 axis = Vector3::UnitY();
  ReduceContactPoints(points, 16, &reduced, nullptr, &axis);
  EXPECT_NEAR(std::abs(axis.dot(Vector3(std::cos(0.4), std::sin(0.4), 0))), 1.0, 1e-4);
}

}  // namespace
}  // namespace hydro
