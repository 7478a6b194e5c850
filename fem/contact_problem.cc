#include "fem/contact_problem.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

using internal::ContactNewton;
using internal::ContactObjective;
using internal::ContactProblemLayout;
using internal::ContactProblemWorkspace;
using internal::GroupedJacobian;

constexpr int kMaxIterations = 100;    // Newton iterations per round
constexpr int kMaxFrictionRounds = 5;  // refreshes of the lagged γn

// Throws InvalidInput, naming what is wrong, unless the problem is well formed.
void ValidateContactProblem(double dt, const std::vector<ContactProblemBlock>& blocks,
                            const std::vector<ContactConstraint>& contacts,
                            const std::vector<SpringConstraint>& springs,
                            const std::vector<VelocityTargetConstraint>& targets,
                            const ContactProblemOptions& options) {
  CheckPositive(dt, "contact problem time step");
  CheckPositive(options.stiction_speed_m_per_s, "contact problem stiction speed");
  const int num_blocks = static_cast<int>(blocks.size());
  auto check_terms = [&](const std::vector<VelocityTerm>& terms) {
    for (const VelocityTerm& t : terms)
      if (t.block < 0 || t.block >= num_blocks || t.first_dof < 0 ||
          t.first_dof + t.Jv_BcAc_W.cols() > blocks[t.block].u_star.size())
        throw InvalidInput("contact problem: a constraint names a block or DoF that does not exist");
  };
  for (const ContactConstraint& c : contacts) check_terms(c.terms);
  for (const SpringConstraint& s : springs) check_terms(s.terms);
  for (const VelocityTargetConstraint& t : targets)
    if (t.block < 0 || t.block >= num_blocks || t.J_s.size() != blocks[t.block].u_star.size() || !(t.stiffness > 0) ||
        !(t.max_impulse >= 0) || !std::isfinite(t.s_target))
      throw InvalidInput(
          "contact problem: a velocity target names a missing block or has a bad size, stiffness or bound");
  for (int b = 0; b < num_blocks; ++b) {
    const int n = static_cast<int>(blocks[b].u_star.size());
    if (blocks[b].A.rows() != n || blocks[b].A.cols() != n)
      throw InvalidInput("contact problem: block " + std::to_string(b) + "'s matrix does not match its velocities");
  }
}

// Rows 0 … contacts − 1 are the contacts', then the springs'.
GroupedJacobian MakeConstraintRows(const std::vector<ContactConstraint>& contacts,
                                   const std::vector<SpringConstraint>& springs, const ContactProblemLayout& layout) {
  GroupedJacobian rows;
  for (const ContactConstraint& c : contacts) rows.Add(c.terms, layout.blocks);
  for (const SpringConstraint& s : springs) rows.Add(s.terms, layout.blocks);
  return rows;
}

// One contact problem, from its (validated) input to its result: laid out over its participating
// DoFs, its contacts softened where near rigid, solved in rounds of Newton's method with the
// lagged γn refreshed, then recovered for every DoF. Holds references to the input.
class ContactProblem {
 public:
  ContactProblem(double dt, const std::vector<ContactProblemBlock>& blocks,
                 const std::vector<ContactConstraint>& contacts, const std::vector<SpringConstraint>& springs,
                 const std::vector<VelocityTargetConstraint>& targets, const ContactProblemOptions& options)
      : blocks_(blocks),
        contacts_(contacts),
        springs_(springs),
        targets_(targets),
        layout_(internal::MakeContactProblemLayout(blocks, contacts, springs, targets)),
        rows_(MakeConstraintRows(contacts, springs, layout_)),
        stiffness_(internal::SoftenNearRigidContacts(
            dt, contacts, internal::CalcDelassusEstimates(layout_, rows_, static_cast<int>(contacts.size())),
            &result_.near_rigid_contacts)),
        objective_(dt, options.stiction_speed_m_per_s, contacts, springs, targets, layout_, &rows_, stiffness_, &work_),
        newton_(layout_, &objective_, &work_, options.reuse_factorization_from_unknowns) {
    result_.total_dofs = layout_.total_dofs;
    result_.schur_s = layout_.schur_s;
    result_.unknowns = layout_.num_unknowns;
    work_.Resize(layout_.num_unknowns, static_cast<int>(contacts.size()), static_cast<int>(springs.size()),
                 static_cast<int>(targets.size()));
  }
  ContactProblem(const ContactProblem&) = delete;
  ContactProblem& operator=(const ContactProblem&) = delete;

  // Solves for the unknowns u and reports how (iterations, rounds, residual).
  void Solve();
  // Every DoF's velocity and what each constraint gave, after Solve().
  ContactProblemResult TakeResult();

 private:
  // Whether it has anything to solve: unknowns, and constraints on them.
  bool HasConstraints() const;
  // The frictionless start (unless warm-started) and the frictional rounds.
  void SolveInRounds();
  // γn at u into the workspace, and whether it matches the lagged γn to 1e-3 of the largest.
  bool RefreshNormalImpulses();
  // Makes the γn last refreshed the lagged one.
  void LagNormalImpulses() { objective_.lagged_normal_impulses().swap(work_.normal_impulse); }

  const std::vector<ContactProblemBlock>& blocks_;
  const std::vector<ContactConstraint>& contacts_;
  const std::vector<SpringConstraint>& springs_;
  const std::vector<VelocityTargetConstraint>& targets_;
  ContactProblemResult result_;
  const ContactProblemLayout layout_;
  GroupedJacobian rows_;
  const std::vector<double> stiffness_;  // per contact, softened
  ContactProblemWorkspace work_;
  ContactObjective objective_;
  ContactNewton newton_;
  Eigen::VectorXd u_;  // per unknown
};

