// Patches solved together: momentum balance against closed forms (a box resting on fixed ground, a
// box on a box), equal and opposite impulses, exact Coulomb sliding, no energy gain from a contact
// far stiffer than the step resolves, and a stiff stack solved at once.
#include "hydro/patch_problem.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace hydro {
namespace {

constexpr double kGravity = 9.81;

// The moment of inertia of a cube of half-size a about any axis through its centre.
double CubeInertia(double mass, double a) { return mass * (2 * a) * (2 * a) / 6; }

// A cube of side 2a and mass m: its mobility about its centre.
PatchBody Cube(double mass, double a, const Vector3& center) {
  PatchBody side;
  const double inertia = CubeInertia(mass, a);
  side.mobility = RigidBodyMobility(Matrix3::Identity() / inertia, 1 / mass, Vector3::Ones(), Vector3::Ones());
  side.p_WC = center;
  return side;
}

// The four corners of a cube's bottom face as points of stiffness k each, at depth φ0.
std::vector<PatchPoint> BottomCorners(double a, double k, double phi0, double mu) {
  std::vector<PatchPoint> points;
  for (double x : {-a, a})
    for (double y : {-a, a}) {
      PatchPoint p;
      p.p_WQ = Vector3(x, y, 0);
      p.nhat_BA_W = Vector3::UnitZ();
      p.stiffness_N_per_m = k;
      p.phi0_m = phi0;
      p.friction = mu;
      points.push_back(p);
    }
  return points;
}

Vector6 Twist(const Vector3& w, const Vector3& v) {
  Vector6 V;
  V << w, v;
  return V;
}

// One patch between bodies A and B: the problem with two bodies.
class Pair {
 public:
  void Reset(double dt, const PatchBody& A, const PatchBody& B, const std::vector<PatchPoint>& points,
             const PatchProblemOptions& options = {}) {
    problem_.Reset(dt, options);
    problem_.AddBody(A);
    problem_.AddBody(B);
    problem_.AddPatch(0, 1, points);
  }
  PatchProblemReport Solve(const Vector6& V_A, const Vector6& V_B, int iterations, int rounds, Vector6* dV_A,
                           Vector6* dV_B) {
    std::vector<Vector6> dV;
    const PatchProblemReport report = problem_.Solve({V_A, V_B}, iterations, rounds, &dV);
    *dV_A = dV[0];
    *dV_B = dV[1];
    return report;
  }
  Vector6 WrenchOnA() const { return problem_.WrenchOnA(0); }
  const Vector3& impulse(int i) const { return problem_.impulse(0, i); }
  int near_rigid_points() const { return problem_.near_rigid_points(); }

