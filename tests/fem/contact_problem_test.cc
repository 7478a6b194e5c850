// The shared contact problem (fem/contact_problem.h): reducing an FEM block to its participating
// DoFs through the Schur complement (002 §VI-B) gives the same velocities and impulses as solving
// with every DoF, momentum balances block by block, and bad input is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "fem/contact_problem.h"
#include "fem/deformable_contact.h"

namespace hydro {
namespace fem {
namespace {

// A soft block sliding into a rigid floor and a rigid box, as one problem: block 0 the FEM body,
// block 1 the rigid box. `reduce` hands the solver the free motion's factorization.
struct SlidingBlock {
  explicit SlidingBlock(bool reduce, const ContactProblemOptions& options = {}) {
    std::vector<Vector3> vertices;
    std::vector<Tet> tets;
    MakeTetGrid(Vector3(0.1, 0.1, 0.05), 5, 5, 3, &vertices, &tets);
    Material material;
    material.youngs_modulus_Pa = 2e5;
    material.stiffness_damping_s = 0.01;
    body = std::make_unique<FemBody>("block", vertices, tets, material);
    RigidTransform X = RigidTransform::Identity();
    X.translation() = Vector3(0, 0, -0.003);  // 3 mm into the floor
    body->SetRigidState(X, Vector3(0.3, 0.1, -0.2), Vector3(0, 0, 1.5));
    const double dt = 0.01;
    free_motion = body->CalcFreeMotion(dt, Vector3(0, 0, -9.81));
    ContactProblemBlock fem_block;
    fem_block.A = free_motion.A;
    if (reduce) fem_block.factorization = free_motion.factorization;
    fem_block.u_star = free_motion.v_star;  // no fixed vertices: free index = DoF
    blocks.push_back(fem_block);
    Matrix3 inertia = Matrix3::Identity() * 1e-3;
    inertia(0, 1) = inertia(1, 0) = 2e-4;
    blocks.push_back(MakeRigidBlock(0.5, inertia, Vector3(-0.2, 0, -0.1), Vector3(0, 1, 0)));
    const Vector3 p_WB(0.1, 0.05, 0.06);  // the box's centre of mass
    const DeformableContactModel model = MakeDeformableContactModel(*body);
    for (const DeformableContactPoint& p :
         FindContacts(*body, model, RigidHalfSpace{}, RigidTransform::Identity(), 0.6)) {
      ContactConstraint c;
      AppendDeformableTerms(*body, free_motion, 0, p.tet, p.weights, +1, &c.terms);
      // Every fourth point touches the box instead of the floor (a synthetic second participant).
      if (contacts.size() % 4 == 0) AppendRigidTerms(1, p.p_WC - p_WB, -1, &c.terms);
      c.nhat_W = p.nhat_W;
      c.stiffness_N_per_m = p.stiffness_N_per_m;
      c.phi0_m = p.phi0_m;
      c.friction = p.friction;
      contacts.push_back(c);
    }
    SpringConstraint weld;  // a top corner welded to the box
    AppendVertexTerms(free_motion, 0, body->num_vertices() - 1, +1, &weld.terms);
    AppendRigidTerms(1, body->position(body->num_vertices() - 1) - p_WB, -1, &weld.terms);
    weld.p_BcAc_W_start = Vector3(0.001, 0, 0);
    weld.stiffness_N_per_m = 1e4;
    springs.push_back(weld);
    VelocityTargetConstraint motor;  // holds the box's x velocity at 0 with a bounded impulse
    motor.block = 1;
    motor.J_s = Eigen::RowVectorXd::Unit(6, 0);
    motor.stiffness = 500;
    motor.max_impulse = 0.02;
    targets.push_back(motor);
    result = SolveContactProblem(dt, blocks, contacts, springs, targets, options);
  }
  std::unique_ptr<FemBody> body;
  FreeMotion free_motion;
  std::vector<ContactProblemBlock> blocks;
  std::vector<ContactConstraint> contacts;
  std::vector<SpringConstraint> springs;
  std::vector<VelocityTargetConstraint> targets;
  ContactProblemResult result;
};

TEST(ContactProblemTest, SchurComplementOnParticipatingDofsGivesTheFullSolution) {
  const SlidingBlock full(false), reduced(true);
  ASSERT_GT(full.contacts.size(), 20u);
  ASSERT_TRUE(full.result.converged);
  ASSERT_TRUE(reduced.result.converged);
  const double u_scale = full.result.u[0].cwiseAbs().maxCoeff();
  const double u_error = (full.result.u[0] - reduced.result.u[0]).cwiseAbs().maxCoeff();
  const double rigid_error = (full.result.u[1] - reduced.result.u[1]).cwiseAbs().maxCoeff();
  double impulse_scale = 0, impulse_error = 0;
  for (size_t i = 0; i < full.contacts.size(); ++i) {
    impulse_scale = std::max(impulse_scale, full.result.contact_impulse_W[i].norm());
    impulse_error =
        std::max(impulse_error, (full.result.contact_impulse_W[i] - reduced.result.contact_impulse_W[i]).norm());
  }
  std::printf(
      "contact problem: %zu points, %d DoFs; reduced to %d unknowns (%.2f ms Schur complement); "
      "full vs reduced: velocities %.1e m/s of %.2f, impulses %.1e N·s of %.2e, %d vs %d Newton iterations\n",
      full.contacts.size(), full.result.total_dofs, reduced.result.unknowns, 1e3 * reduced.result.schur_s, u_error,
      u_scale, impulse_error, impulse_scale, full.result.iterations, reduced.result.iterations);
  EXPECT_EQ(full.result.unknowns, full.result.total_dofs);
  EXPECT_LT(reduced.result.unknowns, full.result.total_dofs / 2);  // only the bottom layer and the welded vertex
  EXPECT_LT(u_error, 1e-7 * u_scale);
  EXPECT_LT(rigid_error, 1e-7 * u_scale);
  EXPECT_LT(impulse_error, 1e-7 * impulse_scale);
}

// Refinement rounds that start with the last round's factored matrix reach the same solution
// (to the stopping rule's 1e-6) with fewer factorizations.
TEST(ContactProblemTest, RefinementRoundsReusingTheLastFactorizationReachTheSameSolution) {
  ContactProblemOptions fresh, reusing;
  fresh.reuse_factorization_from_unknowns = std::numeric_limits<int>::max();
  reusing.reuse_factorization_from_unknowns = 0;
  const SlidingBlock a(false, fresh), b(false, reusing);
  ASSERT_TRUE(a.result.converged);
  ASSERT_TRUE(b.result.converged);
  ASSERT_GE(a.result.friction_rounds, 2);  // there is a refinement round to reuse in
  const double u_scale = a.result.u[0].cwiseAbs().maxCoeff();
  const double u_error = std::max((a.result.u[0] - b.result.u[0]).cwiseAbs().maxCoeff(),
                                  (a.result.u[1] - b.result.u[1]).cwiseAbs().maxCoeff());
  std::printf(
      "refinement rounds: %d factorizations in %d iterations fresh, %d in %d reusing; velocities agree to %.1e of %.2f "
      "m/s\n",
      a.result.factorizations, a.result.iterations, b.result.factorizations, b.result.iterations, u_error, u_scale);
  EXPECT_EQ(a.result.factorizations, a.result.iterations);
  EXPECT_LT(b.result.factorizations, a.result.factorizations);
  EXPECT_LT(u_error, 1e-5 * u_scale);
}

TEST(ContactProblemTest, MomentumBalancesInEveryBlock) {
  // A_b(u_b − u*_b) = Σ Jᵀ·impulse, for the FEM block (every DoF, also those reduced away) and the
  // rigid block (with its bounded velocity target); friction stays inside its cone.
  const SlidingBlock problem(true);
  for (int b = 0; b < 2; ++b) {
    const Eigen::VectorXd momentum = problem.blocks[b].A * (problem.result.u[b] - problem.blocks[b].u_star);
    const Eigen::VectorXd applied = problem.result.impulse[b] + problem.result.target_impulse[b];
    const double scale = applied.cwiseAbs().maxCoeff();
    EXPECT_GT(scale, 0) << "block " << b;
    EXPECT_LT((momentum - applied).cwiseAbs().maxCoeff(), 1e-6 * scale) << "block " << b;
  }
  const double motor_impulse = problem.result.target_impulse[1][0];
  EXPECT_LE(std::abs(motor_impulse), 0.02 + 1e-12);
  EXPECT_GT(std::abs(motor_impulse), 0);
  double largest_gamma_n = 0;
  for (size_t i = 0; i < problem.contacts.size(); ++i)
    largest_gamma_n = std::max(largest_gamma_n, problem.contacts[i].nhat_W.dot(problem.result.contact_impulse_W[i]));
  for (size_t i = 0; i < problem.contacts.size(); ++i) {
    const Vector3& gamma = problem.result.contact_impulse_W[i];
    const Vector3& n = problem.contacts[i].nhat_W;
    const double gamma_n = n.dot(gamma);
    EXPECT_GE(gamma_n, 0);
    // Bounded by μ times the lagged γn, which the friction rounds match to γn within 1e-3 of the
    // largest.
    EXPECT_LE((gamma - gamma_n * n).norm(), problem.contacts[i].friction * (gamma_n + 1e-3 * largest_gamma_n));
  }
}

TEST(ContactProblemTest, RefusesConstraintsOnMissingBlocksOrDofs) {
  std::vector<ContactProblemBlock> blocks{MakeRigidBlock(1, Matrix3::Identity(), Vector3::Zero(), Vector3::Zero())};
  ContactConstraint c;
  AppendRigidTerms(1, Vector3::Zero(), 1, &c.terms);
  EXPECT_THROW(SolveContactProblem(0.01, blocks, {c}, {}), InvalidInput);
  ContactConstraint d;
  d.terms.push_back({0, 5, Matrix3::Identity()});  // DoFs 5…7 of a 6-DoF block
  EXPECT_THROW(SolveContactProblem(0.01, blocks, {d}, {}), InvalidInput);
  EXPECT_THROW(SolveContactProblem(0, blocks, {}, {}), InvalidInput);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
