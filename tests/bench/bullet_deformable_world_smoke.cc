// Runs Bullet's own deformable world on three small scenes through BulletDeformableWorld and prints
// one line each: scene, steps, ms/step, stable or why not, final centroids.
//   build/release/tests/bench/bullet_deformable_world_smoke
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tests/bench/bullet_deformable_world.h"

namespace hydro {
namespace bench {
namespace {

// A box of `size` with its min corner at `origin`, n³ cubes of 6 tets each (Kuhn split).
TetMeshInput Cube(const std::string& name, double size, int n, const Eigen::Vector3d& origin, double E, double nu,
                  double rho, double friction) {
  TetMeshInput mesh;
  mesh.name = name;
  mesh.youngs_modulus_Pa = E;
  mesh.poisson_ratio = nu;
  mesh.density_kg_per_m3 = rho;
  mesh.friction = friction;
  auto id = [n](int i, int j, int k) { return (k * (n + 1) + j) * (n + 1) + i; };
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) mesh.vertices.push_back(origin + size / n * Eigen::Vector3d(i, j, k));
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& order : orders) {
          std::array<int, 3> c = {i, j, k};
          std::array<int, 4> t;
          t[0] = id(i, j, k);
          for (int s = 0; s < 3; ++s) {
            ++c[order[s]];
            t[s + 1] = id(c[0], c[1], c[2]);
          }
          mesh.tets.push_back(t);  // either orientation: the world reorders
        }
  return mesh;
}

void Print(const char* scene, const BulletDeformableResult& r) {
  std::printf("%-30s steps %3d  %7.3f ms/step  %s\n", scene, r.steps, 1e3 * r.seconds_per_step,
              r.stable ? "stable" : ("UNSTABLE: " + r.why_unstable).c_str());
  std::printf("%30s max speed %.3g m/s, lowest z %.4f m, tet volume ratio [%.3g, %.3g], centroid", "", r.max_speed,
              r.lowest_z, r.min_volume_ratio, r.max_volume_ratio);
  for (const auto& c : r.final_centroids) std::printf(" (%.4f, %.4f, %.4f)", c.x(), c.y(), c.z());
  std::printf("\n");
}

int Main() {
  constexpr double kSize = 0.1;
  constexpr int kCells = 4;
  {
    // 1. A soft cube dropped from 2 cm onto the ground: should rest with its centroid near 0.05 m.
    BulletDeformableScene scene;
    scene.dt = 0.01;
    scene.deformables.push_back(Cube("soft cube", kSize, kCells, {-0.05, -0.05, 0.02}, 1e5, 0.3, 1000, 1.0));
    BulletDeformableWorld world(scene);
    Print("1 drop soft cube, 1 s", world.Run(100));
  }
  {
    // 2. The same cube squeezed along x between two kinematic boxes, each moving inward at
    //    0.02 m/s from touching it; no gravity, no ground. Symmetric: the centroid should stay put.
    BulletDeformableScene scene;
    scene.dt = 0.01;
    scene.ground_plane = false;
    scene.gravity = Eigen::Vector3d::Zero();
    scene.deformables.push_back(Cube("soft cube", kSize, kCells, {-0.05, -0.05, -0.05}, 1e5, 0.3, 1000, 1.0));
    const Eigen::Vector3d half(0.02, 0.08, 0.08);
    scene.boxes.push_back({half, {-0.05 - half.x(), 0, 0}, 0.5, {0.02, 0, 0}});
    scene.boxes.push_back({half, {0.05 + half.x(), 0, 0}, 0.5, {-0.02, 0, 0}});
    BulletDeformableWorld world(scene);
    const BulletDeformableResult r = world.Run(50);
    Print("2 squeeze, 0.5 s", r);
    double min_x = 1, max_x = -1;
    for (const auto& x : world.NodePositions(0)) {
      min_x = std::min(min_x, x.x());
      max_x = std::max(max_x, x.x());
    }
    std::printf("%30s cube x extent %.4f m; the boxes' inner faces are %.4f m apart\n", "", max_x - min_x,
                kSize - 2 * 0.02 * world.time());
  }
  {
    // 3. Two stiff cubes (concrete-like: E = 20 GPa, ν = 0.2) stacked on the ground, dt = 40 ms for
    //    2 s; each starts 0.5 mm clear of the contact margin below it.
    BulletDeformableScene scene;
    scene.dt = 0.04;
    const double margin = scene.settings.collision_margin;
    const double z_lower = margin + 0.0005, z_upper = z_lower + kSize + 2 * margin + 0.0005;
    scene.deformables.push_back(Cube("lower cube", kSize, kCells, {-0.05, -0.05, z_lower}, 20e9, 0.2, 2300, 1.0));
    scene.deformables.push_back(Cube("upper cube", kSize, kCells, {-0.05, -0.05, z_upper}, 20e9, 0.2, 2300, 1.0));
    BulletDeformableWorld world(scene);
    Print("3 stiff stack, dt 40 ms, 2 s", world.Run(50));
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace hydro

int main() { return hydro::bench::Main(); }