 private:
  PatchProblem problem_;
};

// A cube of mass m and side 2a on fixed ground, on its four bottom corners (stiffness k each,
// friction μ) at the depth x where 4·k·x = m·g; returns x.
double ResetCubeAtStaticDepth(Pair* block, double dt, double m, double a, double k, double mu,
                              const PatchProblemOptions& options = {}) {
  const double x = m * kGravity / (4 * k);
  block->Reset(dt, Cube(m, a, Vector3(0, 0, a - x)), PatchBody{}, BottomCorners(a, k, -x, mu), options);
  return x;
}

TEST(PatchProblemTest, BoxAtItsStaticDepthCarriesItsWeightOverAStep) {
  // 1 kg cube of 0.1 m on fixed ground; four points of k each, at the depth where 4·k·x = m·g.
  const double m = 1, a = 0.05, k = 1e5, dt = 1e-3;
  Pair block;
  PatchProblemOptions options;
  options.near_rigid_beta = 0;
  const double x = ResetCubeAtStaticDepth(&block, dt, m, a, k, 0, options);
  // The free motion: at rest, plus gravity over the step.
  Vector6 dV_A, dV_B;
  const PatchProblemReport report =
      block.Solve(Twist(Vector3::Zero(), Vector3(0, 0, -kGravity * dt)), Vector6::Zero(), 50, 1, &dV_A, &dV_B);
  EXPECT_TRUE(report.converged);
  // Implicit law: γn = δt·k·(x − δt·vn) per point and the box's momentum change is Σγn:
  // m·(vn + g·δt) = 4·δt·k·(x − δt·vn)  ⇒  vn = (4·δt·k·x − m·g·δt)/(m + 4·δt²·k) = 0.
  const double vn = (4 * dt * k * x - m * kGravity * dt) / (m + 4 * dt * dt * k);
  EXPECT_NEAR(-kGravity * dt + dV_A[5], vn, 1e-12);
  EXPECT_NEAR(block.WrenchOnA()[5], m * kGravity * dt, 1e-9 * m * kGravity * dt);
  EXPECT_NEAR(dV_A.head<3>().norm(), 0, 1e-12);  // symmetric: no tilt
  EXPECT_EQ(dV_B, Vector6::Zero());              // fixed ground
}

// The box of the test above (1 kg, 0.1 m, four corners of 1e5 N/m, 1 ms steps) at its static
// depth, warm-started from the wrench W_A on it and solved with one Newton iteration at most.
// Returns the report, *problem the problem solved and *V_A the box's twist after it.
constexpr double kCubeMass = 1, kCubeHalfSize = 0.05, kCubeCornerStiffness = 1e5, kCubeStep = 1e-3;
constexpr double kCubeWeightImpulse = kCubeMass * kGravity * kCubeStep;
PatchProblemReport SolveCubeFromWarmStart(const Vector6& W_A, PatchProblem* problem, Vector6* V_A) {
  const double x = kCubeMass * kGravity / (4 * kCubeCornerStiffness);
  PatchProblemOptions options;
  options.near_rigid_beta = 0;
  problem->Reset(kCubeStep, options);
  problem->AddBody(Cube(kCubeMass, kCubeHalfSize, Vector3(0, 0, kCubeHalfSize - x)));
  problem->AddBody(PatchBody{});
  problem->AddPatch(0, 1, BottomCorners(kCubeHalfSize, kCubeCornerStiffness, -x, 0));
  std::vector<Vector6> V = {Twist(Vector3::Zero(), Vector3(0, 0, -kGravity * kCubeStep)), Vector6::Zero()};
  std::vector<Vector6> warm(2, Vector6::Zero()), dV;
  problem->StartFromWrench(0, W_A, &warm);
  for (int b = 0; b < 2; ++b) V[b] += warm[b];
  const PatchProblemReport report = problem->Solve(V, 1, 1, &dV);
  *V_A = V[0] + dV[0];
  return report;
}

TEST(PatchProblemTest, AWildWarmStartCostsNoMoreThanAColdStart) {
  // The box of the test above, warm-started with a hundred times its weight's impulse and a
  // spurious twist (what an unconverged step can leave behind in a stiff pile). Along the line to
  // no impulse the solve first moves to f's minimum, so a single Newton iteration still lands on
  // the exact solution — as from a cold start. Without that, Newton's first step would only undo
  // the warm start along that line, and one iteration would leave the box tilting.
  PatchProblem problem;
  Vector6 V_A;
  SolveCubeFromWarmStart(Twist(Vector3(0.2, -0.1, 0) * kCubeWeightImpulse, Vector3(0, 0, 100 * kCubeWeightImpulse)),
                         &problem, &V_A);
  EXPECT_NEAR(V_A[5], 0, 1e-9);  // at rest: vn = 0 (the test above)
  EXPECT_LT(V_A.head<3>().norm(), 1e-9);
  EXPECT_NEAR(problem.WrenchOnA(0)[5], kCubeWeightImpulse, 1e-6 * kCubeWeightImpulse);
}

// A warm start that the solve keeps as it is (no better along the line to no impulse) leaves the
// gradient it was tested with for Newton's first step: from the exact impulse the solve ends at
// its first check, and from 95 % of it one Newton iteration still lands on the exact solution of
// this linear problem (the box of the tests above), as it does only from the right gradient.
TEST(PatchProblemTest, AKeptWarmStartGivesNewtonItsGradient) {
  for (const double share : {1.0, 0.95}) {
    PatchProblem problem;
    Vector6 V_A;
    const PatchProblemReport report =
        SolveCubeFromWarmStart(Twist(Vector3::Zero(), Vector3(0, 0, share * kCubeWeightImpulse)), &problem, &V_A);
    if (share == 1.0) {  // converged at the check the warm start's pass gave
      EXPECT_TRUE(report.converged);
      EXPECT_EQ(report.iterations, 0);
    }
    EXPECT_NEAR(V_A[5], 0, 1e-9) << share;  // at rest: vn = 0 (the tests above)
    EXPECT_LT(V_A.head<3>().norm(), 1e-9) << share;
    EXPECT_NEAR(problem.WrenchOnA(0)[5], kCubeWeightImpulse, 1e-6 * kCubeWeightImpulse) << share;
  }
}

TEST(PatchProblemTest, TwoFreeBodiesReceiveEqualAndOppositeImpulses) {
  const double dt = 1.0 / 60;
  PatchBody A = Cube(2.0, 0.1, Vector3(0.01, -0.02, 0.1));
  PatchBody B = Cube(5.0, 0.1, Vector3(0.0, 0.0, -0.1));
  std::vector<PatchPoint> points = BottomCorners(0.1, 1e7, -1e-4, 0.5);
  points[0].phi0_m = -3e-4;  // an uneven patch: a torque too
  Pair block;
  block.Reset(dt, A, B, points);
  Vector6 dV_A, dV_B;
  block.Solve(Twist(Vector3(0.3, 0, 0.1), Vector3(0.2, 0, -1)), Twist(Vector3::Zero(), Vector3(0, 0.1, 0.5)), 50, 5,
              &dV_A, &dV_B);
  // Momentum: M_A·ΔV_A = W_A about c_A and M_B·ΔV_B = −W_A moved to c_B.
  const Vector6 W_A = block.WrenchOnA();
  const Matrix6 M_A = A.mobility.inverse(), M_B = B.mobility.inverse();
  const Vector6 P_A = M_A * dV_A, P_B = M_B * dV_B;
  EXPECT_LT((P_A - W_A).norm(), 1e-6 * W_A.norm());
  EXPECT_LT((P_A.tail<3>() + P_B.tail<3>()).norm(), 1e-6 * W_A.norm());  // forces cancel
  // Angular momentum about the world origin cancels too.
  const Vector3 L_A = P_A.head<3>() + A.p_WC.cross(P_A.tail<3>());
  const Vector3 L_B = P_B.head<3>() + B.p_WC.cross(P_B.tail<3>());
  EXPECT_LT((L_A + L_B).norm(), 1e-6 * W_A.norm());
  EXPECT_GT(W_A[5], 0);
}

TEST(PatchProblemTest, SlidingBoxGetsExactlyCoulombFriction) {
  const double m = 1, a = 0.05, k = 1e6, dt = 1e-3, mu = 0.3;
  Pair block;
  ResetCubeAtStaticDepth(&block, dt, m, a, k, mu);
  Vector6 dV_A, dV_B;
  block.Solve(Twist(Vector3::Zero(), Vector3(1.0, 0, -kGravity * dt)), Vector6::Zero(), 50, 10, &dV_A, &dV_B);
  const Vector6 W = block.WrenchOnA();
  EXPECT_NEAR(W[3], -mu * W[5], 1e-6 * W[5]);
  EXPECT_NEAR(W[4], 0, 1e-9);
}

TEST(PatchProblemTest, StuckBoxDoesNotSlipBelowTheFrictionLimit) {
  // A sideways velocity that friction can stop within the step: it does, to the regularization.
  const double m = 1, a = 0.05, k = 1e6, dt = 1e-3, mu = 0.5;
  Pair block;
  ResetCubeAtStaticDepth(&block, dt, m, a, k, mu);
  Vector6 dV_A, dV_B;
  const double v0 = 0.2 * mu * kGravity * dt;  // a fifth of what friction removes in a step
  block.Solve(Twist(Vector3::Zero(), Vector3(v0, 0, -kGravity * dt)), Vector6::Zero(), 50, 10, &dV_A, &dV_B);
  // The base's points stop (the box may pitch about them: its centre need not stop), to the
  // regularization: a stuck patch slips at σ·m·wt·v0 (σ the default, Rt = σ·wt·N over its N
  // points), m·wt ≤ 1 + m·|r|²/I = 5.5 for a corner r of the cube (measured 3.2·σ·v0 at σ = 1e-4);
  // bound 6·σ·v0.
  const double sigma = PatchProblemOptions{}.stiction_sigma;
  const Vector3 w = dV_A.head<3>(), v = Vector3(v0, 0, -kGravity * dt) + dV_A.tail<3>();
  for (double x : {-a, a})
    for (double y : {-a, a}) {
      const Vector3 slip = v + w.cross(Vector3(x, y, -a));
      EXPECT_LT(std::hypot(slip.x(), slip.y()), 6 * sigma * v0);
    }
  EXPECT_LT(std::abs(block.WrenchOnA()[3]), mu * block.WrenchOnA()[5]);
}

TEST(PatchProblemTest, AStuckPatchSticksAsOneWhateverItsPointsShareOfTheLoad) {
  // A box held by friction at a fifth of its limit, on its four corners and, at the face's centre, a
  // sliver polygon with a thousandth of their stiffness. Each point's share of the stick stiffness follows its
  // share of the normal load (Rt_i = σ·wt·K/k_i), so every point uses about the same fraction of its
  // friction bound: none slips. With an equal share per point (Rt = σ·wt·N), the sliver took a
  // fifth of the friction impulse on a thousandth of the load and sat at its Coulomb bound
  // (|γt|/γn = μ), at the stick–slip kink Newton converges slowly through.
  const double m = 1, a = 0.05, k = 1e6, dt = 1.0 / 60, mu = 0.25;
  const double x = m * kGravity / (4.001 * k);
  std::vector<PatchPoint> points = BottomCorners(a, k, -x, mu);
  points.push_back(points[0]);
  points[4].p_WQ = Vector3::Zero();
  points[4].stiffness_N_per_m = 1e-3 * k;
  Pair block;
  block.Reset(dt, Cube(m, a, Vector3(0, 0, a - x)), PatchBody{}, points);
  Vector6 dV_A, dV_B;
  const double v0 = 0.2 * mu * kGravity * dt;
  const PatchProblemReport report =
      block.Solve(Twist(Vector3::Zero(), Vector3(v0, 0, -kGravity * dt)), Vector6::Zero(), 50, 10, &dV_A, &dV_B);
  EXPECT_TRUE(report.converged);
  for (int i = 0; i < 5; ++i) {
    const Vector3& gamma = block.impulse(i);
    ASSERT_GT(gamma.z(), 0) << "point " << i;
    // Measured 0.19–0.21·μ at the corners (0.2·μ is what the pull needs) and 0.32·μ at the sliver,
    // as the box pitches over the step; 0.5·μ leaves room for that. An equal share gives μ there.
    EXPECT_LT(std::hypot(gamma.x(), gamma.y()) / gamma.z(), 0.5 * mu) << "point " << i;
  }
}

TEST(PatchProblemTest, RigidContactAtALargeStepGainsNoEnergy) {
  // A 1 kg box arriving at 5 m/s on points of 1e12 N/m (far beyond what 1/60 s resolves): it all
  // but stops — near-rigid points keep a period of one step, so a few percent of the arrival speed
  // remains for a step — and rebounds only toward removing its penetration, never faster.
  const double m = 1, a = 0.1, dt = 1.0 / 60;
  for (double depth : {0.0, 1e-3, 0.05}) {
    Pair block;
    block.Reset(dt, Cube(m, a, Vector3(0, 0, a - depth)), PatchBody{}, BottomCorners(a, 1e12, -depth, 0.5));
    Vector6 dV_A, dV_B;
    const PatchProblemReport report =
        block.Solve(Twist(Vector3(0, 0, 0), Vector3(0.5, 0, -5)), Vector6::Zero(), 50, 5, &dV_A, &dV_B);
    EXPECT_TRUE(report.converged) << depth;
    EXPECT_EQ(block.near_rigid_points(), 4);
    const double vz = -5 + dV_A[5];
    EXPECT_GE(vz, -0.05 * 5) << depth;                         // at most 5 % of the arrival speed is left
    EXPECT_LE(vz, depth / dt + 1e-9) << depth;                 // at most the speed that removes the depth
    EXPECT_LE(std::abs(0.5 + dV_A[3]), 0.5 + 1e-12) << depth;  // friction only slows the slide
  }
}

TEST(PatchProblemTest, RejectsBadPoints) {
  Pair block;
  std::vector<PatchPoint> points = BottomCorners(0.1, 1e5, -1e-4, 0.5);
  points[2].phi0_m = std::nan("");
  EXPECT_THROW(block.Reset(1e-3, Cube(1, 0.1, Vector3::Zero()), PatchBody{}, points), InvalidInput);
  points = BottomCorners(0.1, -1, -1e-4, 0.5);
  EXPECT_THROW(block.Reset(1e-3, Cube(1, 0.1, Vector3::Zero()), PatchBody{}, points), InvalidInput);
  EXPECT_THROW(block.Reset(0, Cube(1, 0.1, Vector3::Zero()), PatchBody{}, BottomCorners(0.1, 1, 0, 0)), InvalidInput);
  PatchProblem problem;
  problem.Reset(1e-3);
  problem.AddBody(Cube(1, 0.1, Vector3::Zero()));
  EXPECT_THROW(problem.AddPatch(0, 1, BottomCorners(0.1, 1, 0, 0)), InvalidInput);  // no body 1
  EXPECT_THROW(problem.AddPatch(0, 0, BottomCorners(0.1, 1, 0, 0)), InvalidInput);
}

TEST(PatchProblemTest, RejectsBadOptions) {
  PatchProblem problem;
  EXPECT_NO_THROW(problem.Reset(1e-3, PatchProblemOptions{}));
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  // Each option, how to set it, and values Reset must reject with a message naming the option.
  struct BadOption {
    std::string name;
    double PatchProblemOptions::*field;
    std::vector<double> bad_values;
  };
  const std::vector<BadOption> cases = {
      {"blended slip share", &PatchProblemOptions::blended_slip_share, {-0.1, 1.5, nan}},
      {"blend_slip_until", &PatchProblemOptions::blend_slip_until, {-1e-3, nan, inf}},
      {"majorize_slip_until", &PatchProblemOptions::majorize_slip_until, {-1e-3, nan, inf}},
      {"near-rigid beta", &PatchProblemOptions::near_rigid_beta, {-1e-3, nan, inf}},
      {"relative tolerance", &PatchProblemOptions::relative_tolerance, {0.0, -1e-6, nan}},
      {"Newton step tolerance", &PatchProblemOptions::newton_step_tolerance, {0.0, -1e-6, nan}},
  };
  for (const BadOption& c : cases) {
    for (const double value : c.bad_values) {
      PatchProblemOptions options;
      options.*c.field = value;
      try {
        problem.Reset(1e-3, options);
        ADD_FAILURE() << c.name << " " << value << " was accepted";
      } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find(c.name), std::string::npos) << e.what();
      }
    }
  }
  // 0 is documented for both fractions (majorized steps off; blended steps to the end of round 0)
  // and for β (the exact implicit law), so it is accepted.
  PatchProblemOptions zeros;
  zeros.majorize_slip_until = 0;
  zeros.blend_slip_until = 0;
  zeros.near_rigid_beta = 0;
  EXPECT_NO_THROW(problem.Reset(1e-3, zeros));
}

