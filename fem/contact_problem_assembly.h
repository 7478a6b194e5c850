#pragma once
// The pieces SolveContactProblem (fem/contact_problem.h) assembles its problem from: the
// constraints' Jacobians grouped by the unknowns they name (each block's DoFs mapped to the
// unknowns by fem/contact_problem_layout.h), and Newton's matrix written in place once its
// pattern is known. Internal to hydro_fem; tested in tests/fem/contact_problem_assembly_test.cc.
#include <Eigen/Sparse>

#include <algorithm>
#include <map>
#include <vector>

#include "fem/contact_problem.h"
#include "fem/contact_problem_layout.h"

namespace hydro {
namespace fem {
namespace internal {

// Newton's matrix, assembled as a stream of (row, column, value) entries in the same order every
// iteration: the first assembly records where each entry lands in the sparse matrix, later ones
// write the values straight there.
class HessianAssembly {
 public:
  void Add(int row, int col, double value) {
    if (recording_) {
      rows_.push_back(row), cols_.push_back(col), values_.push_back(value);
    } else {
      H_.valuePtr()[slots_[next_++]] += value;
    }
  }
  // Starts an assembly; one begun before the first Finish() starts its recording over.
  void Begin() {
    next_ = 0;
    if (recording_)
      rows_.clear(), cols_.clear(), values_.clear();
    else
      std::fill(H_.valuePtr(), H_.valuePtr() + H_.nonZeros(), 0.0);
  }
  // The matrix of the entries added since Begin().
  const Eigen::SparseMatrix<double>& Finish(int n) {
    if (!recording_) return H_;
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(values_.size());
    for (size_t k = 0; k < values_.size(); ++k) triplets.emplace_back(rows_[k], cols_[k], values_[k]);
    H_.resize(n, n);
    H_.setFromTriplets(triplets.begin(), triplets.end());
    H_.makeCompressed();
    slots_.resize(values_.size());
    for (size_t k = 0; k < values_.size(); ++k) {
      const int* begin = H_.innerIndexPtr() + H_.outerIndexPtr()[cols_[k]];
      const int* end = H_.innerIndexPtr() + H_.outerIndexPtr()[cols_[k] + 1];
      slots_[k] = static_cast<int>(std::lower_bound(begin, end, rows_[k]) - H_.innerIndexPtr());
    }
    recording_ = false;
    rows_ = {}, cols_ = {}, values_ = {};
    return H_;
  }

