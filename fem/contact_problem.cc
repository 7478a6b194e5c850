#include "fem/contact_problem.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

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

constexpr double kStictionSpeed = 1e-4;  // m/s: friction reaches μ·γn within this slip (ε of 001 eq. 5.16)
constexpr int kMaxIterations = 100;

// A velocity term with each column's index among the problem's unknowns.
struct MappedTerm {
  const Eigen::Matrix<double, 3, Eigen::Dynamic>* J;
  std::vector<int> unknown;
};
using MappedTerms = std::vector<MappedTerm>;

// How a block's DoFs map to the problem's unknowns.
struct BlockLayout {
  std::vector<int> unknown;  // per DoF, -1 where it does not participate
  bool reduced{false};
  std::vector<int> participating;  // reduced: the DoFs P, in order
  Eigen::MatrixXd Z;               // reduced: A⁻¹·E_P
  Eigen::MatrixXd S;               // reduced: ((A⁻¹)_PP)⁻¹
  int offset{0};
};

Vector3 Velocity(const MappedTerms& terms, const Vector3& bias, const Eigen::VectorXd& x) {
  Vector3 v = bias;
  for (const MappedTerm& t : terms)
    for (size_t c = 0; c < t.unknown.size(); ++c) v += t.J->col(c) * x[t.unknown[c]];
  return v;
}

void AddTransposed(const MappedTerms& terms, const Vector3& impulse, double sign, Eigen::VectorXd* g) {
  for (const MappedTerm& t : terms)
    for (size_t c = 0; c < t.unknown.size(); ++c) (*g)[t.unknown[c]] += sign * t.J->col(c).dot(impulse);
}

// Jᵀ·H·J into triplets (every entry, zeros too, so the Newton matrix keeps one pattern).
void AddCongruence(const MappedTerms& terms, const Matrix3& H, std::vector<Eigen::Triplet<double>>* triplets) {
  for (const MappedTerm& a : terms) {
    const Eigen::Matrix<double, Eigen::Dynamic, 3> JaT_H = a.J->transpose() * H;
    for (const MappedTerm& b : terms) {
      const Eigen::MatrixXd block = JaT_H * *b.J;
      for (size_t r = 0; r < a.unknown.size(); ++r)
        for (size_t c = 0; c < b.unknown.size(); ++c) triplets->emplace_back(a.unknown[r], b.unknown[c], block(r, c));
    }
  }
}

}  // namespace

