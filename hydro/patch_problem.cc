#include "hydro/patch_problem.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <string>

namespace hydro {
namespace {

// B with B·Bᵀ = G for G ⪰ 0 (LDLᵀ with pivoting, D clamped at 0 against round-off); false when G is
// zero (the body contributes no unknowns).
bool FactorMobility(const Matrix6& G, Matrix6* B) {
  B->setZero();
  if (G.cwiseAbs().maxCoeff() == 0) return false;
  const Eigen::LDLT<Matrix6> ldlt(0.5 * (G + G.transpose()));
  const Vector6 sqrt_d = ldlt.vectorD().cwiseMax(0.0).cwiseSqrt();
  const Matrix6 L = ldlt.matrixL();
  *B = ldlt.transpositionsP().transpose() * (L * sqrt_d.asDiagonal());
  return true;
}

// J = [−[r]×, I]: the velocity of the point at offset r from a twist [ω; v] about the origin of r.
Eigen::Matrix<double, 3, 6> PointJacobian(const Vector3& r) {
  Eigen::Matrix<double, 3, 6> J;
  J << 0, r.z(), -r.y(), 1, 0, 0,  //
      -r.z(), 0, r.x(), 0, 1, 0,   //
      r.y(), -r.x(), 0, 0, 0, 1;
  return J;
}

Vector3 PointVelocity(const Vector6& V, const Vector3& r) { return V.tail<3>() + V.head<3>().cross(r); }

}  // namespace

Matrix6 RigidBodyMobility(const Matrix3& inverse_inertia_W, double inverse_mass, const Vector3& angular_factor,
                          const Vector3& linear_factor) {
  Matrix6 G = Matrix6::Zero();
  G.topLeftCorner<3, 3>() = angular_factor.asDiagonal() * inverse_inertia_W * angular_factor.asDiagonal();
  G.bottomRightCorner<3, 3>() = (inverse_mass * linear_factor.cwiseAbs2()).asDiagonal();
  return G;
}

void PatchProblem::Reset(double dt_s, const PatchProblemOptions& options) {
  CheckPositive(dt_s, "patch problem time step");
  CheckPositive(options.stiction_sigma, "patch problem stiction regularization");
  CheckPositive(options.stiction_sigma_start, "patch problem initial stiction regularization");
  dt_ = dt_s;
  options_ = options;
  bodies_.clear();
  patches_.clear();
  patch_of_.clear();
  p_A_.clear();
  p_B_.clear();
  mu_.clear();
  wt_.clear();
  wn_.clear();
  laws_.clear();
  C_.clear();
  num_unknowns_ = 0;
  finalized_ = false;
  bounds_set_ = false;
  sigma_ = 0;
  near_rigid_points_ = 0;
}

int PatchProblem::AddBody(const PatchBody& body) {
  Body b;
  b.c = body.p_WC;
  if (FactorMobility(body.mobility, &b.B)) {
    b.offset = num_unknowns_;
    num_unknowns_ += 6;
  }
  bodies_.push_back(b);
  finalized_ = false;
  return static_cast<int>(bodies_.size()) - 1;
}

int PatchProblem::AddPatch(int body_A, int body_B, const std::vector<PatchPoint>& points) {
  const int num_bodies = static_cast<int>(bodies_.size());
  if (body_A < 0 || body_A >= num_bodies || body_B < 0 || body_B >= num_bodies || body_A == body_B)
    throw InvalidInput("patch problem: a patch names bodies " + std::to_string(body_A) + " and " +
                       std::to_string(body_B) + " of " + std::to_string(num_bodies));
  Patch patch;
  patch.body_A = body_A;
  patch.body_B = body_B;
  patch.first_point = static_cast<int>(laws_.size());
  patch.num_points = static_cast<int>(points.size());
  const Body& A = bodies_[body_A];
  const Body& B = bodies_[body_B];
  const size_t first = laws_.size();
  double stiffness_scale = 1;
  for (size_t i = 0; i < points.size(); ++i) {
    const PatchPoint& q = points[i];
    if (!(q.stiffness_N_per_m > 0) || !std::isfinite(q.stiffness_N_per_m) || !std::isfinite(q.phi0_m) ||
        !IsFinite(q.p_WQ) || !IsFinite(q.nhat_BA_W) || !std::isfinite(q.dissipation_time_s) || !std::isfinite(q.friction))
      throw InvalidInput("patch problem: point " + std::to_string(i) + " of patch " +
                         std::to_string(patches_.size()) + " has a non-finite or non-positive value");
    const Vector3 p_B = IsFinite(q.p_WQ_B) ? q.p_WQ_B : q.p_WQ;
    MatrixC C = MatrixC::Zero();
    if (A.offset >= 0) C.leftCols<6>() = PointJacobian(q.p_WQ - A.c) * A.B;
    if (B.offset >= 0) C.rightCols<6>() = -PointJacobian(p_B - B.c) * B.B;
    // The inverse masses the point sees (its Delassus block C·Cᵀ): along the normal, n̂ᵀ·C·Cᵀ·n̂,
    // and tangentially, the mean over the two tangent directions.
    const Eigen::Matrix<double, 12, 1> Ctn = C.transpose() * q.nhat_BA_W;
    const double wn = Ctn.squaredNorm();
    const double wt = std::max(0.5 * (C.squaredNorm() - wn), 0.0);
    C_.push_back(C);
    p_A_.push_back(q.p_WQ);
    p_B_.push_back(p_B);
    mu_.push_back(std::max(q.friction, 0.0));
    wt_.push_back(wt);
    wn_.push_back(wn);
    patch_of_.push_back(static_cast<int>(patches_.size()));
  }
  // The near-rigid regime of SAP (Castro et al. 2022, cited in seeds 000 and 002) softens each
  // point that δt cannot resolve to a period of β·δt for the mass it sees. Applied point by point,
  // it would soften a patch unevenly — a coin's rim points see five times its centre's inverse
  // mass — and so redistribute its pressure (at 1 GPa the coin's ε was off by 15 %); and it would
  // make a patch's stiffness grow with its number of points. The whole patch is softened instead,
  // uniformly, which keeps its pressure's shape (000 §IV: k = g·A per point), to a period of
  // β·δt/4 for the inverse mass it sees at its centre of stiffness along its mean normal: the
  // stiffness 16 points of SAP's rule would have (a stack of ten stiff boxes at 60 Hz then sags
  // under a millimetre). Implicit steps stay stable at any stiffness; the bound keeps Newton's
  // problem well conditioned.
  {
    double K = 0, horizon_K = 0;
    Vector3 c = Vector3::Zero(), n = Vector3::Zero();
    for (const PatchPoint& q : points) {
      K += q.stiffness_N_per_m;
      horizon_K += q.stiffness_N_per_m * (dt_ + std::max(q.dissipation_time_s, 0.0));
      c += q.stiffness_N_per_m * q.p_WQ;
      n += q.stiffness_N_per_m * q.nhat_BA_W;
    }
    if (K > 0 && n.norm() > 0) {
      c /= K;
      n.normalize();
      MatrixC C = MatrixC::Zero();
      if (A.offset >= 0) C.leftCols<6>() = PointJacobian(c - A.c) * A.B;
      if (B.offset >= 0) C.rightCols<6>() = -PointJacobian(c - B.c) * B.B;
      const double w = (C.transpose() * n).squaredNorm();
      constexpr double kPatchPeriodDivisor = 4;
      const double beta = options_.near_rigid_beta / kPatchPeriodDivisor;
      // The patch's compliance 1/(δt·Σk·horizon) against β²·w/(4π²), as NearRigidScale per point.
      stiffness_scale = NearRigidScale(horizon_K / dt_, dt_, 0.0, w, beta);
    }
  }
  if (stiffness_scale < 1) near_rigid_points_ += static_cast<int>(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const PatchPoint& q = points[i];
    laws_.push_back(MakeCompliantPointLaw(q.nhat_BA_W, stiffness_scale * q.stiffness_N_per_m, q.phi0_m, dt_,
                                          q.dissipation_time_s, wn_[first + i], wt_[first + i], 0.0,
                                          options_.stiction_sigma, nullptr));
  }
  patches_.push_back(patch);
  finalized_ = false;
  return static_cast<int>(patches_.size()) - 1;
}

void PatchProblem::BuildPattern() {
  const size_t n = laws_.size();
  vc_start_.assign(n, Vector3::Zero());
  vc_.assign(n, Vector3::Zero());
  dvc_.assign(n, Vector3::Zero());
  gamma_.assign(n, Vector3::Zero());
  z_.setZero(num_unknowns_);
  z_start_.setZero(num_unknowns_);
  patch_curvature_.resize(patches_.size());
  // One 6×6 block per body with unknowns, and two per patch between two such bodies.
  std::vector<Eigen::Triplet<double>> triplets;
  auto add_block = [&](int row, int col) {
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r < 6; ++r) triplets.emplace_back(row + r, col + c, 0.0);
  };
  for (const Body& b : bodies_)
    if (b.offset >= 0) add_block(b.offset, b.offset);
  for (const Patch& p : patches_) {
    const int a = bodies_[p.body_A].offset, b = bodies_[p.body_B].offset;
    if (a >= 0 && b >= 0) add_block(a, b), add_block(b, a);
  }
  hessian_.resize(num_unknowns_, num_unknowns_);
  hessian_.setFromTriplets(triplets.begin(), triplets.end());  // duplicates (two patches, one pair) sum
  hessian_.makeCompressed();
  block_slots_.assign(patches_.size(), {});
  for (size_t k = 0; k < patches_.size(); ++k) {
    const int offsets[2] = {bodies_[patches_[k].body_A].offset, bodies_[patches_[k].body_B].offset};
    // Slots of the blocks (s, t) ∈ {A, B}², row-major within each block; null where a body has none.
    std::vector<double*>& slots = block_slots_[k];
    slots.assign(4 * 36, nullptr);
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t) {
        if (offsets[s] < 0 || offsets[t] < 0) continue;
        for (int r = 0; r < 6; ++r)
          for (int c = 0; c < 6; ++c) slots[(2 * s + t) * 36 + 6 * r + c] = &hessian_.coeffRef(offsets[s] + r, offsets[t] + c);
      }
  }
  if (num_unknowns_ > 0) factorization_.analyzePattern(hessian_);
  finalized_ = true;
}

