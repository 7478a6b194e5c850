// Properties every contact surface must have: action equals reaction, invariance under moving the
// whole pair, continuity under motion (no jumps when polygons appear or vanish), and sane results
// in edge cases.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>

#include "contact_test_util.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "tests/test_poses.h"

namespace hydro {
namespace {

using test::IntegrateStaticWrench;
using test::Wrench;

using test::Pose;

TEST(ContactSurfaceTest, CompliantPairActionEqualsReaction) {
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.01), 2e5);
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.15, 0.1), 0.02), 1e6);
  const RigidTransform X_WS = Pose(Vector3(0.01, 0.02, 0.05 + 0.05 - 0.012), 0.3, Vector3(1, 1, 1));
  const RigidTransform X_WB = Pose(Vector3(0, 0, 0), 0.1, Vector3(0, 0, 1));
  ContactSurface s_on_b, b_on_s;
  CalcContactSurface(sphere, X_WS, box, X_WB, &s_on_b);
  CalcContactSurface(box, X_WB, sphere, X_WS, &b_on_s);
  ASSERT_FALSE(s_on_b.empty());
  const Wrench w1 = IntegrateStaticWrench(s_on_b);
  const Wrench w2 = IntegrateStaticWrench(b_on_s);
  const double scale = w1.force.norm();
  EXPECT_GT(w1.force.z(), 0);  // the sphere is pushed up, out of the box
  EXPECT_NEAR((w1.force + w2.force).norm(), 0, 1e-9 * scale);
  EXPECT_NEAR((w1.torque + w2.torque).norm(), 0, 1e-9 * scale);
  EXPECT_NEAR(s_on_b.CalcTotalArea(), b_on_s.CalcTotalArea(), 1e-9 * s_on_b.CalcTotalArea());
  // SwapAB turns one into the other.
  b_on_s.SwapAB();
  const Wrench w3 = IntegrateStaticWrench(b_on_s);
  EXPECT_NEAR((w3.force - w1.force).norm(), 0, 1e-9 * scale);
}

// Two boxes resting face on face, µm deep, turned and offset: the equal-pressure plane cuts every
// tet that touches either face, most of them in slivers a few µm wide, and candidate tet pairs are
// culled before slicing by tests that look at one side's tet against the other's (the plane's
// sign at the corners, the corners against the faces). Computed with either box as A, the surfaces
// must still be the same to round-off: a sliver culled by mistake is ~1e-5 of the area.
TEST(ContactSurfaceTest, BoxesFaceOnFaceGiveTheSameSurfaceEitherWayRound) {
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.2, 0.2), 0.05), 1e8);
  const RigidTransform X_WLower = Pose(Vector3(0, 0, 0), 7.5e-5, Vector3(1, 0.3, 0));
  const RigidTransform X_WUpper = Pose(Vector3(0.03, 0.02, 0.2 - 1e-5), 0.3, Vector3(0, 0, 1));
  ContactSurface upper_on_lower, lower_on_upper;
  CalcContactSurface(box, X_WUpper, box, X_WLower, &upper_on_lower);
  CalcContactSurface(box, X_WLower, box, X_WUpper, &lower_on_upper);
  ASSERT_GT(upper_on_lower.num_polygons(), 200);
  const double area = upper_on_lower.CalcTotalArea();
  EXPECT_GT(area, 0.5 * 0.2 * 0.2);
  EXPECT_NEAR(lower_on_upper.CalcTotalArea(), area, 1e-11 * area);
  const Wrench w1 = IntegrateStaticWrench(upper_on_lower);
  const Wrench w2 = IntegrateStaticWrench(lower_on_upper);
  const double scale = w1.force.norm();
  EXPECT_NEAR((w1.force + w2.force).norm(), 0, 1e-11 * scale);
  EXPECT_NEAR((w1.torque + w2.torque).norm(), 0, 1e-11 * scale);
}