 private:
  bool recording_{true};
  size_t next_{0};
  std::vector<int> rows_, cols_, slots_;
  std::vector<double> values_;
  Eigen::SparseMatrix<double> H_;
};

// The constraints' Jacobians, each dense over the unknowns its terms name. Constraints that name
// the same unknowns (the contact points of one pair of elements) form a group: Newton's matrix
// gets each group's Σ Jᵀ·H·J summed densely and scattered once, instead of every point's entries
// one by one (the arch's ~1,000 points in ~200 groups: the assembly had been half of Newton's time).
class GroupedJacobian {
 public:
  // Returns the constraint's index; `layout` maps each term's DoFs to the problem's unknowns.
  int Add(const std::vector<VelocityTerm>& terms, const std::vector<BlockLayout>& layout) {
    auto unknown_of = [&](const VelocityTerm& t, int c) { return layout[t.block].unknown[t.first_dof + c]; };
    std::vector<int> unknowns;
    size_t columns = 0;
    for (const VelocityTerm& t : terms) columns += t.Jv_BcAc_W.cols();
    unknowns.reserve(columns);
    for (const VelocityTerm& t : terms)
      for (int c = 0; c < t.Jv_BcAc_W.cols(); ++c)
        if (std::find(unknowns.begin(), unknowns.end(), unknown_of(t, c)) == unknowns.end())
          unknowns.push_back(unknown_of(t, c));
    auto [it, added] = group_of_.try_emplace(unknowns, static_cast<int>(unknowns_.size()));
    if (added) unknowns_.push_back(unknowns);
    const int g = it->second;
    Eigen::Matrix<double, 3, Eigen::Dynamic> J = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, unknowns.size());
    for (const VelocityTerm& t : terms)
      for (int c = 0; c < t.Jv_BcAc_W.cols(); ++c) {
        const int local =
            static_cast<int>(std::find(unknowns.begin(), unknowns.end(), unknown_of(t, c)) - unknowns.begin());
        J.col(local) += t.Jv_BcAc_W.col(c);
      }
    // A deformable's contact row is [w₁·I, w₂·I, …] over its vertices' triples.
    Eigen::VectorXd weights;
    if (J.cols() % 3 == 0) {
      weights.resize(J.cols() / 3);
      for (int a = 0; a < weights.size() && weights.size() > 0; ++a) {
        weights[a] = J(0, 3 * a);
        if (J.block<3, 3>(0, 3 * a) != weights[a] * Matrix3::Identity()) weights.resize(0);
      }
    }
    group_.push_back(g);
    J_.push_back(std::move(J));
    weights_.push_back(std::move(weights));
    return static_cast<int>(J_.size()) - 1;
  }
  int num_groups() const { return static_cast<int>(unknowns_.size()); }
  int group(int c) const { return group_[c]; }
  const std::vector<int>& unknowns(int g) const { return unknowns_[g]; }
  // trace(J_c·W·J_cᵀ), W over the unknowns of c's group.
  double CongruenceTrace(int c, const Eigen::MatrixXd& W) const {
    const Eigen::VectorXd& w = weights_[c];
    if (w.size() == 0) return (J_[c] * W * J_[c].transpose()).trace();
    double trace = 0;
    for (int a = 0; a < w.size(); ++a)
      for (int b = 0; b < w.size(); ++b)
        trace += w[a] * w[b] * (W(3 * a, 3 * b) + W(3 * a + 1, 3 * b + 1) + W(3 * a + 2, 3 * b + 2));
    return trace;
  }
  // x at each group's unknowns.
  void Gather(const Eigen::VectorXd& x, std::vector<Eigen::VectorXd>* local) const {
    local->resize(unknowns_.size());
    for (size_t g = 0; g < unknowns_.size(); ++g) {
      (*local)[g].resize(unknowns_[g].size());
      for (size_t k = 0; k < unknowns_[g].size(); ++k) (*local)[g][k] = x[unknowns_[g][k]];
    }
  }
  Vector3 Times(int c, const std::vector<Eigen::VectorXd>& local) const { return J_[c] * local[group_[c]]; }
  // Sums of Jᵀ·f and Jᵀ·H·J per group, then added to the problem's gradient and Newton's matrix.
  void ClearSums(bool curvature) {
    impulse_sum_.resize(unknowns_.size());
    curvature_sum_.resize(unknowns_.size());
    for (size_t g = 0; g < unknowns_.size(); ++g) {
      const int m = static_cast<int>(unknowns_[g].size());
      impulse_sum_[g].setZero(m);
      if (!curvature) continue;
      // Only the lower triangle is summed and read.
      curvature_sum_[g].resize(m, m);
      for (int c = 0; c < m; ++c) curvature_sum_[g].col(c).tail(m - c).setZero();
    }
  }
  void AddImpulse(int c, const Vector3& f) { impulse_sum_[group_[c]].noalias() += J_[c].transpose() * f; }
  void AddCurvature(int c, const Matrix3& H) {
    Eigen::MatrixXd& G = curvature_sum_[group_[c]];
    const Eigen::VectorXd& w = weights_[c];
    if (w.size() > 0) {  // Jᵀ·H·J = (w·wᵀ) ⊗ H, its lower block triangle
      for (int b = 0; b < w.size(); ++b) {
        const Matrix3 diagonal_block = (w[b] * w[b]) * H;
        for (int c = 0; c < 3; ++c)
          for (int r = c; r < 3; ++r) G(3 * b + r, 3 * b + c) += diagonal_block(r, c);
        for (int a = b + 1; a < w.size(); ++a) G.block<3, 3>(3 * a, 3 * b) += (w[a] * w[b]) * H;
      }
      return;
    }
    const Eigen::Matrix<double, 3, Eigen::Dynamic>& J = J_[c];
    // The lower triangle (local order), by hand: at these sizes (m ≈ 12–30) a blocked matrix
    // product spends more on packing than on arithmetic. A column of H·J at a time: no
    // temporary to allocate in a Newton iteration.
    const int m = static_cast<int>(J.cols());
    for (int col = 0; col < m; ++col) {
      const Vector3 HJ_col = H * J.col(col);
      for (int row = col; row < m; ++row) G(row, col) += J.col(row).dot(HJ_col);
    }
  }
  void ScatterImpulses(Eigen::VectorXd* gradient) const {
    for (size_t g = 0; g < unknowns_.size(); ++g)
      for (size_t k = 0; k < unknowns_[g].size(); ++k) (*gradient)[unknowns_[g][k]] += impulse_sum_[g][k];
  }
  // The lower triangle only: the factorization reads no other.
  void ScatterCurvatures(HessianAssembly* hessian) const {
    for (size_t g = 0; g < unknowns_.size(); ++g) {
      const std::vector<int>& u = unknowns_[g];
      for (size_t c = 0; c < u.size(); ++c)
        for (size_t r = c; r < u.size(); ++r)
          hessian->Add(std::max(u[r], u[c]), std::min(u[r], u[c]), curvature_sum_[g](r, c));
    }
  }

 private:
  std::map<std::vector<int>, int> group_of_;
  std::vector<std::vector<int>> unknowns_;  // per group
  std::vector<int> group_;                  // per constraint
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> J_;
  std::vector<Eigen::VectorXd> weights_;  // per constraint: its vertex weights, if J has that form
  std::vector<Eigen::VectorXd> impulse_sum_;
  std::vector<Eigen::MatrixXd> curvature_sum_;
};

}  // namespace internal
}  // namespace fem
}  // namespace hydro