void PatchProblem::StartFromWrench(int patch, const Vector6& W_A, std::vector<Vector6>* dV) {
  if (!finalized_) BuildPattern();
  dV->resize(bodies_.size(), Vector6::Zero());
  const Patch& p = patches_[patch];
  const Body& A = bodies_[p.body_A];
  const Body& B = bodies_[p.body_B];
  // The wrench on B about c_B is −W_A moved from c_A: torque −(τ + (c_A − c_B) × f).
  Vector6 W_B;
  W_B.head<3>() = -(W_A.head<3>() + (A.c - B.c).cross(W_A.tail<3>()));
  W_B.tail<3>() = -W_A.tail<3>();
  if (A.offset >= 0) {
    const Vector6 dz = A.B.transpose() * W_A;
    z_.segment<6>(A.offset) += dz;
    (*dV)[p.body_A] += A.B * dz;
  }
  if (B.offset >= 0) {
    const Vector6 dz = B.B.transpose() * W_B;
    z_.segment<6>(B.offset) += dz;
    (*dV)[p.body_B] += B.B * dz;
  }
}

Vector3 PatchProblem::Times(int i, const Eigen::VectorXd& z) const {
  const Patch& p = patches_[patch_of_[i]];
  const int a = bodies_[p.body_A].offset, b = bodies_[p.body_B].offset;
  Vector3 v = Vector3::Zero();
  if (a >= 0) v += C_[i].leftCols<6>() * z.segment<6>(a);
  if (b >= 0) v += C_[i].rightCols<6>() * z.segment<6>(b);
  return v;
}

