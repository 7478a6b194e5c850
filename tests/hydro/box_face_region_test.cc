#include "hydro/box_face_region.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "hydro/box_surface_grid.h"

namespace hydro {
namespace internal {
namespace {

Vector3 RandomHalfSize(std::mt19937* rng) {
  std::uniform_real_distribution<double> size(0.02, 0.5);
  return Vector3(size(*rng), size(*rng), size(*rng));
}

Vector3 RandomUnit(std::mt19937* rng) {
  std::normal_distribution<double> normal;
  return Vector3(normal(*rng), normal(*rng), normal(*rng)).normalized();
}

// Face f's region is where f is the nearest face (hydro/compliant_box.h): every box point lies in
// the region of its nearest face and in no region whose face is farther.
TEST(BoxFaceRegionTest, APointLiesInTheRegionOfItsNearestFace) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vector3 h = RandomHalfSize(&rng);
    const Vector3 p(unit(rng) * h.x(), unit(rng) * h.y(), unit(rng) * h.z());
    std::array<double, 6> depth;  // distance to each face
    for (int face = 0; face < 6; ++face)
      depth[face] =
          h[BoxSurfaceGrid::FaceAxis(face)] - BoxSurfaceGrid::FaceSide(face) * p[BoxSurfaceGrid::FaceAxis(face)];
    const double nearest = *std::min_element(depth.begin(), depth.end());
    for (int face = 0; face < 6; ++face) {
      bool inside = true;
      for (const HalfSpace& half : FaceRegion(h, face)) inside = inside && half.n.dot(p) >= half.d - 1e-12;
      // Ties (a medial plane through p) may go either way; a clear difference may not.
      if (depth[face] > nearest + 1e-9) {
        EXPECT_FALSE(inside) << "face " << face << " at " << p.transpose();
      }
      if (depth[face] == nearest) {
        EXPECT_TRUE(inside) << "face " << face << " at " << p.transpose();
      }
    }
  }
}

// PlaneMissesRegion is a cull before ClipByRegion: whatever it culls, the clip must keep nothing
// of. Planes grazing the region's bounding box, just inside or outside it by up to a few times
// the clipping tolerance, are where the margin matters: the clip keeps vertices within the
// tolerance of each of the region's planes, so a plane up to a tolerance beyond the face (nearly
// parallel to it) keeps a polygon, and a cull without the margin along the face's axis fails
// here. Across, the region narrows to the face's edge, and in these trials the clip kept nothing
// beyond the box: the margin of twice the tolerance there is conservative. The tolerance is set
// far above the queries' 1e-12 of the box's size, so that the margin is many times round-off.
TEST(BoxFaceRegionTest, PlaneMissesRegionNeverCullsWhatTheClipKeeps) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> offset(-1, 4);
  int culled = 0, kept_outside_box = 0;
  for (int trial = 0; trial < 40000; ++trial) {
    const Vector3 h = RandomHalfSize(&rng);
    const int face = static_cast<int>(rng() % 6);
    const int a = BoxSurfaceGrid::FaceAxis(face);
    const double tolerance = 1e-3 * h.minCoeff();
    // The region's bounding box without any margin.
    const double lowest = std::max(0.0, h[a] - std::min(h[(a + 1) % 3], h[(a + 2) % 3]));
    Vector3 centre = Vector3::Zero(), half = h;
    centre[a] = BoxSurfaceGrid::FaceSide(face) * 0.5 * (lowest + h[a]);
    half[a] = 0.5 * (h[a] - lowest);
    // Mostly random normals; a third near a face's normal or a medial plane's, where the clip keeps
    // slivers along a whole edge.
    Vector3 n = RandomUnit(&rng);
    if (trial % 3 == 1) n = (Vector3::Unit(static_cast<int>(rng() % 3)) + 1e-4 * RandomUnit(&rng)).normalized();
    if (trial % 3 == 2)
      n = (Vector3::Unit(a) + Vector3::Unit((a + 1 + static_cast<int>(rng() % 2)) % 3) + 1e-4 * RandomUnit(&rng))
              .normalized();
    const double side = rng() % 2 == 0 ? 1.0 : -1.0;
    const double beyond = offset(rng) * tolerance;  // outside the box (> 0) or inside it
    const double d = n.dot(centre) + side * (n.cwiseAbs().dot(half) + beyond);
    ClipPolygon poly = SquareOnPlane(n, d, h);
    ClipByRegion(h, face, Matrix3::Identity(), Vector3::Zero(), tolerance, &poly);
    const bool kept = poly.n >= 3;
    if (PlaneMissesRegion(n, d, h, face, tolerance, 0.0)) {
      ++culled;
      EXPECT_FALSE(kept) << "face " << face << ", h " << h.transpose() << ", n " << n.transpose() << ", "
                         << beyond / tolerance << " tolerances beyond the region's box: culled, but the clip keeps "
                         << poly.n << " vertices";
    }
    if (kept && beyond > 0) ++kept_outside_box;
  }
  // The planes tried reach both sides of the question: many are culled, and the clip keeps some
  // that pass outside the region's box, which a cull without the margin would have dropped.
  EXPECT_GT(culled, 10000);
  EXPECT_GT(kept_outside_box, 100);
}