TEST(PatchProblemTest, AStiffStackIsSolvedAtOnce) {
  // Three 1 kg cubes of 0.2 m stacked on fixed ground at 1e10 N/m a point and 1/60 s, each at the
  // depth its load gives: solved together, the stack carries its weight within one solve — each
  // contact's normal impulse is the weight above it over the step, and no box moves.
  const double m = 1, a = 0.1, k = 1e10, dt = 1.0 / 60;
  PatchProblemOptions options;
  options.near_rigid_beta = 0;  // the exact implicit law, to compare with the closed form
  PatchProblem problem;
  problem.Reset(dt, options);
  const int ground = problem.AddBody(PatchBody{});
  std::vector<int> boxes;
  for (int i = 0; i < 3; ++i) boxes.push_back(problem.AddBody(Cube(m, a, Vector3(0, 0, a + 2 * a * i))));
  for (int i = 0; i < 3; ++i) {
    const double load = (3 - i) * m * kGravity;  // carried by the contact under box i
    std::vector<PatchPoint> points = BottomCorners(a, k, -load / (4 * k), 0.5);
    for (PatchPoint& p : points) p.p_WQ.z() = 2 * a * i;
    problem.AddPatch(boxes[i], i == 0 ? ground : boxes[i - 1], points);
  }
  std::vector<Vector6> V(4, Twist(Vector3::Zero(), Vector3(0, 0, -kGravity * dt)));
  V[ground].setZero();
  std::vector<Vector6> dV;
  const PatchProblemReport report = problem.Solve(V, 50, 5, &dV);
  EXPECT_TRUE(report.converged);
  for (int i = 0; i < 3; ++i) {
    // m·(v + g·δt) = γ_below − γ_above with every box at rest after the step.
    EXPECT_NEAR(V[boxes[i]][5] + dV[boxes[i]][5], 0, 1e-6) << "box " << i;
    EXPECT_NEAR(problem.WrenchOnA(i)[5], (3 - i) * m * kGravity * dt, 1e-6 * m * kGravity * dt) << "box " << i;
  }
}

