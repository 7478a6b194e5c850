#pragma once
// The contact problem's objective (fem/contact_problem.h) over its unknowns u, for a fixed lagged
// γn (convex then, the lagged model of Castro et al.):
//
//   ½‖u − u*‖²_A + Σᵢ ℓᵢ(vcᵢ) + Σₖ ½·kₖ·‖eₖ‖² + Σₖ ℓₖ(sₖ)
//
// over contact points i (fem/contact_impulse.h), springs (fem/spring_law.h) and velocity targets
// (fem/velocity_target_law.h), each constraint's velocity affine in u. What Newton's method needs
// of it: the gradient A(u − u*) − Σ Jᵀγ − Σ Jᵀλ (γ the contacts' and springs' impulses, λ the
// targets'), Newton's matrix A + Σ Jᵀ·H·J, and the slope along a step. Its value is never needed:
// the line search looks for the slope's zero. Internal to hydro_fem; tested in
// tests/fem/contact_problem_objective_test.cc.
#include <Eigen/Core>

#include <utility>
#include <vector>

#include "fem/contact_impulse.h"
#include "fem/contact_problem.h"
#include "fem/contact_problem_assembly.h"
#include "fem/contact_problem_layout.h"
#include "fem/contact_problem_workspace.h"
#include "fem/spring_law.h"
#include "fem/velocity_target_law.h"

namespace hydro {
namespace fem {
namespace internal {

class ContactObjective {
 public:
  // Rows 0 … contacts − 1 of `rows` are the contacts', then the springs'; `stiffness` is each
  // contact's after near-rigid softening (fem/near_rigid_softening.h). Holds references to all
  // arguments; `work` must be sized for the problem.
  ContactObjective(double dt, double stiction_speed_m_per_s, const std::vector<ContactConstraint>& contacts,
                   const std::vector<SpringConstraint>& springs, const std::vector<VelocityTargetConstraint>& targets,
                   const ContactProblemLayout& layout, GroupedJacobian* rows, const std::vector<double>& stiffness,
                   ContactProblemWorkspace* work);

  // Friction's factor: 0 for the frictionless problem (the start), 1 for the frictional one.
  void set_friction_scale(double scale) { friction_scale_ = scale; }
  // Per contact, the lagged γn that bounds its friction (N·s): zero until set.
  std::vector<double>& lagged_normal_impulses() { return lagged_gamma_n_; }

  // A(x − u*), into the workspace's momentum.
  const Eigen::VectorXd& CalcMomentum(const Eigen::VectorXd& x);
  // The gradient A(x − u*) − Σ Jᵀγ − Σ Jᵀλ at x, into the workspace's gradient; and, if
  // `hessian` is given, Newton's matrix's constraint entries Σ Jᵀ·H·J (lower triangle) added to
  // it after what it holds: the targets' first, then each group's.
  const Eigen::VectorXd& CalcGradient(const Eigen::VectorXd& x, HessianAssembly* hessian);
  // Each contact's normal impulse γn at x (independent of the lagged γn).
  void CalcNormalImpulses(const Eigen::VectorXd& x, std::vector<double>* gamma_n);

  // The exact line search along d from u: every constraint's velocity is affine in α, so once
  // they are known at u and along d, the slope costs O(constraints):
  //   d·A(u + αd − u*) − Σ γᵢ(vcᵢ + α·Δvcᵢ)·Δvcᵢ + Σ kₖ·(eₖ + α·Δeₖ)·Δeₖ − Σ λₖ(sₖ + α·Δsₖ)·Δsₖ.
  void PrepareLineSearch(const Eigen::VectorXd& u, const Eigen::VectorXd& step);
  // The slope g(u + α·d)·d, after PrepareLineSearch(u, d).
  double CalcSlope(double alpha) const;

  // The contacts' impulses γ on side A (with the lagged γn) and the springs' on A at x, per
  // contact and per spring.
  void CalcConstraintImpulses(const Eigen::VectorXd& x, std::vector<Vector3>* contact_impulses,
                              std::vector<Vector3>* spring_impulses);
  // Velocity target k's impulse λ at x, and its curvature −∂λ/∂s if asked.
  double CalcTargetImpulse(int k, const Eigen::VectorXd& x, double* curvature = nullptr) const;

 private:
  // The impulse on A at contact velocity vc and, optionally, −∂γ/∂vc (PSD) for Newton's matrix
  // (fem/contact_impulse.h), with friction scaled by friction_scale_.
  ContactImpulse CalcContactImpulseAt(int i, const Vector3& vc, double gamma_n_lagged, Matrix3* H) const;
  // Constraint velocities from x at each group's unknowns (GroupedJacobian::Gather).
  Vector3 ContactVelocity(int i, const std::vector<Eigen::VectorXd>& x_local) const;
  Vector3 SpringVelocity(int k, const std::vector<Eigen::VectorXd>& x_local) const;
  double TargetSpeed(int k, const Eigen::VectorXd& x) const;
  SpringLaw SpringLawOf(int k) const;
  VelocityTargetLaw TargetLawOf(int k) const;
  // The constraints' parts of the gradient (and of Newton's matrix), x gathered into `local`.
  void AddSpringTerms(HessianAssembly* hessian);
  void AddTargetTerms(const Eigen::VectorXd& x, HessianAssembly* hessian);
  void AddContactTerms(HessianAssembly* hessian);

  const double dt_;
  const double stiction_speed_;
  const std::vector<ContactConstraint>& contacts_;
  const std::vector<SpringConstraint>& springs_;
  const std::vector<VelocityTargetConstraint>& targets_;
  const ContactProblemLayout& layout_;
  GroupedJacobian& rows_;
  const std::vector<double>& stiffness_;  // per contact
  ContactProblemWorkspace& work_;
  const int spring_row_;  // the first spring's row
  // Per target: its row over the unknowns, (unknown, coefficient) where J is nonzero.
  std::vector<std::vector<std::pair<int, double>>> target_rows_;
  std::vector<double> lagged_gamma_n_;  // per contact
  double friction_scale_{0};
  double d_r0_{0}, d_Ad_{0};  // the line search's d·A(u − u*) and d·A·d
};

}  // namespace internal
}  // namespace fem
}  // namespace hydro
