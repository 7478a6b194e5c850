// Closed forms for rigid shapes pressed into compliant geometry: with a pressure field that is
// linear in depth (p0 = E·depth/H), the net force on the rigid body is (E/H)·(displaced volume)
// along the outward normal, acting through the displaced volume's centroid (divergence theorem:
// −∮ p n dA = −∫ ∇p dV). Both hold to round-off for the rigid *mesh*, whatever its resolution.
#include <gtest/gtest.h>

#include "contact_test_util.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "tests/test_poses.h"

namespace hydro {
namespace {

using test::IntegrateStaticWrench;
using test::VolumeBelowPlane;

constexpr double kModulus = 1e6;     // Pa
constexpr double kThickness = 0.05;  // m

using test::Pose;

struct RigidCase {
  const char* name;
  TriangleSurfaceMesh mesh;
  RigidTransform X_HB;  // pose of the rigid body in the half-space frame
};

std::vector<RigidCase> RigidCases() {
  return {
      {"sphere", MakeSphereSurfaceMesh(0.04, 0.01), Pose(Vector3(0.01, -0.02, 0.04 - 0.013), 0.3, Vector3(1, 1, 0))},
      {"box", MakeBoxSurfaceMesh(Vector3(0.08, 0.06, 0.04), 0.02), Pose(Vector3(0, 0, 0.02 - 0.006))},
      {"tilted box", MakeBoxSurfaceMesh(Vector3(0.08, 0.06, 0.04), 0.02),
       Pose(Vector3(0.003, 0, 0.015), 0.2, Vector3(1, 2, 0))},
      {"cylinder on its side", MakeCylinderSurfaceMesh(0.03, 0.1, 0.01),
       Pose(Vector3(0, 0, 0.03 - 0.008), M_PI / 2, Vector3::UnitX())},
      {"standing cylinder", MakeCylinderSurfaceMesh(0.03, 0.1, 0.01), Pose(Vector3(0, 0, 0.05 - 0.004))},
  };
}

// Force on the rigid body B = −(force on A); torque about the world origin.
void ExpectArchimedes(const ContactSurface& surface, const TriangleSurfaceMesh& mesh, const RigidTransform& X_WH,
                      const RigidTransform& X_HB, const char* name) {
  double volume;
  Vector3 centroid_H;
  VolumeBelowPlane(mesh, X_HB, &volume, &centroid_H);
  ASSERT_GT(volume, 0) << name;
  const Vector3 f_expected = X_WH.linear() * Vector3(0, 0, kModulus / kThickness * volume);
  const Vector3 centroid_W = X_WH * centroid_H;
  const test::Wrench on_A = IntegrateStaticWrench(surface);
  const Vector3 f_B = -on_A.force;
  const Vector3 tau_B = -on_A.torque;
  const double scale = f_expected.norm();
  EXPECT_NEAR((f_B - f_expected).norm(), 0, 1e-10 * scale) << name;
  EXPECT_NEAR((tau_B - centroid_W.cross(f_expected)).norm(), 0, 1e-10 * scale * 0.1) << name;
  // The elastic force from polygon areas and centroid pressures (000 eq. 12) is the same.
  EXPECT_NEAR((surface.CalcElasticForceOnA() - on_A.force).norm(), 0, 1e-10 * scale) << name;
}

TEST(RigidInCompliantTest, RigidMeshesInCompliantHalfSpaceFollowArchimedes) {
  const CompliantHalfSpace slab(kModulus, kThickness);
  const RigidTransform X_WH = Pose(Vector3(0.3, -0.2, 1.0), 0.5, Vector3(1, -1, 2));
  ContactSurface surface;
  for (const RigidCase& c : RigidCases()) {
    const RigidMesh rigid(c.mesh);
    const RigidTransform X_WB = X_WH * c.X_HB;
    CalcContactSurface(slab, X_WH, rigid, X_WB, &surface);
    ASSERT_FALSE(surface.empty()) << c.name;
    ExpectArchimedes(surface, c.mesh, X_WH, c.X_HB, c.name);
    // No tangential force: everything is along the half-space normal.
    const Vector3 n_W = X_WH.linear().col(2);
    const Vector3 f = surface.CalcElasticForceOnA();
    EXPECT_NEAR((f - f.dot(n_W) * n_W).norm(), 0, 1e-10 * f.norm()) << c.name;
  }
}

TEST(RigidInCompliantTest, RigidMeshesNearTheTopOfALargeCompliantBox) {
  // A 1 m × 1 m × 2H box: its field is depth/H near the middle of the top face, represented
  // exactly by the medial-axis-conforming mesh, so the half-space law holds there too.
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(1.0, 1.0, 2 * kThickness), 0.05), kModulus);
  const RigidTransform X_WA = Pose(Vector3(-0.1, 0.2, 0.5), 0.3, Vector3(0, 1, 1));
  const RigidTransform X_AH = Pose(Vector3(0, 0, kThickness));  // the top face as a half-space frame
  ContactSurface surface;
  for (const RigidCase& c : RigidCases()) {
    const RigidMesh rigid(c.mesh);
    const RigidTransform X_WB = X_WA * X_AH * c.X_HB;
    CalcContactSurface(box, X_WA, rigid, X_WB, &surface);
    ASSERT_FALSE(surface.empty()) << c.name;
    ExpectArchimedes(surface, c.mesh, X_WA * X_AH, c.X_HB, c.name);
  }
}

