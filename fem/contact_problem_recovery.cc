#include "fem/contact_problem_recovery.h"

namespace hydro {
namespace fem {
namespace internal {

Eigen::VectorXd CalcBlockVelocities(const ContactProblemBlock& block, const BlockLayout& L, const Eigen::VectorXd& u,
                                    const Eigen::VectorXd& u_star) {
  if (!L.reduced) return u.segment(L.offset, block.u_star.size());
  // u = u* + A⁻¹·E_P·S·(u_P − u*_P): one solve with the factorization.
  const int p = static_cast<int>(L.participating.size());
  const Eigen::VectorXd delta = L.S * (u.segment(L.offset, p) - u_star.segment(L.offset, p));
  Eigen::VectorXd E_P_delta = Eigen::VectorXd::Zero(block.u_star.size());
  for (int j = 0; j < p; ++j) E_P_delta[L.participating[j]] = delta[j];
  return block.u_star + block.factorization->solve(E_P_delta);
}

void AddBlockImpulses(const std::vector<VelocityTerm>& terms, const Vector3& on_A,
                      std::vector<Eigen::VectorXd>* impulse) {
  for (const VelocityTerm& t : terms)
    (*impulse)[t.block].segment(t.first_dof, t.Jv_BcAc_W.cols()) += t.Jv_BcAc_W.transpose() * on_A;
}

}  // namespace internal
}  // namespace fem
}  // namespace hydro
