#include "hydro/patch_block.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <string>

namespace hydro {
namespace {

// B with B·Bᵀ = G for G ⪰ 0 (LDLᵀ with pivoting, D clamped at 0 against round-off), and whether
// G is nonzero at all (a fixed side contributes no unknowns).
bool FactorMobility(const Matrix6& G, Eigen::Matrix<double, 6, 6>* B) {
  if (G.cwiseAbs().maxCoeff() == 0) {
    B->setZero();
    return false;
  }
  const Eigen::LDLT<Matrix6> ldlt(0.5 * (G + G.transpose()));
  const Vector6 sqrt_d = ldlt.vectorD().cwiseMax(0.0).cwiseSqrt();
  Matrix6 L = ldlt.matrixL();
  *B = ldlt.transpositionsP().transpose() * (L * sqrt_d.asDiagonal());
  return true;
}

// [r]× with [r]×·x = r × x.
Matrix3 Cross(const Vector3& r) {
  Matrix3 m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

// J = [−[r]×, I]: the velocity of the point at offset r from a twist [ω; v] about the origin of r.
Eigen::Matrix<double, 3, 6> PointJacobian(const Vector3& r) {
  Eigen::Matrix<double, 3, 6> J;
  J << -Cross(r), Matrix3::Identity();
  return J;
}

}  // namespace

Matrix6 RigidBodyMobility(const Matrix3& inverse_inertia_W, double inverse_mass, const Vector3& angular_factor,
                          const Vector3& linear_factor) {
  Matrix6 G = Matrix6::Zero();
  G.topLeftCorner<3, 3>() = angular_factor.asDiagonal() * inverse_inertia_W * angular_factor.asDiagonal();
  G.bottomRightCorner<3, 3>() = (inverse_mass * linear_factor.cwiseAbs2()).asDiagonal();
  return G;
}

void PatchBlock::Reset(double dt_s, const PatchSide& A, const PatchSide& B, const std::vector<PatchBlockPoint>& points,
                       const PatchBlockOptions& options) {
  CheckPositive(dt_s, "patch block time step");
  CheckPositive(options.stiction_sigma, "patch block stiction regularization");
  dt_ = dt_s;
  options_ = options;
  c_A_ = A.p_WC;
  c_B_ = B.p_WC;
  rA_ = FactorMobility(A.mobility, &B_A_) ? 6 : 0;
  rB_ = FactorMobility(B.mobility, &B_B_) ? 6 : 0;
  const int r = rA_ + rB_;
  const size_t n = points.size();
  p_W_.resize(n);
  p_W_B_.resize(n);
  mu_.resize(n);
  laws_.resize(n);
  C_.resize(n);
  vc_start_.resize(n);
  vc_.resize(n);
  dvc_.resize(n);
  gamma_.assign(n, Vector3::Zero());
  z_.setZero(r);
  z_start_.setZero(r);
  near_rigid_points_ = 0;
  bounds_set_ = false;
  for (size_t i = 0; i < n; ++i) {
    const PatchBlockPoint& q = points[i];
    if (!(q.stiffness_N_per_m > 0) || !std::isfinite(q.stiffness_N_per_m) || !std::isfinite(q.phi0_m) ||
        !IsFinite(q.p_WQ) || !IsFinite(q.nhat_BA_W))
      throw InvalidInput("patch block: point " + std::to_string(i) + " has a non-finite or non-positive value");
    p_W_[i] = q.p_WQ;
    p_W_B_[i] = IsFinite(q.p_WQ_B) ? q.p_WQ_B : q.p_WQ;
    mu_[i] = std::max(q.friction, 0.0);
    MatrixC& C = C_[i];
    C.resize(3, r);
    if (rA_ > 0) C.leftCols(rA_) = PointJacobian(q.p_WQ - c_A_) * B_A_;
    if (rB_ > 0) C.rightCols(rB_) = -PointJacobian(p_W_B_[i] - c_B_) * B_B_;
    // The inverse masses the point sees (its Delassus block C·Cᵀ): along the normal, n̂ᵀ·C·Cᵀ·n̂,
    // and tangentially, the mean over the two tangent directions.
    double wn = 0, wt = 0;
    if (r > 0) {
      const VectorZ Ctn = C.transpose() * q.nhat_BA_W;
      wn = Ctn.squaredNorm();
      wt = std::max(0.5 * (C.squaredNorm() - wn), 0.0);
    }
    bool near_rigid = false;
    laws_[i] = MakeCompliantPointLaw(q.nhat_BA_W, q.stiffness_N_per_m, q.phi0_m, dt_s, q.dissipation_time_s, wn, wt,
                                     options.near_rigid_beta, options.stiction_sigma, &near_rigid);
    if (near_rigid) ++near_rigid_points_;
  }
}

void PatchBlock::StartFromWrench(const Vector6& W_A, Vector6* dV_A, Vector6* dV_B) {
  // The wrench on B about c_B is −W_A moved from c_A: torque −(τ + (c_A − c_B) × f).
  Vector6 W_B;
  W_B.head<3>() = -(W_A.head<3>() + (c_A_ - c_B_).cross(W_A.tail<3>()));
  W_B.tail<3>() = -W_A.tail<3>();
  VectorZ z(rA_ + rB_);
  if (rA_ > 0) z.head(rA_) = B_A_.transpose() * W_A;
  if (rB_ > 0) z.tail(rB_) = B_B_.transpose() * W_B;
  const VectorZ dz = z - z_;
  z_ = z;
  dV_A->setZero();
  dV_B->setZero();
  if (rA_ > 0) *dV_A = B_A_ * dz.head(rA_);
  if (rB_ > 0) *dV_B = B_B_ * dz.tail(rB_);
}

double PatchBlock::RefreshFrictionBounds() {
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

void PatchBlock::RefreshVelocities(const VectorZ& z) {
  const VectorZ dz = z - z_start_;
  for (size_t i = 0; i < laws_.size(); ++i) vc_[i] = vc_start_[i] + C_[i] * dz;
}

double PatchBlock::Slope(double alpha, const VectorZ& z, const VectorZ& d) const {
  double s = d.dot(z + alpha * d);
  for (size_t i = 0; i < laws_.size(); ++i)
    s -= CalcPointImpulse(laws_[i], vc_[i] + alpha * dvc_[i], nullptr).dot(dvc_[i]);
  return s;
}

PatchBlockReport PatchBlock::Solve(const Vector6& V_A, const Vector6& V_B, int max_iterations, int friction_rounds,
                                   Vector6* dV_A, Vector6* dV_B) {
  PatchBlockReport report;
  const int r = rA_ + rB_;
  dV_A->setZero();
  dV_B->setZero();
  if (r == 0 || laws_.empty()) {
    report.converged = true;
    return report;
  }
  // Contact velocities now; the visit starts at the block's current z.
  z_start_ = z_;
  for (size_t i = 0; i < laws_.size(); ++i) {
    // A side without unknowns may still move (a kinematic body): its twist is given.
    const Vector3 v_A = V_A.tail<3>() + V_A.head<3>().cross(p_W_[i] - c_A_);
    const Vector3 v_B = V_B.tail<3>() + V_B.head<3>().cross(p_W_B_[i] - c_B_);
    vc_start_[i] = v_A - v_B;
    vc_[i] = vc_start_[i];
  }
  VectorZ z = z_;
  VectorZ gradient(r), step(r);
  MatrixZ hessian(r, r);
  for (int round = 0; round < std::max(friction_rounds, 1); ++round) {
    // The lagged friction bound μ·γ̄n: the normal impulses this block last solved for (a visit
    // starts from them: the velocities it finds are mid-sweep, and a point lifted off for the
    // moment would lose its friction for the whole visit), or, on a first visit, those at the
    // velocities it finds (the warm start's); refreshed between rounds.
    if (round > 0 || !bounds_set_) {
      const double change = RefreshFrictionBounds();
      bounds_set_ = true;
      if (round > 0 && change <= 1e-3 * largest_bound_) break;
    }
    report.converged = false;
    for (int iteration = 0; iteration < max_iterations; ++iteration) {
      gradient = z;
      hessian.setIdentity();
      VectorZ impulse_sum = VectorZ::Zero(r);
      Matrix3 H;
      for (size_t i = 0; i < laws_.size(); ++i) {
        gamma_[i] = CalcPointImpulse(laws_[i], vc_[i], nullptr, &H);
        impulse_sum.noalias() += C_[i].transpose() * gamma_[i];
        hessian.noalias() += C_[i].transpose() * (H * C_[i]);
      }
      gradient -= impulse_sum;
      const double scale = std::max(z.norm(), impulse_sum.norm());
      if (gradient.norm() <= options_.relative_tolerance * scale || scale == 0) {
        report.converged = true;
        break;
      }
      ++report.iterations;
      step = hessian.llt().solve(-gradient);
      for (size_t i = 0; i < laws_.size(); ++i) dvc_[i] = C_[i] * step;
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
          if (std::abs(s) <= 1e-10 * std::abs(slope0)) break;
          if (s < 0) lo = alpha, lo_slope = s;
          else hi = alpha, hi_slope = s;
        }
      }
      z += alpha * step;
      RefreshVelocities(z);
    }
  }
  for (size_t i = 0; i < laws_.size(); ++i) gamma_[i] = CalcPointImpulse(laws_[i], vc_[i], nullptr);
  RefreshFrictionBounds();  // for the next visit
  const VectorZ dz = z - z_;
  z_ = z;
  if (rA_ > 0) *dV_A = B_A_ * dz.head(rA_);
  if (rB_ > 0) *dV_B = B_B_ * dz.tail(rB_);
  report.velocity_change = std::max(dV_A->norm(), dV_B->norm());
  return report;
}

Vector6 PatchBlock::WrenchOnA() const {
  Vector6 W = Vector6::Zero();
  for (size_t i = 0; i < gamma_.size(); ++i) {
    W.head<3>() += (p_W_[i] - c_A_).cross(gamma_[i]);  // on A, at A's point
    W.tail<3>() += gamma_[i];
  }
  return W;
}

}  // namespace hydro
