// Compliant half-spaces (p0 = E·depth/H, 001 App. B) against compliant meshes.
#include <gtest/gtest.h>

#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "tests/test_poses.h"

namespace hydro {
namespace {

using test::Translation;

TEST(CompliantHalfSpaceTest, VeryStiffSlabApproachesTheRigidPlane) {
  const double R = 0.1, d = 0.02;
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(R, R / 8), 1e5);
  const RigidTransform X_WA = Translation(Vector3(0, 0, R - d));
  ContactSurface rigid, stiff;
  CalcContactSurface(sphere, X_WA, RigidHalfSpace{}, RigidTransform::Identity(), &rigid);
  // Slab gradient 1e12 Pa/m against the sphere's 1e6 Pa/m: the surface moves by p/G ≈ 1e-8 m.
  CalcContactSurface(sphere, X_WA, CompliantHalfSpace(1e10, 0.01), RigidTransform::Identity(), &stiff);
  const double f_rigid = rigid.CalcElasticForceOnA().z();
  EXPECT_NEAR(stiff.CalcElasticForceOnA().z(), f_rigid, 1e-4 * f_rigid);
  for (const ContactPolygon& poly : stiff.polygons()) {
    EXPECT_NEAR(poly.nhat_BA_W.z(), 1.0, 1e-9);
    EXPECT_NEAR(poly.grad_B_Pa_per_m, 1e12, 1e-9 * 1e12);
    EXPECT_GT(poly.grad_A_Pa_per_m, 0);
  }
}

TEST(CompliantHalfSpaceTest, EqualStiffnessesMeetHalfWay) {
  // Box: E = 1e6, half-height Hmin = 0.1 → 1e7 Pa/m near its bottom. Slab: 1e5 Pa over 0.01 m →
  // 1e7 Pa/m. Overlapping by δ = 2 mm, the equal-pressure plane is at mid-overlap with
  // p = g·δ/2 = 1e4 Pa (two equal springs in series), away from the box's edges.
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(1, 1, 0.2), 0.1), 1e6);
  const double delta = 0.002;
  const RigidTransform X_WA = Translation(Vector3(0, 0, 0.1 - delta));
  ContactSurface surface;
  CalcContactSurface(box, X_WA, CompliantHalfSpace(1e5, 0.01), RigidTransform::Identity(), &surface);
  ASSERT_FALSE(surface.empty());
  int central = 0;
  for (const ContactPolygon& poly : surface.polygons()) {
    if (poly.p_WC.head<2>().cwiseAbs().maxCoeff() > 0.3) continue;
    ++central;
    for (int i = 0; i < poly.num_vertices; ++i) {
      EXPECT_NEAR(surface.vertex(poly, i).z(), -delta / 2, 1e-12);
      EXPECT_NEAR(surface.pressure(poly, i), 1e4, 1e-6);
    }
    EXPECT_NEAR(poly.grad_A_Pa_per_m, 1e7, 1e-3);
    EXPECT_NEAR(poly.grad_B_Pa_per_m, 1e7, 1e-3);
  }
  EXPECT_GT(central, 0);
  // Away from the box's edges the force is p·(area); the edge band, where the box's field falls
  // toward its sides, lowers it a little.
  const double f = surface.CalcElasticForceOnA().z();
  EXPECT_LT(f, 1e4 * 1.0);
  EXPECT_GT(f, 0.95 * 1e4 * 1.0);
}

TEST(CompliantHalfSpaceTest, NoContactAboveTheSlab) {
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.1, 0.05), 1e5);
  ContactSurface surface;
  CalcContactSurface(sphere, Translation(Vector3(0, 0, 0.2)), CompliantHalfSpace(1e5, 0.01), RigidTransform::Identity(),
                     &surface);
  EXPECT_TRUE(surface.empty());
}

}  // namespace
}  // namespace hydro