ContactProblemResult SolveContactProblem(double dt, const std::vector<ContactProblemBlock>& blocks,
                                         const std::vector<ContactConstraint>& contacts,
                                         const std::vector<SpringConstraint>& springs,
                                         const std::vector<VelocityTargetConstraint>& targets) {
  CheckPositive(dt, "contact problem time step");
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
      throw InvalidInput("contact problem: a velocity target names a missing block or has a bad size, stiffness or bound");

  // Participating DoFs and the problem's unknowns.
  ContactProblemResult result;
  std::vector<BlockLayout> layout(num_blocks);
  std::vector<std::vector<char>> participates(num_blocks);
  for (int b = 0; b < num_blocks; ++b) {
    const int n = static_cast<int>(blocks[b].u_star.size());
    if (blocks[b].A.rows() != n || blocks[b].A.cols() != n)
      throw InvalidInput("contact problem: block " + std::to_string(b) + "'s matrix does not match its velocities");
    participates[b].assign(n, 0);
    result.total_dofs += n;
  }
  auto mark = [&](const std::vector<VelocityTerm>& terms) {
    for (const VelocityTerm& t : terms)
      for (int c = 0; c < t.J.cols(); ++c) participates[t.block][t.first_dof + c] = 1;
  };
  for (const ContactConstraint& c : contacts) mark(c.terms);
  for (const SpringConstraint& s : springs) mark(s.terms);
  for (const VelocityTargetConstraint& t : targets)
    for (int i = 0; i < t.J.size(); ++i)
      if (t.J[i] != 0) participates[t.block][i] = 1;

  const auto schur_start = Clock::now();
  std::vector<Eigen::Triplet<double>> A_triplets;
  int num_unknowns = 0;
  for (int b = 0; b < num_blocks; ++b) {
    BlockLayout& L = layout[b];
    const ContactProblemBlock& block = blocks[b];
    const int n = static_cast<int>(block.u_star.size());
    L.offset = num_unknowns;
    L.unknown.assign(n, -1);
    for (int i = 0; i < n; ++i)
      if (participates[b][i]) L.participating.push_back(i);
    const int p = static_cast<int>(L.participating.size());
    L.reduced = block.factorization != nullptr && p < n;
    if (!L.reduced) {
      for (int i = 0; i < n; ++i) L.unknown[i] = num_unknowns + i;
      for (int k = 0; k < block.A.outerSize(); ++k)
        for (Eigen::SparseMatrix<double>::InnerIterator it(block.A, k); it; ++it)
          A_triplets.emplace_back(num_unknowns + it.row(), num_unknowns + it.col(), it.value());
      num_unknowns += n;
      continue;
    }
    // 002 §VI-B: (A⁻¹)_PP from |P| solves with the free motion's factorization, then its inverse.
    L.Z.resize(n, p);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
    for (int j = 0; j < p; ++j) {
      e[L.participating[j]] = 1;
      L.Z.col(j) = block.factorization->solve(e);
      e[L.participating[j]] = 0;
    }
    Eigen::MatrixXd W(p, p);
    for (int j = 0; j < p; ++j) W.row(j) = L.Z.row(L.participating[j]);
    W = 0.5 * (W + W.transpose());
    L.S = W.ldlt().solve(Eigen::MatrixXd::Identity(p, p));
    L.S = 0.5 * (L.S + L.S.transpose());
    for (int j = 0; j < p; ++j) {
      L.unknown[L.participating[j]] = num_unknowns + j;
      for (int k = 0; k < p; ++k) A_triplets.emplace_back(num_unknowns + j, num_unknowns + k, L.S(j, k));
    }
    num_unknowns += p;
  }
  result.schur_s = Seconds(schur_start);
  result.unknowns = num_unknowns;

  Eigen::SparseMatrix<double> A(num_unknowns, num_unknowns);
  A.setFromTriplets(A_triplets.begin(), A_triplets.end());
  Eigen::VectorXd u_star(num_unknowns);
  for (int b = 0; b < num_blocks; ++b)
    for (size_t i = 0; i < layout[b].unknown.size(); ++i)
      if (layout[b].unknown[i] >= 0) u_star[layout[b].unknown[i]] = blocks[b].u_star[i];

  auto map_terms = [&](const std::vector<VelocityTerm>& terms) {
    MappedTerms mapped;
    for (const VelocityTerm& t : terms) {
      MappedTerm m{&t.J, {}};
      for (int c = 0; c < t.J.cols(); ++c) m.unknown.push_back(layout[t.block].unknown[t.first_dof + c]);
      mapped.push_back(std::move(m));
    }
    return mapped;
  };
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
  // λ = clamp(c·(target − s), ±bound), and whether it is inside the bound.
  auto target_impulse = [&](size_t k, const Eigen::VectorXd& x, bool* active) {
    const VelocityTargetConstraint& t = targets[k];
    const double lambda = t.stiffness * (t.target - target_speed(k, x));
    if (active) *active = std::abs(lambda) <= t.max_impulse;
    return std::clamp(lambda, -t.max_impulse, t.max_impulse);
  };
  std::vector<MappedTerms> contact_terms, spring_terms;
  for (const ContactConstraint& c : contacts) contact_terms.push_back(map_terms(c.terms));
  for (const SpringConstraint& s : springs) spring_terms.push_back(map_terms(s.terms));

  const auto newton_start = Clock::now();
  double friction_scale = 0;
  // The impulse on A at contact velocity vc and, optionally, −∂γ/∂vc (PSD) for Newton's matrix.
  auto impulse = [&](const ContactConstraint& p, const Vector3& vc, double gamma_n_lagged, Matrix3* H) {
    const double mu = friction_scale * p.friction;
    const Vector3& nh = p.nhat_W;
    const double vn = nh.dot(vc);
    const double y = -p.phi0_m - dt * vn;
    const double gamma_n = y > 0 ? dt * p.stiffness_N_per_m * y : 0.0;
    const Vector3 vt = vc - vn * nh;
    const double s = std::sqrt(vt.squaredNorm() + kStictionSpeed * kStictionSpeed);
    const Vector3 gamma = gamma_n * nh - mu * gamma_n_lagged * vt / s;
    if (H) {
      *H = Matrix3::Zero();
      if (y > 0) *H = (dt * dt * p.stiffness_N_per_m) * nh * nh.transpose();
      const Matrix3 P = Matrix3::Identity() - nh * nh.transpose();
      *H += mu * gamma_n_lagged / s * (P - vt * vt.transpose() / (s * s));
    }
    return std::make_pair(gamma, gamma_n);
  };
  auto spring_gap = [&](size_t k, const Eigen::VectorXd& x) {
    return Vector3(springs[k].gap0 + dt * Velocity(spring_terms[k], springs[k].bias, x));
  };
  Eigen::VectorXd u = u_star;
  std::vector<double> gamma_n(contacts.size(), 0.0);
  for (size_t i = 0; i < contacts.size(); ++i)
    gamma_n[i] = impulse(contacts[i], Velocity(contact_terms[i], contacts[i].bias, u), 0, nullptr).second;
  // For fixed lagged γn: ½‖u − u*‖²_A + Σ [k/2·y₊² + μ·γn·(s − ε)] + Σ ½k‖e‖².
  auto objective = [&](const Eigen::VectorXd& x) {
    const Eigen::VectorXd d = x - u_star;
    double E = 0.5 * d.dot(A * d);
    for (size_t i = 0; i < contacts.size(); ++i) {
      const ContactConstraint& p = contacts[i];
      const Vector3 vc = Velocity(contact_terms[i], p.bias, x);
      const double vn = p.nhat_W.dot(vc);
      const double y = std::max(0.0, -p.phi0_m - dt * vn);
      const Vector3 vt = vc - vn * p.nhat_W;
      E += 0.5 * p.stiffness_N_per_m * y * y +
           friction_scale * p.friction * gamma_n[i] *
               (std::sqrt(vt.squaredNorm() + kStictionSpeed * kStictionSpeed) - kStictionSpeed);
    }
    for (size_t k = 0; k < springs.size(); ++k) E += 0.5 * springs[k].stiffness_N_per_m * spring_gap(k, x).squaredNorm();
    for (size_t k = 0; k < targets.size(); ++k) {
      // Huber: ½c·e² inside the bound, F·|e| − F²/(2c) beyond, e = s − target.
      const double e = std::abs(target_speed(k, x) - targets[k].target), c = targets[k].stiffness,
                   F = targets[k].max_impulse;
      E += c * e <= F ? 0.5 * c * e * e : F * e - 0.5 * F * F / c;
    }
    return E;
  };
  // The gradient A(u − u*) − Σ Jᵀγ + Σ δt·k·Jᵀe, and Newton's matrix triplets.
  auto gradient_of = [&](const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>* H_triplets) {
    Eigen::VectorXd gradient = A * (x - u_star);
    for (size_t k = 0; k < springs.size(); ++k) {
      const double stiffness = springs[k].stiffness_N_per_m;
      AddTransposed(spring_terms[k], spring_gap(k, x), dt * stiffness, &gradient);
      if (H_triplets) AddCongruence(spring_terms[k], dt * dt * stiffness * Matrix3::Identity(), H_triplets);
    }
    for (size_t k = 0; k < targets.size(); ++k) {
      bool active = false;
      const double lambda = target_impulse(k, x, &active);
      for (const auto& [unknown, value] : target_rows[k]) gradient[unknown] -= value * lambda;
      if (!H_triplets) continue;
      const double c = active ? targets[k].stiffness : 0.0;
      for (const auto& [row, a] : target_rows[k])
        for (const auto& [col, b] : target_rows[k]) H_triplets->emplace_back(row, col, c * a * b);
    }
    for (size_t i = 0; i < contacts.size(); ++i) {
      Matrix3 H;
      const Vector3 vc = Velocity(contact_terms[i], contacts[i].bias, x);
      const Vector3 gamma = impulse(contacts[i], vc, gamma_n[i], H_triplets ? &H : nullptr).first;
      AddTransposed(contact_terms[i], gamma, -1, &gradient);
      if (H_triplets) AddCongruence(contact_terms[i], H, H_triplets);
    }
    return gradient;
  };

  StepFactorization solver;
  bool analyzed = false;
  for (result.iterations = 1; result.iterations <= kMaxIterations; ++result.iterations) {
    if (contacts.empty() && springs.empty() && targets.empty()) {
      result.converged = true;
      break;
    }
    std::vector<Eigen::Triplet<double>> H_triplets = A_triplets;
    const Eigen::VectorXd gradient = gradient_of(u, &H_triplets);
    Eigen::SparseMatrix<double> H(num_unknowns, num_unknowns);
    H.setFromTriplets(H_triplets.begin(), H_triplets.end());
    if (!analyzed) solver.analyzePattern(H), analyzed = true;
    solver.factorize(H);
    if (solver.info() != Eigen::Success) break;
    const Eigen::VectorXd step = solver.solve(-gradient);
    const double E0 = objective(u);
    double alpha = 1;
    for (int k = 0; k < 30 && !(objective(u + alpha * step) <= E0 + 1e-4 * alpha * gradient.dot(step)); ++k) alpha *= 0.5;
    u += alpha * step;
    double change = 0, largest = 0;
    for (size_t i = 0; i < contacts.size(); ++i) {
      const double updated = impulse(contacts[i], Velocity(contact_terms[i], contacts[i].bias, u), 0, nullptr).second;
      change = std::max(change, std::abs(updated - gamma_n[i]));
      largest = std::max(largest, updated);
      gamma_n[i] = updated;
    }
    const double size = num_unknowns > 0 ? u.cwiseAbs().maxCoeff() : 0.0;
    const double step_size = num_unknowns > 0 ? alpha * step.cwiseAbs().maxCoeff() : 0.0;
    if (step_size <= 1e-9 + 1e-9 * size && change <= 1e-9 * (1 + largest)) {
      if (friction_scale == 1) {
        result.converged = true;
        break;
      }
      friction_scale = 1;
    }
  }
  result.iterations = std::min(result.iterations, kMaxIterations);
  result.residual = num_unknowns > 0 ? gradient_of(u, nullptr).cwiseAbs().maxCoeff() : 0.0;
  result.newton_s = Seconds(newton_start);

  // Velocities of every DoF, and what each constraint gave each block.
  result.u.resize(num_blocks);
  result.impulse.resize(num_blocks);
  result.target_impulse.resize(num_blocks);
  for (int b = 0; b < num_blocks; ++b) {
    const BlockLayout& L = layout[b];
    result.impulse[b] = Eigen::VectorXd::Zero(blocks[b].u_star.size());
    result.target_impulse[b] = Eigen::VectorXd::Zero(blocks[b].u_star.size());
    if (!L.reduced) {
      result.u[b] = u.segment(L.offset, blocks[b].u_star.size());
      continue;
    }
    const int p = static_cast<int>(L.participating.size());
    const Eigen::VectorXd delta = u.segment(L.offset, p) - u_star.segment(L.offset, p);
    result.u[b] = blocks[b].u_star + L.Z * (L.S * delta);
  }
  auto add_block_impulses = [&](const std::vector<VelocityTerm>& terms, const Vector3& on_A) {
    for (const VelocityTerm& t : terms) result.impulse[t.block].segment(t.first_dof, t.J.cols()) += t.J.transpose() * on_A;
  };
  for (size_t i = 0; i < contacts.size(); ++i) {
    const Vector3 gamma = impulse(contacts[i], Velocity(contact_terms[i], contacts[i].bias, u), gamma_n[i], nullptr).first;
    result.contact_impulse_W.push_back(gamma);
    add_block_impulses(contacts[i].terms, gamma);
  }
  for (size_t k = 0; k < springs.size(); ++k) {
    const Vector3 on_A = -dt * springs[k].stiffness_N_per_m * spring_gap(k, u);
    result.spring_impulse_W.push_back(on_A);
    add_block_impulses(springs[k].terms, on_A);
  }
  for (size_t k = 0; k < targets.size(); ++k)
    result.target_impulse[targets[k].block] += targets[k].J.transpose() * target_impulse(k, u, nullptr);
  return result;
}

}  // namespace fem
}  // namespace hydro