constexpr double kStackBoxMass = 1, kStackBoxHalfSize = 0.1;

// A stack of n cubes (kStackBoxMass, kStackBoxHalfSize) on fixed ground, each contact at the depth
// its load gives, the boxes sliding and spinning on each other (speeds scaled by `speed`),
// friction μ. `lift_on_B` > 0 gives each point its own place on B, that far above its place on A;
// `ground_as_A` makes the ground the first body of its patch (the normal then points down).
void MakeSlidingStack(int n, double speed, const PatchProblemOptions& options, PatchProblem* problem,
                      std::vector<Vector6>* V, double mu = 0.5, double lift_on_B = 0, bool ground_as_A = false,
                      const std::vector<int>& unknowns_of_box = {}) {
  const double m = kStackBoxMass, a = kStackBoxHalfSize, k = 1e9, dt = 1.0 / 60;
  ASSERT_TRUE(unknowns_of_box.empty() || static_cast<int>(unknowns_of_box.size()) == n);
  problem->Reset(dt, options);
  const int ground = problem->AddBody(PatchBody{});
  V->assign(1, Vector6::Zero());
  for (int i = 0; i < n; ++i) {
    const PatchBody cube = Cube(m, a, Vector3(0, 0, a + 2 * a * i));
    const int unknowns = unknowns_of_box.empty() ? 6 : unknowns_of_box[i];
    if (unknowns == 6) {
      problem->AddBody(cube);
    } else {  // free only along the last `unknowns` columns of its mobility's factor
      const Matrix6 L = Eigen::LLT<Matrix6>(cube.mobility).matrixL();
      problem->AddCoupledBodies(Eigen::MatrixXd(L.rightCols(unknowns)), {cube.p_WC});
    }
    V->push_back(
        Twist(speed * Vector3(0.1 * i, -0.05, 0.2), Vector3(speed * (0.3 - 0.05 * i), 0.1 * speed, -kGravity * dt)));
  }
  for (int i = 0; i < n; ++i) {
    std::vector<PatchPoint> points = BottomCorners(a, k, -(n - i) * m * kGravity / (4 * k), mu);
    for (PatchPoint& p : points) {
      p.p_WQ.z() = 2 * a * i;
      if (lift_on_B > 0) p.p_WQ_B = p.p_WQ + Vector3(0, 0, lift_on_B);
    }
    if (i == 0 && ground_as_A) {
      for (PatchPoint& p : points) {
        p.nhat_BA_W = -p.nhat_BA_W;
        if (lift_on_B > 0) std::swap(p.p_WQ, p.p_WQ_B);
      }
      problem->AddPatch(ground, 1, points);
      continue;
    }
    problem->AddPatch(1 + i, i == 0 ? ground : i, points);
  }
}

// Options for comparing Newton's own steps (factorization reuse, majorized or blended curvature) on
// one sequence of rounds: with bounds that follow the steps, each variant's path would set its own
// bounds, which agree only to their settling tolerance (tested by
// BoundsThatFollowTheNewtonStepsSettleAtCoulombsBound).
PatchProblemOptions OneSequenceOfRounds() {
  PatchProblemOptions options;
  options.bounds_follow_newton_steps = false;
  return options;
}

TEST(PatchProblemTest, ALargeIslandReusesItsFactorizationAndReachesTheSameSolution) {
  // Twelve boxes (72 unknowns, at least reuse_factorization_from), sliding and spinning on each
  // other: Newton steps by conjugate gradients preconditioned by an earlier factorization give the
  // solution of a factorization every step, to the stopping rule (1e-6 of the impulses: 1e-7 m/s
  // here), with fewer factorizations (measured 14 against 42).
  PatchProblemOptions reuse = OneSequenceOfRounds(), fresh = OneSequenceOfRounds();
  fresh.reuse_factorization_from = 1 << 30;
  PatchProblem reused, direct;
  std::vector<Vector6> V, dV_reused, dV_direct;
  MakeSlidingStack(12, 1.0, reuse, &reused, &V);
  ASSERT_TRUE(reused.Solve(V, 50, 5, &dV_reused).converged);
  MakeSlidingStack(12, 1.0, fresh, &direct, &V);
  ASSERT_TRUE(direct.Solve(V, 50, 5, &dV_direct).converged);
  for (int b = 1; b <= 12; ++b) EXPECT_LT((dV_reused[b] - dV_direct[b]).norm(), 1e-7) << "box " << b;
  EXPECT_LT(3 * reused.factorizations(), 2 * direct.factorizations());
  // Boxes of four unknowns each (a multibody's groups: the matrix's blocks not 6 × 6), 48 of them.
  reuse.reuse_factorization_from = 48;
  MakeSlidingStack(12, 1.0, reuse, &reused, &V, 0.5, 0, false, std::vector<int>(12, 4));
  ASSERT_TRUE(reused.Solve(V, 50, 5, &dV_reused).converged);
  MakeSlidingStack(12, 1.0, fresh, &direct, &V, 0.5, 0, false, std::vector<int>(12, 4));
  ASSERT_TRUE(direct.Solve(V, 50, 5, &dV_direct).converged);
  for (int b = 1; b <= 12; ++b) EXPECT_LT((dV_reused[b] - dV_direct[b]).norm(), 1e-7) << "box " << b << " of 4";
  EXPECT_GT(reused.conjugate_gradient_iterations(), 0);
  EXPECT_LT(3 * reused.factorizations(), direct.factorizations());  // measured 8 against 47
  // The same stack at rest, as at two steps of a pile: the second problem has the first one's
  // pattern and solves without a factorization of its own.
  MakeSlidingStack(12, 0.0, reuse, &reused, &V);
  ASSERT_TRUE(reused.Solve(V, 50, 5, &dV_reused).converged);
  MakeSlidingStack(12, 0.0, reuse, &reused, &V);
  ASSERT_TRUE(reused.Solve(V, 50, 5, &dV_reused).converged);
  EXPECT_EQ(reused.factorizations(), 0);
  MakeSlidingStack(12, 0.0, fresh, &direct, &V);
  ASSERT_TRUE(direct.Solve(V, 50, 5, &dV_direct).converged);
  for (int b = 1; b <= 12; ++b) EXPECT_LT((dV_reused[b] - dV_direct[b]).norm(), 1e-7) << "box " << b << " at rest";
}