// Computed at poses moved together, or computed once and carried (TransformBy): the same wrench, moved.
TEST(ContactSurfaceTest, ResultsMoveWithThePair) {
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.0125), 2e5);
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.15, 0.1), 0.025), 1e6);
  const RigidMesh rigid_box(MakeBoxSurfaceMesh(Vector3(0.2, 0.15, 0.1), 0.05));
  const RigidTransform X_1 = Pose(Vector3(0.01, 0.02, 0.088), 0.3, Vector3(1, 1, 1));
  const RigidTransform X_2 = Pose(Vector3(0, 0, 0), 0.1, Vector3(0, 0, 1));
  const RigidTransform X_moved = Pose(Vector3(1.5, -2.0, 0.7), 2.1, Vector3(-1, 3, 2));
  ContactSurface before, after;
  auto check = [&](const char* what) {
    ASSERT_FALSE(before.empty()) << what;
    const Wrench w0 = IntegrateStaticWrench(before);
    const Wrench w1 = IntegrateStaticWrench(after);
    const Matrix3& R = X_moved.linear();
    const Vector3& p = X_moved.translation();
    const double scale = w0.force.norm();
    EXPECT_NEAR((w1.force - R * w0.force).norm(), 0, 1e-9 * scale) << what;
    EXPECT_NEAR((w1.torque - (R * w0.torque + p.cross(R * w0.force))).norm(), 0, 1e-9 * scale) << what;
    EXPECT_EQ(before.num_polygons(), after.num_polygons()) << what;
    // The surface carried by TransformBy is the one computed at the moved poses.
    ContactSurface carried = before;
    carried.TransformBy(X_moved);
    const Wrench w2 = IntegrateStaticWrench(carried);
    EXPECT_NEAR((w2.force - w1.force).norm(), 0, 1e-9 * scale) << what;
    EXPECT_NEAR((w2.torque - w1.torque).norm(), 0, 1e-9 * scale) << what;
    EXPECT_NEAR(carried.CalcTotalArea(), after.CalcTotalArea(), 1e-9 * after.CalcTotalArea()) << what;
  };
  CalcContactSurface(sphere, X_1, box, X_2, &before);
  CalcContactSurface(sphere, X_moved * X_1, box, X_moved * X_2, &after);
  check("compliant-compliant");
  CalcContactSurface(sphere, X_1, rigid_box, X_2, &before);
  CalcContactSurface(sphere, X_moved * X_1, rigid_box, X_moved * X_2, &after);
  check("compliant-rigid mesh");
  CalcContactSurface(sphere, X_1, RigidHalfSpace{}, Pose(Vector3(0, 0, 0.05)), &before);
  CalcContactSurface(sphere, X_moved * X_1, RigidHalfSpace{}, X_moved * Pose(Vector3(0, 0, 0.05)), &after);
  check("compliant-rigid half-space");
  const CompliantHalfSpace slab(1e6, 0.1);
  CalcContactSurface(sphere, X_1, slab, Pose(Vector3(0, 0, 0.05)), &before);
  CalcContactSurface(sphere, X_moved * X_1, slab, X_moved * Pose(Vector3(0, 0, 0.05)), &after);
  check("compliant-compliant half-space");
}

// Sweeps `pose_at(s)` for s in [0, 1] in n steps and returns the largest change of force and of
// torque between consecutive steps.
struct StepChanges {
  double force{0}, torque{0};          // largest change between consecutive steps
  double max_force{0}, max_torque{0};  // largest magnitudes seen
};

template <typename ComputeFn>
StepChanges LargestStepChange(int n, ComputeFn compute) {
  ContactSurface surface;
  Wrench last;
  StepChanges changes;
  for (int i = 0; i <= n; ++i) {
    compute(static_cast<double>(i) / n, &surface);
    const Wrench w = IntegrateStaticWrench(surface);
    changes.max_force = std::max(changes.max_force, w.force.norm());
    changes.max_torque = std::max(changes.max_torque, w.torque.norm());
    if (i > 0) {
      changes.force = std::max(changes.force, (w.force - last.force).norm());
      changes.torque = std::max(changes.torque, (w.torque - last.torque).norm());
    }
    last = w;
  }
  return changes;
}

// Continuity (004 App. X-C): forces are continuous functions of the pose, so refining the step
// tenfold must shrink the largest step-to-step change about tenfold. A jump (a polygon appearing
// with finite force) would show up at the same size at both step sizes. A quantity that is
// constant along the path (the force of a box in an exactly linear field) changes only by
// round-off, allowed as 1e-9 of its size.
void ExpectContinuous(const char* what, const std::function<void(double, ContactSurface*)>& compute) {
  const StepChanges coarse = LargestStepChange(200, compute);
  const StepChanges fine = LargestStepChange(2000, compute);
  std::printf("%s: largest step change of |f| %.3e → %.3e N, of |τ| %.3e → %.3e N·m (max |f| %.3e N)\n", what,
              coarse.force, fine.force, coarse.torque, fine.torque, coarse.max_force);
  EXPECT_GT(coarse.max_force, 0) << what;
  EXPECT_LT(fine.force, 0.2 * coarse.force + 1e-9 * coarse.max_force) << what;
  EXPECT_LT(fine.torque, 0.2 * coarse.torque + 1e-9 * coarse.max_torque) << what;
}

