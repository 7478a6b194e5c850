// Deformable bodies touching rigid geometry through the core's polygons: a soft ball dropped on a
// rigid plane comes to rest without jitter carrying its weight, and a soft block on a slope holds
// below the friction angle and slides with Coulomb's acceleration above it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "fem/deformable_contact.h"
#include "hydro/make_sphere_mesh.h"
#include "hydro/make_surface_mesh.h"

namespace hydro {
namespace fem {
namespace {

TEST(DeformableContactTest, SoftBallDroppedOnAPlaneRestsWithoutJitter) {
  const double R = 0.05;
  const VolumeMeshWithExtent sphere = MakeSphereVolumeMesh(R, R / 2);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.density_kg_per_m3 = 500;
  material.mass_damping_1_per_s = 2;
  FemBody ball("ball", sphere.mesh->vertices(), sphere.mesh->tets(), material);
  RigidTransform X_WB = RigidTransform::Identity();
  X_WB.translation() = Vector3(0, 0, R + 0.01);
  ball.SetRigidState(X_WB, Vector3::Zero(), Vector3::Zero());
  const DeformableContactModel model = MakeDeformableContactModel(ball);
  const double dt = 0.02, g = 9.81;  // the seeds' step sizes are 10–40 ms
  ContactSolveReport report;
  int most_iterations = 0;
  Eigen::VectorXd q_before;
  for (int i = 0; i < 150; ++i) {
    if (i == 149) q_before = ball.q();
    const auto points = FindContacts(ball, model, RigidHalfSpace{}, RigidTransform::Identity(), 0.5);
    report = ball.StepWithContacts(dt, Vector3(0, 0, -g), points);
    EXPECT_TRUE(report.converged) << "step " << i;
    most_iterations = std::max(most_iterations, report.iterations);
  }
  const double weight = ball.CalcMass() * g;
  const double jitter = (ball.q() - q_before).cwiseAbs().maxCoeff();
  std::printf(
      "soft ball at rest after 3 s: contact force %.5f N vs weight %.5f N, last-step motion %.1e m, "
      "max vertex speed %.1e m/s, ≤ %d Newton iterations, residual %.1e N·s\n",
      report.impulse_on_body_W.z() / dt, weight, jitter, ball.v().cwiseAbs().maxCoeff(), most_iterations,
      report.residual);
  EXPECT_NEAR(report.impulse_on_body_W.z() / dt, weight, 1e-3 * weight);
  EXPECT_LT(jitter, 1e-7);
  EXPECT_LT(ball.v().cwiseAbs().maxCoeff(), 1e-5);
  EXPECT_LT(report.residual, 1e-9);
  EXPECT_GT(ball.CalcCenterOfMass().z(), 0.8 * R);  // resting on, not sunk into, the plane
}

// Distance slid in 1 s by a soft block on a rigid plane tilted by θ (μ = 0.5).
double Slide(double tan_theta, double* acceleration) {
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(Vector3(0.1, 0.1, 0.04), 4, 4, 2, &vertices, &tets);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.mass_damping_1_per_s = 0;     // it would brake the sliding block
  material.stiffness_damping_s = 0.005;  // damps its bouncing on the contact layer instead
  FemBody block("block", vertices, tets, material);
  const DeformableContactModel model = MakeDeformableContactModel(block);
  const double theta = std::atan(tan_theta), g = 9.81, dt = 0.01;
  // Gravity tilted instead of the plane: down the slope is +x.
  const Vector3 gravity(g * std::sin(theta), 0, -g * std::cos(theta));
  RigidTransform X = RigidTransform::Identity();
  X.translation() = Vector3(-0.05, -0.05, -0.0005);
  block.SetRigidState(X, Vector3::Zero(), Vector3::Zero());
  double x_half = 0, v_half = 0;
  for (int i = 1; i <= 100; ++i) {
    const auto points = FindContacts(block, model, RigidHalfSpace{}, RigidTransform::Identity(), 0.5);
    block.StepWithContacts(dt, gravity, points);
    if (i == 50) x_half = block.CalcCenterOfMass().x(), v_half = block.CalcMeanVelocity().x();
  }
  // From the velocities: backward Euler's positions lag them by a step (x − x0 − v0·t = a·t²/2·(1 + δt/t)).
  *acceleration = (block.CalcMeanVelocity().x() - v_half) / 0.5;
  return block.CalcCenterOfMass().x() - x_half;
}

TEST(DeformableContactTest, BlockOnASlopeHoldsOrSlidesByCoulomb) {
  double a;
  const double held = Slide(0.3, &a);
  std::printf("soft block, tan θ = 0.3 < μ = 0.5: slid %.2e m in the last 0.5 s\n", held);
  EXPECT_LT(std::abs(held), 1e-4);  // regularized friction: creep below the stiction speed
  const double tan_theta = 0.8, theta = std::atan(tan_theta);
  Slide(tan_theta, &a);
  const double expected = 9.81 * (std::sin(theta) - 0.5 * std::cos(theta));
  std::printf("soft block, tan θ = 0.8: a = %.4f m/s², g(sin θ − μ cos θ) = %.4f (%+.2f%%)\n", a, expected,
              100 * (a / expected - 1));
  EXPECT_NEAR(a / expected, 1.0, 0.02);
}

TEST(DeformableContactTest, RigidBlockRestsOnASoftPadTwoWay) {
  // A rigid 1 kg block on a soft pad whose base is welded (μ = 0.5): the block's velocities are
  // unknowns of the same convex solve (two-way coupling); this test moves and turns it with them,
  // as Bullet would. Every step converges, action equals reaction exactly, the block comes to rest
  // and over the last second the patch carries its weight.
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  const double H = 0.05, side = 0.1;
  MakeTetGrid(Vector3(side, side, H), 4, 4, 2, &vertices, &tets);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.0;
  material.mass_damping_1_per_s = 2;
  FemBody soft("pad", vertices, tets, material);
  for (int v = 0; v < soft.num_vertices(); ++v)
    if (soft.rest_positions()[v].z() == 0) soft.FixVertex(v);
  const DeformableContactModel model = MakeDeformableContactModel(soft);
  const RigidMesh box(MakeBoxSurfaceMesh(Vector3(side, side, 0.04), 0.0125));
  const double m = 1.0, g = 9.81, dt = 0.01;
  RigidParticipant block;
  block.mass_kg = m;
  block.inertia_W = m * (side * side + 0.04 * 0.04) / 12 * Matrix3::Identity();
  block.p_WBcm = Vector3(side / 2, side / 2, H + 0.02 - 1e-4);
  std::vector<RigidParticipant> rigid(1);
  const Matrix3 I_B = block.inertia_W;
  Eigen::Quaterniond q_WB = Eigen::Quaterniond::Identity();
  double impulse_last_second = 0;
  for (int i = 0; i < 200; ++i) {
    RigidTransform X_WB = RigidTransform::Identity();
    X_WB.translation() = block.p_WBcm;
    X_WB.linear() = q_WB.toRotationMatrix();
    block.inertia_W = X_WB.linear() * I_B * X_WB.linear().transpose();
    auto points = FindContacts(soft, model, box, X_WB, 0.5);
    for (auto& p : points) p.rigid = 0;
    block.v_star = block.v + dt * Vector3(0, 0, -g);  // gravity, as Bullet would add it
    block.w_star = block.w;
    rigid[0] = block;
    const ContactSolveReport report = soft.StepWithContacts(dt, Vector3(0, 0, -g), points, &rigid);
    ASSERT_TRUE(report.converged) << i;
    EXPECT_LT((report.impulse_on_body_W + rigid[0].impulse_W).norm(), 1e-12);  // action = reaction
    block.v = rigid[0].v;
    block.w = rigid[0].w;
    block.p_WBcm += dt * block.v;
    if (block.w.norm() > 0)
      q_WB = Eigen::Quaterniond(Eigen::AngleAxisd(dt * block.w.norm(), block.w.normalized())) * q_WB;
    q_WB.normalize();
    if (i >= 100) impulse_last_second += rigid[0].impulse_W.z();
  }
  const double force = impulse_last_second / 1.0;
  std::printf(
      "rigid block on a soft pad (two-way, μ = 0.5): mean patch force over the last second %.4f N vs "
      "m·g %.4f N; sank %.3f mm; speed %.1e m/s\n",
      force, m * g, 1e3 * (H + 0.02 - block.p_WBcm.z()), block.v.norm());
  EXPECT_NEAR(force, m * g, 0.01 * m * g);
  EXPECT_LT(block.v.norm(), 1e-4);
  EXPECT_LT(block.w.norm(), 1e-3);
}

TEST(DeformableContactTest, ARigidBoxWeldedToASoftBarHangsFromIt) {
  // A soft bar clamped at x = 0 with its free end welded to a 0.1 kg rigid box (bubble-gripper
  // style attachments, in the same convex problem): the box ends at rest hanging from the bar, the
  // welds carry its weight, and they stay closed.
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(Vector3(0.2, 0.04, 0.04), 10, 2, 2, &vertices, &tets);
  Material material;
  material.youngs_modulus_Pa = 1e6;
  material.poisson_ratio = 0.3;
  material.mass_damping_1_per_s = 5;
  FemBody bar("bar", vertices, tets, material);
  RigidParticipant box;
  box.mass_kg = 0.1;
  box.inertia_W = 0.1 * 0.02 * 0.02 / 6 * Matrix3::Identity();
  box.p_WBcm = Vector3(0.22, 0.02, 0.02);
  std::vector<VertexAttachment> welds;
  for (int v = 0; v < bar.num_vertices(); ++v) {
    const Vector3& X = bar.rest_positions()[v];
    if (X.x() == 0) bar.FixVertex(v);
    if (X.x() == 0.2) welds.push_back({v, 0, X, 1e5});
  }
  const Matrix3 I_B = box.inertia_W;
  Eigen::Quaterniond q_WB = Eigen::Quaterniond::Identity();
  std::vector<Vector3> p_BQ;  // weld points in the box frame
  for (const VertexAttachment& w : welds) p_BQ.push_back(w.p_WQ - box.p_WBcm);
  const double dt = 0.01, g = 9.81;
  std::vector<RigidParticipant> rigid(1);
  for (int i = 0; i < 300; ++i) {
    const Matrix3 R = q_WB.toRotationMatrix();
    for (size_t k = 0; k < welds.size(); ++k) welds[k].p_WQ = box.p_WBcm + R * p_BQ[k];
    box.inertia_W = R * I_B * R.transpose();
    box.v_star = box.v + dt * Vector3(0, 0, -g);
    box.w_star = box.w;
    rigid[0] = box;
    const ContactSolveReport report = bar.StepWithContacts(dt, Vector3(0, 0, -g), {}, &rigid, &welds);
    ASSERT_TRUE(report.converged) << i;
    box.v = rigid[0].v;
    box.w = rigid[0].w;
    box.p_WBcm += dt * box.v;
    if (box.w.norm() > 0) q_WB = Eigen::Quaterniond(Eigen::AngleAxisd(dt * box.w.norm(), box.w.normalized())) * q_WB;
    q_WB.normalize();
  }
  double widest_gap = 0;
  for (size_t k = 0; k < welds.size(); ++k)
    widest_gap = std::max(widest_gap, (bar.position(welds[k].vertex) - (box.p_WBcm + q_WB * p_BQ[k])).norm());
  std::printf(
      "box welded to a soft bar: weld impulse %.5f N·s vs m·g·δt %.5f, widest weld gap %.1e m, box sagged "
      "%.2f mm, speed %.1e m/s\n",
      rigid[0].impulse_W.z(), 0.1 * g * dt, widest_gap, 1e3 * (0.02 - box.p_WBcm.z()), box.v.norm());
  EXPECT_NEAR(rigid[0].impulse_W.z(), 0.1 * g * dt, 1e-3 * 0.1 * g * dt);
  EXPECT_LT(widest_gap, 1e-4);
  EXPECT_LT(box.v.norm(), 1e-4);
  EXPECT_GT(0.02 - box.p_WBcm.z(), 1e-4);  // the bar bends under it
}

}  // namespace
}  // namespace fem
}  // namespace hydro
