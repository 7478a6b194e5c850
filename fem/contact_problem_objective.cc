#include "fem/contact_problem_objective.h"

namespace hydro {
namespace fem {
namespace internal {

ContactObjective::ContactObjective(double dt, double stiction_speed_m_per_s,
                                   const std::vector<ContactConstraint>& contacts,
                                   const std::vector<SpringConstraint>& springs,
                                   const std::vector<VelocityTargetConstraint>& targets,
                                   const ContactProblemLayout& layout, GroupedJacobian* rows,
                                   const std::vector<double>& stiffness, ContactProblemWorkspace* work)
    : dt_(dt),
      stiction_speed_(stiction_speed_m_per_s),
      contacts_(contacts),
      springs_(springs),
      targets_(targets),
      layout_(layout),
      rows_(*rows),
      stiffness_(stiffness),
      work_(*work),
      spring_row_(static_cast<int>(contacts.size())),
      target_rows_(targets.size()),
      lagged_gamma_n_(contacts.size(), 0.0) {
  for (size_t k = 0; k < targets.size(); ++k)
    for (int i = 0; i < targets[k].J_s.size(); ++i)
      if (targets[k].J_s[i] != 0)
        target_rows_[k].emplace_back(layout.blocks[targets[k].block].unknown[i], targets[k].J_s[i]);
}

const Eigen::VectorXd& ContactObjective::CalcMomentum(const Eigen::VectorXd& x) {
  work_.difference = x - layout_.u_star;
  work_.momentum.noalias() = layout_.A * work_.difference;
  return work_.momentum;
}

const Eigen::VectorXd& ContactObjective::CalcGradient(const Eigen::VectorXd& x, HessianAssembly* hessian) {
  Eigen::VectorXd& gradient = work_.gradient;
  gradient = CalcMomentum(x);
  rows_.Gather(x, &work_.local);
  rows_.ClearSums(hessian != nullptr);
  // Springs and contacts are summed per group and scattered last; the targets go straight in.
  AddSpringTerms(hessian);
  AddTargetTerms(x, hessian);
  AddContactTerms(hessian);
  rows_.ScatterImpulses(&gradient);
  if (hessian) rows_.ScatterCurvatures(hessian);
  return gradient;
}

void ContactObjective::AddSpringTerms(HessianAssembly* hessian) {
  for (int k = 0; k < static_cast<int>(springs_.size()); ++k) {
    const int row = spring_row_ + k;
    double curvature = 0;
    rows_.AddImpulse(row, -CalcSpringImpulse(SpringLawOf(k), SpringVelocity(k, work_.local), &curvature));
    if (hessian) rows_.AddCurvature(row, curvature * Matrix3::Identity());
  }
}

void ContactObjective::AddTargetTerms(const Eigen::VectorXd& x, HessianAssembly* hessian) {
  Eigen::VectorXd& gradient = work_.gradient;
  for (int k = 0; k < static_cast<int>(targets_.size()); ++k) {
    double c = 0;
    const double lambda = CalcTargetImpulse(k, x, &c);
    for (const auto& [unknown, value] : target_rows_[k]) gradient[unknown] -= value * lambda;
    if (!hessian) continue;
    for (const auto& [row, a] : target_rows_[k])
      for (const auto& [col, b] : target_rows_[k])
        if (row >= col) hessian->Add(row, col, c * a * b);
  }
}

void ContactObjective::AddContactTerms(HessianAssembly* hessian) {
  for (int i = 0; i < static_cast<int>(contacts_.size()); ++i) {
    Matrix3 H;
    const Vector3 gamma =
        CalcContactImpulseAt(i, ContactVelocity(i, work_.local), lagged_gamma_n_[i], hessian ? &H : nullptr).gamma_W;
    rows_.AddImpulse(i, -gamma);
    if (hessian) rows_.AddCurvature(i, H);
  }
}

void ContactObjective::CalcNormalImpulses(const Eigen::VectorXd& x, std::vector<double>* gamma_n) {
  rows_.Gather(x, &work_.local);
  for (int i = 0; i < static_cast<int>(contacts_.size()); ++i)
    (*gamma_n)[i] = CalcContactImpulseAt(i, ContactVelocity(i, work_.local), 0, nullptr).gamma_n;
}

void ContactObjective::PrepareLineSearch(const Eigen::VectorXd& u, const Eigen::VectorXd& step) {
  d_r0_ = step.dot(CalcMomentum(u));
  work_.A_step.noalias() = layout_.A * step;
  d_Ad_ = step.dot(work_.A_step);
  rows_.Gather(u, &work_.local);
  rows_.Gather(step, &work_.step_local);
  for (int i = 0; i < static_cast<int>(contacts_.size()); ++i) {
    work_.contact_velocity[i] = ContactVelocity(i, work_.local);
    work_.contact_velocity_change[i] = rows_.Times(i, work_.step_local);
  }
  for (int k = 0; k < static_cast<int>(springs_.size()); ++k) {
    work_.spring_velocity[k] = SpringVelocity(k, work_.local);
    work_.spring_velocity_change[k] = rows_.Times(spring_row_ + k, work_.step_local);
  }
  for (int k = 0; k < static_cast<int>(targets_.size()); ++k)
    work_.target_speed[k] = TargetSpeed(k, u), work_.target_speed_change[k] = TargetSpeed(k, step);
}

double ContactObjective::CalcSlope(double a) const {
  const std::vector<Vector3>&vc0 = work_.contact_velocity, &dvc = work_.contact_velocity_change;
  const std::vector<Vector3>&v0 = work_.spring_velocity, &dv = work_.spring_velocity_change;
  const std::vector<double>&s0 = work_.target_speed, &ds = work_.target_speed_change;
  double s = d_r0_ + a * d_Ad_;
  for (int i = 0; i < static_cast<int>(contacts_.size()); ++i)
    s -= CalcContactImpulseAt(i, vc0[i] + a * dvc[i], lagged_gamma_n_[i], nullptr).gamma_W.dot(dvc[i]);
  for (int k = 0; k < static_cast<int>(springs_.size()); ++k)
    s -= CalcSpringImpulse(SpringLawOf(k), v0[k] + a * dv[k]).dot(dv[k]);
  for (int k = 0; k < static_cast<int>(targets_.size()); ++k)
    s -= CalcVelocityTargetImpulse(TargetLawOf(k), s0[k] + a * ds[k]) * ds[k];
  return s;
}

void ContactObjective::CalcConstraintImpulses(const Eigen::VectorXd& x, std::vector<Vector3>* contact_impulses,
                                              std::vector<Vector3>* spring_impulses) {
  rows_.Gather(x, &work_.local);
  contact_impulses->resize(contacts_.size());
  for (int i = 0; i < static_cast<int>(contacts_.size()); ++i)
    (*contact_impulses)[i] =
        CalcContactImpulseAt(i, ContactVelocity(i, work_.local), lagged_gamma_n_[i], nullptr).gamma_W;
  spring_impulses->resize(springs_.size());
  for (int k = 0; k < static_cast<int>(springs_.size()); ++k)
    (*spring_impulses)[k] = CalcSpringImpulse(SpringLawOf(k), SpringVelocity(k, work_.local));
}

double ContactObjective::CalcTargetImpulse(int k, const Eigen::VectorXd& x, double* curvature) const {
  // λ = clamp(c·(target − s), ±bound) (fem/velocity_target_law.h), and its curvature.
  return CalcVelocityTargetImpulse(TargetLawOf(k), TargetSpeed(k, x), curvature);
}

ContactImpulse ContactObjective::CalcContactImpulseAt(int i, const Vector3& vc, double gamma_n_lagged,
                                                      Matrix3* H) const {
  const ContactConstraint& p = contacts_[i];
  ContactImpulseLaw law;
  law.nhat_W = p.nhat_W;
  law.stiffness_N_per_m = stiffness_[i];
  law.phi0_m = p.phi0_m;
  law.dt_s = dt_;
  law.friction = friction_scale_ * p.friction;
  law.stiction_speed_m_per_s = stiction_speed_;
  return CalcContactImpulse(law, vc, gamma_n_lagged, H);
}

Vector3 ContactObjective::ContactVelocity(int i, const std::vector<Eigen::VectorXd>& x_local) const {
  return Vector3(contacts_[i].v_BcAc_W_prescribed + rows_.Times(i, x_local));
}

Vector3 ContactObjective::SpringVelocity(int k, const std::vector<Eigen::VectorXd>& x_local) const {
  return Vector3(springs_[k].v_BcAc_W_prescribed + rows_.Times(spring_row_ + k, x_local));
}

double ContactObjective::TargetSpeed(int k, const Eigen::VectorXd& x) const {
  double s = 0;
  for (const auto& [unknown, value] : target_rows_[k]) s += value * x[unknown];
  return s;
}

SpringLaw ContactObjective::SpringLawOf(int k) const {
  return SpringLaw{springs_[k].stiffness_N_per_m, dt_, springs_[k].p_BcAc_W_start};
}

VelocityTargetLaw ContactObjective::TargetLawOf(int k) const {
  return VelocityTargetLaw{targets_[k].s_target, targets_[k].stiffness, targets_[k].max_impulse};
}

}  // namespace internal
}  // namespace fem
}  // namespace hydro
