#pragma once
// Newton's method on the contact problem's objective (fem/contact_problem_objective.h) for its
// current lagged γn, with an exact line search: the objective is convex along the step, so its
// slope g(u + α·d)·d rises through zero, found by safeguarded secant steps
// (hydro/convex_line_search.h). (Comparing objective values, as Armijo's rule does, fails near
// the solution: with stiff contacts their differences drown in round-off.) Internal to hydro_fem;
// tested in tests/fem/contact_problem_newton_test.cc.
//
// Stopping: SAP's rule (Castro et al. 2022, used with εr = 1e-6 by 002 §VII): the momentum
// residual, scaled by D = diag(A)^(-1/2) so that every DoF weighs alike, is below εr times the
// larger of the scaled momentum change A(u − u*) and the scaled constraint impulses Jᵀγ; or the
// step vanishes to round-off.
//
// A refinement round (γn refreshed, the solution moved little) may start with the matrix the
// last round factored: its step is still a descent direction (the matrix is positive definite)
// and the line search exact, so the iteration converges to the same solution, linearly, for a
// solve instead of a factorization each step. Once the scaled residual falls by less than half
// in a step, the matrix is refreshed. (The grasp's 1,029-DoF cube: ~5 ms a factorization.)
#include <Eigen/Core>

#include "fem/contact_problem_assembly.h"
#include "fem/contact_problem_layout.h"
#include "fem/contact_problem_objective.h"
#include "fem/contact_problem_workspace.h"
#include "fem/reordered_ldlt.h"

namespace hydro {
namespace fem {
namespace internal {

class ContactNewton {
 public:
  // Refinement rounds reuse the last factored matrix from `reuse_factorization_from_unknowns`
  // unknowns on. Holds references to all arguments.
  ContactNewton(const ContactProblemLayout& layout, ContactObjective* objective, ContactProblemWorkspace* work,
                int reuse_factorization_from_unknowns);

  // Minimizes the objective from *u, at most `max_iterations` steps. True once converged (SAP's
  // rule, or a step that vanishes to round-off); false if it did not within the iterations or
  // Newton's matrix did not factor. `start_with_last_matrix`: a refinement round (see above).
  bool Minimize(int max_iterations, bool start_with_last_matrix, Eigen::VectorXd* u);

  int iterations() const { return iterations_; }          // Newton steps, all calls together
  int factorizations() const { return factorizations_; }  // of Newton's matrix

 private:
  // SAP's stopping rule at u for its gradient.
  bool Balanced(const Eigen::VectorXd& gradient, const Eigen::VectorXd& u);
  // The gradient at u, and Newton's matrix A + Σ Jᵀ·H·J (lower triangle) in hessian_.
  void AssembleGradientAndMatrix(const Eigen::VectorXd& u);
  // Factors hessian_'s matrix; false if it is not positive definite enough.
  bool FactorNewtonMatrix();
  // Newton's step from *u with the last factored matrix and the exact line search along it;
  // true when there is nothing left to do (no descent direction, or a step vanishing to
  // round-off).
  bool TakeStep(Eigen::VectorXd* u);

  const ContactProblemLayout& layout_;
  ContactObjective& objective_;
  ContactProblemWorkspace& work_;
  const int reuse_factorization_from_unknowns_;
  const Eigen::VectorXd D_;  // per unknown: diag(A)^(-1/2)
  ReorderedLdlt solver_;     // factored and solved without allocating
  HessianAssembly hessian_;
  bool factored_{false};  // solver_ holds a factorization
  int iterations_{0};
  int factorizations_{0};
};

}  // namespace internal
}  // namespace fem
}  // namespace hydro
