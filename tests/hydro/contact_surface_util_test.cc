#include "hydro/contact_surface_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>

#include "hydro/make_meshes.h"
#include "hydro/parallel_for.h"
#include "hydro/volume_mesh.h"

namespace hydro {
namespace internal {
namespace {

// ClipPolygonByTet as its contract states it, one half-space clip per face with a copy each time:
// a polygon in a face's plane (every vertex within the tolerance) is kept by the tet on its +n side
// only.
void ClipFaceByFace(const std::array<Vector3, 4>& normals, const std::array<double, 4>& offsets, const Vector3& n_poly,
                    int skip_face, double tolerance, ClipPolygon* poly) {
  for (int f = 0; f < 4 && poly->n >= 3; ++f) {
    if (f == skip_face) continue;
    bool in_plane = true;
    for (int i = 0; i < poly->n; ++i)
      in_plane = in_plane && std::abs(normals[f].dot(poly->p[i]) - offsets[f]) <= tolerance;
    if (in_plane) {
      if (normals[f].dot(n_poly) <= 0) poly->n = 0;
      continue;
    }
    ClipPolygonByHalfSpace(normals[f], offsets[f], tolerance, poly);
  }
}

void ExpectSamePolygon(const ClipPolygon& a, const ClipPolygon& b) {
  ASSERT_EQ(a.n, b.n);
  for (int i = 0; i < a.n; ++i) EXPECT_EQ(a.p[i], b.p[i]) << "vertex " << i;
}

// ClipPolygonByTet clips in two buffers without copying back per face; it must give the same
// polygons, bit for bit, as clipping face by face, for triangles that miss, cross or lie inside a
// tet, with and without a skipped face.
TEST(ContactSurfaceUtilTest, ClipPolygonByTetMatchesClippingFaceByFace) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int kept = 0, emptied = 0, cut_more_than_once = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<Vector3, 4> tet;
    for (Vector3& p : tet) p = Vector3(u(rng), u(rng), u(rng));
    if (SignedTetVolume(tet[0], tet[1], tet[2], tet[3]) < 0) std::swap(tet[0], tet[1]);
    if (std::abs(SignedTetVolume(tet[0], tet[1], tet[2], tet[3])) < 1e-3) continue;
    std::array<Vector3, 4> normals;
    std::array<double, 4> offsets;
    CalcInwardFacePlanes(tet, &normals, &offsets);
    ClipPolygon triangle;
    for (int i = 0; i < 3; ++i) triangle.Push(0.8 * Vector3(u(rng), u(rng), u(rng)));
    const Vector3 n_poly = (triangle.p[1] - triangle.p[0]).cross(triangle.p[2] - triangle.p[0]).normalized();
    const int skip_face = trial % 5 - 1;  // -1 (none), 0, 1, 2, 3
    const double tolerance = ClipTolerance(tet);
    ClipPolygon fast = triangle, reference = triangle;
    ClipPolygonByTet(normals, offsets, n_poly, skip_face, tolerance, &fast);
    ClipFaceByFace(normals, offsets, n_poly, skip_face, tolerance, &reference);
    ExpectSamePolygon(fast, reference);
    kept += fast.n > 0;
    emptied += fast.n == 0;
    cut_more_than_once += fast.n > 4;
  }
  // The cases the comparison must cover all occurred.
  EXPECT_GT(kept, 100);
  EXPECT_GT(emptied, 100);
  EXPECT_GT(cut_more_than_once, 10);
}

TEST(ContactSurfaceUtilTest, ClipPolygonByTetKeepsAPolygonOnASharedFaceForOneTetOnly) {
  // Two tets sharing the face z = 0, and a triangle inside that face: kept whole by the tet on the
  // triangle's +n side, emptied by the other.
  const std::array<std::array<Vector3, 4>, 2> tets = {
      {{Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)},     // above
       {Vector3(0, 0, 0), Vector3(0, 1, 0), Vector3(1, 0, 0), Vector3(0, 0, -1)}}};  // below
  for (const double side : {1.0, -1.0}) {
    const Vector3 n_poly = side * Vector3::UnitZ();
    for (int k = 0; k < 2; ++k) {
      std::array<Vector3, 4> normals;
      std::array<double, 4> offsets;
      CalcInwardFacePlanes(tets[k], &normals, &offsets);
      ClipPolygon poly;
      for (const Vector3& p : {Vector3(0.1, 0.1, 0), Vector3(0.5, 0.1, 0), Vector3(0.1, 0.5, 0)}) poly.Push(p);
      const ClipPolygon original = poly;
      ClipPolygonByTet(normals, offsets, n_poly, -1, ClipTolerance(tets[k]), &poly);
      const bool on_plus_side = (k == 0) == (side > 0);
      if (on_plus_side) {
        ExpectSamePolygon(poly, original);
      } else {
        EXPECT_EQ(poly.n, 0) << "tet " << k << ", n_poly.z = " << side;
      }
    }
  }
}

TEST(ContactSurfaceUtilTest, CollideInPiecesGivesEachPieceItsOwnCarriedElementsStartingEmpty) {
  // A clip may keep what it carried from B between visits only within one piece: each piece (each
  // `out`) must start with every slot's element −1, in every query, on one thread or split across
  // two.
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.2, 0.2), 0.02), 1e7);
  ASSERT_TRUE(SplitsInPieces(box.bvh().num_nodes(), box.bvh().num_nodes()));
  RigidTransform X_AB = RigidTransform::Identity();
  X_AB.translation() = Vector3(0.03, -0.02, 0.19);
  for (int threads : {1, 2}) {
    ScopedContactThreads scoped(threads);
    for (int query = 0; query < 2; ++query) {
      std::mutex mutex;
      std::map<const ContactSurface*, int> first_seen;  // per piece: its slots' largest element at its first visit
      int visits = 0;
      ContactSurface surface;
      CollideInPieces(
          box.bvh(), box.bvh(), X_AB, true,
          [&](int, int element_b, ContactSurface* out, CarriedElements* carried) {
            const std::lock_guard<std::mutex> lock(mutex);
            ++visits;
            if (!first_seen.count(out)) {
              int largest = -1;
              for (int e = 0; e < CarriedElements::kSlots; ++e)
                largest = std::max(largest, carried->SlotFor(e)->element);
              first_seen.emplace(out, largest);
            }
            carried->SlotFor(element_b)->element = element_b;
          },
          &surface);
      ASSERT_GT(visits, 100);
      if (threads > 1) {
        EXPECT_GT(first_seen.size(), 1u) << "the query was split";
      }
      for (const auto& [out, element] : first_seen) {
        EXPECT_EQ(element, -1) << threads << " threads, query " << query;
      }
    }
  }
}

}  // namespace
}  // namespace internal
}  // namespace hydro