TEST(PatchProblemTest, AStalePreconditionerIsRefactorized) {
  // The twelve-box stack solved without friction, then at rest with friction (μ = 0.5), as a pile
  // whose contacts came to stick: the same pattern, so the second solve keeps the first one's
  // factorization as its preconditioner, a poor one (the stuck points' curvature is not in it).
  // With refactorize_after_cg_iterations, one slow CG solve makes the next Newton step factorize
  // anew; without it the stale factor stays until CG fails outright (measured: 2 Newton steps and 5
  // CG iterations, against 11 and 63). Both reach the solution of a fresh factorization every step.
  struct Run {
    int newton{0}, cg{0}, factorizations{0};
    std::vector<Vector6> dV;
  };
  auto run = [](int limit) {
    PatchProblemOptions options;
    options.refactorize_after_cg_iterations = limit;
    PatchProblem problem;
    std::vector<Vector6> V;
    Run r;
    MakeSlidingStack(12, 1.0, options, &problem, &V, /*mu=*/0.0);
    EXPECT_TRUE(problem.Solve(V, 50, 5, &r.dV).converged);
    MakeSlidingStack(12, 0.0, options, &problem, &V);
    const PatchProblemReport report = problem.Solve(V, 50, 5, &r.dV);
    EXPECT_TRUE(report.converged) << "limit " << limit;
    r.newton = report.iterations;
    r.cg = problem.conjugate_gradient_iterations();
    r.factorizations = problem.factorizations();
    return r;
  };
  const Run refreshed = run(PatchProblemOptions().refactorize_after_cg_iterations);
  const Run kept = run(0);
  EXPECT_EQ(PatchProblemOptions().refactorize_after_cg_iterations, 4);
  EXPECT_GE(refreshed.factorizations, 1);
  EXPECT_LT(3 * refreshed.cg, kept.cg);
  EXPECT_LT(2 * refreshed.newton, kept.newton);
  PatchProblemOptions fresh;
  fresh.reuse_factorization_from = 1 << 30;
  PatchProblem direct;
  std::vector<Vector6> V, dV_direct;
  MakeSlidingStack(12, 0.0, fresh, &direct, &V);
  ASSERT_TRUE(direct.Solve(V, 50, 5, &dV_direct).converged);
  for (int b = 1; b <= 12; ++b) {
    EXPECT_LT((refreshed.dV[b] - dV_direct[b]).norm(), 1e-7) << "box " << b;
    EXPECT_LT((kept.dV[b] - dV_direct[b]).norm(), 1e-7) << "box " << b;
  }
}

TEST(PatchProblemTest, MajorizedSlipCurvatureReachesTheSameSolutionInFewerNewtonSteps) {
  // Stacks of boxes sliding and spinning on each other slowly enough that friction stops most
  // contacts within the step: Newton with the exact curvature overshoots through the stick disks
  // of the contacts that stop, and its line search cuts the steps short; starting with the
  // majorizing curvature (majorize_slip_until) it takes whole steps. Both reach the solution to the
  // stopping rule (1e-6 of the impulses: 1e-7 m/s here).
  int with_total = 0, without_total = 0;
  for (const double speed : {0.05, 0.2, 1.0}) {
    PatchProblemOptions majorized = OneSequenceOfRounds(), exact = OneSequenceOfRounds();
    exact.majorize_slip_until = 0;
    exact.blended_slip_share = 0;
    PatchProblem with, without;
    std::vector<Vector6> V, dV_with, dV_without;
    MakeSlidingStack(12, speed, majorized, &with, &V);
    const PatchProblemReport report_with = with.Solve(V, 50, 5, &dV_with);
    MakeSlidingStack(12, speed, exact, &without, &V);
    const PatchProblemReport report_without = without.Solve(V, 50, 5, &dV_without);
    ASSERT_TRUE(report_with.converged && report_without.converged) << speed << " m/s";
    for (int b = 1; b <= 12; ++b) EXPECT_LT((dV_with[b] - dV_without[b]).norm(), 1e-7) << "box " << b;
    // Measured (the majorized steps followed by blended ones, blended_slip_share): 14 against 22
    // Newton steps at 0.05 m/s, 12 against 19 at 0.2, 26 against 35 at 1.
    EXPECT_LT(report_with.iterations, report_without.iterations) << speed << " m/s";
    with_total += report_with.iterations;
    without_total += report_without.iterations;
  }
  EXPECT_LT(4 * with_total, 3 * without_total);
}

// Newton's matrix is the exact curvature of f (EvaluatePatch sums each patch's Jᵀ·H·J from H's
// parts, PointCurvature): near the solution Newton converges quadratically, so asking for 1e-12
// instead of 1e-6 of the impulses costs at most two more steps (a wrong block — a sign of one
// moment, a lost term — makes it linear: tens more). Both ways of summing: by moments where each
// point is one place on both bodies, point by point where the points carry their own places on B;
// and the ground as a patch's B or as its A (only B moves: the moments are B's).
TEST(PatchProblemTest, NewtonConvergesQuadraticallyWithEveryPatchsCurvature) {
  for (const bool ground_as_A : {false, true})
    for (const bool own_places : {false, true})
      for (const double speed : {0.05, 1.0}) {
        int iterations[2];
        for (const int fine : {0, 1}) {
          PatchProblemOptions options;
          options.majorize_slip_until = 0;
          options.blend_slip_until = 0;
          options.relative_tolerance = fine ? 1e-12 : 1e-6;
          PatchProblem problem;
          std::vector<Vector6> V, dV;
          MakeSlidingStack(6, speed, options, &problem, &V, 0.5, own_places ? 1e-4 : 0.0, ground_as_A);
          const PatchProblemReport report = problem.Solve(V, 100, 1, &dV);
          ASSERT_TRUE(report.converged) << own_places << " " << speed;
          iterations[fine] = report.iterations;
        }
        std::printf("ground as A %d, own places %d, %.2f m/s: %d Newton steps to 1e-6, %d to 1e-12\n", ground_as_A,
                    own_places, speed, iterations[0], iterations[1]);
        EXPECT_LE(iterations[1], iterations[0] + 2)
            << "ground as A " << ground_as_A << ", own places " << own_places << ", " << speed << " m/s";
      }
}

