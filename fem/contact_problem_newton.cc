#include "fem/contact_problem_newton.h"

#include <algorithm>
#include <limits>

#include "hydro/convex_line_search.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

constexpr double kRelativeTolerance = 1e-6;   // εr of SAP's stopping rule
constexpr double kAbsoluteTolerance = 1e-14;  // εa, in units of √kg·m/s

}  // namespace

ContactNewton::ContactNewton(const ContactProblemLayout& layout, ContactObjective* objective,
                             ContactProblemWorkspace* work, int reuse_factorization_from_unknowns)
    : layout_(layout),
      objective_(*objective),
      work_(*work),
      reuse_factorization_from_unknowns_(reuse_factorization_from_unknowns),
      D_(layout.A.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse()) {}

bool ContactNewton::Minimize(int max_iterations, bool start_with_last_matrix, Eigen::VectorXd* u) {
  bool reuse = start_with_last_matrix && factored_ && layout_.num_unknowns >= reuse_factorization_from_unknowns_;
  double previous_residual = std::numeric_limits<double>::infinity();
  const Eigen::VectorXd& gradient = work_.gradient;
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    if (reuse) {
      objective_.CalcGradient(*u, nullptr);
      const double residual = D_.cwiseProduct(gradient).norm();
      if (!Balanced(gradient, *u) && residual > 0.5 * previous_residual) reuse = false;
      previous_residual = residual;
    }
    if (!reuse) AssembleGradientAndMatrix(*u);
    if (Balanced(gradient, *u)) return true;
    ++iterations_;
    if (!reuse && !FactorNewtonMatrix()) return false;
    if (TakeStep(u)) return true;
  }
  return false;
}

bool ContactNewton::Balanced(const Eigen::VectorXd& gradient, const Eigen::VectorXd& u) {
  const Eigen::VectorXd& momentum = objective_.CalcMomentum(u);
  const double scale = std::max(D_.cwiseProduct(momentum).norm(), D_.cwiseProduct(momentum - gradient).norm());
  return D_.cwiseProduct(gradient).norm() <= kAbsoluteTolerance + kRelativeTolerance * scale;
}

void ContactNewton::AssembleGradientAndMatrix(const Eigen::VectorXd& u) {
  hessian_.Begin();
  for (const Eigen::Triplet<double>& t : layout_.A_triplets)
    if (t.row() >= t.col()) hessian_.Add(t.row(), t.col(), t.value());
  objective_.CalcGradient(u, &hessian_);
}

bool ContactNewton::FactorNewtonMatrix() {
  const Eigen::SparseMatrix<double>& H = hessian_.Finish(layout_.num_unknowns);
  if (!solver_.analyzed()) solver_.Analyze(H);
  if (!solver_.Factor(H)) return false;
  factored_ = true;
  ++factorizations_;
  return true;
}

bool ContactNewton::TakeStep(Eigen::VectorXd* u) {
  const Eigen::VectorXd& gradient = work_.gradient;
  work_.negative_gradient = -gradient;
  Eigen::VectorXd& step = work_.step;
  solver_.Solve(work_.negative_gradient, &step);
  const double slope0 = gradient.dot(step);
  if (!(slope0 < 0)) return true;  // no descent left: stationary to round-off
  objective_.PrepareLineSearch(*u, step);
  // Near exact (1e-12): this solve's convergence test is on the step's size.
  const double alpha = hydro::ConvexLineSearch([this](double a) { return objective_.CalcSlope(a); }, slope0, 1e-12);
  *u += alpha * step;
  const double size = u->cwiseAbs().maxCoeff();
  return alpha * step.cwiseAbs().maxCoeff() <= 1e-10 + 1e-10 * size;
}

}  // namespace internal
}  // namespace fem
}  // namespace hydro
