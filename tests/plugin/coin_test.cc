// The sliding-and-spinning coin of 000 §V-A: R = 12.13 mm, 1.75 mm thick, 5.67 g, μ = 0.2, 1 ms
// steps. The coin is rigid and the floor a compliant slab, so the pressure under the coin is uniform
// (the case the reference below assumes). ε = v/(ωR) is compared against a rigid disk with uniform
// pressure and Coulomb friction integrated accurately here (Farkas et al. 2003: ε → 0.653 as the
// coin stops).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "test_world.h"

namespace hydro {
namespace {

constexpr double kRadius = 0.01213, kHalfThickness = 0.000875, kMass = 0.00567, kMu = 0.2, kGravity = 9.81;
constexpr double kStartSpeed = 0.5;                              // u = √(v² + (ωR)²) at the start, m/s
const std::array<double, 4> kLevels = {0.10, 0.05, 0.02, 0.01};  // u/u0 at which ε is recorded

// Records ε where u crosses each level, interpolating linearly in ln u between two samples: at
// 1 ms steps u falls by ~20 % of the 2 % level per step, far too coarse to read ε off a sample.
class LevelCrossings {
 public:
  LevelCrossings() { values_.fill(std::nan("")); }
  void Add(double u, double eps) {
    while (next_ < kLevels.size() && u < kLevels[next_] * kStartSpeed) {
      const double target = std::log(kLevels[next_] * kStartSpeed);
      const double t = last_u_ > 0 ? (target - std::log(last_u_)) / (std::log(u) - std::log(last_u_)) : 1.0;
      values_[next_++] = last_u_ > 0 ? last_eps_ + t * (eps - last_eps_) : eps;
    }
    last_u_ = u;
    last_eps_ = eps;
  }
  bool done() const { return next_ == kLevels.size(); }
  const std::array<double, 4>& values() const { return values_; }

 private:
  std::array<double, 4> values_;
  size_t next_{0};
  double last_u_{-1}, last_eps_{0};
};

// Gauss–Legendre nodes and weights on [0, 1] (Newton on the Legendre polynomial).
void GaussLegendre(int n, std::vector<double>* x, std::vector<double>* w) {
  x->resize(n);
  w->resize(n);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(M_PI * (i + 0.75) / (n + 0.5)), dp = 0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-15) break;
    }
    (*x)[i] = 0.5 * (1 - z);
    (*w)[i] = 1.0 / ((1 - z * z) * dp * dp);
  }
}

