// FEM step costs: Eigen's SimplicialLDLT against SuiteSparse CHOLMOD on the step matrix of
// 002 eq. 11, and whole corotational steps at 10 ms, for bodies the size of 002 §VII's
// scenes (~225 DoFs, ~1,200 and ~4,000 tets). Run: build/release/tests/bench/fem_bench
//   BM_Factor*/T: T = number of tets; BM_Step/T reports real_time_factor = δt / step time.
//   BM_{Arch,Grasp,CylinderPress}{Ours,Bullet}: 002 §VII's scenes with btDeformableBodies in a
//   Bullet world and with Bullet's own deformable world (tests/bench/bullet_deformable_world.h).
#include <benchmark/benchmark.h>

#include <Eigen/SparseCholesky>
#ifdef HYDRO_BENCH_CHOLMOD
#include <Eigen/CholmodSupport>
#endif

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <LinearMath/btDefaultMotionState.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "adapters/hydroelastic_properties.h"
#include "adapters/shape_registry.h"
#include "fem/btDeformableBodies.h"
#include "fem/fem_body.h"
#include "hydro/make_cylinder_mesh.h"
#include "tests/bench/bullet_deformable_world.h"
#include "tests/fem/fem_scenes.h"
#include "tests/fem/fem_test_world.h"
#include "tests/fem/gripper_scene.h"

namespace hydro {
namespace fem {
namespace {

// A soft block of about `tets` tets (cells of 6 tets, 2:1:1 proportions), bottom face fixed.
FemBody Block(int tets) {
  int n = 1;
  while (6 * (2 * n) * n * n < tets) ++n;
  std::vector<Vector3> vertices;
  std::vector<Tet> elements;
  MakeTetGrid(Vector3(0.2, 0.1, 0.1), 2 * n, n, n, &vertices, &elements);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.4;
  FemBody body("block", vertices, elements, material);
  for (int v = 0; v < body.num_vertices(); ++v)
    if (body.rest_positions()[v].z() == 0) body.FixVertex(v);
  return body;
}

void Counters(benchmark::State& state, const FemBody& body) {
  state.counters["tets"] = body.num_tets();
  state.counters["dofs"] = 3 * body.num_vertices();
}

void BM_FactorSimplicialLDLT(benchmark::State& state) {
  const FemBody body = Block(static_cast<int>(state.range(0)));
  const Eigen::SparseMatrix<double> A = body.StepMatrix(0.01);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver;
  solver.analyzePattern(A);
  for (auto _ : state) {
    solver.factorize(A);
    benchmark::DoNotOptimize(solver.info());
  }
  Counters(state, body);
}
BENCHMARK(BM_FactorSimplicialLDLT)->Arg(40)->Arg(1200)->Arg(4000)->Unit(benchmark::kMicrosecond);

#ifdef HYDRO_BENCH_CHOLMOD
void BM_FactorCholmod(benchmark::State& state) {
  const FemBody body = Block(static_cast<int>(state.range(0)));
  const Eigen::SparseMatrix<double> A = body.StepMatrix(0.01);
  Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>> solver;
  solver.analyzePattern(A);
  for (auto _ : state) {
    solver.factorize(A);
    benchmark::DoNotOptimize(solver.info());
  }
  Counters(state, body);
}
BENCHMARK(BM_FactorCholmod)->Arg(40)->Arg(1200)->Arg(4000)->Unit(benchmark::kMicrosecond);
#endif

void BM_Step(benchmark::State& state) {
  FemBody body = Block(static_cast<int>(state.range(0)));
  const double dt = 0.01;
  StepTimings total;
  for (auto _ : state) {
    body.Step(dt, Vector3(0, 0, -9.81));
    total.assembly_s += body.last_step_timings().assembly_s;
    total.factorization_s += body.last_step_timings().factorization_s;
    total.solve_s += body.last_step_timings().solve_s;
  }
  const double steps = static_cast<double>(state.iterations());
  state.counters["assembly_ms"] = 1e3 * total.assembly_s / steps;
  state.counters["factorization_ms"] = 1e3 * total.factorization_s / steps;
  state.counters["solve_ms"] = 1e3 * total.solve_s / steps;
  state.counters["real_time_factor"] =
      benchmark::Counter(dt * steps, benchmark::Counter::kIsRate);  // simulated seconds per wall second
  Counters(state, body);
}
BENCHMARK(BM_Step)->Arg(40)->Arg(1200)->Arg(4000)->Unit(benchmark::kMillisecond);

// ---- 002 §VII's scenes: ours (btDeformableBodies) against Bullet's deformable world. ----

using Clock = std::chrono::steady_clock;

using hydro::test::FemTestWorld;

// Times steps of our deformables and sums getLastTimings() and the contact counts.
class OurSteps {
 public:
  OurSteps(const btDeformableBodies& deformables, double dt) : deformables_(deformables), dt_(dt) {}
  template <typename StepFn>
  double Run(int steps, StepFn&& step) {  // wall seconds
    double seconds = 0;
    for (int i = 0; i < steps; ++i) {
      const auto start = Clock::now();
      step();
      seconds += std::chrono::duration<double>(Clock::now() - start).count();
      const btDeformableBodies::StepTimings& t = deformables_.getLastTimings();
      sum_.assembly += t.assembly;
      sum_.factorization += t.factorization;
      sum_.geometry += t.geometry;
      sum_.schur += t.schur;
      sum_.newton += t.newton;
      sum_.total += t.total;
      contacts_ += deformables_.getLastNumContacts();
      min_contacts_ = std::min(min_contacts_, deformables_.getLastNumContacts());
      for (const auto& report : deformables_.getLastReports()) converged_ = converged_ && report.converged;
      if (!deformables_.getLastReports().empty()) iterations_ += deformables_.getLastReports()[0].iterations;
    }
    seconds_ += seconds;
    steps_ += steps;
    return seconds;
  }
  void Report(benchmark::State& state, int dofs) const {
    const double n = std::max(steps_, 1);
    state.counters["real_time_factor"] = dt_ * steps_ / seconds_;
    state.counters["ms_per_step"] = 1e3 * seconds_ / n;
    state.counters["assembly_ms"] = 1e3 * sum_.assembly / n;
    state.counters["factorization_ms"] = 1e3 * sum_.factorization / n;
    state.counters["geometry_ms"] = 1e3 * sum_.geometry / n;
    state.counters["schur_ms"] = 1e3 * sum_.schur / n;
    state.counters["newton_ms"] = 1e3 * sum_.newton / n;
    state.counters["total_ms"] = 1e3 * sum_.total / n;
    state.counters["dofs"] = dofs;
    state.counters["contacts"] = contacts_ / n;
    state.counters["min_contacts"] = min_contacts_;
    state.counters["converged"] = converged_;
    state.counters["newton_iterations"] = iterations_ / n;
  }

