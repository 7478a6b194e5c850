#include "hydro/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"

namespace hydro {
namespace {

TEST(ParallelForTest, RunsEveryTaskOnceOnEveryNumberOfThreads) {
  for (int threads : {1, 2, 3, 8}) {
    ScopedContactThreads scoped(threads);
    for (int n : {0, 1, 2, 7, 100}) {
      std::vector<std::atomic<int>> runs(n);
      ParallelFor(n, [&](int i) { runs[i].fetch_add(1); });
      for (int i = 0; i < n; ++i) EXPECT_EQ(runs[i].load(), 1) << threads << " threads, task " << i << " of " << n;
    }
  }
}

TEST(ParallelForTest, UsesTheOtherThreadsWhenAllowed) {
  ScopedContactThreads scoped(2);
  // Two tasks that each wait for the other to start can only finish on two threads.
  std::atomic<int> started{0};
  std::vector<std::thread::id> ran_on(2);
  ParallelFor(2, [&](int i) {
    started.fetch_add(1);
    while (started.load() < 2) std::this_thread::yield();
    ran_on[i] = std::this_thread::get_id();
  });
  EXPECT_NE(ran_on[0], ran_on[1]);
}

TEST(ParallelForTest, RethrowsATasksExceptionAfterAllTasksRan) {
  for (int threads : {1, 2}) {
    ScopedContactThreads scoped(threads);
    std::atomic<int> ran{0};
    EXPECT_THROW(ParallelFor(16,
                             [&](int i) {
                               ran.fetch_add(1);
                               if (i == 5) throw std::runtime_error("task 5");
                             }),
                 std::runtime_error);
    EXPECT_EQ(ran.load(), 16) << threads << " threads";
  }
}

TEST(ParallelForTest, ANestedCallRunsOnItsCaller) {
  ScopedContactThreads scoped(2);
  std::vector<std::atomic<int>> runs(4 * 4);
  ParallelFor(4, [&](int i) { ParallelFor(4, [&](int j) { runs[4 * i + j].fetch_add(1); }); });
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
}

TEST(ParallelForTest, TheThreadCountIsClamped) {
  ScopedContactThreads scoped(1);
  SetContactThreads(0);
  EXPECT_EQ(ContactThreads(), 1);
  SetContactThreads(1000);
  EXPECT_EQ(ContactThreads(), kMaxContactThreads);
}

// The surfaces split across threads (hydro/contact_surface_util.h) are bit for bit the one-thread
// surfaces: the same polygons, in the same order, with the same vertices and pressures.
void ExpectSameSurface(const ContactSurface& a, const ContactSurface& b, const char* what) {
  ASSERT_EQ(a.num_polygons(), b.num_polygons()) << what;
  EXPECT_TRUE(a.vertices() == b.vertices()) << what;
  EXPECT_TRUE(a.pressures() == b.pressures()) << what;
  for (int i = 0; i < a.num_polygons(); ++i) {
    const ContactPolygon &p = a.polygon(i), &q = b.polygon(i);
    EXPECT_TRUE(p.first_vertex == q.first_vertex && p.num_vertices == q.num_vertices && p.p_WC == q.p_WC &&
                p.nhat_BA_W == q.nhat_BA_W && p.area_m2 == q.area_m2 &&
                p.pressure_at_centroid_Pa == q.pressure_at_centroid_Pa && p.element_A == q.element_A &&
                p.element_B == q.element_B)
        << what << ", polygon " << i;
  }
}

TEST(ParallelForTest, SurfacesOnSeveralThreadsEqualTheOneThreadSurfacesBitForBit) {
  // Two compliant boxes face on face, tilted and off-centre, and a compliant sphere on a rigid box.
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(0.2, 0.2, 0.2), 0.02), 1e7);
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(0.1, 0.01), 1e6);
  const RigidMesh rigid_box(MakeBoxSurfaceMesh(Vector3(0.3, 0.3, 0.1), 0.01));
  RigidTransform X_WA = RigidTransform::Identity(), X_WB = RigidTransform::Identity();
  X_WB.linear() = Eigen::AngleAxisd(0.02, Vector3(1, 2, 0).normalized()).toRotationMatrix();
  X_WB.translation() = Vector3(0.03, -0.02, 0.199);
  RigidTransform X_WS = RigidTransform::Identity(), X_WR = RigidTransform::Identity();
  X_WS.translation() = Vector3(0.01, 0.02, 0.149);
  ContactSurface boxes[3], ball[3];
  const int threads[3] = {1, 2, 3};
  for (int k = 0; k < 3; ++k) {
    ScopedContactThreads scoped(threads[k]);
    CalcContactSurface(box, X_WA, box, X_WB, &boxes[k]);
    CalcContactSurface(sphere, X_WS, rigid_box, X_WR, &ball[k]);
  }
  // Large enough that the queries are split (contact_surface_util.cc: 512 nodes in both trees).
  ASSERT_GE(2 * box.bvh().num_nodes(), 512);
  ASSERT_GE(sphere.bvh().num_nodes() + rigid_box.bvh().num_nodes(), 512);
  ASSERT_GT(boxes[0].num_polygons(), 100);
  ASSERT_GT(ball[0].num_polygons(), 100);
  for (int k = 1; k < 3; ++k) {
    ExpectSameSurface(boxes[0], boxes[k], "two compliant boxes");
    ExpectSameSurface(ball[0], ball[k], "compliant ball on a rigid box");
  }
}

}  // namespace
}  // namespace hydro