// The round after one that ran out of Newton iterations goes on from where it stopped, even where
// the friction bounds did not move between them (a frictionless stack's never do): that round was
// not settled. The solve once ended there, unconverged.
TEST(PatchProblemTest, ARoundThatRanOutOfIterationsIsNotTakenAsSettled) {
  const PatchProblemOptions options;
  PatchProblem capped, direct;
  std::vector<Vector6> V, dV_capped, dV_direct;
  MakeSlidingStack(12, 1.0, options, &capped, &V, 0.0);
  ASSERT_FALSE(capped.Solve(V, 2, 1, &dV_capped).converged);  // two Newton steps do not solve it
  MakeSlidingStack(12, 1.0, options, &capped, &V, 0.0);
  const PatchProblemReport report = capped.Solve(V, 2, 10, &dV_capped);
  EXPECT_TRUE(report.converged);
  EXPECT_GT(report.iterations, 2);
  MakeSlidingStack(12, 1.0, options, &direct, &V, 0.0);
  ASSERT_TRUE(direct.Solve(V, 50, 1, &dV_direct).converged);
  for (int b = 1; b <= 12; ++b) EXPECT_LT((dV_capped[b] - dV_direct[b]).norm(), 1e-7) << "box " << b;
}

// Stacks of 12 and 40 boxes sliding and spinning on each other, as in the test above: with a
// share of the majorizing curvature along the slip between the majorized and the exact steps
// (blended_slip_share), Newton reaches the same solution, to the stopping rule, in fewer steps in
// all. Measured: 199 against 217 in all (12 boxes: 14/16, 12/9, 26/26, 29/30 at 0.05, 0.2, 1 and
// 3 m/s; 40 boxes: 13/23, 16/20, 38/35, 51/58). The gain is larger in a pile's island, where
// many more points change between stick and slip (patch_problem.h).
TEST(PatchProblemTest, BlendedSlipCurvatureReachesTheSameSolution) {
  int with_total = 0, without_total = 0;
  for (const int boxes : {12, 40})
    for (const double speed : {0.05, 0.2, 1.0, 3.0}) {
      PatchProblemOptions blended = OneSequenceOfRounds(), exact = OneSequenceOfRounds();
      exact.blended_slip_share = 0;
      PatchProblem with, without;
      std::vector<Vector6> V, dV_with, dV_without;
      MakeSlidingStack(boxes, speed, blended, &with, &V);
      const PatchProblemReport report_with = with.Solve(V, 50, 5, &dV_with);
      MakeSlidingStack(boxes, speed, exact, &without, &V);
      const PatchProblemReport report_without = without.Solve(V, 50, 5, &dV_without);
      ASSERT_TRUE(report_with.converged && report_without.converged) << boxes << " boxes at " << speed << " m/s";
      // Both stop at |∇f| ≤ 1e-6 of its scale. f is strongly convex in the mass-matrix norm, so
      // that bounds each one's distance to the solution in that norm, relative to the impulses
      // (which scale with `speed`), not in each box's velocity. 1e-6·speed per box is a measured
      // margin, not that bound: at 3 m/s the two differed by 1.2e-7–3.1e-7 m/s in three boxes.
      for (int b = 1; b <= boxes; ++b)
        EXPECT_LT((dV_with[b] - dV_without[b]).norm(), 1e-6 * speed)
            << boxes << " boxes at " << speed << " m/s, box " << b;
      with_total += report_with.iterations;
      without_total += report_without.iterations;
    }
  EXPECT_LT(with_total, 0.95 * without_total);
}

// The stacks of the tests above, solved with the lagged friction bounds following the Newton steps
// (bounds_follow_newton_steps) and with them refreshed only between rounds. Following ends at
// settled bounds within a solve's five rounds: every point's friction within Coulomb's bound μ·γn
// of its own normal impulse, to the settling tolerance of 1e-3 of the largest bound, momentum
// balanced at the bounds in use, and the velocities those of rounds run until they settle (up to
// 50), to what that tolerance allows. Five rounds between which the bounds only are refreshed did
// not settle at 3 m/s: a point of the bottom patch of 12 boxes ended with friction 3 % beyond its
// bound (0.543 against 0.528 N·s), and the boxes' twists differed from those with the bounds
// followed by 0.02–0.09 (norm of [ω; v], SI). All of it is checked with and without blended
// steps. Following also takes fewer Newton steps in all without them, where rounds cost most (131
// against 214); with them the stacks' sums were about equal (198 against 200), and the 1,000-brick
// wall's first steps took 10.5 against 17.9 a step.
TEST(PatchProblemTest, BoundsThatFollowTheNewtonStepsSettleAtCoulombsBound) {
  constexpr double kMu = 0.5;
  int follow_total = 0, rounds_total = 0;
  for (const double blended_slip_share : {0.0, PatchProblemOptions{}.blended_slip_share})
    for (const int boxes : {12, 40})
      for (const double speed : {0.05, 0.2, 1.0, 3.0}) {
        PatchProblemOptions follow, rounds;
        follow.blended_slip_share = rounds.blended_slip_share = blended_slip_share;
        rounds.bounds_follow_newton_steps = false;
        PatchProblem followed, refreshed, settled;
        std::vector<Vector6> V, dV_followed, dV_refreshed, dV_settled;
        MakeSlidingStack(boxes, speed, follow, &followed, &V, kMu);
        const PatchProblemReport report_followed = followed.Solve(V, 50, 5, &dV_followed);
        MakeSlidingStack(boxes, speed, rounds, &refreshed, &V, kMu);
        const PatchProblemReport report_refreshed = refreshed.Solve(V, 50, 5, &dV_refreshed);
        MakeSlidingStack(boxes, speed, rounds, &settled, &V, kMu);
        ASSERT_TRUE(settled.Solve(V, 50, 50, &dV_settled).converged);
        ASSERT_TRUE(report_followed.converged && report_refreshed.converged) << boxes << " boxes at " << speed;
        if (blended_slip_share == 0) {
          follow_total += report_followed.iterations;
          rounds_total += report_refreshed.iterations;
        }
        // The largest bound: the bottom box's corners carry the whole stack's weight.
        double largest_bound = 0;
        for (int patch = 0; patch < followed.num_patches(); ++patch)
          for (int i = 0; i < followed.num_points(patch); ++i)
            largest_bound = std::max(largest_bound, kMu * followed.impulse(patch, i).z());
        const double tolerance = 1e-3 * largest_bound;
        for (const PatchProblem* problem : {&followed, &settled})
          for (int patch = 0; patch < problem->num_patches(); ++patch)
            for (int i = 0; i < problem->num_points(patch); ++i) {
              const Vector3& gamma = problem->impulse(patch, i);
              EXPECT_LE(gamma.head<2>().norm(), kMu * gamma.z() + tolerance)
                  << boxes << " boxes at " << speed << " m/s, patch " << patch << " point " << i
                  << (problem == &followed ? ", bounds followed" : ", rounds until settled");
            }
        // Momentum balance at the bounds in use: each box's momentum change is the net impulse of
        // its two patches, to the stopping rule. For a cube B = diag(chol(I⁻¹), m^-½·1), so the
        // translational part of ∇f is m^-½·(m·Δv − f), and |∇f| ≤ 1e-6·|z|, |z|² = Σ ΔVᵀ·M·ΔV.
        const double inertia = CubeInertia(kStackBoxMass, kStackBoxHalfSize);
        double z_squared = 0;
        for (int b = 1; b <= boxes; ++b)
          z_squared +=
              kStackBoxMass * dV_followed[b].tail<3>().squaredNorm() + inertia * dV_followed[b].head<3>().squaredNorm();
        for (int b = 1; b <= boxes; ++b) {
          Vector3 net = followed.WrenchOnA(b - 1).tail<3>();
          if (b < boxes) net -= followed.WrenchOnA(b).tail<3>();
          // Measured: at most 0.11 of 1e-6·m^½·|z| without blended steps, 0.10 with them.
          EXPECT_LT((kStackBoxMass * dV_followed[b].tail<3>() - net).norm(),
                    2e-6 * std::sqrt(kStackBoxMass * z_squared))
              << boxes << " boxes at " << speed << " m/s, box " << b;
        }
        // Each solution's bounds are within the tolerance of its own μ·γn, so a point's friction
        // may differ between the two by about twice it; a box touches two patches of four points:
        // 16·tolerance of impulse, on the mass, and on I through the corners' lever arm |r| (√3·a).
        // Measured: at most 0.21 and 2.5 of tolerance/m, for 16 and 416, without blended steps; 0.29
        // and 1.6 with them.
        const double lever = std::sqrt(3.0) * kStackBoxHalfSize;
        for (int b = 1; b <= boxes; ++b) {
          EXPECT_LT((dV_followed[b] - dV_settled[b]).tail<3>().norm(), 16 * tolerance / kStackBoxMass)
              << boxes << " boxes at " << speed << " m/s, box " << b;
          EXPECT_LT((dV_followed[b] - dV_settled[b]).head<3>().norm(), 16 * tolerance * lever / inertia)
              << boxes << " boxes at " << speed << " m/s, box " << b;
        }
      }
  EXPECT_LT(follow_total, 0.7 * rounds_total);
}