void ContactProblem::Solve() {
  const auto newton_start = Clock::now();
  // Newton starts from the warm start where a block has one, else from the free motion; the first
  // lagged γn is the warm start's.
  u_ = layout_.u_star;
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].u_guess.size() == blocks_[b].u_star.size())
      internal::ScatterToUnknowns(layout_.blocks[b], blocks_[b].u_guess, &u_);
  objective_.CalcNormalImpulses(u_, &objective_.lagged_normal_impulses());
  if (HasConstraints()) {
    SolveInRounds();
  } else {
    u_ = layout_.u_star;  // nothing to solve: the free motion (not the warm start)
    result_.converged = true;
  }
  result_.residual = layout_.num_unknowns > 0 ? objective_.CalcGradient(u_, nullptr).cwiseAbs().maxCoeff() : 0.0;
  result_.iterations = newton_.iterations();
  result_.factorizations = newton_.factorizations();
  result_.newton_s = Seconds(newton_start);
}

bool ContactProblem::HasConstraints() const {
  return layout_.num_unknowns > 0 && !(contacts_.empty() && springs_.empty() && targets_.empty());
}

void ContactProblem::SolveInRounds() {
  // Rounds of the frictional problem, each convex with γn held fixed (the lagged model of
  // Castro et al.), γn refreshed between rounds until it settles. The first lagged γn is that
  // of the warm start (the last step's velocities) when there is one, else that of the
  // frictionless problem's solution. From the frictionless solution, where the joints of a
  // resting arch slide, the first frictional round took ~35 Newton iterations; from the warm
  // start, where they already stick, ~8.
  bool any_friction = false;
  for (const ContactConstraint& c : contacts_) any_friction = any_friction || c.friction > 0;
  bool warm = false;
  for (const ContactProblemBlock& b : blocks_) warm = warm || b.u_guess.size() > 0;
  result_.converged = warm && any_friction ? true : newton_.Minimize(kMaxIterations, false, &u_);
  bool settled = RefreshNormalImpulses();
  LagNormalImpulses();
  if (!any_friction || !result_.converged) return;
  objective_.set_friction_scale(1);
  for (int round = 0; round < kMaxFrictionRounds; ++round) {
    result_.converged = newton_.Minimize(kMaxIterations, /*start_with_last_matrix=*/round > 0, &u_);
    result_.friction_rounds = round + 1;
    settled = RefreshNormalImpulses();
    // The impulses applied are those of the problem just solved (its lagged γn), so that
    // momentum balances exactly; γn is refreshed only for another round.
    if (settled || !result_.converged || round + 1 == kMaxFrictionRounds) break;
    LagNormalImpulses();
  }
  result_.friction_settled = settled;
}

bool ContactProblem::RefreshNormalImpulses() {
  std::vector<double>& updated = work_.normal_impulse;
  const std::vector<double>& lagged = objective_.lagged_normal_impulses();
  objective_.CalcNormalImpulses(u_, &updated);
  double change = 0, largest = 0;
  for (size_t i = 0; i < contacts_.size(); ++i) {
    change = std::max(change, std::abs(updated[i] - lagged[i]));
    largest = std::max(largest, updated[i]);
  }
  return change <= 1e-3 * largest + 1e-14;
}

ContactProblemResult ContactProblem::TakeResult() {
  // Velocities of every DoF, and what each constraint gave each block.
  const size_t num_blocks = blocks_.size();
  result_.u.resize(num_blocks);
  result_.impulse.resize(num_blocks);
  result_.target_impulse.resize(num_blocks);
  for (size_t b = 0; b < num_blocks; ++b) {
    result_.impulse[b] = Eigen::VectorXd::Zero(blocks_[b].u_star.size());
    result_.target_impulse[b] = Eigen::VectorXd::Zero(blocks_[b].u_star.size());
    result_.u[b] = internal::CalcBlockVelocities(blocks_[b], layout_.blocks[b], u_, layout_.u_star);
  }
  objective_.CalcConstraintImpulses(u_, &result_.contact_impulse_W, &result_.spring_impulse_W);
  for (size_t i = 0; i < contacts_.size(); ++i)
    internal::AddBlockImpulses(contacts_[i].terms, result_.contact_impulse_W[i], &result_.impulse);
  for (size_t k = 0; k < springs_.size(); ++k)
    internal::AddBlockImpulses(springs_[k].terms, result_.spring_impulse_W[k], &result_.impulse);
  for (size_t k = 0; k < targets_.size(); ++k)
    result_.target_impulse[targets_[k].block] +=
        targets_[k].J_s.transpose() * objective_.CalcTargetImpulse(static_cast<int>(k), u_);
  return std::move(result_);
}

}  // namespace

ContactProblemResult SolveContactProblem(double dt, const std::vector<ContactProblemBlock>& blocks,
                                         const std::vector<ContactConstraint>& contacts,
                                         const std::vector<SpringConstraint>& springs,
                                         const std::vector<VelocityTargetConstraint>& targets,
                                         const ContactProblemOptions& options) {
  ValidateContactProblem(dt, blocks, contacts, springs, targets, options);
  ContactProblem problem(dt, blocks, contacts, springs, targets, options);
  problem.Solve();
  return problem.TakeResult();
}

}  // namespace fem
}  // namespace hydro
