#include "hydro/bvh.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>

namespace hydro {
namespace {

TEST(BvhTest, BoxOverlapAgreesWithSampling) {
  // Overlap of two oriented boxes vs a dense sample of points in box b: sampled overlap implies
  // the test says overlap; a clear separation along a box axis means no overlap.
  Aabb a{Vector3(0, 0, 0), Vector3(1, 0.5, 0.25)};
  Aabb b{Vector3(0, 0, 0), Vector3(0.3, 0.3, 0.3)};
  RigidTransform X = RigidTransform::Identity();
  X.linear() = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  for (double x = -2; x <= 2; x += 0.05) {
    X.translation() = Vector3(x, 0.1, 0.05);
    bool sampled = false;
    for (int i = -4; i <= 4 && !sampled; ++i)
      for (int j = -4; j <= 4 && !sampled; ++j)
        for (int k = -4; k <= 4 && !sampled; ++k) {
          const Vector3 p_A = X * (b.center + Vector3(i, j, k).cwiseProduct(b.half_size) / 4);
          sampled = ((p_A - a.center).cwiseAbs() - a.half_size).maxCoeff() <= 0;
        }
    if (sampled) {
      EXPECT_TRUE(BoxesOverlap(a, b, X)) << x;
    }
    if (std::abs(x) > 1 + 0.3 * std::sqrt(3.0)) {
      EXPECT_FALSE(BoxesOverlap(a, b, X)) << x;
    }
  }
}

TEST(BvhTest, CollideFindsExactlyTheOverlappingPairs) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1), s(0.01, 0.15);
  auto random_boxes = [&](int n, std::vector<Vector3>* lo, std::vector<Vector3>* hi) {
    for (int i = 0; i < n; ++i) {
      const Vector3 c(u(rng), u(rng), u(rng)), h(s(rng), s(rng), s(rng));
      lo->push_back(c - h);
      hi->push_back(c + h);
    }
  };
  std::vector<Vector3> lo_a, hi_a, lo_b, hi_b;
  random_boxes(300, &lo_a, &hi_a);
  random_boxes(200, &lo_b, &hi_b);
  Bvh bvh_a(lo_a, hi_a), bvh_b(lo_b, hi_b);
  RigidTransform X_AB = RigidTransform::Identity();
  X_AB.linear() = Eigen::AngleAxisd(0.4, Vector3(0, 1, 1).normalized()).toRotationMatrix();
  X_AB.translation() = Vector3(0.2, -0.1, 0.3);
  std::set<std::pair<int, int>> found;
  bvh_a.Collide(bvh_b, X_AB, [&](int i, int j) { EXPECT_TRUE(found.emplace(i, j).second); });
  // Every truly overlapping pair is found; everything found passes the six-axis test.
  int overlapping = 0, may_overlap = 0;
  for (size_t i = 0; i < lo_a.size(); ++i)
    for (size_t j = 0; j < lo_b.size(); ++j) {
      const Aabb a{0.5 * (lo_a[i] + hi_a[i]), 0.5 * (hi_a[i] - lo_a[i])};
      const Aabb b{0.5 * (lo_b[j] + hi_b[j]), 0.5 * (hi_b[j] - lo_b[j])};
      const bool is_found = found.count({static_cast<int>(i), static_cast<int>(j)}) > 0;
      if (BoxesOverlap(a, b, X_AB)) {
        ++overlapping;
        EXPECT_TRUE(is_found) << i << " " << j;
      }
      if (BoxesMayOverlap(a, b, X_AB)) {
        ++may_overlap;
      } else {
        EXPECT_FALSE(is_found) << i << " " << j;
      }
    }
  EXPECT_EQ(static_cast<int>(found.size()), may_overlap);
  EXPECT_GT(overlapping, 10);
  EXPECT_LE(may_overlap, overlapping + overlapping / 4);  // the six-axis test is nearly as tight