// One problem object through a sequence of problems — the same pattern again (a pile at rest
// keeps its matrix and its blocks' places), another size, a frictionless one — solves each exactly as a new
// object does: nothing of an earlier matrix is left in a later one.
TEST(PatchProblemTest, AProblemReusedAcrossPatternsSolvesAsANewOne) {
  PatchProblemOptions direct;
  direct.reuse_factorization_from = 1 << 30;  // every Newton step factorizes: results comparable bit for bit
  PatchProblem kept;
  const std::vector<std::pair<int, double>> sequence = {{4, 1.0}, {4, 0.3}, {4, 0.3}, {7, 1.0}, {4, 1.0}, {2, 0.0}};
  for (const auto& [boxes, speed] : sequence) {
    std::vector<Vector6> V, dV_kept, dV_new;
    MakeSlidingStack(boxes, speed, direct, &kept, &V);
    ASSERT_TRUE(kept.Solve(V, 50, 5, &dV_kept).converged);
    PatchProblem fresh;
    MakeSlidingStack(boxes, speed, direct, &fresh, &V);
    ASSERT_TRUE(fresh.Solve(V, 50, 5, &dV_new).converged);
    for (int b = 1; b <= boxes; ++b)
      EXPECT_EQ(dV_kept[b], dV_new[b]) << boxes << " boxes at " << speed << " m/s, box " << b;
  }
}

// Groups of other sizes on the same contacts: the matrix's blocks join the same pairs of groups,
// its unknowns are as many, but its layout is another, laid out anew; each solves exactly as a new
// object does.
TEST(PatchProblemTest, AProblemReusedWithOtherGroupSizesSolvesAsANewOne) {
  PatchProblemOptions direct;
  direct.reuse_factorization_from = 1 << 30;  // every Newton step factorizes: results comparable bit for bit
  const double m = 1, a = 0.1, dt = 1.0 / 60;
  const Matrix6 L = Eigen::LLT<Matrix6>(Cube(m, a, Vector3::Zero()).mobility).matrixL();
  // A cube free to move (six unknowns), or only to translate and spin about z (four).
  auto factor = [&](int dim) { return Eigen::MatrixXd(L.rightCols(dim)); };
  auto make = [&](int lower_dim, int upper_dim, PatchProblem* problem) {
    problem->Reset(dt, direct);
    const int lower = problem->AddCoupledBodies(factor(lower_dim), {Vector3(0, 0, a)});
    const int upper = problem->AddCoupledBodies(factor(upper_dim), {Vector3(0, 0, 3 * a)});
    const int ground = problem->AddBody(PatchBody{});
    problem->AddPatch(lower, ground, BottomCorners(a, 1e7, -1e-4, 0.5));
    std::vector<PatchPoint> top = BottomCorners(a, 1e7, -1e-4, 0.5);
    for (PatchPoint& p : top) p.p_WQ.z() = 2 * a;
    problem->AddPatch(upper, lower, top);
  };
  const std::vector<Vector6> V = {Twist(Vector3(0, 0, 0.2), Vector3(0.3, 0, -1)),
                                  Twist(Vector3(0, 0, -0.5), Vector3(-0.2, 0.1, -1)), Vector6::Zero()};
  PatchProblem kept;
  for (const auto& [lower_dim, upper_dim] : {std::pair{6, 4}, std::pair{4, 6}, std::pair{6, 6}}) {
    std::vector<Vector6> dV_kept, dV_new;
    make(lower_dim, upper_dim, &kept);
    ASSERT_TRUE(kept.Solve(V, 50, 5, &dV_kept).converged);
    PatchProblem fresh;
    make(lower_dim, upper_dim, &fresh);
    ASSERT_TRUE(fresh.Solve(V, 50, 5, &dV_new).converged);
    for (int b = 0; b < 2; ++b)
      EXPECT_EQ(dV_kept[b], dV_new[b]) << lower_dim << " and " << upper_dim << " unknowns, body " << b;
  }
}

