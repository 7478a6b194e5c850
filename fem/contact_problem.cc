#include "fem/contact_problem.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "fem/contact_impulse.h"
#include "fem/contact_problem_assembly.h"
#include "fem/contact_problem_layout.h"
#include "fem/contact_problem_recovery.h"
#include "fem/near_rigid_softening.h"
#include "fem/spring_law.h"
#include "fem/velocity_target_law.h"
#include "hydro/convex_line_search.h"

namespace hydro {
namespace fem {

Matrix3 CrossMatrix(const Vector3& r) {
  Matrix3 m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

using internal::BlockLayout;
using internal::GroupedJacobian;
using internal::HessianAssembly;

constexpr int kMaxIterations = 100;           // Newton iterations per round
constexpr int kMaxFrictionRounds = 5;         // refreshes of the lagged γn
constexpr double kRelativeTolerance = 1e-6;   // εr of SAP's stopping rule (see newton below)
constexpr double kAbsoluteTolerance = 1e-14;  // εa, in units of √kg·m/s

}  // namespace

ContactProblemResult SolveContactProblem(double dt, const std::vector<ContactProblemBlock>& blocks,
                                         const std::vector<ContactConstraint>& contacts,
                                         const std::vector<SpringConstraint>& springs,
                                         const std::vector<VelocityTargetConstraint>& targets,
                                         const ContactProblemOptions& options) {
  CheckPositive(dt, "contact problem time step");
  CheckPositive(options.stiction_speed_m_per_s, "contact problem stiction speed");
  const double kStictionSpeed = options.stiction_speed_m_per_s;
  const int num_blocks = static_cast<int>(blocks.size());
  auto check_terms = [&](const std::vector<VelocityTerm>& terms) {
    for (const VelocityTerm& t : terms)
      if (t.block < 0 || t.block >= num_blocks || t.first_dof < 0 ||
          t.first_dof + t.J.cols() > blocks[t.block].u_star.size())
        throw InvalidInput("contact problem: a constraint names a block or DoF that does not exist");
  };
  for (const ContactConstraint& c : contacts) check_terms(c.terms);
  for (const SpringConstraint& s : springs) check_terms(s.terms);
  for (const VelocityTargetConstraint& t : targets)
    if (t.block < 0 || t.block >= num_blocks || t.J.size() != blocks[t.block].u_star.size() || !(t.stiffness > 0) ||
        !(t.max_impulse >= 0) || !std::isfinite(t.target))
      throw InvalidInput(
          "contact problem: a velocity target names a missing block or has a bad size, stiffness or bound");

  for (int b = 0; b < num_blocks; ++b) {
    const int n = static_cast<int>(blocks[b].u_star.size());
    if (blocks[b].A.rows() != n || blocks[b].A.cols() != n)
      throw InvalidInput("contact problem: block " + std::to_string(b) + "'s matrix does not match its velocities");
  }

  // Participating DoFs and the problem's unknowns.
  ContactProblemResult result;
  const internal::ContactProblemLayout problem = internal::MakeContactProblemLayout(blocks, contacts, springs, targets);
  const std::vector<BlockLayout>& layout = problem.blocks;
  const std::vector<Eigen::Triplet<double>>& A_triplets = problem.A_triplets;
  const Eigen::SparseMatrix<double>& A = problem.A;
  const Eigen::VectorXd& u_star = problem.u_star;
  const int num_unknowns = problem.num_unknowns;
  result.total_dofs = problem.total_dofs;
  result.schur_s = problem.schur_s;
  result.unknowns = num_unknowns;

  // The velocity targets' rows over the unknowns.
  std::vector<std::vector<std::pair<int, double>>> target_rows(targets.size());
  for (size_t k = 0; k < targets.size(); ++k)
    for (int i = 0; i < targets[k].J.size(); ++i)
      if (targets[k].J[i] != 0) target_rows[k].emplace_back(layout[targets[k].block].unknown[i], targets[k].J[i]);
  auto target_speed = [&](size_t k, const Eigen::VectorXd& x) {
    double s = 0;
    for (const auto& [unknown, value] : target_rows[k]) s += value * x[unknown];
    return s;
  };
  // λ = clamp(c·(target − s), ±bound) (fem/velocity_target_law.h), and its curvature.
  auto target_law = [&](size_t k) {
    return VelocityTargetLaw{targets[k].target, targets[k].stiffness, targets[k].max_impulse};
  };
  auto target_impulse = [&](size_t k, const Eigen::VectorXd& x, double* curvature) {
    return CalcVelocityTargetImpulse(target_law(k), target_speed(k, x), curvature);
  };
  // Rows 0 … contacts − 1 are the contacts', then the springs'.
  GroupedJacobian rows;
  for (const ContactConstraint& c : contacts) rows.Add(c.terms, layout);
  for (const SpringConstraint& s : springs) rows.Add(s.terms, layout);
  const int spring_row = static_cast<int>(contacts.size());
  std::vector<Eigen::VectorXd> local;  // scratch: x at each group's unknowns
  // Contact i's velocity, x given by rows.Gather(x, &x_local).
  auto contact_velocity = [&](size_t i, const std::vector<Eigen::VectorXd>& x_local) {
    return Vector3(contacts[i].bias + rows.Times(static_cast<int>(i), x_local));
  };

  // Contacts stiffer than the step resolves are softened (fem/near_rigid_softening.h).
  const std::vector<double> stiffness = internal::SoftenNearRigidContacts(
      dt, contacts, internal::CalcDelassusEstimates(problem, rows, static_cast<int>(contacts.size())),
      &result.near_rigid_contacts);

  const auto newton_start = Clock::now();
  double friction_scale = 0;
  // The impulse on A at contact velocity vc and, optionally, −∂γ/∂vc (PSD) for Newton's matrix
  // (fem/contact_impulse.h), with friction scaled by the continuation's friction_scale.
  auto impulse = [&](size_t i, const Vector3& vc, double gamma_n_lagged, Matrix3* H) {
    const ContactConstraint& p = contacts[i];
    ContactImpulseLaw law;
    law.nhat_W = p.nhat_W;
    law.stiffness_N_per_m = stiffness[i];
    law.phi0_m = p.phi0_m;
    law.dt_s = dt;
    law.friction = friction_scale * p.friction;
    law.stiction_speed_m_per_s = kStictionSpeed;
    const ContactImpulse result = CalcContactImpulse(law, vc, gamma_n_lagged, H);
    return std::make_pair(result.gamma_W, result.gamma_n);
  };
  // Spring k's law (fem/spring_law.h) and its relative velocity, from its row on `local`.
  auto spring_law = [&](size_t k) { return SpringLaw{springs[k].stiffness_N_per_m, dt, springs[k].gap0}; };
  auto spring_velocity = [&](size_t k, const std::vector<Eigen::VectorXd>& x_local) {
    return Vector3(springs[k].bias + rows.Times(spring_row + static_cast<int>(k), x_local));
  };
  Eigen::VectorXd u = u_star;
  for (int b = 0; b < num_blocks; ++b)
    if (blocks[b].u_guess.size() == blocks[b].u_star.size())
      internal::ScatterToUnknowns(layout[b], blocks[b].u_guess, &u);
  std::vector<double> gamma_n(contacts.size(), 0.0);
  rows.Gather(u, &local);
  for (size_t i = 0; i < contacts.size(); ++i) gamma_n[i] = impulse(i, contact_velocity(i, local), 0, nullptr).second;
  // Newton's vectors, sized once: none is allocated per iteration. (Eigen's SimplicialLDLT still
  // allocates its permuted copy of the matrix in each factorization.)
  struct Workspace {
    Eigen::VectorXd difference, momentum, gradient, negative_gradient, step, A_step;
  } work;
  for (Eigen::VectorXd* v :
       {&work.difference, &work.momentum, &work.gradient, &work.negative_gradient, &work.step, &work.A_step})
    v->resize(num_unknowns);
  // A(x − u*), into work.momentum.
  auto momentum_of = [&](const Eigen::VectorXd& x) -> const Eigen::VectorXd& {
    work.difference = x - u_star;
    work.momentum.noalias() = A * work.difference;
    return work.momentum;
  };
  // The gradient A(u − u*) − Σ Jᵀγ + Σ δt·k·Jᵀe into work.gradient, and Newton's matrix triplets.
  auto gradient_of = [&](const Eigen::VectorXd& x, HessianAssembly* H_triplets) -> const Eigen::VectorXd& {
    Eigen::VectorXd& gradient = work.gradient;
    gradient = momentum_of(x);
    rows.Gather(x, &local);
    rows.ClearSums(H_triplets != nullptr);
    for (size_t k = 0; k < springs.size(); ++k) {
      const int row = spring_row + static_cast<int>(k);
      double curvature = 0;
      rows.AddImpulse(row, -CalcSpringImpulse(spring_law(k), spring_velocity(k, local), &curvature));
      if (H_triplets) rows.AddCurvature(row, curvature * Matrix3::Identity());
    }
    for (size_t k = 0; k < targets.size(); ++k) {
      double c = 0;
      const double lambda = target_impulse(k, x, &c);
      for (const auto& [unknown, value] : target_rows[k]) gradient[unknown] -= value * lambda;
      if (!H_triplets) continue;
      for (const auto& [row, a] : target_rows[k])
        for (const auto& [col, b] : target_rows[k])
          if (row >= col) H_triplets->Add(row, col, c * a * b);
    }
    for (size_t i = 0; i < contacts.size(); ++i) {
      Matrix3 H;
      const Vector3 gamma = impulse(i, contact_velocity(i, local), gamma_n[i], H_triplets ? &H : nullptr).first;
      rows.AddImpulse(static_cast<int>(i), -gamma);
      if (H_triplets) rows.AddCurvature(static_cast<int>(i), H);
    }
    rows.ScatterImpulses(&gradient);
    if (H_triplets) rows.ScatterCurvatures(H_triplets);
    return gradient;
  };

  // Newton's method on the objective for the current lagged γn, with an exact line search: the
  // objective is convex along the step, so its slope g(u + α·d)·d rises through zero, found by
  // safeguarded secant steps. (Comparing objective values, as Armijo's rule does, fails near the
  // solution: with stiff contacts their differences drown in round-off.)
  StepFactorization solver;
  HessianAssembly hessian;
  // The line search's scratch, kept across iterations: constraint velocities (and the targets'
  // speeds) at u and along the step.
  std::vector<Vector3> vc0(contacts.size()), dvc(contacts.size()), v0(springs.size()), dv(springs.size());
  std::vector<double> s0(targets.size()), ds(targets.size());
  std::vector<Eigen::VectorXd> step_local;
  bool analyzed = false;
  // SAP's stopping rule (Castro et al. 2022, used with εr = 1e-6 by 002 §VII): the momentum
  // residual, scaled by D = diag(A)^(-1/2) so that every DoF weighs alike, is below εr times the
  // larger of the scaled momentum change A(u − u*) and the scaled constraint impulses Jᵀγ.
  const Eigen::VectorXd D = A.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse();
  auto balanced = [&](const Eigen::VectorXd& gradient) {
    const Eigen::VectorXd& momentum = momentum_of(u);
    const double scale = std::max(D.cwiseProduct(momentum).norm(), D.cwiseProduct(momentum - gradient).norm());
    return D.cwiseProduct(gradient).norm() <= kAbsoluteTolerance + kRelativeTolerance * scale;
  };
  // A refinement round (γn refreshed, the solution moved little) may start with the matrix the
  // last round factored: its step is still a descent direction (the matrix is positive definite)
  // and the line search exact, so the iteration converges to the same solution, linearly, for a
  // solve instead of a factorization each step. Once the scaled residual falls by less than half
  // in a step, the matrix is refreshed. (The grasp's 1,029-DoF cube: ~5 ms a factorization.)
  bool factored = false;
  auto newton = [&](int max_iterations, bool start_with_last_matrix) {
    bool reuse = start_with_last_matrix && factored && num_unknowns >= options.reuse_factorization_from_unknowns;
    double previous_residual = std::numeric_limits<double>::infinity();
    for (int iteration = 0; iteration < max_iterations; ++iteration) {
      const Eigen::VectorXd& gradient = work.gradient;
      if (reuse) {
        gradient_of(u, nullptr);
        const double residual = D.cwiseProduct(gradient).norm();
        if (!balanced(gradient) && residual > 0.5 * previous_residual) reuse = false;
        previous_residual = residual;
      }
      if (!reuse) {
        hessian.Begin();
        for (const Eigen::Triplet<double>& t : A_triplets)
          if (t.row() >= t.col()) hessian.Add(t.row(), t.col(), t.value());
        gradient_of(u, &hessian);
      }
      if (balanced(gradient)) return true;
      ++result.iterations;
      if (!reuse) {
        const Eigen::SparseMatrix<double>& H = hessian.Finish(num_unknowns);
        if (!analyzed) solver.analyzePattern(H), analyzed = true;
        solver.factorize(H);
        if (solver.info() != Eigen::Success) return false;
        factored = true;
        ++result.factorizations;
      }
      work.negative_gradient = -gradient;
      Eigen::VectorXd& step = work.step;
      step = solver.solve(work.negative_gradient);
      const double slope0 = gradient.dot(step);
      if (!(slope0 < 0)) return true;  // no descent left: stationary to round-off
      // Every constraint's velocity is affine in α, so the slope along the step costs O(constraints):
      // d·A(u + αd − u*) − Σ γᵢ(vcᵢ + α·Δvcᵢ)·Δvcᵢ + Σ kₖ·(eₖ + α·Δeₖ)·Δeₖ − Σ λₖ(sₖ + α·Δsₖ)·Δsₖ.
      const double d_r0 = step.dot(momentum_of(u));
      work.A_step.noalias() = A * step;
      const double d_Ad = step.dot(work.A_step);
      rows.Gather(u, &local);
      rows.Gather(step, &step_local);
      for (size_t i = 0; i < contacts.size(); ++i) {
        vc0[i] = contact_velocity(i, local);
        dvc[i] = rows.Times(static_cast<int>(i), step_local);
      }
      for (size_t k = 0; k < springs.size(); ++k) {
        v0[k] = spring_velocity(k, local);
        dv[k] = rows.Times(spring_row + static_cast<int>(k), step_local);
      }
      for (size_t k = 0; k < targets.size(); ++k) s0[k] = target_speed(k, u), ds[k] = target_speed(k, step);
      auto slope = [&](double a) {
        double s = d_r0 + a * d_Ad;
        for (size_t i = 0; i < contacts.size(); ++i)
          s -= impulse(i, vc0[i] + a * dvc[i], gamma_n[i], nullptr).first.dot(dvc[i]);
        for (size_t k = 0; k < springs.size(); ++k) s -= CalcSpringImpulse(spring_law(k), v0[k] + a * dv[k]).dot(dv[k]);
        for (size_t k = 0; k < targets.size(); ++k)
          s -= CalcVelocityTargetImpulse(target_law(k), s0[k] + a * ds[k]) * ds[k];
        return s;
      };
      // Near exact (1e-12): this solve's convergence test is on the step's size.
      const double alpha = hydro::ConvexLineSearch(slope, slope0, 1e-12);
      u += alpha * step;
      const double size = u.cwiseAbs().maxCoeff();
      if (alpha * step.cwiseAbs().maxCoeff() <= 1e-10 + 1e-10 * size) return true;
    }
    return false;
  };
  // The normal impulses at u, and whether they match the lagged ones to 1e-3 of the largest.
  auto refreshed_gamma_n = [&](bool* settled) {
    std::vector<double> updated(contacts.size());
    double change = 0, largest = 0;
    rows.Gather(u, &local);
    for (size_t i = 0; i < contacts.size(); ++i) {
      updated[i] = impulse(i, contact_velocity(i, local), 0, nullptr).second;
      change = std::max(change, std::abs(updated[i] - gamma_n[i]));
      largest = std::max(largest, updated[i]);
    }
    *settled = change <= 1e-3 * largest + 1e-14;
    return updated;
  };
  bool any_friction = false;
  for (const ContactConstraint& c : contacts) any_friction = any_friction || c.friction > 0;
  if (num_unknowns == 0 || (contacts.empty() && springs.empty() && targets.empty())) {
    u = u_star;  // nothing to solve: the free motion (not the warm start)
    result.converged = true;
  } else {
    // Rounds of the frictional problem, each convex with γn held fixed (the lagged model of
    // Castro et al.), γn refreshed between rounds until it settles. The first lagged γn is that
    // of the warm start (the last step's velocities) when there is one, else that of the
    // frictionless problem's solution. From the frictionless solution, where the joints of a
    // resting arch slide, the first frictional round took ~35 Newton iterations; from the warm
    // start, where they already stick, ~8.
    bool warm = false;
    for (const ContactProblemBlock& b : blocks) warm = warm || b.u_guess.size() > 0;
    result.converged = warm && any_friction ? true : newton(kMaxIterations, false);
    bool settled = false;
    gamma_n = refreshed_gamma_n(&settled);
    if (any_friction && result.converged) {
      friction_scale = 1;
      for (int round = 0; round < kMaxFrictionRounds; ++round) {
        result.converged = newton(kMaxIterations, /*start_with_last_matrix=*/round > 0);
        result.friction_rounds = round + 1;
        std::vector<double> updated = refreshed_gamma_n(&settled);
        // The impulses applied are those of the problem just solved (its lagged γn), so that
        // momentum balances exactly; γn is refreshed only for another round.
        if (settled || !result.converged || round + 1 == kMaxFrictionRounds) break;
        gamma_n = std::move(updated);
      }
      result.friction_settled = settled;
    }
  }
  result.residual = num_unknowns > 0 ? gradient_of(u, nullptr).cwiseAbs().maxCoeff() : 0.0;
  result.newton_s = Seconds(newton_start);

  // Velocities of every DoF, and what each constraint gave each block.
  result.u.resize(num_blocks);
  result.impulse.resize(num_blocks);
  result.target_impulse.resize(num_blocks);
  for (int b = 0; b < num_blocks; ++b) {
    result.impulse[b] = Eigen::VectorXd::Zero(blocks[b].u_star.size());
    result.target_impulse[b] = Eigen::VectorXd::Zero(blocks[b].u_star.size());
    result.u[b] = internal::CalcBlockVelocities(blocks[b], layout[b], u, u_star);
  }
  rows.Gather(u, &local);
  for (size_t i = 0; i < contacts.size(); ++i) {
    const Vector3 gamma = impulse(i, contact_velocity(i, local), gamma_n[i], nullptr).first;
    result.contact_impulse_W.push_back(gamma);
    internal::AddBlockImpulses(contacts[i].terms, gamma, &result.impulse);
  }
  for (size_t k = 0; k < springs.size(); ++k) {
    const Vector3 on_A = CalcSpringImpulse(spring_law(k), spring_velocity(k, local));
    result.spring_impulse_W.push_back(on_A);
    internal::AddBlockImpulses(springs[k].terms, on_A, &result.impulse);
  }
  for (size_t k = 0; k < targets.size(); ++k)
    result.target_impulse[targets[k].block] += targets[k].J.transpose() * target_impulse(k, u, nullptr);
  return result;
}

}  // namespace fem
}  // namespace hydro