// The rigid disk: uniform pressure p = m·g/(πR²), friction −μ·p·û at every point (û the unit slip
// velocity), integrated over the disk by a polar product rule; RK4 in time. Returns ε when u first
// falls below each level.
std::array<double, 4> ReferenceEpsilon(double eps0) {
  std::vector<double> r, wr;
  GaussLegendre(24, &r, &wr);
  const int n_theta = 96;
  const double pressure = kMass * kGravity / (M_PI * kRadius * kRadius);
  const double inertia = 0.5 * kMass * kRadius * kRadius;
  // State: vx (the slide stays along x by symmetry of the friction about the velocity... it does
  // not in general, so keep vy too) and ω.
  auto rhs = [&](const std::array<double, 3>& s) {
    std::array<double, 3> d = {0, 0, 0};
    for (size_t i = 0; i < r.size(); ++i) {
      const double rho = r[i] * kRadius;
      for (int j = 0; j < n_theta; ++j) {
        const double th = 2 * M_PI * (j + 0.5) / n_theta;
        const double x = rho * std::cos(th), y = rho * std::sin(th);
        const double ux = s[0] - s[2] * y, uy = s[1] + s[2] * x;
        const double un = std::hypot(ux, uy);
        if (un == 0) continue;
        const double dA = wr[i] * kRadius * rho * (2 * M_PI / n_theta);
        const double fx = -kMu * pressure * ux / un * dA, fy = -kMu * pressure * uy / un * dA;
        d[0] += fx / kMass;
        d[1] += fy / kMass;
        d[2] += (x * fy - y * fx) / inertia;
      }
    }
    return d;
  };
  const double omega0 = kStartSpeed / (kRadius * std::sqrt(1 + eps0 * eps0));
  std::array<double, 3> s = {eps0 * omega0 * kRadius, 0, omega0};
  LevelCrossings crossings;
  crossings.Add(kStartSpeed, eps0);
  const double dt = 1e-4;
  while (!crossings.done()) {
    const auto k1 = rhs(s);
    std::array<double, 3> t;
    for (int i = 0; i < 3; ++i) t[i] = s[i] + 0.5 * dt * k1[i];
    const auto k2 = rhs(t);
    for (int i = 0; i < 3; ++i) t[i] = s[i] + 0.5 * dt * k2[i];
    const auto k3 = rhs(t);
    for (int i = 0; i < 3; ++i) t[i] = s[i] + dt * k3[i];
    const auto k4 = rhs(t);
    for (int i = 0; i < 3; ++i) s[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    const double v = std::hypot(s[0], s[1]), w = std::abs(s[2]) * kRadius;
    crossings.Add(std::hypot(v, w), v / w);
  }
  return crossings.values();
}

// How the coin is simulated: the slab's modulus (1e8 Pa is the project's first coin; 000 §V-A
// states 1 GPa), the coin's mesh resolution R/hint_divisor, the step.
struct CoinSetup {
  bool compliant_coin{false};   // a compliant coin (modulus below) on a rigid plane
  double slab_modulus_Pa{1e8};  // the slab's, or the compliant coin's
  double hint_divisor{8};
  double dt_s{1e-3};
  int max_patch_points{0};   // 0: whole patches; -1: the world's default budget
  bool surface_reuse{true};  // btHydroelasticWorldState::setSurfaceReuse
};

struct CoinRun {
  std::array<double, 4> eps;  // ε at the levels (NaN if never reached)
  double max_tilt_rad{0};     // the largest angle between the coin's axis and the vertical
  long long surfaces_computed{0};
  long long turning_patches{0};  // pair-steps under the turning budget
  int steps{0};
};

// The simulated coin. `patch`: rigid coin on a compliant slab 1 cm thick (or a compliant coin on a
// rigid plane) with the plugin; otherwise stock Bullet (default configuration, rigid plane).
CoinRun SimulateCoin(double eps0, bool patch, const CoinSetup& setup = {}) {
  btCylinderShapeZ coin(btVector3(kRadius, kRadius, kHalfThickness));
  btStaticPlaneShape floor(btVector3(0, 0, 1), 0);
  btHydroelasticProperties slab;
  slab.m_hydroelasticModulus = setup.slab_modulus_Pa;
  slab.m_slabThickness = 0.01;
  slab.m_huntCrossleyDissipation = 1.0;
  std::unique_ptr<test::ScopedHydroelastic> tag;
  if (patch && !setup.compliant_coin) tag = std::make_unique<test::ScopedHydroelastic>(&floor, slab);
  // The coin's rigid mesh: its bottom face is the disk lattice at the hint (R/8: 676 triangles),
  // each one compliant point (000's coin used a fan of 152 triangles).
  btHydroelasticProperties rigid;
  rigid.m_kind = btHydroelasticProperties::RIGID;
  rigid.m_resolutionHint = kRadius / setup.hint_divisor;
  if (setup.compliant_coin) {
    rigid.m_kind = btHydroelasticProperties::COMPLIANT;
    rigid.m_hydroelasticModulus = setup.slab_modulus_Pa;
    rigid.m_huntCrossleyDissipation = 1.0;
  }
  std::unique_ptr<test::ScopedHydroelastic> coin_tag;
  if (patch) coin_tag = std::make_unique<test::ScopedHydroelastic>(&coin, rigid);
  // The coupling of spin and slide needs the pressure distribution resolved: whole patches, or a
  // reduction to enough points (see ReducedTo64PointsTheGigapascalCoinKeepsItsEpsilon).
  test::TestWorld world(patch);
  if (setup.max_patch_points >= 0) world.SetMaxPatchPoints(setup.max_patch_points);
  if (patch) world.state().setSurfaceReuse(setup.surface_reuse);
  world.AddBody(&floor, 0, btVector3(0, 0, 0))->setFriction(1.0);  // Bullet's product rule: μ = kMu
  // The static depth: p = E·d/H over the face, H the slab's thickness or the coin's half thickness.
  const double field_depth = setup.compliant_coin ? kHalfThickness : 0.01;
  const double depth = patch ? kMass * kGravity * field_depth / (setup.slab_modulus_Pa * M_PI * kRadius * kRadius) : 0;
  btRigidBody* body = world.AddBody(&coin, kMass, btVector3(0, 0, kHalfThickness - depth));
  body->setFriction(kMu);
  const double omega0 = kStartSpeed / (kRadius * std::sqrt(1 + eps0 * eps0));
  body->setLinearVelocity(btVector3(eps0 * omega0 * kRadius, 0, 0));
  body->setAngularVelocity(btVector3(0, 0, omega0));
  LevelCrossings crossings;
  crossings.Add(kStartSpeed, eps0);
  CoinRun run;
  for (int step = 0; step < 2.0 / setup.dt_s && !crossings.done(); ++step) {
    world.Step(1, setup.dt_s);
    ++run.steps;
    const btVector3 v = body->getLinearVelocity();
    const double vt = std::hypot(v.x(), v.y()), w = std::abs(body->getAngularVelocity().z()) * kRadius;
    crossings.Add(std::hypot(vt, w), vt / w);
    // The sine of the tilt: the axis's horizontal part (an arc cosine loses angles below 1e-8).
    const btVector3 axis = body->getWorldTransform().getBasis().getColumn(2);
    run.max_tilt_rad = std::max(run.max_tilt_rad, std::asin(std::min<double>(std::hypot(axis.x(), axis.y()), 1.0)));
  }
  run.eps = crossings.values();
  if (patch) run.surfaces_computed = world.state().getStats().m_surfacesComputed;
  if (patch) run.turning_patches = world.state().getStats().m_turningPatches;
  return run;
}

std::array<double, 4> SimulatedEpsilon(double eps0, bool patch, double dt = 1e-3) {
  CoinSetup setup;
  setup.dt_s = dt;
  return SimulateCoin(eps0, patch, setup).eps;
}

TEST(CoinTest, SlidingAndSpinningCoinFollowsTheRigidDiskReference) {
  std::printf("coin: ε = v/(ωR) when u first drops below 10%%, 5%%, 2%%, 1%% of its start (1 ms steps)\n");
  std::printf("%6s | %-31s | %-31s | %-31s\n", "ε0", "reference", "patch contact", "stock Bullet");
  for (double eps0 : {0.1, 0.5, 1.0, 2.0, 10.0}) {
    const auto ref = ReferenceEpsilon(eps0);
    const auto ours = SimulatedEpsilon(eps0, true);
    const auto stock = SimulatedEpsilon(eps0, false);
    std::printf("%6.1f |", eps0);
    for (double e : ref) std::printf(" %7.4f", e);
    std::printf(" |");
    for (double e : ours) std::printf(" %7.4f", e);
    std::printf(" |");
    for (double e : stock) std::printf(" %7.4f", e);
    std::printf("\n");
    // Within 3 % of the reference at u < 10 %, 5 % and 2 %. The one exception is the steepest
    // stretch, ε0 = 10 at u < 2 % (ε halves while u falls from 5 % to 2 %, in about 7 steps of 1 ms):
    // there the error is that of first-order time stepping — 3.5 % at 1 ms, 2.4 % at 0.5 ms, 1.5 %
    // at 0.25 ms — and is checked at 0.5 ms below.
    for (int i = 0; i < 3; ++i) {
      if (eps0 == 10.0 && i == 2) continue;
      EXPECT_NEAR(ours[i] / ref[i], 1.0, 0.03) << "ε0 = " << eps0 << ", level " << kLevels[i];
    }
    if (eps0 == 0.5 || eps0 == 2.0) {
      // By u < 1 % the exact disk itself is at 0.639 (ε0 = 0.5) and 0.680 (ε0 = 2), 2 % and 4 % from
      // the limit 0.653, which it approaches only logarithmically in u; so the simulation is held
      // to the reference there, and its distance to 0.653 is reported.
      EXPECT_NEAR(ours[3] / ref[3], 1.0, 0.02) << "ε0 = " << eps0 << " at u < 1%";
      std::printf("       ε at u < 1%%: %.4f, %+.2f%% from ε* = 0.653\n", ours[3], 100 * (ours[3] / 0.653 - 1));
    }
  }
  const auto ref = ReferenceEpsilon(10.0);
  const auto half_step = SimulatedEpsilon(10.0, true, 5e-4);
  std::printf("ε0 = 10 at u < 2%%: reference %.4f, 0.5 ms steps %.4f (%+.2f%%)\n", ref[2], half_step[2],
              100 * (half_step[2] / ref[2] - 1));
  EXPECT_NEAR(half_step[2] / ref[2], 1.0, 0.03);
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

// 000 §V-A's coin at E = 1 GPa as the seed states it, 1 ms steps, in both configurations, at one
// hint R/divisor, for ε0 ∈ {0.1, 0.3, 0.5, 1, 2, 3, 10}: ε within 3 % of the rigid disk at
// u < 10 %, 5 % and 2 % (the ε0 = 10 exception at 2 % as above), and the coin's tilt below
// 1e-5 rad throughout. Two measured exceptions, both for a coin that mostly spins (ε0 ≤ 0.3):
//  - at u < 2 %, 4 %: the step's first-order error as the coin stops (ε0 = 0.1, compliant, R/8:
//    −3.1 % at 1 ms, −1.7 % at 0.5 ms, −1.1 % at 0.25 ms, toward −0.5 %);
//  - at hint R/4, 7 %: the coarse bottom face's polygons near the spin centre, whose slip turns
//    within a polygon (ε0 = 0.1: −2.4 %, −3.5 %, −6.6 % at the three levels, against −1.1 %,
//    −1.7 %, −3.1 % at R/8).
//  - Rigid coin on a 1 GPa slab: every patch point is stiffer than the step resolves, so the
//    near-rigid regime softens the patch — as a whole, keeping its pressure uniform (point by point
//    it moved pressure off the rim and ε was off by 15 %).
//  - Compliant 1 GPa coin on a rigid plane (its generated mesh): its pressure is uniform out to
//    the rim only because the mesh follows the medial cone there (make_cylinder_mesh.cc); with
//    the rim tets split across the cone ε was 3–6 % low, with boundary-only tets 25 % low.
void CheckGigapascalCoin(bool compliant_coin, double divisor) {
  CoinSetup setup;
  setup.slab_modulus_Pa = 1e9;
  setup.compliant_coin = compliant_coin;
  setup.hint_divisor = divisor;
#ifdef HYDRO_SANITIZED
  const std::vector<double> starts = {0.1, 2.0};  // a corner of the matrix (CMakeLists.txt)
#else
  const std::vector<double> starts = {0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0};
#endif
  for (double eps0 : starts) {
    const auto ref = ReferenceEpsilon(eps0);
    const CoinRun run = SimulateCoin(eps0, true, setup);
    std::printf("%s R/%-2.0f ε0 %4.1f: %.4f %.4f %.4f (reference %.4f %.4f %.4f), tilt %.1e rad\n",
                compliant_coin ? "compliant coin" : "rigid coin on slab", divisor, eps0, run.eps[0], run.eps[1],
                run.eps[2], ref[0], ref[1], ref[2], run.max_tilt_rad);
    for (int i = 0; i < 3; ++i) {
      if (eps0 == 10.0 && i == 2) continue;
      double tolerance = 0.03;
      if (eps0 <= 0.3 && i == 2) tolerance = 0.04;
      if (eps0 <= 0.3 && divisor == 4) tolerance = 0.07;
      EXPECT_NEAR(run.eps[i] / ref[i], 1.0, tolerance)
          << "R/" << divisor << ", ε0 = " << eps0 << ", level " << kLevels[i];
    }
    EXPECT_LT(run.max_tilt_rad, 1e-5) << "R/" << divisor << ", ε0 = " << eps0;
  }
}

// Runs the 1 GPa coin (`setup`, modulus set here) rigid on the slab and compliant on the plane from
// each start, and checks ε at u < 10 %, 5 % and 2 % against the reference within
// tolerance(ε0, level) (ε0 = 10 at u < 2 % is first-order stepping, as above) and the tilt below
// 1e-5 rad. Returns the steps whose patch did not turn (hydro/patch_slip.h), over all runs.
int CheckReducedGigapascalCoin(CoinSetup setup, const char* label, const std::vector<double>& starts,
                               double (*tolerance)(double eps0, int level)) {
  setup.slab_modulus_Pa = 1e9;
  int steps_not_turning = 0;
  for (const bool compliant_coin : {false, true}) {
    setup.compliant_coin = compliant_coin;
    const char* coin = compliant_coin ? "compliant coin" : "rigid coin on slab";
    for (double eps0 : starts) {
      const auto ref = ReferenceEpsilon(eps0);
      const CoinRun run = SimulateCoin(eps0, true, setup);
      std::printf("%s, %s, ε0 %4.1f: ε/reference − 1 = %+.4f %+.4f %+.4f, tilt %.1e rad, turning %lld of %d steps\n",
                  coin, label, eps0, run.eps[0] / ref[0] - 1, run.eps[1] / ref[1] - 1, run.eps[2] / ref[2] - 1,
                  run.max_tilt_rad, run.turning_patches, run.steps);
      for (int i = 0; i < 3; ++i) {
        if (eps0 == 10.0 && i == 2) continue;
        EXPECT_NEAR(run.eps[i] / ref[i], 1.0, tolerance(eps0, i))
            << coin << ", ε0 = " << eps0 << ", level " << kLevels[i];
      }
      EXPECT_LT(run.max_tilt_rad, 1e-5) << coin << ", ε0 = " << eps0;
      steps_not_turning += run.steps - static_cast<int>(run.turning_patches);
    }
  }
  return steps_not_turning;
}

// Reduced to 64 points a patch (m_maxPatchPoints), the 1 GPa coin at R/8, rigid on the slab or
// compliant on the plane, keeps its ε within 3 % at all three levels (measured: at most 2.7 %, at
// ε0 = 2 and u < 2 %). The coin keeps its surface while it slides and spins (plugin/surface_reuse.h)
// and its fine set of points is reduced anew each step, on a grid held still while the coin turns
// (point_reduction.h): with the grid turning with the compliant coin (its mesh's axes) ε at
// ε0 = 0.1 came out 5.0 % and 8.3 % low at u < 5 % and 2 %, and with the reduced points kept fixed
// on the rigid coin 4.6 % and 7.7 % low. Before the reduction kept the coin's side wall apart from
// its face, it rocked and ε came out 20–45 % high at 16 and 64 points. Fewer points do not resolve
// the spin–slide coupling (measured at ε0 = 0.1, 0.5, 2, 10): 16 points are off by up to 14 %, 32
// by up to 11 % (polar cells instead of the grid, tried at 16: up to 45 %).
TEST(CoinTest, ReducedTo64PointsTheGigapascalCoinKeepsItsEpsilon) {
  CoinSetup setup;
  setup.max_patch_points = 64;
#ifdef HYDRO_SANITIZED
  const std::vector<double> starts = {0.5};  // a corner of the matrix (CMakeLists.txt)
#else
  const std::vector<double> starts = {0.1, 0.5, 2.0, 10.0};
#endif
  CheckReducedGigapascalCoin(setup, "64 points", starts, [](double, int) { return 0.03; });
}

// With the world's default budgets the 1 GPa coin at R/8 (the benchmark's) keeps its ε within 3 %
// at all three levels for every start of 000 §V-A's matrix: its patch turns (hydro/patch_slip.h)
// from the first step, so it gets the turning budget, 64 points, throughout, and ε is what 64
// points give. With 16 points, the default for a patch that does not turn, ε was up to 14 % off.
// One measured exception: ε0 = 1 at u < 2 %, +3.2 % for the rigid coin (+2.8 % compliant), where
// whole patches are within 0.1 %: the grid's cells near the spin centre, which sits inside the
// patch there, average slip directions that turn within them (100 points: +1.5 %, at 1.7× the
// step's cost; at R/12 the same case is +2.8 %).
TEST(CoinTest, AtTheDefaultBudgetsTheGigapascalCoinKeepsItsEpsilon) {
  CoinSetup setup;
  setup.max_patch_points = -1;
#ifdef HYDRO_SANITIZED
  const std::vector<double> starts = {2.0};  // a corner of the matrix (CMakeLists.txt)
#else
  const std::vector<double> starts = {0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0};
#endif
  const int turning_steps = CheckReducedGigapascalCoin(setup, "default budgets", starts, [](double eps0, int level) {
    return eps0 == 1.0 && level == 2 ? 0.035 : 0.03;
  });
  EXPECT_EQ(turning_steps, 0) << "steps the coin's patch did not turn";
}

// A coin that slides and spins on the ground keeps its surface (the slab is unchanged by slides
// and turns along its face, plugin/surface_reuse.h): it is computed at the first steps only, and ε
// is what computing it every step gives (measured: equal to 4 digits).
TEST(CoinTest, ASlidingSpinningCoinKeepsItsSurfaceAndItsEpsilon) {
  CoinSetup setup;
  setup.slab_modulus_Pa = 1e9;
  CoinRun runs[2];
  for (const bool reuse : {false, true}) {
    setup.surface_reuse = reuse;
    runs[reuse] = SimulateCoin(0.5, true, setup);
  }
  std::printf("ε0 0.5, surfaces computed every step (%lld): %.5f %.5f %.5f; kept (%lld): %.5f %.5f %.5f\n",
              runs[0].surfaces_computed, runs[0].eps[0], runs[0].eps[1], runs[0].eps[2], runs[1].surfaces_computed,
              runs[1].eps[0], runs[1].eps[1], runs[1].eps[2]);
  EXPECT_GT(runs[0].surfaces_computed, 150);
  EXPECT_LE(runs[1].surfaces_computed, 3);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(runs[1].eps[i], runs[0].eps[i], 1e-3 * runs[0].eps[i]) << kLevels[i];
}

// The compliant 1 GPa coin on the rigid plane is near-rigid at 1 ms steps: the solver replaces its
// patch's total stiffness, so its kept surface is held to the kinks' bound alone, not to the
// stiffness cap of 2 % of its 10 µm depth (plugin/surface_reuse.h). With the cap it was computed
// anew every nine steps as it slid and spun (0.11 a step in plugin_bench).
TEST(CoinTest, ANearRigidCompliantCoinKeepsItsSurfaceAndItsEpsilon) {
  CoinSetup setup;
  setup.slab_modulus_Pa = 1e9;
  setup.compliant_coin = true;
  setup.max_patch_points = -1;
  for (double eps0 : {0.5, 2.0, 10.0}) {
    const CoinRun run = SimulateCoin(eps0, true, setup);
    const auto ref = ReferenceEpsilon(eps0);
    std::printf(
        "compliant coin, default budgets, ε0 %.1f: %lld surfaces computed in %d steps; ε %.4f %.4f %.4f "
        "(reference %.4f %.4f %.4f)\n",
        eps0, run.surfaces_computed, run.steps, run.eps[0], run.eps[1], run.eps[2], ref[0], ref[1], ref[2]);
    EXPECT_LE(run.surfaces_computed, 3) << eps0;
    for (int i = 0; i < 3; ++i) {
      if (eps0 == 10.0 && i == 2) continue;  // first-order stepping (CheckGigapascalCoin)
      EXPECT_NEAR(run.eps[i] / ref[i], 1.0, 0.03) << eps0 << ", level " << kLevels[i];
    }
    EXPECT_LT(run.max_tilt_rad, 1e-5) << eps0;
  }
}

TEST(CoinTest, GigapascalSlabAtHintR4) { CheckGigapascalCoin(false, 4); }
TEST(CoinTest, GigapascalSlabAtHintR8) { CheckGigapascalCoin(false, 8); }
TEST(CoinTest, GigapascalSlabAtHintR12) { CheckGigapascalCoin(false, 12); }
TEST(CoinTest, GigapascalCompliantCoinAtHintR4) { CheckGigapascalCoin(true, 4); }
TEST(CoinTest, GigapascalCompliantCoinAtHintR8) { CheckGigapascalCoin(true, 8); }
TEST(CoinTest, GigapascalCompliantCoinAtHintR12) { CheckGigapascalCoin(true, 12); }

}  // namespace
}  // namespace hydro
