#include "fem/contact_problem.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "fem/contact_problem_assembly.h"
#include "fem/contact_problem_layout.h"
#include "fem/contact_problem_newton.h"
#include "fem/contact_problem_objective.h"
#include "fem/contact_problem_recovery.h"
#include "fem/contact_problem_workspace.h"
#include "fem/near_rigid_softening.h"

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

constexpr int kMaxIterations = 100;    // Newton iterations per round
constexpr int kMaxFrictionRounds = 5;  // refreshes of the lagged γn

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
  const Eigen::VectorXd& u_star = problem.u_star;
  const int num_unknowns = problem.num_unknowns;
  result.total_dofs = problem.total_dofs;
  result.schur_s = problem.schur_s;
  result.unknowns = num_unknowns;

  // Rows 0 … contacts − 1 are the contacts', then the springs'.
  GroupedJacobian rows;
  for (const ContactConstraint& c : contacts) rows.Add(c.terms, layout);
  for (const SpringConstraint& s : springs) rows.Add(s.terms, layout);

  // Contacts stiffer than the step resolves are softened (fem/near_rigid_softening.h).
  const std::vector<double> stiffness = internal::SoftenNearRigidContacts(
      dt, contacts, internal::CalcDelassusEstimates(problem, rows, static_cast<int>(contacts.size())),
      &result.near_rigid_contacts);

  const auto newton_start = Clock::now();
  internal::ContactProblemWorkspace work;
  work.Resize(num_unknowns, static_cast<int>(contacts.size()), static_cast<int>(springs.size()),
              static_cast<int>(targets.size()));
  internal::ContactObjective objective(dt, kStictionSpeed, contacts, springs, targets, problem, &rows, stiffness,
                                       &work);
  Eigen::VectorXd u = u_star;
  for (int b = 0; b < num_blocks; ++b)
    if (blocks[b].u_guess.size() == blocks[b].u_star.size())
      internal::ScatterToUnknowns(layout[b], blocks[b].u_guess, &u);
  std::vector<double>& gamma_n = objective.lagged_normal_impulses();
  objective.CalcNormalImpulses(u, &gamma_n);

  // Newton's method with the exact line search (fem/contact_problem_newton.h).
  internal::ContactNewton newton(problem, &objective, &work, options.reuse_factorization_from_unknowns);
  // The normal impulses at u into work.normal_impulse, and whether they match the lagged ones to
  // 1e-3 of the largest.
  auto refresh_gamma_n = [&]() {
    std::vector<double>& updated = work.normal_impulse;
    objective.CalcNormalImpulses(u, &updated);
    double change = 0, largest = 0;
    for (size_t i = 0; i < contacts.size(); ++i) {
      change = std::max(change, std::abs(updated[i] - gamma_n[i]));
      largest = std::max(largest, updated[i]);
    }
    return change <= 1e-3 * largest + 1e-14;
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
    result.converged = warm && any_friction ? true : newton.Minimize(kMaxIterations, false, &u);
    bool settled = refresh_gamma_n();
    gamma_n.swap(work.normal_impulse);
    if (any_friction && result.converged) {
      objective.set_friction_scale(1);
      for (int round = 0; round < kMaxFrictionRounds; ++round) {
        result.converged = newton.Minimize(kMaxIterations, /*start_with_last_matrix=*/round > 0, &u);
        result.friction_rounds = round + 1;
        settled = refresh_gamma_n();
        // The impulses applied are those of the problem just solved (its lagged γn), so that
        // momentum balances exactly; γn is refreshed only for another round.
        if (settled || !result.converged || round + 1 == kMaxFrictionRounds) break;
        gamma_n.swap(work.normal_impulse);
      }
      result.friction_settled = settled;
    }
  }
  result.residual = num_unknowns > 0 ? objective.CalcGradient(u, nullptr).cwiseAbs().maxCoeff() : 0.0;
  result.iterations = newton.iterations();
  result.factorizations = newton.factorizations();
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
  objective.CalcConstraintImpulses(u, &result.contact_impulse_W, &result.spring_impulse_W);
  for (size_t i = 0; i < contacts.size(); ++i)
    internal::AddBlockImpulses(contacts[i].terms, result.contact_impulse_W[i], &result.impulse);
  for (size_t k = 0; k < springs.size(); ++k)
    internal::AddBlockImpulses(springs[k].terms, result.spring_impulse_W[k], &result.impulse);
  for (size_t k = 0; k < targets.size(); ++k)
    result.target_impulse[targets[k].block] +=
        targets[k].J.transpose() * objective.CalcTargetImpulse(static_cast<int>(k), u);
  return result;
}

}  // namespace fem
}  // namespace hydro