void PatchProblem::RefreshVelocities(const Eigen::VectorXd& z) {
  const Eigen::VectorXd dz = z - z_start_;
  for (size_t i = 0; i < laws_.size(); ++i) vc_[i] = vc_start_[i] + Times(static_cast<int>(i), dz);
}

void PatchProblem::SetStictionRegularization(double sigma) {
  sigma_ = sigma;
  for (size_t i = 0; i < laws_.size(); ++i) laws_[i].compliance_Rt = std::max(sigma * wt_[i], 1e-300);
}

double PatchProblem::FrictionBoundChange() const {
  double change = 0;
  for (size_t i = 0; i < laws_.size(); ++i) {
    double gn = 0;
    CalcPointImpulse(laws_[i], vc_[i], &gn);
    change = std::max(change, std::abs(mu_[i] * gn - laws_[i].friction_bound));
  }
  return change;
}

double PatchProblem::RefreshFrictionBounds() {
  double change = 0;
  largest_bound_ = 0;
  for (size_t i = 0; i < laws_.size(); ++i) {
    double gn = 0;
    CalcPointImpulse(laws_[i], vc_[i], &gn);
    const double bound = mu_[i] * gn;
    change = std::max(change, std::abs(bound - laws_[i].friction_bound));
    largest_bound_ = std::max(largest_bound_, bound);
    laws_[i].friction_bound = bound;
  }
  return change;
}