// Planes through the region are never culled, and planes clear of the whole box always are.
TEST(BoxFaceRegionTest, PlaneMissesRegionKeepsPlanesThroughTheRegionAndCullsDistantOnes) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vector3 h = RandomHalfSize(&rng);
    const int face = static_cast<int>(rng() % 6);
    const int a = BoxSurfaceGrid::FaceAxis(face);
    // A point of the region: on the face's half, no nearer any side face than to the face.
    Vector3 p;
    do {
      p = Vector3((2 * unit(rng) - 1) * h.x(), (2 * unit(rng) - 1) * h.y(), (2 * unit(rng) - 1) * h.z());
      p[a] = BoxSurfaceGrid::FaceSide(face) * unit(rng) * h[a];
    } while (![&] {
      for (const HalfSpace& half : FaceRegion(h, face))
        if (half.n.dot(p) < half.d) return false;
      return true;
    }());
    const Vector3 n = RandomUnit(&rng);
    const double tolerance = 1e-12 * h.norm();
    EXPECT_FALSE(PlaneMissesRegion(n, n.dot(p), h, face, tolerance, 0.0));
    EXPECT_TRUE(PlaneMissesRegion(n, h.norm() * (1 + unit(rng)) + 1e-6, h, face, tolerance, 0.0));
  }
}

// The closed-form queries clip in the first box's frame by the second box's regions, posed at
// R_AB, p_AB: that is the clip in the second box's own frame, carried by the pose. Random boxes,
// faces, poses and planes through the box; the two clips keep the same vertices, in the same
// order, to round-off: 1e-12 of the box's size and offset, which carrying a vertex by the pose
// rounds in. The clips' tolerance is 1e-12 of the box's size; a vertex that near a region's plane
// could be kept by one clip and not the other, and none is in these trials (the standard
// library's random distributions are its own, so another library draws other trials).
TEST(BoxFaceRegionTest, ClippingByAPosedBoxsRegionIsTheClipInItsFrameCarriedByThePose) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> unit(-1, 1);
  int clipped = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vector3 h = RandomHalfSize(&rng);
    const int face = static_cast<int>(rng() % 6);
    const Matrix3 R_AB = Eigen::AngleAxisd(3 * unit(rng), RandomUnit(&rng)).toRotationMatrix();
    const Vector3 p_AB(unit(rng), unit(rng), unit(rng));
    // A plane through a point of the box, in B's frame, and its square.
    const Vector3 n_B = RandomUnit(&rng);
    const Vector3 q_B(unit(rng) * h.x(), unit(rng) * h.y(), unit(rng) * h.z());
    ClipPolygon in_B = SquareOnPlane(n_B, n_B.dot(q_B), h);
    ClipPolygon in_A;
    for (int i = 0; i < in_B.n; ++i) in_A.Push(R_AB * in_B.p[i] + p_AB);
    const double tolerance = 1e-12 * h.norm();
    ClipByRegion(h, face, Matrix3::Identity(), Vector3::Zero(), tolerance, &in_B);
    ClipByRegion(h, face, R_AB, p_AB, tolerance, &in_A);
    ASSERT_EQ(in_A.n < 3, in_B.n < 3) << "trial " << trial;
    if (in_A.n < 3) continue;
    ++clipped;
    ASSERT_EQ(in_A.n, in_B.n) << "trial " << trial;
    for (int i = 0; i < in_A.n; ++i)
      EXPECT_LT((in_A.p[i] - (R_AB * in_B.p[i] + p_AB)).norm(), 1e-12 * (h.norm() + p_AB.norm()))
          << "trial " << trial << ", vertex " << i;
  }
  EXPECT_GT(clipped, 1000);  // planes through the box that cross the face's region: 1,493 of 2,000
}

}  // namespace
}  // namespace internal
}  // namespace hydro