  // Value-range culling skips exactly the pairs whose ranges are disjoint.
  std::vector<std::array<double, 2>> ra(lo_a.size()), rb(lo_b.size());
  for (auto& r : ra) r[1] = (r[0] = u(rng)) + 0.3;
  for (auto& r : rb) r[1] = (r[0] = u(rng)) + 0.3;
  Bvh ranged_a(lo_a, hi_a, &ra), ranged_b(lo_b, hi_b, &rb);
  std::set<std::pair<int, int>> culled;
  ranged_a.Collide(
      ranged_b, X_AB, [&](int i, int j) { culled.emplace(i, j); }, true);
  int expected_culled = 0;
  for (const auto& [i, j] : found) {
    if (ra[i][1] < rb[j][0] || rb[j][1] < ra[i][0]) continue;
    ++expected_culled;
    EXPECT_TRUE(culled.count({i, j}));
  }
  EXPECT_EQ(static_cast<int>(culled.size()), expected_culled);
  EXPECT_LT(expected_culled, static_cast<int>(found.size()));

  // Slab query against brute force.
  const Vector3 n = Vector3(1, 2, -1).normalized();
  std::set<int> slab;
  bvh_a.CollideSlab(n, -0.1, 0.05, [&](int i) { slab.insert(i); });
  int slab_expected = 0;
  for (size_t i = 0; i < lo_a.size(); ++i) {
    const Vector3 c = 0.5 * (lo_a[i] + hi_a[i]), h = 0.5 * (hi_a[i] - lo_a[i]);
    const double r = n.cwiseAbs().dot(h);
    if (n.dot(c) + r >= -0.1 && n.dot(c) - r <= 0.05) {
      ++slab_expected;
      EXPECT_TRUE(slab.count(static_cast<int>(i)));
    }
  }
  EXPECT_EQ(static_cast<int>(slab.size()), slab_expected);
}

TEST(BvhTest, CollideInPiecesVisitsThePairsOfCollideInItsOrder) {
  // SplitCollide, then CollideFrom on each piece in order, is Collide exactly: the same element
  // pairs in the same order, for every number of pieces asked for.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1), s(0.01, 0.2);
  std::vector<Vector3> lo_a, hi_a, lo_b, hi_b;
  for (int i = 0; i < 400; ++i) {
    const Vector3 c(u(rng), u(rng), u(rng)), h(s(rng), s(rng), s(rng));
    lo_a.push_back(c - h), hi_a.push_back(c + h);
  }
  for (int i = 0; i < 250; ++i) {
    const Vector3 c(u(rng), u(rng), u(rng)), h(s(rng), s(rng), s(rng));
    lo_b.push_back(c - h), hi_b.push_back(c + h);
  }
  const Bvh a(lo_a, hi_a), b(lo_b, hi_b);
  RigidTransform X_AB = RigidTransform::Identity();
  X_AB.linear() = Eigen::AngleAxisd(0.3, Vector3(1, 0, 1).normalized()).toRotationMatrix();
  X_AB.translation() = Vector3(0.1, 0.2, -0.1);
  std::vector<std::pair<int, int>> whole;
  a.Collide(b, X_AB, [&](int i, int j) { whole.emplace_back(i, j); });
  ASSERT_GT(whole.size(), 500u);
  for (int max_pieces : {1, 2, 3, 5, 8, 16, 64}) {
    std::vector<std::pair<int, int>> pieces;
    std::array<Bvh::NodePair, Bvh::kMaxPieces> pending;
    const int n = a.SplitCollide(b, X_AB, false, max_pieces, pending.data());
    EXPECT_EQ(n, max_pieces) << "the trees are deep enough to split";
    for (int k = 0; k < n; ++k) a.CollideFrom(pending[k], b, X_AB, [&](int i, int j) { pieces.emplace_back(i, j); });
    EXPECT_EQ(pieces, whole) << max_pieces << " pieces";
  }
}

}  // namespace
}  // namespace hydro