TEST(ContactSurfaceTest, ForcesAreContinuousUnderSliding) {
  // A rigid box dragged across a coarse compliant box (few large tets), tilted so its faces cut
  // through tets at changing places.
  const CompliantMesh coarse_box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.6, 0.6, 0.2), 0.1), 1e6);
  const RigidMesh rigid_box(MakeBoxSurfaceMesh(Vector3(0.1, 0.08, 0.05), 0.05));
  ExpectContinuous("rigid box across coarse compliant box", [&](double s, ContactSurface* surface) {
    const RigidTransform X_WB = Pose(Vector3(-0.1 + 0.2 * s, 0.03 * s, 0.1 + 0.025 - 0.01), 0.05, Vector3(1, 2, 0));
    CalcContactSurface(coarse_box, RigidTransform::Identity(), rigid_box, X_WB, surface);
  });
  // A coarse compliant sphere rolling-and-sliding on a rigid box face.
  const CompliantMesh coarse_sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.05), 1e5);
  const RigidMesh floor(MakeBoxSurfaceMesh(Vector3(0.6, 0.6, 0.1), 0.2));
  ExpectContinuous("coarse compliant sphere over a rigid face", [&](double s, ContactSurface* surface) {
    const RigidTransform X_WA = Pose(Vector3(-0.05 + 0.1 * s, 0, 0.05 + 0.05 - 0.012), 1.5 * s, Vector3(1, 1, 0));
    CalcContactSurface(coarse_sphere, X_WA, floor, RigidTransform::Identity(), surface);
  });
  // Two coarse compliant spheres sliding past each other.
  ExpectContinuous("coarse compliant spheres sliding", [&](double s, ContactSurface* surface) {
    const RigidTransform X_WB = Pose(Vector3(0.09, -0.03 + 0.06 * s, 0.01), 2.0 * s, Vector3(0, 1, 1));
    CalcContactSurface(coarse_sphere, RigidTransform::Identity(), coarse_sphere, X_WB, surface);
  });
}

TEST(ContactSurfaceTest, OneBodyInsideTheOtherStaysFinite) {
  const CompliantMesh big = MakeCompliantMesh(MakeSphereVolumeMesh(0.5, 0.1), 1e6);
  const CompliantMesh small = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.02), 1e5);
  const RigidMesh rigid_small(MakeBoxSurfaceMesh(Vector3(0.05, 0.05, 0.05), 0.05));
  ContactSurface surface;
  for (const Vector3& at : {Vector3(0, 0, 0), Vector3(0.1, 0.2, -0.1)}) {
    CalcContactSurface(big, RigidTransform::Identity(), small, Pose(at), &surface);
    EXPECT_TRUE(surface.CalcElasticForceOnA().allFinite());
    for (double p : surface.pressures()) EXPECT_TRUE(std::isfinite(p) && p >= 0);
    CalcContactSurface(big, RigidTransform::Identity(), rigid_small, Pose(at), &surface);
    EXPECT_TRUE(surface.CalcElasticForceOnA().allFinite());
  }
  // A rigid box at the centre: every face opposes the inward pressure gradient, no contact.
  CalcContactSurface(big, RigidTransform::Identity(), rigid_small, Pose(Vector3::Zero()), &surface);
  EXPECT_NEAR(surface.CalcElasticForceOnA().norm(), 0, 1e-9);
  // Off-centre, the faces turned toward the centre push the box outward.
  const Vector3 off_centre(0.1, 0.2, -0.1);
  CalcContactSurface(big, RigidTransform::Identity(), rigid_small, Pose(off_centre), &surface);
  ASSERT_FALSE(surface.empty());
  EXPECT_GT((-surface.CalcElasticForceOnA()).dot(off_centre), 0);
}

TEST(ContactSurfaceTest, SeparatedPairsHaveNoSurface) {
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.05, 0.02), 1e5);
  const RigidMesh rigid_box(MakeBoxSurfaceMesh(Vector3(0.1, 0.1, 0.1), 0.05));
  ContactSurface surface;
  CalcContactSurface(sphere, Pose(Vector3(0.2, 0, 0)), sphere, RigidTransform::Identity(), &surface);
  EXPECT_TRUE(surface.empty());
  CalcContactSurface(sphere, Pose(Vector3(0.2, 0, 0)), rigid_box, RigidTransform::Identity(), &surface);
  EXPECT_TRUE(surface.empty());
  CalcContactSurface(sphere, Pose(Vector3(0, 0, 0.2)), RigidHalfSpace{}, RigidTransform::Identity(), &surface);
  EXPECT_TRUE(surface.empty());
  // Spheres touching at their outermost vertices: zero pressure on whatever is found.
  double outermost = 0;
  for (const Vector3& p : sphere.mesh().vertices()) outermost = std::max(outermost, std::abs(p.x()));
  CalcContactSurface(sphere, Pose(Vector3(2 * outermost, 0, 0)), sphere, RigidTransform::Identity(), &surface);
  EXPECT_NEAR(surface.CalcElasticForceOnA().norm(), 0, 1e-9);
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

