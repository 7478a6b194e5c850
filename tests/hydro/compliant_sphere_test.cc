// The compliant sphere: p0 = E·(1 − r/R) pressed d into a rigid plane gives
//   F = ∫_disk p0 dA = (π/3)·E·d²·(3 − 2d/R)
// (integrate E(1 − √(h² + ρ²)/R)·2πρ dρ over the disk of the plane at h = R − d). Two identical
// compliant spheres overlapping by 2d meet on their bisecting plane with the same force.
#include <gtest/gtest.h>

#include <cstdio>

#include "contact_test_util.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "tests/test_poses.h"

namespace hydro {
namespace {

constexpr double kRadius = 0.1;   // m
constexpr double kModulus = 1e5;  // Pa

double ClosedFormForce(double d) { return M_PI / 3.0 * kModulus * d * d * (3.0 - 2.0 * d / kRadius); }

using test::Translation;

// Force of the sphere (centre at the origin, rotated by R_WA) pressed d into the rigid half-space
// whose surface is the plane z = −(R − d).
double PlaneForce(const CompliantMesh& sphere, double d, const Matrix3& R_WA = Matrix3::Identity()) {
  RigidTransform X_WA = RigidTransform::Identity();
  X_WA.linear() = R_WA;
  ContactSurface surface;
  CalcContactSurface(sphere, X_WA, RigidHalfSpace{}, Translation(Vector3(0, 0, -(kRadius - d))), &surface);
  return surface.CalcElasticForceOnA().z();
}

TEST(CompliantSphereTest, ForceMatchesClosedFormAndConvergesWithHint) {
  const double depths[] = {0.1, 0.2, 0.3, 0.4, 0.5};  // d/R
  const int divisions[] = {2, 4, 8, 16};              // hint = R/division
  std::printf("compliant sphere on rigid plane: relative force error (F − F_exact)/F_exact\n");
  std::printf("%8s %8s", "hint", "tets");
  for (double d : depths) std::printf("   d/R=%.1f", d);
  std::printf("   max|err|\n");
  double previous_max = 1e9;
  for (int division : divisions) {
    const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(kRadius, kRadius / division), kModulus);
    double max_error = 0;
    std::printf("%6s%-2d %8d", "R/", division, sphere.mesh().num_tets());
    for (double d_over_R : depths) {
      const double d = d_over_R * kRadius;
      const double error = PlaneForce(sphere, d) / ClosedFormForce(d) - 1.0;
      max_error = std::max(max_error, std::abs(error));
      std::printf("  %+9.4f", error);
    }
    std::printf("   %8.4f\n", max_error);
    if (division >= 8) {
      EXPECT_LT(max_error, 0.05) << "hint R/" << division;
    }
    EXPECT_LT(max_error, previous_max) << "error must shrink with the hint";
    previous_max = max_error;
  }
}

TEST(CompliantSphereTest, ForceDoesNotDependOnOrientation) {
  // Rotating the mesh changes which tets are cut, not the physics beyond discretization error.
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(kRadius, kRadius / 8), kModulus);
  const double d = 0.3 * kRadius;
  const double reference = ClosedFormForce(d);
  for (double angle : {0.1, 0.4, 0.785, 1.2}) {
    const Matrix3 R = Eigen::AngleAxisd(angle, Vector3(1, 2, 3).normalized()).toRotationMatrix();
    EXPECT_NEAR(PlaneForce(sphere, d, R) / reference, 1.0, 0.05) << angle;
  }
}

TEST(CompliantSphereTest, TwoIdenticalSpheresMeetOnTheBisectingPlane) {
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(kRadius, kRadius / 8), kModulus);
  for (double d_over_R : {0.1, 0.25, 0.4}) {
    const double d = d_over_R * kRadius;
    // B is A turned half a turn about z and moved along x: the two meshes are mirror images
    // through the plane x = R − d.
    RigidTransform X_WB = Translation(Vector3(2 * (kRadius - d), 0, 0));
    X_WB.linear() = Eigen::AngleAxisd(M_PI, Vector3::UnitZ()).toRotationMatrix();
    ContactSurface surface;
    CalcContactSurface(sphere, RigidTransform::Identity(), sphere, X_WB, &surface);
    ASSERT_FALSE(surface.empty());
    for (const Vector3& p : surface.vertices()) EXPECT_NEAR(p.x(), kRadius - d, 1e-12);
    for (const ContactPolygon& poly : surface.polygons()) {
      EXPECT_NEAR(poly.nhat_BA_W.x(), -1.0, 1e-12);  // out of B (at +x) into A
    }
    // The same integral as the sphere on a rigid plane at depth d.
    const Vector3 f_A = surface.CalcElasticForceOnA();
    const Matrix3 R_x_to_z = Eigen::AngleAxisd(M_PI / 2, Vector3::UnitY()).toRotationMatrix();  // maps x̂ → −ẑ
    const double plane_force = PlaneForce(sphere, d, R_x_to_z);
    EXPECT_NEAR(-f_A.x(), plane_force, 1e-9 * plane_force) << d_over_R;
    EXPECT_NEAR(-f_A.x() / ClosedFormForce(d), 1.0, 0.05) << d_over_R;
    EXPECT_NEAR(f_A.tail<2>().norm(), 0, 1e-9 * plane_force);
  }
}

}  // namespace
}  // namespace hydro
