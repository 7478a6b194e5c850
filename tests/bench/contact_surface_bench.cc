// Contact-surface cost (Google Benchmark): time per query, polygons produced and time per polygon
// for eight scenes at three resolutions each. Run: build/release/tests/bench/hydro_bench
#include <benchmark/benchmark.h>

#include "hydro/compliant_box.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "tests/test_poses.h"

namespace hydro {
namespace {

using test::Translation;

template <typename GeometryA, typename GeometryB>
void Run(benchmark::State& state, const GeometryA& a, const RigidTransform& X_WA, const GeometryB& b,
         const RigidTransform& X_WB, int elements) {
  ContactSurface surface;
  for (auto _ : state) {
    CalcContactSurface(a, X_WA, b, X_WB, &surface);
    benchmark::DoNotOptimize(surface.polygons().data());
  }
  const double polygons = surface.num_polygons();
  state.counters["polygons"] = polygons;
  state.counters["elements"] = elements;
  // Seconds per polygon, shown by Google Benchmark as time units per polygon.
  state.counters["time_per_polygon"] =
      benchmark::Counter(polygons * state.iterations(), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Compliant sphere R = 5 cm (hint R/k) pressed 1 cm into the top face of a rigid box.
void BM_CompliantSphereVsRigidBoxFace(benchmark::State& state) {
  const double R = 0.05;
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(R, R / state.range(0)), 1e5);
  const RigidMesh box(MakeBoxSurfaceMesh(Vector3(0.3, 0.3, 0.1), R / state.range(0)));
  Run(state, sphere, Translation(Vector3(0.003, 0.002, 0.05 + R - 0.01)), box, RigidTransform::Identity(),
      sphere.mesh().num_tets());
}
BENCHMARK(BM_CompliantSphereVsRigidBoxFace)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

// Two compliant spheres R = 5 cm overlapping by 2 cm, off-axis.
void BM_CompliantSphereVsCompliantSphere(benchmark::State& state) {
  const double R = 0.05;
  const CompliantMesh sphere = MakeCompliantMesh(MakeSphereVolumeMesh(R, R / state.range(0)), 1e5);
  RigidTransform X_WB = Translation(Vector3(2 * R - 0.02, 0.004, 0.003));
  X_WB.linear() = Eigen::AngleAxisd(0.5, Vector3(1, 1, 0).normalized()).toRotationMatrix();
  Run(state, sphere, RigidTransform::Identity(), sphere, X_WB, 2 * sphere.mesh().num_tets());
}
BENCHMARK(BM_CompliantSphereVsCompliantSphere)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

// A wall's brick, 0.2 × 0.1 × 0.1 m at 1e8 Pa and hint 10 cm / k (k = 4 is the plugin's default):
// its mesh, and its field in closed form (hydro/compliant_box.h).
struct Brick {
  explicit Brick(int k)
      : mesh(MakeCompliantMesh(MakeBoxVolumeMesh(kSize, 0.1 / k), 1e8)), box(kSize, 1e8, 0.1 / k, mesh) {}
  static inline const Vector3 kSize{0.2, 0.1, 0.1};
  CompliantMesh mesh;
  CompliantBox box;
};

// A brick landing on another at half a brick's offset: 10 µm deep (about its rest depth at 1e8 Pa)
// and tilted by 1 mrad, so a wedge of a fifth of the overlap touches.
RigidTransform LandingPose() {
  RigidTransform X_WB = Translation(Vector3(0.1, 0.0005, 0.1 - 1e-5));
  X_WB.linear() = Eigen::AngleAxisd(1e-3, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  return X_WB;
}

// The same bricks as a program lays them on a grid, a wall's or a stack's (BM_StepWall): axis-aligned,
// the upper one at half a brick's offset and 1 µm deep, so the two meshes' vertical tet faces
// coincide. All of the overlap touches.
RigidTransform GridPose() { return Translation(Vector3(0.1, 0, 0.1 - 1e-6)); }

void BM_CompliantBrickOnBrick(benchmark::State& state) {
  const Brick brick(state.range(0));
  Run(state, brick.mesh, RigidTransform::Identity(), brick.mesh, LandingPose(), 2 * brick.mesh.mesh().num_tets());
}
BENCHMARK(BM_CompliantBrickOnBrick)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

void BM_CompliantBrickOnBrickAligned(benchmark::State& state) {
  const Brick brick(state.range(0));
  Run(state, brick.mesh, RigidTransform::Identity(), brick.mesh, GridPose(), 2 * brick.mesh.mesh().num_tets());
}
BENCHMARK(BM_CompliantBrickOnBrickAligned)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

// The same two scenes with the bricks' fields in closed form, as the plugin computes box pairs: the
// same surface in fewer pieces, one per cell of both surface grids (elements: 36 region pairs).
void BM_ClosedFormBrickOnBrick(benchmark::State& state) {
  const Brick brick(state.range(0));
  Run(state, brick.box, RigidTransform::Identity(), brick.box, LandingPose(), 36);
}
BENCHMARK(BM_ClosedFormBrickOnBrick)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

void BM_ClosedFormBrickOnBrickAligned(benchmark::State& state) {
  const Brick brick(state.range(0));
  Run(state, brick.box, RigidTransform::Identity(), brick.box, GridPose(), 36);
}
BENCHMARK(BM_ClosedFormBrickOnBrickAligned)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

// The brick resting 1 µm deep on a rigid ground box (4 × 4 × 1 m at the plugin's default hint for
// it, a sixteenth of its length), as the bottom course of a wall: range(1) = 0 the meshes, 1 the
// closed form (hydro/compliant_box.h).
void BM_CompliantBrickOnRigidBox(benchmark::State& state) {
  const Brick brick(state.range(0));
  const Vector3 ground_size(4, 4, 1);
  const double ground_hint = 4.0 / 16;
  const RigidMesh ground(MakeBoxSurfaceMesh(ground_size, ground_hint));
  const RigidTransform X_WA = Translation(Vector3(0.3, 0.1, 0.55 - 1e-6));
  if (state.range(1) == 0) {
    Run(state, brick.mesh, X_WA, ground, RigidTransform::Identity(), brick.mesh.mesh().num_tets());
  } else {
    const RigidBox ground_box(ground_size, ground_hint, ground.mesh());
    Run(state, brick.box, X_WA, ground_box, RigidTransform::Identity(), 36);
  }
}
BENCHMARK(BM_CompliantBrickOnRigidBox)->ArgsProduct({{4, 8, 16}, {0, 1}})->Unit(benchmark::kMicrosecond);

// Compliant 10 cm cube (hint 10 cm / k) resting 5 mm deep in a rigid half-space, slightly tilted.
void BM_CompliantBoxVsRigidHalfSpace(benchmark::State& state) {
  const double L = 0.1;
  const CompliantMesh box = MakeCompliantMesh(MakeBoxVolumeMesh(Vector3(L, L, L), L / state.range(0)), 1e6);
  RigidTransform X_WA = Translation(Vector3(0, 0, L / 2 - 0.005));
  X_WA.linear() = Eigen::AngleAxisd(0.02, Vector3(1, 2, 0).normalized()).toRotationMatrix();
  Run(state, box, X_WA, RigidHalfSpace{}, RigidTransform::Identity(), box.mesh().num_tets());
}
BENCHMARK(BM_CompliantBoxVsRigidHalfSpace)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hydro

BENCHMARK_MAIN();