TEST(ContactSurfaceTest, PressureMomentsOfALinearFieldOnASquare) {
  // A unit square in z = 1 with p = 100 + 50·x: ∫p dA = 125, ∫p·x dA = 50 + 50/3, so the centre
  // of pressure is at x = (200/3)/125 = 0.5333…, y = 0.5; the moment of the force (0, 0, ∫p dA)
  // about the origin is r_cop × f.
  ContactSurface surface;
  const Vector3 corners[4] = {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const double pressures[4] = {100, 150, 150, 100};
  ASSERT_TRUE(surface.AddPolygon(corners, pressures, 4, Vector3::UnitZ(), 1e6, 1e6, 0, 0));
  EXPECT_NEAR(surface.CalcPressureIntegral(), 125, 1e-12);
  const Vector3 first = surface.CalcPressureFirstMoment();
  const Vector3 cop = first / surface.CalcPressureIntegral();
  EXPECT_NEAR(cop.x(), (200.0 / 3) / 125, 1e-12);
  EXPECT_NEAR(cop.y(), 0.5, 1e-12);
  EXPECT_NEAR(cop.z(), 1.0, 1e-12);
  const Vector3 expected_moment = cop.cross(Vector3(0, 0, 125));
  EXPECT_TRUE(surface.CalcElasticMomentOnA().isApprox(expected_moment, 1e-12));
}

// Copy-assignment reuses the target's buffers (hydro/buffers.h) and copies each member by hand: a
// surface assigned into one that held more, or fewer, polygons equals the copy-constructed one in
// every vertex, pressure and polygon field. (contact_surface.h also checks at compile time that the
// class has no member the assignment would miss.)
TEST(ContactSurfaceTest, CopyAssignmentOverAnySurfaceEqualsACopy) {
  auto strip = [](int n, double shift) {
    ContactSurface surface;
    for (int i = 0; i < n; ++i) {
      const double z = 0.1 * i;
      const Vector3 corners[4] = {{i + shift, 0, z}, {i + 1.0, 0, z}, {i + 1.0, 1, z}, {i + shift, 1, z}};
      const double pressures[4] = {100.0 + i, 150, 150, 100.0 - i};
      EXPECT_TRUE(surface.AddPolygon(corners, pressures, 4, Vector3::UnitZ(), 1e6 + i, 2e6 - i, 7 * i, 11 * i));
    }
    return surface;
  };
  for (const int target_polygons : {0, 2, 9})
    for (const int source_polygons : {0, 3, 6}) {
      const ContactSurface source = strip(source_polygons, 0.25);
      ContactSurface target = strip(target_polygons, 0.5);
      target = source;
      const ContactSurface copy(source);
      ASSERT_EQ(target.num_polygons(), copy.num_polygons());
      EXPECT_EQ(target.vertices(), copy.vertices());
      EXPECT_EQ(target.pressures(), copy.pressures());
      for (int k = 0; k < copy.num_polygons(); ++k) {
        const ContactPolygon &a = target.polygon(k), &b = copy.polygon(k);
        EXPECT_EQ(a.first_vertex, b.first_vertex);
        EXPECT_EQ(a.num_vertices, b.num_vertices);
        EXPECT_EQ(a.nhat_BA_W, b.nhat_BA_W);
        EXPECT_EQ(a.area_m2, b.area_m2);
        EXPECT_EQ(a.p_WC, b.p_WC);
        EXPECT_EQ(a.pressure_at_centroid_Pa, b.pressure_at_centroid_Pa);
        EXPECT_EQ(a.grad_A_Pa_per_m, b.grad_A_Pa_per_m);
        EXPECT_EQ(a.grad_B_Pa_per_m, b.grad_B_Pa_per_m);
        EXPECT_EQ(a.element_A, b.element_A);
        EXPECT_EQ(a.element_B, b.element_B);
      }
      EXPECT_EQ(target.CalcElasticForceOnA(), copy.CalcElasticForceOnA());
    }
}

}  // namespace
}  // namespace hydro
