// Box–box contact surfaces in closed form (hydro/compliant_box.h) against the boxes' own meshes,
// whose field is the same exactly: the two surfaces are the same polygons cut into other pieces, so
// their area, force and moment agree to round-off. And against the closed forms for two boxes face
// to face, where the fields meet at g_A·δ_A = g_B·δ_B with δ_A + δ_B = δ, so p = δ/(1/g_A + 1/g_B)
// over the overlap of the faces (g = E/Hmin), and for a box on a rigid box, p = g·δ.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <type_traits>

#include "contact_test_util.h"
#include "hydro/compliant_box.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "tests/invalid_input.h"
#include "tests/test_poses.h"

namespace hydro {
namespace {

using test::Pose;
using test::Translation;

struct Box {
  Box(const Vector3& size, double modulus, double hint)
      : mesh(MakeCompliantMesh(MakeBoxVolumeMesh(size, hint), modulus)), box(size, modulus, hint, mesh) {}
  CompliantMesh mesh;
  CompliantBox box;
};

// A rigid box: its surface mesh and its faces in closed form.
struct Slab {
  Slab(const Vector3& size, double hint) : mesh(MakeBoxSurfaceMesh(size, hint)), box(size, hint, mesh.mesh()) {}
  RigidMesh mesh;
  RigidBox box;
};

struct Totals {
  double area{0};
  Vector3 force{Vector3::Zero()};
  Vector3 moment{Vector3::Zero()};
};

Totals Sum(const ContactSurface& surface) {
  return {surface.CalcTotalArea(), surface.CalcElasticForceOnA(), surface.CalcElasticMomentOnA()};
}

// The closed form and the meshes agree on area, force and moment (the moment's scale is the force
// times the boxes' size, 0.2 m); `tolerance` is relative (see the bricks on a grid for the one case
// that needs more than round-off). `Other` is a compliant Box or a rigid Slab.
template <typename Other>
void ExpectSameSurface(const Box& a, const RigidTransform& X_WA, const Other& b, const RigidTransform& X_WB,
                       const char* what, double tolerance = 1e-9) {
  ContactSurface closed, meshed;
  CalcContactSurface(a.box, X_WA, b.box, X_WB, &closed);
  CalcContactSurface(a.mesh, X_WA, b.mesh, X_WB, &meshed);
  ASSERT_FALSE(meshed.empty()) << what;
  const Totals c = Sum(closed), m = Sum(meshed);
  const double f = m.force.norm();
  EXPECT_NEAR(c.area, m.area, tolerance * m.area) << what;
  EXPECT_LE((c.force - m.force).norm(), tolerance * f)
      << what << ": " << c.force.transpose() << " vs " << m.force.transpose();
  EXPECT_LE((c.moment - m.moment).norm(), tolerance * f * 0.2) << what;
  // The test's own quadrature agrees with the surface's sums.
  const test::Wrench w = test::IntegrateStaticWrench(closed);
  EXPECT_LE((w.force - c.force).norm(), 1e-9 * f) << what;
  // Every piece names elements of the regions or faces it came from: A's tet's gradient gives its
  // gA, and B's tet its gB, or B's triangle faces along its normal.
  for (const ContactPolygon& poly : closed.polygons()) {
    const Vector3 grad_A = X_WA.linear() * a.mesh.field().gradient(poly.element_A);
    EXPECT_NEAR(grad_A.dot(poly.nhat_BA_W), poly.grad_A_Pa_per_m, 1e-9 * grad_A.norm()) << what;
    if constexpr (std::is_same_v<Other, Box>) {
      const Vector3 grad_B = X_WB.linear() * b.mesh.field().gradient(poly.element_B);
      EXPECT_NEAR(-grad_B.dot(poly.nhat_BA_W), poly.grad_B_Pa_per_m, 1e-9 * grad_B.norm()) << what;
    } else {
      const Vector3 n_B = X_WB.linear() * b.mesh.mesh().face_normal(poly.element_B);
      EXPECT_NEAR(n_B.dot(poly.nhat_BA_W), 1, 1e-12) << what;
      EXPECT_TRUE(std::isinf(poly.grad_B_Pa_per_m)) << what;
    }
  }
  std::printf("%-44s closed form %4d polygons, meshes %5d polygons, force %.6g N\n", what, closed.num_polygons(),
              meshed.num_polygons(), f);
}

const Vector3 kBrick(0.2, 0.1, 0.1);

TEST(CompliantBoxTest, SameSurfaceAsTheMeshes) {
  const Box brick(kBrick, 1e8, 0.025);
  const Box soft(kBrick, 1e6, 0.025);
  const Box cube(Vector3(0.1, 0.1, 0.1), 3e7, 0.02);
  // As a wall lays them: on top, half a brick along, 1 µm deep.
  ExpectSameSurface(brick, Translation(Vector3(0.1 + 1e-7, 1e-7, 0.1 - 1e-6)), brick, RigidTransform::Identity(),
                    "bricks on a grid, 0.1 µm off");
  // Exactly on the grid their side faces y = ±5 cm coincide, and so do those faces' regions, where
  // the two fields are equal throughout (the plane is undefined): the region pairs beside them give
  // strips of width ~δ that the meshes' clip, with faces coincident, cuts otherwise. The two
  // surfaces' forces differ by 1.25e-6 of the force; 0.1 µm off the grid (above) they agree to
  // round-off.
  ExpectSameSurface(brick, Translation(Vector3(0.1, 0, 0.1 - 1e-6)), brick, RigidTransform::Identity(),
                    "bricks on a grid", 1e-5);
  // Landing, tilted 1 mrad, 10 µm deep at its lowest edge.
  ExpectSameSurface(brick, Pose(Vector3(0.1, 0, 0.1 - 1e-5 + 0.05e-3), 1e-3, Vector3::UnitX()), brick,
                    RigidTransform::Identity(), "brick landing tilted");
  // Deep and turned: every region of both takes part somewhere.
  ExpectSameSurface(cube, Pose(Vector3(0.03, 0.02, 0.07), 0.7, Vector3(1, 2, 3)), brick, Pose(Vector3(0, 0, 0), 0.3),
                    "cube turned and deep in a brick");
  ExpectSameSurface(brick, Pose(Vector3(0.05, -0.01, 0.06), 1.1, Vector3(-2, 1, 0.5)), soft,
                    Pose(Vector3(0.01, 0, 0), -0.4, Vector3(0, 1, 1)), "bricks of 1e8 and 1e6 Pa crossed");
  // A corner pushed into a face.
  RigidTransform X_WC = Translation(Vector3(0.02, 0.01, 0.05 + 0.05 * std::sqrt(3.0) - 0.01));
  X_WC.linear() = Eigen::Quaterniond::FromTwoVectors(Vector3(1, 1, 1), -Vector3::UnitZ()).toRotationMatrix();
  ExpectSameSurface(cube, X_WC, brick, RigidTransform::Identity(), "cube corner 1 cm into a brick");
}

TEST(CompliantBoxTest, SameSurfaceAsTheMeshesAtRandomPoses) {
  // A cube and a brick at random orientations, their centres within reach, and a cube on a rigid
  // box: every pair that touches (most do) gives the meshes' area, force and moment.
  const Box brick(kBrick, 1e8, 0.025);
  const Box cube(Vector3(0.1, 0.1, 0.1), 3e7, 0.02);
  const Slab post(Vector3(0.15, 0.1, 0.2), 0.03);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  auto random_pose = [&](double reach) {
    const Vector3 axis(unit(random), unit(random), unit(random));
    return Pose(reach * Vector3(unit(random), unit(random), unit(random)), M_PI * unit(random), axis);
  };
  int touching = 0;
  for (int k = 0; k < 40; ++k) {
    const RigidTransform X_WA = random_pose(0.1), X_WB = random_pose(0.02);
    ContactSurface meshed;
    CalcContactSurface(cube.mesh, X_WA, brick.mesh, X_WB, &meshed);
    if (meshed.empty()) continue;
    ++touching;
    const std::string what = "random pose " + std::to_string(k);
    ExpectSameSurface(cube, X_WA, brick, X_WB, what.c_str(), 1e-8);
    CalcContactSurface(cube.mesh, X_WA, post.mesh, X_WB, &meshed);
    if (!meshed.empty()) ExpectSameSurface(cube, X_WA, post, X_WB, (what + " on a rigid box").c_str(), 1e-8);
  }
  EXPECT_GT(touching, 20);
}

TEST(CompliantBoxTest, FaceToFaceForceIsTheClosedForm) {
  // A 0.1 m cube on a brick's top face, shifted so that 0.06 × 0.1 m of their faces overlap, δ deep.
  const double E_A = 3e7, E_B = 1e8;
  const Box cube(Vector3(0.1, 0.1, 0.1), E_A, 0.02);
  const Box brick(kBrick, E_B, 0.025);
  const double g_A = E_A / 0.05, g_B = E_B / 0.05;
  for (double delta : {1e-6, 1e-5, 1e-4}) {
    ContactSurface surface;
    CalcContactSurface(cube.box, Translation(Vector3(0.09, 0, 0.1 - delta)), brick.box, RigidTransform::Identity(),
                       &surface);
    const double expected = delta / (1 / g_A + 1 / g_B) * 0.06 * 0.1;
    const Vector3 force = surface.CalcElasticForceOnA();
    // Within δ of the faces' edges the side regions meet instead: a band of relative width ~δ/6 cm.
    EXPECT_NEAR(force.z(), expected, 2 * delta / 0.06 * expected) << "δ = " << delta;
    // The side regions' strips lean, and push sideways as much.
    EXPECT_NEAR(force.x(), 0, 2 * delta / 0.06 * expected);
    EXPECT_NEAR(force.y(), 0, 1e-9 * expected);  // symmetric across y = 0
    // The centre of pressure is the overlap's centre, x = 0.07.
    EXPECT_NEAR(surface.CalcPressureFirstMoment().x() / surface.CalcPressureIntegral(), 0.07, 1e-3 * 0.06);
  }
}

TEST(CompliantBoxTest, PiecesFollowBothGrids) {
  // Bricks half a cell apart along x and y: the overlap is cut by both grids into half cells.
  const Box brick(kBrick, 1e8, 0.025);
  ContactSurface surface;
  CalcContactSurface(brick.box, Translation(Vector3(0.0125, 0.0125, 0.1 - 1e-7)), brick.box, RigidTransform::Identity(),
                     &surface);
  // The overlap, 0.1875 × 0.0875 m, spans 8 × 4 cells of each grid, offset by half a cell: 15 × 7
  // columns of pieces at most 1.25 cm wide (ignoring the δ-wide rims of the side regions).
  int full = 0;
  for (const ContactPolygon& poly : surface.polygons()) {
    Vector3 low = Vector3::Constant(1e9), high = -low;
    for (int i = 0; i < poly.num_vertices; ++i) {
      low = low.cwiseMin(surface.vertex(poly, i));
      high = high.cwiseMax(surface.vertex(poly, i));
    }
    EXPECT_LE(high.x() - low.x(), 0.0125 + 1e-12);
    EXPECT_LE(high.y() - low.y(), 0.0125 + 1e-12);
    if (poly.area_m2 > 0.5 * 0.0125 * 0.0125) ++full;
  }
  EXPECT_EQ(full, 15 * 7);
}

TEST(CompliantBoxTest, EqualAndOppositeAndEmptyWhenApart) {
  const Box brick(kBrick, 1e8, 0.025);
  const Box cube(Vector3(0.1, 0.1, 0.1), 3e7, 0.02);
  const RigidTransform X_WA = Pose(Vector3(0.05, 0.02, 0.09), 0.2, Vector3(1, 1, 0));
  const RigidTransform X_WB = Pose(Vector3(0, 0, 0), 0.1);
  ContactSurface ab, ba;
  CalcContactSurface(cube.box, X_WA, brick.box, X_WB, &ab);
  CalcContactSurface(brick.box, X_WB, cube.box, X_WA, &ba);
  ASSERT_FALSE(ab.empty());
  const Vector3 f = ab.CalcElasticForceOnA();
  EXPECT_LE((f + ba.CalcElasticForceOnA()).norm(), 1e-9 * f.norm());
  EXPECT_LE((ab.CalcElasticMomentOnA() + ba.CalcElasticMomentOnA()).norm(), 1e-9 * f.norm() * 0.2);
  CalcContactSurface(cube.box, Translation(Vector3(0, 0, 0.1 + 1e-6)), brick.box, RigidTransform::Identity(), &ab);
  EXPECT_TRUE(ab.empty());
}

TEST(CompliantBoxTest, ForceIsContinuousAsABoxSlidesAcrossTheGrids) {
  // Sliding 0.1 µm at a time, with a 1 mrad tilt, through the pose where both grids' lines lie on
  // each other (x = 2.5 cm, one cell, and y = 0): the force and moment change by no more than their
  // rates of change over the step (no jumps where pieces are cut differently, or not at all).
  const Box brick(kBrick, 1e8, 0.025);
  const double step = 1e-7;
  Totals previous;
  for (int i = 0; i <= 400; ++i) {
    const double x = 0.025 - 200 * step + i * step;
    ContactSurface surface;
    CalcContactSurface(brick.box, Pose(Vector3(x, 0.3 * (x - 0.025), 0.1 - 5e-6), 1e-3, Vector3(1, 2, 0)), brick.box,
                       RigidTransform::Identity(), &surface);
    const Totals t = Sum(surface);
    if (i > 0) {
      EXPECT_LE((t.force - previous.force).norm(), 1e-3 * previous.force.norm()) << "x = " << x;
      EXPECT_LE((t.moment - previous.moment).norm(), 1e-3 * previous.force.norm() * 0.2) << "x = " << x;
    }
    previous = t;
  }
}

TEST(CompliantBoxTest, BadInputIsRefused) {
  const Box brick(kBrick, 1e8, 0.025);
  RigidTransform bad = RigidTransform::Identity();
  bad.translation().x() = std::nan("");
  ContactSurface surface;
  test::ExpectInvalidInput([&] { CalcContactSurface(brick.box, bad, brick.box, RigidTransform::Identity(), &surface); },
                           "X_WA");
  test::ExpectInvalidInput([&] { CompliantBox(kBrick, -1, 0.025, brick.mesh); }, "modulus");
  test::ExpectInvalidInput([&] { CompliantBox(kBrick, 1e8, 0.0, brick.mesh); }, "hint");
  // Another box's mesh, or the same mesh at another hint or modulus, is not this box's.
  test::ExpectInvalidInput([&] { CompliantBox(Vector3(0.1, 0.1, 0.1), 1e8, 0.025, brick.mesh); }, "CompliantBox");
  test::ExpectInvalidInput([&] { CompliantBox(kBrick, 1e7, 0.025, brick.mesh); }, "field");
  test::ExpectInvalidInput([&] { CompliantBox(kBrick, 1e8, 0.0125, brick.mesh); }, "no element");
  const TriangleSurfaceMesh faces = MakeBoxSurfaceMesh(kBrick, 0.025);
  test::ExpectInvalidInput([&] { RigidBox(kBrick, 0.0125, faces); }, "no element");
  test::ExpectInvalidInput([&] { RigidBox(kBrick, -1, faces); }, "hint");
  // A larger box's faces lie off this box's.
  test::ExpectInvalidInput([&] { RigidBox(kBrick, 0.025, MakeBoxSurfaceMesh(Vector3(0.3, 0.1, 0.1), 0.025)); },
                           "does not lie on a face");
}

TEST(CompliantBoxTest, SameSurfaceOnARigidBoxAsTheMeshes) {
  const Box brick(kBrick, 1e8, 0.025);
  const Box cube(Vector3(0.1, 0.1, 0.1), 3e7, 0.02);
  const Slab ground(Vector3(2, 2, 1), 0.3);         // a ground box, top at z = 0.5, coarser than the boxes
  const Slab post(Vector3(0.03, 0.03, 0.4), 0.01);  // a post finer than the boxes, top at z = 0.2
  ExpectSameSurface(brick, Translation(Vector3(0.3, 0.1, 0.55 - 1e-6)), ground, RigidTransform::Identity(),
                    "brick resting on a ground box");
  ExpectSameSurface(brick, Pose(Vector3(0.31, 0.12, 0.55 - 1e-5 + 0.1e-3), 1e-3, Vector3(1, 2, 0)), ground,
                    RigidTransform::Identity(), "brick landing tilted on a ground box");
  ExpectSameSurface(cube, Pose(Vector3(0.9, 0.95, 0.54), 0.6, Vector3(1, 2, 3)), ground, RigidTransform::Identity(),
                    "cube turned, deep over the ground's edge");
  ExpectSameSurface(brick, Translation(Vector3(0.01, 0.005, 0.25 - 1e-4)), post, RigidTransform::Identity(),
                    "brick on a post");
}

TEST(CompliantBoxTest, OnARigidBoxTheForceIsTheClosedForm) {
  // A cube pressed δ into a rigid box's top: p = (E/Hmin)·δ over its face (less the side regions'
  // rim of width δ, which leans and pushes sideways).
  const Box cube(Vector3(0.1, 0.1, 0.1), 3e7, 0.02);
  const Slab ground(Vector3(2, 2, 1), 0.3);
  for (double delta : {1e-6, 1e-4}) {
    ContactSurface surface;
    CalcContactSurface(cube.box, Translation(Vector3(0.2, 0.1, 0.55 - delta)), ground.box, RigidTransform::Identity(),
                       &surface);
    const double expected = 3e7 / 0.05 * delta * 0.01;
    EXPECT_NEAR(surface.CalcElasticForceOnA().z(), expected, 4 * delta / 0.1 * expected) << delta;
    EXPECT_NEAR(surface.CalcElasticForceOnA().x(), 0, 1e-9 * expected) << delta;  // symmetric
    // One piece per cell of the cube's 5 × 5 grid (the ground's cells are larger and hold it whole).
    int full = 0;
    for (const ContactPolygon& poly : surface.polygons()) full += poly.area_m2 > 0.5 * 0.02 * 0.02;
    EXPECT_EQ(full, 25) << delta;
  }
  ContactSurface apart;
  CalcContactSurface(cube.box, Translation(Vector3(0.2, 0.1, 0.55 + 1e-6)), ground.box, RigidTransform::Identity(),
                     &apart);
  EXPECT_TRUE(apart.empty());
}

}  // namespace
}  // namespace hydro