double PatchProblem::Slope(double alpha, const Eigen::VectorXd& z, const Eigen::VectorXd& d) const {
  double s = d.dot(z + alpha * d);
  for (size_t i = 0; i < laws_.size(); ++i)
    s -= CalcPointImpulse(laws_[i], vc_[i] + alpha * dvc_[i], nullptr).dot(dvc_[i]);
  return s;
}

PatchProblemReport PatchProblem::Solve(const std::vector<Vector6>& V, int max_iterations, int friction_rounds,
                                       std::vector<Vector6>* dV) {
  if (!finalized_) BuildPattern();
  PatchProblemReport report;
  dV->assign(bodies_.size(), Vector6::Zero());
  if (num_unknowns_ == 0 || laws_.empty()) {
    report.converged = true;
    return report;
  }
  // Contact velocities now (a body without unknowns may still move: a kinematic body).
  z_start_ = z_;
  for (size_t i = 0; i < laws_.size(); ++i) {
    const Patch& p = patches_[patch_of_[i]];
    vc_start_[i] = PointVelocity(V[p.body_A], p_A_[i] - bodies_[p.body_A].c) -
                   PointVelocity(V[p.body_B], p_B_[i] - bodies_[p.body_B].c);
    vc_[i] = vc_start_[i];
  }
  Eigen::VectorXd z = z_;
  Eigen::VectorXd gradient(num_unknowns_), step(num_unknowns_);
  // A solve that is the whole problem (several rounds) starts its continuation over; a solve that is
  // one visit of a sweep among Bullet's rows continues where the last visit left σ.
  const double sigma_start = std::max(options_.stiction_sigma_start, options_.stiction_sigma);
  if (friction_rounds > 1 || sigma_ == 0) SetStictionRegularization(sigma_start);
  double solved_sigma = -1;
  for (int round = 0; round < std::max(friction_rounds, 1); ++round) {
    // The lagged friction bound μ·γ̄n: the normal impulses of the last solve (a solve among
    // Bullet's other rows starts mid-sweep, where a point lifted off for the moment would lose its
    // friction for the whole solve), or at first those at the velocities found (the warm start's);
    // refreshed between rounds, as σ steps down.
    if (round > 0 || !bounds_set_) {
      // Settled: the bounds the last round solved with stay, so that the impulses reported are
      // those of a solved problem (momentum balances exactly).
      if (round > 0 && sigma_ == solved_sigma && FrictionBoundChange() <= 1e-3 * largest_bound_) break;
      RefreshFrictionBounds();
      bounds_set_ = true;
    }
    solved_sigma = sigma_;
    report.converged = false;
    for (int iteration = 0; iteration < max_iterations; ++iteration) {
      gradient = z;
      std::fill(hessian_.valuePtr(), hessian_.valuePtr() + hessian_.nonZeros(), 0.0);
      for (const Body& b : bodies_)
        if (b.offset >= 0)
          for (int k = 0; k < 6; ++k) hessian_.coeffRef(b.offset + k, b.offset + k) += 1.0;
      Eigen::VectorXd impulse_sum = Eigen::VectorXd::Zero(num_unknowns_);
      for (size_t k = 0; k < patches_.size(); ++k) {
        const Patch& p = patches_[k];
        const int a = bodies_[p.body_A].offset, b = bodies_[p.body_B].offset;
        Eigen::Matrix<double, 12, 12>& M = patch_curvature_[k];
        M.setZero();
        Eigen::Matrix<double, 12, 1> g = Eigen::Matrix<double, 12, 1>::Zero();
        Matrix3 H;
        for (int i = p.first_point; i < p.first_point + p.num_points; ++i) {
          gamma_[i] = CalcPointImpulse(laws_[i], vc_[i], nullptr, &H);
          g.noalias() += C_[i].transpose() * gamma_[i];
          // Coefficient-wise: Eigen would send a 12×3·3×12 product through its general GEMM.
          const Eigen::Matrix<double, 3, 12> HC = H.lazyProduct(C_[i]);
          M.noalias() += C_[i].transpose().lazyProduct(HC);
        }
        if (a >= 0) impulse_sum.segment<6>(a) += g.head<6>();
        if (b >= 0) impulse_sum.segment<6>(b) += g.tail<6>();
        const std::vector<double*>& slots = block_slots_[k];
        for (int s = 0; s < 2; ++s)
          for (int t = 0; t < 2; ++t)
            for (int r = 0; r < 6; ++r)
              for (int c = 0; c < 6; ++c)
                if (double* slot = slots[(2 * s + t) * 36 + 6 * r + c]) *slot += M(6 * s + r, 6 * t + c);
      }
      gradient -= impulse_sum;
      const double scale = std::max(z.norm(), impulse_sum.norm());
      if (gradient.norm() <= options_.relative_tolerance * scale || scale == 0) {
        report.converged = true;
        break;
      }
      ++report.iterations;
      factorization_.factorize(hessian_);
      if (factorization_.info() != Eigen::Success) break;
      step = factorization_.solve(-gradient);
      for (size_t i = 0; i < laws_.size(); ++i) dvc_[i] = Times(static_cast<int>(i), step);
      // Exact line search: f is convex along the step, so its slope rises through zero.
      const double slope0 = gradient.dot(step);
      if (!(slope0 < 0)) {
        report.converged = true;
        break;
      }
      double alpha = 1;
      double hi_slope = Slope(1, z, step);
      if (hi_slope > 0) {
        double lo = 0, lo_slope = slope0, hi = 1;
        for (int k = 0; k < 40; ++k) {
          const double width = hi - lo;
          alpha = std::clamp(lo - lo_slope * width / (hi_slope - lo_slope), lo + 0.05 * width, hi - 0.05 * width);
          const double s = Slope(alpha, z, step);
          // Close enough for Newton's next step: the convergence test is on the gradient.
          if (std::abs(s) <= 1e-3 * std::abs(slope0)) break;
          if (s < 0) lo = alpha, lo_slope = s;
          else hi = alpha, hi_slope = s;
        }
      }
      z += alpha * step;
      RefreshVelocities(z);
    }
    // Continuation: the next round (if any) solves with a tenth of σ.
    if (round + 1 < std::max(friction_rounds, 1) && sigma_ > options_.stiction_sigma)
      SetStictionRegularization(std::max(0.1 * sigma_, options_.stiction_sigma));
  }
  for (size_t i = 0; i < laws_.size(); ++i) gamma_[i] = CalcPointImpulse(laws_[i], vc_[i], nullptr);
  RefreshFrictionBounds();  // for the next solve
  for (size_t b = 0; b < bodies_.size(); ++b) {
    const Body& body = bodies_[b];
    if (body.offset < 0) continue;
    (*dV)[b] = body.B * (z.segment<6>(body.offset) - z_.segment<6>(body.offset));
    report.velocity_change = std::max(report.velocity_change, (*dV)[b].norm());
  }
  z_ = z;
  return report;
}

Vector6 PatchProblem::WrenchOnA(int patch) const {
  const Patch& p = patches_[patch];
  const Vector3& c_A = bodies_[p.body_A].c;
  Vector6 W = Vector6::Zero();
  for (int i = p.first_point; i < p.first_point + p.num_points; ++i) {
    W.head<3>() += (p_A_[i] - c_A).cross(gamma_[i]);
    W.tail<3>() += gamma_[i];
  }
  return W;
}

}  // namespace hydro
