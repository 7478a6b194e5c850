#pragma once
// A contact patch between two bodies solved as one block: every compliant point of the patch at
// once, for the pair's velocities, with the rest of the world held fixed — one block of a block
// Gauss–Seidel sweep (the host's solver visits each block and its other constraints in turn).
//
// Each side s ∈ {A, B} is a rigid body (or anything that moves like one at the patch): its twist
// V_s = [ω; v] about its reference point c_s changes by G_s·W for an impulse wrench W = [τ; f]
// about c_s, G_s ⪰ 0 its mobility (the inverse of its 6×6 spatial inertia; 0 for a fixed side).
// Write G_s = B_s·B_sᵀ and V_s = V_s⁰ + B_s·z_s, V_s⁰ the twist without this patch's impulses.
// The block's velocities minimize (Castro et al. 2022, SAP, restricted to one patch)
//
//   f(z) = ½·|z|² + Σ_i ℓ_i(vc_i(z)),   vc_i = J_Ai·V_A − J_Bi·V_B,  J_si = [−[p_i − c_s]×, I],
//
// ℓ_i the convex point law of hydro/compliant_point_law.h. In z the mass weighting is the identity,
// so every unknown has one scale and the stopping rule needs no scaling. Its optimality condition
// is momentum balance, B_sᵀ(Σ ± J_siᵀ·γ_i) = z_s. Newton's method with an exact line search
// solves it; the cost of an iteration is linear in the patch's points (a 12×12 solve at most).
// The friction bound μ·γ̄n of every point is lagged: refreshed from the normal impulses at the
// start of each visit (and between rounds when the block is alone), so that the block's fixed
// point, reached over the sweeps, is exact Coulomb friction with the implicit compliant law.
#include <Eigen/Core>

#include <vector>

#include "hydro/compliant_point_law.h"
#include "hydro/math.h"

namespace hydro {

using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

struct PatchSide {
  Matrix6 mobility{Matrix6::Zero()};  // G_s, ⪰ 0, twist order [ω; v] about p_WC
  Vector3 p_WC{Vector3::Zero()};      // the reference point c_s (centre of mass)
};

struct PatchBlockPoint {
  // Where the point is on A, and on B: the same place, except for a surface computed at the poses
  // the bodies would reach by the end of the step (speculative contact), whose points map back to
  // each body's present pose by that body's own motion.
  Vector3 p_WQ{Vector3::Zero()};
  Vector3 p_WQ_B{Vector3::Constant(NAN)};  // NaN: p_WQ
  Vector3 nhat_BA_W{Vector3::UnitZ()};
  double stiffness_N_per_m{0};
  double phi0_m{0};
  double dissipation_time_s{0};
  double friction{0};  // μ
};

struct PatchBlockOptions {
  double near_rigid_beta{1.0};      // β of the near-rigid regime (0 turns it off)
  double stiction_sigma{1e-5};      // σ of the stiction regularization Rt = σ·wt (compliant_point_law.h)
  double relative_tolerance{1e-6};  // |∇f| ≤ this · max(|z|, |Σ Cᵀγ|)
};

struct PatchBlockReport {
  int iterations{0};
  bool converged{false};
  double velocity_change{0};  // |ΔV| of the visit, largest of the two sides (m/s-like)
};

class PatchBlock {
 public:
  // Sets up the block of one step. Throws InvalidInput on a non-positive step or stiffness.
  void Reset(double dt_s, const PatchSide& A, const PatchSide& B, const std::vector<PatchBlockPoint>& points,
             const PatchBlockOptions& options = {});

  // Starts from an impulse wrench W_A on A about c_A (−W_A on B, transported): returns the twist
  // changes the bodies must receive so that their velocities include it (warm start).
  void StartFromWrench(const Vector6& W_A, Vector6* dV_A, Vector6* dV_B);

  // One visit: V_A, V_B are the bodies' twists now (including this block's own share). Runs at most
  // `max_iterations` Newton iterations per friction round and `friction_rounds` rounds, and
  // returns the twist changes to apply to A and B.
  PatchBlockReport Solve(const Vector6& V_A, const Vector6& V_B, int max_iterations, int friction_rounds,
                         Vector6* dV_A, Vector6* dV_B);

  int num_points() const { return static_cast<int>(laws_.size()); }
  int near_rigid_points() const { return near_rigid_points_; }
  // The impulse on A at point i (world) after the last Solve, and its normal part.
  const Vector3& impulse(int i) const { return gamma_[i]; }
  // The net impulse wrench on A about c_A after the last Solve.
  Vector6 WrenchOnA() const;

 private:
  using VectorZ = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 12, 1>;
  using MatrixZ = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 12, 12>;
  using MatrixC = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 12>;

  // μ·γn at the current velocities into every law; returns the largest change.
  double RefreshFrictionBounds();
  // Contact velocities at the current z from those at the visit's start.
  void RefreshVelocities(const VectorZ& z);
  double Slope(double alpha, const VectorZ& z, const VectorZ& d) const;

  double dt_{0};
  PatchBlockOptions options_;
  Eigen::Matrix<double, 6, 6> B_A_, B_B_;
  int rA_{0}, rB_{0};
  Vector3 c_A_{Vector3::Zero()}, c_B_{Vector3::Zero()};
  std::vector<Vector3> p_W_, p_W_B_;  // on A, on B
  std::vector<double> mu_;
  std::vector<CompliantPointLaw> laws_;
  std::vector<MatrixC> C_;          // ∂vc_i/∂z
  std::vector<Vector3> vc_start_;   // vc_i at z_start_ (a visit's start)
  std::vector<Vector3> vc_;         // vc_i at z
  std::vector<Vector3> dvc_;        // C_i·d (line search)
  std::vector<Vector3> gamma_;
  VectorZ z_, z_start_;
  int near_rigid_points_{0};
  bool bounds_set_{false};
  double largest_bound_{0};
};

// G of a rigid body about its centre of mass, twist order [ω; v]: blockdiag(F_ω·I⁻¹_W·F_ω, m⁻¹·F_v),
// F the (diagonal) angular and linear factors that lock axes.
Matrix6 RigidBodyMobility(const Matrix3& inverse_inertia_W, double inverse_mass, const Vector3& angular_factor,
                          const Vector3& linear_factor);

}  // namespace hydro