TEST(RigidInCompliantTest, ThinPlateBuriedInSoftBoxIsPushedOutNotIn) {
  // The back face of a thin rigid plate inside a soft body opposes the pressure gradient and
  // must not contribute (it would pull the plate deeper).
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.4, 0.4, 0.2), 0.05), kModulus);
  const RigidMesh plate(MakeBoxSurfaceMesh(Vector3(0.1, 0.1, 0.002), 0.05));
  ContactSurface surface;
  CalcContactSurface(box, RigidTransform::Identity(), plate, Pose(Vector3(0, 0, 0.08)), &surface);
  ASSERT_FALSE(surface.empty());
  for (const ContactPolygon& poly : surface.polygons()) EXPECT_LT(poly.nhat_BA_W.z(), 0.5);
  // Force on the plate (−force on A) is up, out of the box, and equals the bottom face's load.
  const Vector3 f_plate = -surface.CalcElasticForceOnA();
  const double depth_of_bottom = 0.1 - (0.08 - 0.001);
  EXPECT_NEAR(f_plate.z(), kModulus * depth_of_bottom / 0.1 * 0.01, 1e-9);
  EXPECT_NEAR(f_plate.head<2>().norm(), 0, 1e-9);
}

TEST(RigidInCompliantTest, NoOverlapTouchingAndBadPoses) {
  const CompliantHalfSpace slab(kModulus, kThickness);
  const RigidMesh sphere(MakeSphereSurfaceMesh(0.04, 0.01));
  ContactSurface surface;
  CalcContactSurface(slab, RigidTransform::Identity(), sphere, Pose(Vector3(0, 0, 0.05)), &surface);
  EXPECT_TRUE(surface.empty());
  // Touching: the lowest vertex on the plane gives no area and no force.
  double lowest = 1e9;
  for (const Vector3& p : sphere.mesh().vertices()) lowest = std::min(lowest, p.z());
  CalcContactSurface(slab, RigidTransform::Identity(), sphere, Pose(Vector3(0, 0, -lowest)), &surface);
  EXPECT_NEAR(surface.CalcElasticForceOnA().norm(), 0, 1e-12);
  RigidTransform bad = Pose(Vector3(0, 0, 0));
  bad.translation().x() = std::nan("");
  EXPECT_THROW(CalcContactSurface(slab, RigidTransform::Identity(), sphere, bad, &surface), InvalidInput);
  RigidTransform sheared = RigidTransform::Identity();
  sheared.linear()(0, 1) = 0.5;
  EXPECT_THROW(CalcContactSurface(slab, sheared, sphere, RigidTransform::Identity(), &surface), InvalidInput);
  EXPECT_THROW(CompliantHalfSpace(0.0, 1.0), InvalidInput);
  EXPECT_THROW(CompliantHalfSpace(1e6, -1.0), InvalidInput);
}

}  // namespace
}  // namespace hydro