 private:
  const btDeformableBodies& deformables_;
  double dt_;
  btDeformableBodies::StepTimings sum_;
  double seconds_ = 0, contacts_ = 0, iterations_ = 0;
  int steps_ = 0, min_contacts_ = std::numeric_limits<int>::max();
  bool converged_ = true;
};

// Bullet's world on `scene`: `warmup` untimed steps, then `steps` per iteration while stable;
// centroid_dz_mm: how far mesh `watch` moved up over the timed steps.
void RunBulletScene(benchmark::State& state, const bench::BulletDeformableScene& scene, int warmup, int steps,
                    const char* name, int watch = 0) {
  bench::BulletDeformableWorld world(scene);
  const bench::BulletDeformableResult warm = world.Run(warmup);
  const double z_warm = world.Centroid(watch).z();
  bench::BulletDeformableResult last = warm;
  double seconds = 0;
  int done = 0;
  for (auto _ : state) {
    double iteration_seconds = 0;
    if (last.stable) {
      last = world.Run(steps);
      iteration_seconds = last.seconds_per_step * last.steps;
      seconds += iteration_seconds;
      done += last.steps;
    }
    state.SetIterationTime(iteration_seconds);
  }
  if (done == 0) {  // unstable in the warm-up: report its timing
    seconds = warm.seconds_per_step * warm.steps;
    done = warm.steps;
  }
  const double min_ratio = std::min(warm.min_volume_ratio, last.min_volume_ratio);
  int vertices = 0;
  for (const auto& mesh : scene.deformables) vertices += static_cast<int>(mesh.vertices.size());
  state.counters["ms_per_step"] = done > 0 ? 1e3 * seconds / done : 0;
  state.counters["real_time_factor"] = seconds > 0 ? scene.dt * done / seconds : 0;
  state.counters["stable"] = last.stable;
  state.counters["dofs"] = 3 * vertices;
  state.counters["min_vol_ratio"] = min_ratio;
  state.counters["max_vol_ratio"] = std::max(warm.max_volume_ratio, last.max_volume_ratio);
  state.counters["centroid_dz_mm"] = 1e3 * (world.Centroid(watch).z() - z_warm);
  std::printf("%s, Bullet's deformable world: %s%s\n", name, last.stable ? "stable" : last.why_unstable.c_str(),
              last.stable && min_ratio <= 0 ? " (by its checks; but tets inverted: see min_vol_ratio)" : "");
}

bench::TetMeshInput BulletMesh(const std::string& name, const std::vector<Vector3>& vertices,
                               const std::vector<Tet>& tets, const Material& material, double friction) {
  bench::TetMeshInput mesh;
  mesh.name = name;
  mesh.vertices = vertices;
  mesh.tets = tets;
  mesh.youngs_modulus_Pa = material.youngs_modulus_Pa;
  mesh.poisson_ratio = material.poisson_ratio;
  mesh.density_kg_per_m3 = material.density_kg_per_m3;
  mesh.friction = friction;
  mesh.damping_beta = material.stiffness_damping_s;
  mesh.damping_alpha = material.mass_damping_1_per_s;
  return mesh;
}

constexpr double kArchDt = 0.04;
// 10 s of the standing arch after 5 warm-up steps: 002's rate is over its whole run, and the
// first second, while the joints settle, takes more Newton iterations than the rest.
constexpr int kArchWarmup = 5, kArchSteps = 250;

std::vector<scenes::TetMesh> ArchMeshes() { return scenes::MakeArch(9, 0.5, 0.15, 0.2, 2e-5); }

// Arch of nine stiff voussoirs (002 §VII-B), ours, δt = 40 ms: 250 steps (10 s) after 5 warm-up steps.
void BM_ArchOurs(benchmark::State& state) {
  FemTestWorld world(FemTestWorld::Ground::kPlane);
  world.ground()->setFriction(1.0);
  std::vector<std::unique_ptr<FemBody>> blocks;
  int dofs = 0;
  for (const scenes::TetMesh& mesh : ArchMeshes()) {
    blocks.push_back(std::make_unique<FemBody>("voussoir", mesh.vertices, mesh.tets, scenes::StoneMaterial()));
    dofs += 3 * blocks.back()->num_vertices();
  }
  btDeformableBodies deformables(world.world());
  for (auto& block : blocks) {
    deformables.addBody(block.get(), 1.0);
    deformables.setTriangleFanContact(block.get(), true);
  }
  deformables.setStictionSpeed(1e-6);
  const FemBody& keystone = *blocks[blocks.size() / 2];
  const double crown0 = keystone.CalcCenterOfMass().z();
  auto step = [&] { world.Step(1, kArchDt); };
  OurSteps(deformables, kArchDt).Run(kArchWarmup, step);
  const double crown_warm = keystone.CalcCenterOfMass().z();
  OurSteps timed(deformables, kArchDt);
  for (auto _ : state) state.SetIterationTime(timed.Run(kArchSteps, step));
  timed.Report(state, dofs);
  state.counters["keystone_drop_um"] = 1e6 * (crown_warm - keystone.CalcCenterOfMass().z());
  state.counters["keystone_drop_total_um"] = 1e6 * (crown0 - keystone.CalcCenterOfMass().z());
}
BENCHMARK(BM_ArchOurs)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

// The same arch in Bullet's deformable world, δt = 40 ms: the same steps.
void BM_ArchBullet(benchmark::State& state) {
  bench::BulletDeformableScene scene;
  scene.dt = kArchDt;
  scene.ground_friction = 1.0;
  int k = 0;
  for (const scenes::TetMesh& mesh : ArchMeshes())
    scene.deformables.push_back(
        BulletMesh("voussoir " + std::to_string(k++), mesh.vertices, mesh.tets, scenes::StoneMaterial(), 1.0));
  RunBulletScene(state, scene, kArchWarmup, kArchSteps, "arch", 4);  // the keystone
}
BENCHMARK(BM_ArchBullet)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

constexpr double kGraspDt = 0.01, kGraspSize = 0.06, kGraspE = 5e4;
constexpr int kGraspCells = 6, kGraspWarmup = 60, kGraspSteps = 30;

// Gripper closing on a soft cube (1,296 tets) and lifting it, ours, δt = Arg ms: the lift from
// 0.6 s to 0.9 s (at 10 ms, steps 61–90).
void BM_GraspOurs(benchmark::State& state) {
  const double dt = 1e-3 * static_cast<double>(state.range(0));
  scenes::GripperScene scene(kGraspSize, kGraspCells, kGraspE, 1.0);
  auto step = [&] { scene.Step(dt); };
  OurSteps(scene.deformables(), dt).Run(static_cast<int>(std::lround(kGraspWarmup * kGraspDt / dt)), step);
  const double z_warm = scene.object().CalcCenterOfMass().z();
  const double grip_warm = scene.ObjectHeightInGrip(), lift_warm = scene.lift_height();
  OurSteps timed(scene.deformables(), dt);
  for (auto _ : state)
    state.SetIterationTime(timed.Run(static_cast<int>(std::lround(kGraspSteps * kGraspDt / dt)), step));
  timed.Report(state, 3 * scene.object().num_vertices());
  state.counters["tets"] = scene.object().num_tets();
  state.counters["object_rise_mm"] = 1e3 * (scene.object().CalcCenterOfMass().z() - z_warm);
  state.counters["lift_rise_mm"] = 1e3 * (scene.lift_height() - lift_warm);
  state.counters["slip_in_grip_mm"] = 1e3 * (grip_warm - scene.ObjectHeightInGrip());
}
BENCHMARK(BM_GraspOurs)->Arg(10)->Arg(20)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

// The same cube squeezed by two kinematic boxes closing at 10 mm/s in Bullet's world: steps 61–90.
void BM_GraspBullet(benchmark::State& state) {
  const scenes::TetMesh cube = scenes::MakeSoftCube(kGraspSize, kGraspCells);
  const std::vector<Vector3>& vertices = cube.vertices;
  const std::vector<Tet>& tets = cube.tets;
  const Material soft = scenes::SoftCubeMaterial(kGraspE);
  bench::BulletDeformableScene scene;
  scene.dt = kGraspDt;
  scene.deformables.push_back(BulletMesh("soft cube", vertices, tets, soft, 1.0));
  // The scene's fingers, 3 mm clear of the cube as there (from touching, Bullet blows up by step 9).
  const Eigen::Vector3d half(0.01, 0.6 * kGraspSize, 0.4 * kGraspSize);
  const double x = 0.5 * kGraspSize + half.x() + 0.003, z = 0.5 * kGraspSize;
  scene.boxes.push_back({half, {-x, 0, z}, 1.0, {0.01, 0, 0}});
  scene.boxes.push_back({half, {x, 0, z}, 1.0, {-0.01, 0, 0}});
  RunBulletScene(state, scene, kGraspWarmup, kGraspSteps, "grasp");
}
BENCHMARK(BM_GraspBullet)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

constexpr double kPressDt = 0.01, kPressSpeed = 0.02, kCylinderHint = 0.035;
constexpr int kPressWarmup = 5, kPressSteps = 10;

// A cylinder (r 0.2 m, length 0.1 m) on its side, resting on z = 0: 4,860 tets at hint 0.035 m.
scenes::TetMesh LyingCylinder() {
  const VolumeMeshWithExtent cylinder = MakeCylinderVolumeMesh(0.2, 0.1, kCylinderHint);
  scenes::TetMesh mesh;
  double lowest = std::numeric_limits<double>::infinity();
  for (const Vector3& p : cylinder.mesh->vertices()) {
    mesh.vertices.emplace_back(p.x(), p.z(), p.y());
    lowest = std::min(lowest, p.y());
  }
  for (Vector3& p : mesh.vertices) p.z() -= lowest;
  for (Tet t : cylinder.mesh->tets()) {
    std::swap(t[2], t[3]);  // the axis swap is a reflection
    mesh.tets.push_back(t);
  }
  return mesh;
}

Material Rubber() {
  Material rubber;
  rubber.youngs_modulus_Pa = 2.8e6;
  rubber.poisson_ratio = 0.45;
  rubber.density_kg_per_m3 = 1000;
  rubber.stiffness_damping_s = 0.01;
  return rubber;
}

double Top(const std::vector<Vector3>& vertices) {
  double top = -std::numeric_limits<double>::infinity();
  for (const Vector3& p : vertices) top = std::max(top, p.z());
  return top;
}

// A kinematic plate pressing a lying cylinder onto the floor at 20 mm/s, ours, no gravity, δt = 10 ms:
// 10 steps after 5 warm-up steps.
void BM_CylinderPressOurs(benchmark::State& state) {
  const scenes::TetMesh mesh = LyingCylinder();
  std::printf("cylinder press: %zu tets, %zu vertices\n", mesh.tets.size(), mesh.vertices.size());
  FemBody cylinder("cylinder", mesh.vertices, mesh.tets, Rubber());
  FemTestWorld world(FemTestWorld::Ground::kPlane);
  world.world()->setGravity(btVector3(0, 0, 0));
  world.ground()->setFriction(1.0);
  btBoxShape plate_shape(btVector3(0.3, 0.2, 0.02));
  btHydroelasticProperties rigid_props;
  rigid_props.m_kind = btHydroelasticProperties::RIGID;
  rigid_props.m_resolutionHint = 0.05;
  hydroSetHydroelastic(&plate_shape, rigid_props);
  const double top0 = Top(mesh.vertices), plate_z0 = top0 + 0.02;
  btTransform X_plate;
  X_plate.setIdentity();
  X_plate.setOrigin(btVector3(0, 0, plate_z0));
  btDefaultMotionState plate_motion(X_plate);
  world.AddKinematicBody(&plate_shape, &plate_motion)->setFriction(1.0);
  {
    btDeformableBodies deformables(world.world());
    deformables.addBody(&cylinder, 1.0);
    double t = 0;
    auto step = [&] {
      t += kPressDt;
      X_plate.setOrigin(btVector3(0, 0, plate_z0 - kPressSpeed * t));
      plate_motion.setWorldTransform(X_plate);
      world.Step(1, kPressDt);
    };
    OurSteps(deformables, kPressDt).Run(kPressWarmup, step);
    OurSteps timed(deformables, kPressDt);
    for (auto _ : state) state.SetIterationTime(timed.Run(kPressSteps, step));
    timed.Report(state, 3 * cylinder.num_vertices());
    std::vector<Vector3> positions;
    for (int v = 0; v < cylinder.num_vertices(); ++v) positions.push_back(cylinder.position(v));
    double bottom = std::numeric_limits<double>::infinity();
    for (const Vector3& p : positions) bottom = std::min(bottom, p.z());
    state.counters["tets"] = cylinder.num_tets();
    state.counters["plate_travel_mm"] = 1e3 * kPressSpeed * t;
    state.counters["squash_mm"] = 1e3 * (top0 - (Top(positions) - bottom));
    state.counters["bottom_z_mm"] = 1e3 * bottom;
  }
  hydroRemoveShape(&plate_shape);
}
BENCHMARK(BM_CylinderPressOurs)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

// The same press in Bullet's world (kinematic box at 20 mm/s, no gravity): 10 steps after 5 warm-up.
void BM_CylinderPressBullet(benchmark::State& state) {
  const scenes::TetMesh mesh = LyingCylinder();
  bench::BulletDeformableScene scene;
  scene.dt = kPressDt;
  scene.gravity = Eigen::Vector3d::Zero();
  scene.deformables.push_back(BulletMesh("cylinder", mesh.vertices, mesh.tets, Rubber(), 1.0));
  scene.boxes.push_back({{0.3, 0.2, 0.02}, {0, 0, Top(mesh.vertices) + 0.02}, 1.0, {0, 0, -kPressSpeed}});
  RunBulletScene(state, scene, kPressWarmup, kPressSteps, "cylinder press");
}
BENCHMARK(BM_CylinderPressBullet)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fem
}  // namespace hydro

BENCHMARK_MAIN();