TEST(PatchProblemTest, ANearRigidPatchKeepsItsPressureShape) {
  // A stiff patch of equal points, at the corners and centre of a cube's base: the corners see
  // more inverse mass (the cube turns about them), so softening each point to its own near-rigid
  // period would take load off the corners. The patch is softened as a whole: equal points carry
  // equal impulses, whatever their place, and the stiffness is the patch's closed form.
  const double m = 1, a = 0.05, k = 1e9, dt = 1.0 / 60;
  std::vector<PatchPoint> points = BottomCorners(a, k, 0, 0);
  points.push_back(points[0]);
  points.back().p_WQ = Vector3::Zero();
  Pair block;
  block.Reset(dt, Cube(m, a, Vector3(0, 0, a)), PatchBody{}, points);
  EXPECT_EQ(block.near_rigid_points(), 5);
  Vector6 dV_A, dV_B;
  block.Solve(Twist(Vector3::Zero(), Vector3(0, 0, -kGravity * dt)), Vector6::Zero(), 50, 1, &dV_A, &dV_B);
  const double centre = block.impulse(4).z();
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(block.impulse(i).z() / centre, 1.0, 1e-9) << "corner " << i;
  EXPECT_NEAR(dV_A.head<3>().norm(), 0, 1e-12);
  // The patch softened as a whole to a period of β·δt/4 (β = 1) for the inverse mass at its centre
  // of stiffness, the base's centre, below the cube's: w = 1/m. Its stiffness K = 16·4π²/(w·δt²)
  // is shared equally; starting at zero depth, the implicit springs give
  // γ = m·g·δt · δt²K/(m + δt²K).
  const double w = 1 / m;
  const double K = 16 * 4 * M_PI * M_PI / (w * dt * dt);
  const double expected = m * kGravity * dt * dt * dt * K / (m + dt * dt * K);
  EXPECT_NEAR(block.WrenchOnA()[5], expected, 1e-9 * expected);
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

// Coupled bodies (the links of a multibody): one rigid cube entered as two coupled bodies, its
// centre c and a point c + d of it, whose twists are V and T·V (T moves a twist from c to c + d).
// A patch on the second must act exactly as on the cube entered alone, and the two bodies' twist
// changes must stay those of one rigid body: the coupling terms of G = [I; T]·G_c·[I; T]ᵀ carry it.
TEST(PatchProblemTest, CoupledBodiesMoveAsTheOneBodyTheyAre) {
  const double dt = 1.0 / 60;
  const Vector3 c(0.01, -0.02, 0.1), d(0.3, 0.1, -0.05);
  const PatchBody cube = Cube(2.0, 0.1, c);
  std::vector<PatchPoint> points = BottomCorners(0.1, 1e7, -1e-4, 0.5);
  for (PatchPoint& p : points) p.p_WQ += Vector3(c.x(), c.y(), 0);
  points[0].phi0_m = -3e-4;
  const Vector6 V_c = Twist(Vector3(0.3, 0, 0.1), Vector3(0.2, 0, -1));
  Matrix6 T = Matrix6::Identity();
  T.bottomLeftCorner<3, 3>() << 0, d.z(), -d.y(), -d.z(), 0, d.x(), d.y(), -d.x(), 0;  // v + ω × d = v − [d]×·ω

  PatchProblem alone;
  alone.Reset(dt);
  alone.AddBody(cube);
  alone.AddBody(PatchBody{});
  alone.AddPatch(0, 1, points);
  std::vector<Vector6> dV_alone;
  alone.Solve({V_c, Vector6::Zero()}, 50, 5, &dV_alone);

  PatchProblem coupled;
  coupled.Reset(dt);
  const Eigen::LLT<Matrix6> llt(cube.mobility);
  const Matrix6 B_c = llt.matrixL();
  Eigen::MatrixXd B(12, 6);
  B << B_c, T * B_c;
  const int first = coupled.AddCoupledBodies(B, {c, c + d});
  const int ground = coupled.AddBody(PatchBody{});
  coupled.AddPatch(first + 1, ground, points);  // the patch on the second body
  std::vector<Vector6> dV;
  coupled.Solve({V_c, T * V_c, Vector6::Zero()}, 50, 5, &dV);

  EXPECT_EQ(coupled.group_of(first), coupled.group_of(first + 1));
  const double scale = dV_alone[0].norm();
  EXPECT_LT((dV[first] - dV_alone[0]).norm(), 1e-8 * scale);
  EXPECT_LT((dV[first + 1] - T * dV_alone[0]).norm(), 1e-8 * scale);
  for (int i = 0; i < 4; ++i)
    EXPECT_LT((coupled.impulse(0, i) - alone.impulse(0, i)).norm(), 1e-8 * alone.impulse(0, i).norm() + 1e-14);
  // The group's unknowns changed by exactly what moved it: B·Δz is both bodies' twist change.
  const Eigen::VectorXd dz = coupled.GroupChange(coupled.group_of(first));
  EXPECT_LT((B.topRows<6>() * dz - dV[first]).norm(), 1e-12 * scale);
}

TEST(PatchProblemTest, RejectsCoupledBodiesOfTheWrongShape) {
  PatchProblem problem;
  problem.Reset(1e-3);
  EXPECT_THROW(problem.AddCoupledBodies(Eigen::MatrixXd::Identity(6, 6), {}), InvalidInput);
  EXPECT_THROW(problem.AddCoupledBodies(Eigen::MatrixXd::Identity(6, 6), {Vector3::Zero(), Vector3::Zero()}),
               InvalidInput);
  Eigen::MatrixXd nan = Eigen::MatrixXd::Identity(6, 6);
  nan(2, 2) = NAN;
  EXPECT_THROW(problem.AddCoupledBodies(nan, {Vector3::Zero()}), InvalidInput);
}

}  // namespace

// What the solver's conjugate gradients multiply by, against the matrix they stand for.
class PatchProblemTester {
 public:
  explicit PatchProblemTester(const PatchProblem& problem) : problem_(problem) {}
  const Eigen::SparseMatrix<double>& Hessian() const { return problem_.hessian_; }
  Eigen::VectorXd MultiplyHessian(const Eigen::VectorXd& x) const {
    Eigen::VectorXd y;
    problem_.MultiplyHessian(x, &y);
    return y;
  }

 private:
  const PatchProblem& problem_;
};

namespace {

TEST(PatchProblemTest, TheBlockProductIsTheProductWithNewtonsMatrix) {
  // Conjugate gradients multiply by Newton's matrix block by block (6 × 6 blocks by the block
  // kernels, others entry by entry), reading the compressed columns' values in place. Against
  // Eigen's own sparse product with the same matrix, on a sliding stack whose boxes have 6, 4, 3
  // and 5 unknowns, so that the matrix holds square and oblong blocks of both paths, off the
  // diagonal in both orientations. A Newton step on a wrong product can still converge (it only
  // slows), so the product is checked here directly, to round-off: 1e-13 of |H|·|x|.
  PatchProblem problem;
  std::vector<Vector6> V, dV;
  const std::vector<int> unknowns = {6, 4, 6, 3, 5, 6, 4, 4, 6, 6, 3, 6};
  MakeSlidingStack(12, 1.0, OneSequenceOfRounds(), &problem, &V, 0.5, 0, false, unknowns);
  ASSERT_TRUE(problem.Solve(V, 50, 5, &dV).converged);
  const PatchProblemTester tester(problem);
  const Eigen::SparseMatrix<double>& H = tester.Hessian();
  int total = 0;
  for (int u : unknowns) total += u;
  ASSERT_EQ(H.rows(), total);
  // Assembled at the solution: the contacts' curvature, not only I (1e9 N/m points under boxes of
  // 1 kg at 1/60 s: δt²·k/m ≈ 3e5).
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(total, total);
  ASSERT_GT((Eigen::MatrixXd(H) - I).norm(), 1e3);
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::VectorXd x = Eigen::VectorXd::Random(total);
    const Eigen::VectorXd expected = H * x;
    const Eigen::VectorXd y = tester.MultiplyHessian(x);
    EXPECT_LT((y - expected).norm(), 1e-13 * H.norm() * x.norm()) << "trial " << trial;
  }
}

}  // namespace
}  // namespace hydro
