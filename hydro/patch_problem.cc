#include "hydro/patch_problem.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hydro/block_product_kernel.h"
#include "hydro/buffers.h"
#include "hydro/check.h"
#include "hydro/convex_line_search.h"
#include "hydro/rigid_point_kinematics.h"

namespace hydro {

using internal::PointJacobian;
using internal::PointVelocity;
using internal::Skew;
using internal::Wrench;

namespace {

// The lagged friction bounds are settled when μ·γn at the iterate is within this fraction of the
// largest bound of them: the rounds stop there, and bounds that follow the Newton steps stop
// following.
constexpr double kFrictionBoundsSettled = 1e-3;

// B with B·Bᵀ = G for G ⪰ 0; false when G is zero (the body contributes no unknowns). Where G is
// positive definite, its Cholesky factor without pivoting: the one lower-triangular factor,
// continuous in G, so that a body's unknowns mean the same from step to step and Newton's matrix
// with them (a pile at rest keeps its last factorization as preconditioner). With pivoting, the
// equal inertias of a cube ordered its unknowns by round-off, differently every step: the 204-box
// pyramid at rest refactorized every step. A semidefinite G (locked axes) takes LDLᵀ with
// pivoting, D clamped at 0 against round-off.
bool FactorMobility(const Matrix6& G, Matrix6* B) {
  B->setZero();
  if (G.cwiseAbs().maxCoeff() == 0) return false;
  const Eigen::LLT<Matrix6> llt(0.5 * (G + G.transpose()));
  if (llt.info() == Eigen::Success) {
    *B = llt.matrixL();
    return true;
  }
  const Eigen::LDLT<Matrix6> ldlt(0.5 * (G + G.transpose()));
  const Vector6 sqrt_d = ldlt.vectorD().cwiseMax(0.0).cwiseSqrt();
  const Matrix6 L = ldlt.matrixL();
  *B = ldlt.transpositionsP().transpose() * (L * sqrt_d.asDiagonal());
  return true;
}

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
  CheckPositive(options.relative_tolerance, "patch problem relative tolerance");
  CheckPositive(options.newton_step_tolerance, "patch problem Newton step tolerance");
  CheckNonNegative(options.near_rigid_beta, "patch problem near-rigid beta");
  // Fractions of the gradient's scale, where 0 has a meaning (majorized steps off; blended steps
  // to the end of round 0): a NaN would silently turn either kind of step off, and a negative one
  // silently act as 0.
  CheckNonNegative(options.majorize_slip_until, "patch problem majorize_slip_until");
  CheckNonNegative(options.blend_slip_until, "patch problem blend_slip_until");
  // Outside [0, 1] the blended curvature is no longer between ℓ's and its majorizer's (below 0 not
  // even positive semidefinite, and Newton's step may not descend).
  if (!(options.blended_slip_share >= 0 && options.blended_slip_share <= 1))
    throw InvalidInput("patch problem: blended slip share " + std::to_string(options.blended_slip_share) +
                       " is outside [0, 1]");
  dt_ = dt_s;
  options_ = options;
  groups_.clear();
  num_bodies_ = 0;  // bodies_ keeps its entries: their B matrices are reused, not reallocated
  patches_.clear();
  patch_of_.clear();
  r_A_.clear();
  r_B_.clear();
  mu_.clear();
  stick_wt_.clear();
  wn_.clear();
  laws_.clear();
  num_unknowns_ = 0;
  factorizations_ = 0;
  cg_iterations_ = 0;
  finalized_ = false;
  bounds_set_ = false;
  sigma_ = 0;
  near_rigid_points_ = 0;
}

int PatchProblem::AddGroup(int dim) {
  Group g;
  g.dim = dim;
  if (dim > 0) {
    g.offset = num_unknowns_;
    num_unknowns_ += dim;
  }
  groups_.push_back(g);
  finalized_ = false;
  return static_cast<int>(groups_.size()) - 1;
}

void PatchProblem::SetMobilityTerms(Body* b) {
  b->G = b->B * b->B.transpose();
  b->trace_ww = b->G.topLeftCorner<3, 3>().trace();
  b->trace_vv = b->G.bottomRightCorner<3, 3>().trace();
  const Matrix3 M = b->G.topRightCorner<3, 3>();
  b->coupling_axial = Vector3(M(1, 2) - M(2, 1), M(2, 0) - M(0, 2), M(0, 1) - M(1, 0));
  b->block_diagonal =
      b->B.cols() == 6 && b->B.topRightCorner<3, 3>().isZero(0) && b->B.bottomLeftCorner<3, 3>().isZero(0);
  b->translation_scale = 0;
  if (b->block_diagonal) {
    const Matrix3 B_vv = b->B.bottomRightCorner<3, 3>();
    if (B_vv == B_vv(0, 0) * Matrix3::Identity()) b->translation_scale = B_vv(0, 0);
  }
}

int PatchProblem::AddBody(const PatchBody& body) {
  Matrix6 B;
  const bool moves = FactorMobility(body.mobility, &B);
  Body& b = NewBody(moves ? 6 : 0);
  b.c = body.p_WC;
  b.group = AddGroup(moves ? 6 : 0);
  groups_[b.group].first_body = num_bodies_ - 1;
  groups_[b.group].num_bodies = 1;
  if (moves) b.B = B;
  SetMobilityTerms(&b);
  return num_bodies_ - 1;
}

PatchProblem::Body& PatchProblem::NewBody(int cols) {
  if (num_bodies_ == static_cast<int>(bodies_.size())) bodies_.emplace_back();
  // A kept entry whose B has the columns already (the ground's none, a box's six) is swapped into
  // place: its matrix is then reused as it is.
  for (size_t j = num_bodies_ + 1; j < bodies_.size() && bodies_[num_bodies_].B.cols() != cols; ++j)
    if (bodies_[j].B.cols() == cols) std::swap(bodies_[num_bodies_], bodies_[j]);
  Body& b = bodies_[num_bodies_++];
  b.B.resize(6, cols);
  return b;
}

int PatchProblem::AddCoupledBodies(const Eigen::MatrixXd& B, const std::vector<Vector3>& p_WC) {
  const int k = static_cast<int>(p_WC.size());
  if (k == 0 || B.rows() != 6 * k)
    throw InvalidInput("patch problem: coupled bodies need a mobility factor of 6 rows per body (" + std::to_string(k) +
                       " bodies, " + std::to_string(B.rows()) + " rows)");
  if (!B.allFinite()) throw InvalidInput("patch problem: coupled bodies' mobility factor is not finite");
  for (const Vector3& p : p_WC)
    if (!IsFinite(p)) throw InvalidInput("patch problem: a coupled body's reference point is not finite");
  const int group = AddGroup(static_cast<int>(B.cols()));
  const int first = num_bodies_;
  groups_[group].first_body = first;
  groups_[group].num_bodies = k;
  for (int j = 0; j < k; ++j) {
    Body& b = NewBody(static_cast<int>(B.cols()));
    b.c = p_WC[j];
    b.group = group;
    b.B = B.middleRows(6 * j, 6);
    SetMobilityTerms(&b);
  }
  return first;
}

void PatchProblem::InverseMasses(int body_A, int body_B, const Vector3& p_A, const Vector3& p_B, const Vector3& n,
                                 double* wn, double* wt) const {
  // C = ∂vc/∂z over the groups' unknowns: J_A·B_A − J_B·B_B (the same columns when A and B are
  // coupled); the point's Delassus block is C·Cᵀ.
  const Body& A = bodies_[body_A];
  const Body& B = bodies_[body_B];
  const int dim_A = groups_[A.group].dim;
  const bool same = A.group == B.group;
  if (!same) {
    // Bodies of two groups: C·Cᵀ = J_A·G_A·J_Aᵀ + J_B·G_B·J_Bᵀ, G_b = B_b·B_bᵀ. With J = [−[r]×, I],
    // Jᵀ·n̂ = [r × n̂; n̂] gives wn = Σ (Jᵀn̂)ᵀ·G·(Jᵀn̂), and the trace of J·G·Jᵀ is
    // tr G_vv + |r|²·tr G_ww − rᵀ·G_ww·r − 2·tr([r]×·G_wv): the tangential mean is (trace − wn)/2.
    double w_n = 0, total = 0;
    const Body* sides[2] = {&A, &B};
    const Vector3 offsets[2] = {p_A - A.c, p_B - B.c};
    for (int s = 0; s < 2; ++s) {
      if (groups_[sides[s]->group].dim == 0) continue;
      const Body& body = *sides[s];
      const Vector3& r = offsets[s];
      Vector6 u;
      u << r.cross(n), n;
      w_n += u.dot(body.G * u);
      total += body.trace_vv + r.squaredNorm() * body.trace_ww - r.dot(body.G.topLeftCorner<3, 3>() * r) -
               2 * r.dot(body.coupling_axial);
    }
    *wn = w_n;
    *wt = std::max(0.5 * (total - w_n), 0.0);
    return;
  }
  // One group (a multibody's links): C = J_A·B_A − J_B·B_B over the same unknowns.
  if (dim_A == 6) {  // fixed-size 3 × 6 blocks, no allocation
    using Matrix36 = Eigen::Matrix<double, 3, 6>;
    const Matrix36 C = PointJacobian(p_A - A.c) * Rigid(A) - PointJacobian(p_B - B.c) * Rigid(B);
    *wn = (C.transpose() * n).squaredNorm();
    *wt = std::max(0.5 * (C.squaredNorm() - *wn), 0.0);
    return;
  }
  Eigen::Matrix<double, 3, Eigen::Dynamic> C = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, dim_A);
  if (dim_A > 0) C = PointJacobian(p_A - A.c) * A.B - PointJacobian(p_B - B.c) * B.B;
  const double w_n = (C.transpose() * n).squaredNorm();
  *wn = w_n;
  *wt = std::max(0.5 * (C.squaredNorm() - w_n), 0.0);
}

int PatchProblem::AddPatch(int body_A, int body_B, const std::vector<PatchPoint>& points) {
  const int num_bodies = num_bodies_;
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
  patch.one_place = std::all_of(points.begin(), points.end(),
                                [](const PatchPoint& q) { return !IsFinite(q.p_WQ_B) || q.p_WQ_B == q.p_WQ; });
  double stiffness_scale = 1;
  for (size_t i = 0; i < points.size(); ++i) {
    const PatchPoint& q = points[i];
    if (!(q.stiffness_N_per_m > 0) || !std::isfinite(q.stiffness_N_per_m) || !std::isfinite(q.phi0_m) ||
        !IsFinite(q.p_WQ) || !IsFinite(q.nhat_BA_W) || !std::isfinite(q.dissipation_time_s) ||
        !std::isfinite(q.friction))
      throw InvalidInput("patch problem: point " + std::to_string(i) + " of patch " + std::to_string(patches_.size()) +
                         " has a non-finite or non-positive value");
    const Vector3 p_B = IsFinite(q.p_WQ_B) ? q.p_WQ_B : q.p_WQ;
    // The inverse masses the point sees: along the normal, and tangentially (the mean over the two
    // tangent directions).
    double wn = 0, wt = 0;
    InverseMasses(body_A, body_B, q.p_WQ, p_B, q.nhat_BA_W, &wn, &wt);
    r_A_.push_back(q.p_WQ - A.c);
    r_B_.push_back(p_B - B.c);
    mu_.push_back(std::max(q.friction, 0.0));
    stick_wt_.push_back(wt);  // scaled by the point's share below
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
      double w = 0, unused = 0;
      InverseMasses(body_A, body_B, c, c, n, &w, &unused);
      stiffness_scale = PatchNearRigidScale(horizon_K / dt_, dt_, w, options_.near_rigid_beta);
    }
  }
  if (stiffness_scale < 1) near_rigid_points_ += static_cast<int>(points.size());
  patch.stiffness_scale = stiffness_scale;
  // Stiction: Rt_i = σ·wt_i·K/k_i, K = Σ k_j of the patch. The patch's points hold, in parallel, the
  // stick stiffness 1/(σ·wt) of one body point, each in proportion to its normal stiffness, as its
  // share of the normal load; so every point leaves stick at one speed, σ·wt·μ·γ̄n_i·K/k_i, about
  // σ·wt·μ·Σγ̄n where the penetration is even. With the equal share K/k_i = N, a sliver polygon of a
  // thousandth of the load slipped at a thousandth of that speed: at rest, at the creep of 1e-7 m/s,
  // half of BasicDemo's points (μ = 0.25) sat at their stick–slip kink, and Newton needed two steps a
  // solve instead of one.
  {
    double K = 0;
    for (const PatchPoint& q : points) K += q.stiffness_N_per_m;
    for (size_t i = 0; i < points.size(); ++i) stick_wt_[first + i] *= K / points[i].stiffness_N_per_m;
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const PatchPoint& q = points[i];
    laws_.push_back(MakeCompliantPointLaw(q.nhat_BA_W, stiffness_scale * q.stiffness_N_per_m, q.phi0_m, dt_,
                                          q.dissipation_time_s, wn_[first + i], stick_wt_[first + i], 0.0,
                                          options_.stiction_sigma, nullptr));
  }
  patches_.push_back(patch);
  finalized_ = false;
  return static_cast<int>(patches_.size()) - 1;
}

void PatchProblem::BuildPattern() {
  const size_t n = laws_.size();
  for (std::vector<Vector3>* v : {&vc_start_, &vc_, &dvc_, &gamma_}) AssignGrowing(v, n, Vector3::Zero().eval());
  AssignGrowing(&body_dV_, num_bodies_, Vector6::Zero().eval());
  z_.setZero(num_unknowns_);
  z_start_.setZero(num_unknowns_);
  z_solve_start_.setZero(num_unknowns_);
  pattern_key_scratch_.clear();
  for (const Group& g : groups_) pattern_key_scratch_.push_back(g.dim);
  pattern_key_scratch_.push_back(-1);
  for (const Patch& p : patches_) {
    pattern_key_scratch_.push_back(bodies_[p.body_A].group);
    pattern_key_scratch_.push_back(bodies_[p.body_B].group);
  }
  if (pattern_key_scratch_ == pattern_key_ && hessian_.rows() == num_unknowns_) {
    finalized_ = true;  // the matrix, its blocks' places and its analysis stand
    return;
  }
  // Until the pattern below stands: a build that throws halfway is rebuilt by the next call, not
  // taken for standing.
  pattern_key_.clear();
  // The matrix's blocks as (column group, row group), sorted: one on the diagonal per group with
  // unknowns, and two per pair of such groups a patch joins (two patches, one pair: one block).
  std::vector<std::pair<int, int>>& blocks = block_pattern_scratch_;
  blocks.clear();
  for (int g = 0; g < static_cast<int>(groups_.size()); ++g)
    if (groups_[g].dim > 0) blocks.emplace_back(g, g);
  for (const Patch& p : patches_) {
    const int a = bodies_[p.body_A].group, b = bodies_[p.body_B].group;
    if (groups_[a].dim > 0 && groups_[b].dim > 0 && a != b) blocks.emplace_back(a, b), blocks.emplace_back(b, a);
  }
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  // A pile at rest keeps its pattern from step to step, though its patches may come in another
  // order: the matrix stands, and its last factorization stays, as a preconditioner (NewtonStep).
  pattern_dims_scratch_.clear();
  for (const Group& g : groups_) pattern_dims_scratch_.push_back(g.dim);
  if (blocks != block_pattern_ || pattern_dims_scratch_ != pattern_dims_ || hessian_.rows() != num_unknowns_) {
    factorized_ = false;
    block_pattern_.clear();  // until the analysis below has finished
    pattern_dims_.clear();
    // Compressed column storage written directly: each block column's columns hold the same
    // rows, its blocks' whole, in group order (which is the unknowns' order).
    block_start_.resize(blocks.size());
    column_height_.assign(groups_.size(), 0);
    long entries = 0;
    for (const auto& [column, row] : blocks) entries += static_cast<long>(groups_[column].dim) * groups_[row].dim;
    HYDRO_DEMAND(entries <= std::numeric_limits<int>::max(),
                 "Newton's matrix would have " + std::to_string(entries) + " entries, more than its int offsets reach");
    hessian_.resize(num_unknowns_, num_unknowns_);
    hessian_.resizeNonZeros(entries);
    int* const outer = hessian_.outerIndexPtr();
    int* const inner = hessian_.innerIndexPtr();
    int e = 0;
    for (size_t first = 0; first < blocks.size();) {
      const Group& g = groups_[blocks[first].first];
      size_t last = first;
      int height = 0;
      for (; last < blocks.size() && blocks[last].first == blocks[first].first; ++last) {
        block_start_[last] = e + height;  // entry (0, 0): after the rows of the column's earlier blocks
        height += groups_[blocks[last].second].dim;
      }
      column_height_[blocks[first].first] = height;
      for (int c = 0; c < g.dim; ++c) {
        outer[g.offset + c] = e;
        for (size_t s = first; s < last; ++s) {
          const Group& row = groups_[blocks[s].second];
          for (int r = 0; r < row.dim; ++r) inner[e++] = row.offset + r;
        }
      }
      first = last;
    }
    outer[num_unknowns_] = e;
    std::vector<int> block_sizes;
    for (const Group& g : groups_)
      if (g.dim > 0) block_sizes.push_back(g.dim);
    if (num_unknowns_ > 0) factorization_.Analyze(hessian_, block_sizes);
    block_pattern_.swap(blocks);
    pattern_dims_.swap(pattern_dims_scratch_);
  }
  PlaceBlocks();
  pattern_key_.swap(pattern_key_scratch_);
  finalized_ = true;
}

int PatchProblem::EntryOf(int row_group, int column_group, int r, int c) const {
  const auto found =
      std::lower_bound(block_pattern_.begin(), block_pattern_.end(), std::make_pair(column_group, row_group));
  HYDRO_ASSERT(found != block_pattern_.end() && *found == std::make_pair(column_group, row_group));
  return block_start_[found - block_pattern_.begin()] + r + c * column_height_[column_group];
}

void PatchProblem::PlaceBlocks() {
  diagonal_entries_.resize(num_unknowns_);
  for (int g = 0; g < static_cast<int>(groups_.size()); ++g)
    for (int k = 0; k < groups_[g].dim; ++k) diagonal_entries_[groups_[g].offset + k] = EntryOf(g, g, k, k);
  // Patch k's blocks (s, t) ∈ {A, B}²: none where a group has no unknowns. Coupled A and B share a
  // group: all four blocks land on its one block.
  block_places_.assign(4 * patches_.size(), BlockPlace{});
  for (size_t k = 0; k < patches_.size(); ++k) {
    const Patch& p = patches_[k];
    const int side[2] = {bodies_[p.body_A].group, bodies_[p.body_B].group};
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t)
        if (groups_[side[s]].dim > 0 && groups_[side[t]].dim > 0)
          block_places_[4 * k + 2 * s + t] = {EntryOf(side[s], side[t], 0, 0), column_height_[side[t]]};
  }
}

void PatchProblem::StartFromWrench(int patch, const Vector6& W_A, std::vector<Vector6>* dV) {
  if (!finalized_) BuildPattern();
  dV->resize(num_bodies_, Vector6::Zero());
  Patch& p = patches_[patch];
  p.warm = true;
  const Body& A = bodies_[p.body_A];
  const Body& B = bodies_[p.body_B];
  // The wrench on B about c_B is −W_A moved from c_A: torque −(τ + (c_A − c_B) × f).
  Vector6 W_B;
  W_B.head<3>() = -(W_A.head<3>() + (A.c - B.c).cross(W_A.tail<3>()));
  W_B.tail<3>() = -W_A.tail<3>();
  // Only the two sides' groups change: their unknowns by B_bᵀ·W, their bodies' twists by B·that.
  for (const auto& [body, W] : {std::make_pair(&A, W_A), std::make_pair(&B, W_B)}) {
    const Group& g = groups_[body->group];
    if (g.dim == 0) continue;
    if (g.dim == 6) {
      const Vector6 dz = Rigid(*body).transpose() * W;
      z_.segment<6>(g.offset) += dz;
      for (int b = g.first_body; b < g.first_body + g.num_bodies; ++b) (*dV)[b] += Rigid(bodies_[b]) * dz;
    } else {
      const Eigen::VectorXd dz = body->B.transpose() * W;
      z_.segment(g.offset, g.dim) += dz;
      for (int b = g.first_body; b < g.first_body + g.num_bodies; ++b) (*dV)[b] += bodies_[b].B * dz;
    }
  }
  warm_start_unsolved_ = true;
}

void PatchProblem::BodyTwists(const Eigen::VectorXd& dz, std::vector<Vector6>* dV) const {
  dV->resize(num_bodies_);
  for (int b = 0; b < num_bodies_; ++b) {
    const Body& body = bodies_[b];
    const Group& g = groups_[body.group];
    if (g.dim == 6)
      (*dV)[b] = Rigid(body) * dz.segment<6>(g.offset);
    else
      (*dV)[b] = g.dim > 0 ? Vector6(body.B * dz.segment(g.offset, g.dim)) : Vector6::Zero();
  }
}

void PatchProblem::PointVelocities(const std::vector<Vector6>& dV, const std::vector<Vector3>* base,
                                   std::vector<Vector3>* vc) const {
  for (size_t i = 0; i < laws_.size(); ++i) {
    const Patch& p = patches_[patch_of_[i]];
    (*vc)[i] = PointVelocity(dV[p.body_A], r_A_[i]) - PointVelocity(dV[p.body_B], r_B_[i]);
    if (base) (*vc)[i] += (*base)[i];
  }
}

void PatchProblem::RefreshVelocities(const Eigen::VectorXd& z) {
  dz_work_ = z - z_start_;
  BodyTwists(dz_work_, &body_dV_);
  PointVelocities(body_dV_, &vc_start_, &vc_);
  impulses_current_ = patch_terms_current_ = false;
}

void PatchProblem::SetStictionRegularization(double sigma) {
  sigma_ = sigma;
  impulses_current_ = patch_terms_current_ = false;
  for (size_t i = 0; i < laws_.size(); ++i) laws_[i].compliance_Rt = std::max(sigma * stick_wt_[i], 1e-300);
}

double PatchProblem::NextFrictionBounds(double* largest) {
  next_bounds_.resize(laws_.size());
  double change = 0;
  *largest = 0;
  for (size_t i = 0; i < laws_.size(); ++i) {
    next_bounds_[i] = mu_[i] * CalcPointNormalImpulse(laws_[i], vc_[i]);
    change = std::max(change, std::abs(next_bounds_[i] - laws_[i].friction_bound));
    *largest = std::max(*largest, next_bounds_[i]);
  }
  return change;
}

void PatchProblem::UseNextFrictionBounds(double largest) {
  for (size_t i = 0; i < laws_.size(); ++i) laws_[i].friction_bound = next_bounds_[i];
  largest_bound_ = largest;
  impulses_current_ = patch_terms_current_ = false;
}

void PatchProblem::RefreshFrictionBounds() {
  double largest = 0;
  NextFrictionBounds(&largest);
  UseNextFrictionBounds(largest);
}

bool PatchProblem::RefreshUnsettledFrictionBounds() {
  // Settled bounds stay as they are, not replaced by the near-equal ones at the iterate: a round
  // that stops there reports the impulses of the problem it solved (momentum balances exactly).
  double largest = 0;
  if (NextFrictionBounds(&largest) <= kFrictionBoundsSettled * largest_bound_) return false;
  UseNextFrictionBounds(largest);
  return true;
}

double PatchProblem::Slope(double alpha, const Eigen::VectorXd& z, const Eigen::VectorXd& d) const {
  double s = d.dot(z + alpha * d);
  for (size_t i = 0; i < laws_.size(); ++i)
    s -= CalcPointImpulse(laws_[i], vc_[i] + alpha * dvc_[i], nullptr).dot(dvc_[i]);
  return s;
}

bool PatchProblem::TemperWarmStart(Eigen::VectorXd* z, Eigen::VectorXd* impulse_sum, Eigen::VectorXd* gradient) {
  // Last step's impulses are a guess; an unconverged or stale one can be far worse than none (in a
  // wall of stiff bricks an impulse a few Newton steps from solved, carried over, grew a hundredfold
  // a step). Along d = −z, from the warm start to no impulse, f is convex: move to its minimum.
  // f's slope there is d·∇f = −z·(z − Σ Cᵀγ) (Σ γ_i·C_i·d = dᵀ·Σ C_iᵀγ_i): −|z|² for impulses
  // that meet no resistance, 0 where they balance. It takes one pass over the points for ∇f at z,
  // which Newton's first step reuses when z stays and the bounds were just set at it (Solve); the
  // points' velocities along d are needed only for the search.
  impulse_sum->setZero();
  PatchTerms terms;
  for (const Patch& p : patches_) {
    EvaluatePatch(p, false, &terms);
    AddImpulses(p, terms, impulse_sum);
  }
  impulses_current_ = true;
  patch_terms_current_ = false;
  *gradient = *z - *impulse_sum;
  // A warm start within a thousandth of that of balance is kept as it is (a pile at rest: the
  // search would cost a few passes over every point, to move it by next to nothing).
  const double slope0 = -z->dot(*gradient);
  if (!(slope0 < -1e-3 * z->squaredNorm())) return false;
  Eigen::VectorXd& d = direction_work_;
  d = -*z;
  BodyTwists(d, &step_dV_);
  PointVelocities(step_dV_, nullptr, &dvc_);
  *z += LineSearch(*z, d, slope0) * d;
  RefreshVelocities(*z);
  return true;
}

double PatchProblem::LineSearch(const Eigen::VectorXd& z, const Eigen::VectorXd& d, double slope0) const {
  return ConvexLineSearch([&](double alpha) { return Slope(alpha, z, d); }, slope0);
}

bool PatchProblem::NewtonStep(const Eigen::VectorXd& gradient, Eigen::VectorXd* step) {
  if (factorized_ && !factorization_stale_ && num_unknowns_ >= options_.reuse_factorization_from) {
    int iterations = 0;
    const bool solved = PreconditionedNewtonStep(gradient, step, &iterations);
    cg_iterations_ += iterations;
    if (solved) {
      factorization_stale_ =
          options_.refactorize_after_cg_iterations > 0 && iterations > options_.refactorize_after_cg_iterations;
      return true;
    }
  }
  ++factorizations_;
  factorization_stale_ = false;
  factorized_ = factorization_.Factorize(hessian_);
  if (!factorized_) return false;
  cg_residual_ = -gradient;
  factorization_.Solve(cg_residual_, step);
  return true;
}

void PatchProblem::MultiplyHessian(const Eigen::VectorXd& x, Eigen::VectorXd* y) const {
  // −y, block by block (the kernels subtract), then y.
  y->setZero(num_unknowns_);
  const internal::BlockKernels& kernels = internal::ChosenBlockKernels();
  for (size_t k = 0; k < block_pattern_.size(); ++k) {
    const auto [column, row] = block_pattern_[k];
    const Group& s = groups_[row];
    const Group& t = groups_[column];
    const int stride = column_height_[column];
    const double* block = hessian_.valuePtr() + block_start_[k];
    double* y_s = y->data() + s.offset;
    const double* x_t = x.data() + t.offset;
    if (s.dim == 6 && t.dim == 6) {
      kernels.subtract_product(y_s, block, stride, x_t);
    } else {
      for (int c = 0; c < t.dim; ++c)
        for (int r = 0; r < s.dim; ++r) y_s[r] -= block[r + c * stride] * x_t[c];
    }
  }
  *y = -*y;
}

bool PatchProblem::PreconditionedNewtonStep(const Eigen::VectorXd& gradient, Eigen::VectorXd* step, int* iterations) {
  // The factorization of a matrix from an earlier Newton step (or step of the simulation) is a
  // close preconditioner: where contacts kept their state, the two matrices agree. For a pile
  // at rest, 1,015 boxes: about 7 CG iterations a Newton step, each a pair of triangular solves
  // (~1 ms), where a factorization took 70 ms with Eigen's SimplicialLDLT.
  step->setZero(num_unknowns_);
  cg_residual_ = -gradient;
  factorization_.Solve(cg_residual_, &cg_preconditioned_);
  cg_direction_ = cg_preconditioned_;
  double rz = cg_residual_.dot(cg_preconditioned_);
  const double target = options_.newton_step_tolerance * gradient.norm();
  for (int k = 0; k < options_.newton_step_cg_iterations; ++k) {
    *iterations = k + 1;
    MultiplyHessian(cg_direction_, &cg_product_);
    const double curvature = cg_direction_.dot(cg_product_);
    if (!(curvature > 0) || !(rz > 0)) return false;
    const double a = rz / curvature;
    *step += a * cg_direction_;
    cg_residual_ -= a * cg_product_;
    if (cg_residual_.norm() <= target) return true;
    factorization_.Solve(cg_residual_, &cg_preconditioned_);
    const double rz_next = cg_residual_.dot(cg_preconditioned_);
    cg_direction_ = cg_preconditioned_ + (rz_next / rz) * cg_direction_;
    rz = rz_next;
  }
  return false;
}

Eigen::VectorXd PatchProblem::GroupChange(int group) const {
  const Group& g = groups_[group];
  if (g.dim == 0 || !finalized_) return Eigen::VectorXd::Zero(g.dim);  // nothing applied yet
  return z_.segment(g.offset, g.dim) - z_solve_start_.segment(g.offset, g.dim);
}

PatchProblemReport PatchProblem::Solve(const std::vector<Vector6>& V, int max_iterations, int friction_rounds,
                                       std::vector<Vector6>* dV) {
  if (!finalized_) BuildPattern();
  PatchProblemReport report;
  dV->assign(num_bodies_, Vector6::Zero());
  z_solve_start_ = z_;
  if (num_unknowns_ == 0 || laws_.empty()) {
    report.converged = true;
    return report;
  }
  // Contact velocities now (a body without unknowns may still move: a kinematic body).
  z_start_ = z_;
  for (size_t i = 0; i < laws_.size(); ++i) {
    const Patch& p = patches_[patch_of_[i]];
    vc_start_[i] = PointVelocity(V[p.body_A], r_A_[i]) - PointVelocity(V[p.body_B], r_B_[i]);
    vc_[i] = vc_start_[i];
  }
  impulses_current_ = patch_terms_current_ = false;
  // Workspaces kept across solves: no allocation once they have grown.
  Eigen::VectorXd& z = z_work_;
  Eigen::VectorXd& gradient = gradient_work_;
  Eigen::VectorXd& step = step_work_;
  Eigen::VectorXd& impulse_sum = impulse_sum_work_;
  std::vector<Vector6>& step_dV = step_dV_;
  z = z_;
  gradient.resize(num_unknowns_);
  step.resize(num_unknowns_);
  impulse_sum.resize(num_unknowns_);
  // A solve that is the whole problem (several rounds) starts its continuation over; a solve that is
  // one visit of a sweep among Bullet's rows continues where the last visit left σ. When every
  // patch starts from its last solved impulse, that is a solution at the final σ already, and
  // a round at a larger σ would only move away from it (a 204-box pyramid at rest: 8 Newton
  // iterations a step with the continuation, 5 without).
  const bool all_warm = std::all_of(patches_.begin(), patches_.end(), [](const Patch& p) { return p.warm; });
  const double sigma_start =
      all_warm ? options_.stiction_sigma : std::max(options_.stiction_sigma_start, options_.stiction_sigma);
  if (friction_rounds > 1 || sigma_ == 0) SetStictionRegularization(sigma_start);
  double solved_sigma = -1;
  for (int round = 0; round < std::max(friction_rounds, 1); ++round) {
    // The lagged friction bound μ·γ̄n: the normal impulses of the last solve (a solve among
    // Bullet's other rows starts mid-sweep, where a point lifted off for the moment would lose its
    // friction for the whole solve), or at first those at the velocities found (the warm start's);
    // refreshed between rounds, as σ steps down.
    const bool bounds_fresh = !bounds_set_;  // refreshed below at z (read in round 0 only)
    if (round > 0 || !bounds_set_) {
      // Settled: the bounds the last round solved with stay, so that the impulses reported are
      // those of a solved problem (momentum balances exactly). A round that ran out of iterations
      // is not settled, even where its bounds barely moved (a frictionless island's never do):
      // the next round goes on from where it stopped.
      if (round > 0 && report.converged && sigma_ == solved_sigma) {
        if (!RefreshUnsettledFrictionBounds()) break;
      } else {
        RefreshFrictionBounds();
      }
      bounds_set_ = true;
    }
    // A warm start kept as it was, with the bounds just set at it, leaves the gradient at z as
    // Newton's first step would compute it (the bounds depend on z alone).
    bool gradient_current = false;
    if (round == 0 && warm_start_unsolved_) {
      const bool moved = TemperWarmStart(&z, &impulse_sum, &gradient);
      if (moved || !bounds_fresh)
        RefreshFrictionBounds();
      else
        gradient_current = true;
    }
    warm_start_unsolved_ = false;
    solved_sigma = sigma_;
    report.converged = false;
    // Round 0: majorized steps while each halves the gradient, down to majorize_slip_until of its
    // scale, then blended ones down to blend_slip_until, then exact. Later rounds start next to
    // their solution (σ or the friction bounds moved a little): exact.
    bool majorize = round == 0 && options_.majorize_slip_until > 0;
    double last_gradient_norm = std::numeric_limits<double>::infinity();
    bool another_step_likely = false;
    // Bounds that follow the Newton steps (PatchProblemOptions::bounds_follow_newton_steps): not
    // in a solve's last round, which must end at fixed bounds (so never in a one-round solve, a
    // visit among Bullet's rows), nor while σ is still stepping down. They stop following once a
    // step of more than half Newton's length left them settled: a step the line search cut short
    // moves them little whether or not they are near their fixed point. Bounds that moved make the
    // gradient at the iterate new, so another step is likely and its pass takes the curvature.
    bool bounds_follow = options_.bounds_follow_newton_steps && round + 1 < std::max(friction_rounds, 1) &&
                         sigma_ <= options_.stiction_sigma;
    bool last_step_long = true;
    for (int iteration = 0; iteration < max_iterations; ++iteration) {
      if (bounds_follow && iteration > 0) {
        if (RefreshUnsettledFrictionBounds()) {
          another_step_likely = true;
        } else if (last_step_long) {
          bounds_follow = false;
        }
      }
      // The gradient first, without curvature: most solves end on a converged check (BasicDemo's
      // columns at rest: one Newton step, then the check), which then costs no Hessian. Where
      // another step is likely, the pass takes the curvature too, kept per patch for
      // AssembleHessian, so that no point is evaluated twice at one velocity (the 1 GPa coin: 3.2
      // Newton steps a solve). Likely: the last step was cut short by its line search, or started
      // so far from the solution (|∇f| above √tolerance of its scale) that even Newton's quadratic
      // convergence would not reach the tolerance in one step.
      const bool with_curvature = another_step_likely;
      // The first iteration's pass (without curvature) may be TemperWarmStart's, at this z with
      // these bounds.
      if (!gradient_current) {
        if (with_curvature && patch_terms_.size() < patches_.size()) patch_terms_.resize(patches_.size());
        impulse_sum.setZero();
        PatchTerms gradient_terms;
        for (size_t pi = 0; pi < patches_.size(); ++pi) {
          PatchTerms& terms = with_curvature ? patch_terms_[pi] : gradient_terms;
          EvaluatePatch(patches_[pi], with_curvature, &terms);
          AddImpulses(patches_[pi], terms, &impulse_sum);
        }
        impulses_current_ = true;
        patch_terms_current_ = with_curvature;
        gradient = z - impulse_sum;
      }
      gradient_current = false;
      const double scale = std::max(z.norm(), impulse_sum.norm());
      const double gradient_norm = gradient.norm();
      if (gradient_norm <= options_.relative_tolerance * scale || scale == 0) {
        report.converged = true;
        break;
      }
      if (gradient_norm > 0.5 * last_gradient_norm || gradient_norm < options_.majorize_slip_until * scale)
        majorize = false;
      last_gradient_norm = gradient_norm;
      SlipCurvature slip = SlipCurvature::Exact();
      if (majorize)
        slip = SlipCurvature::Majorizing();
      else if (round == 0 && gradient_norm > options_.blend_slip_until * scale)
        slip = SlipCurvature{options_.blended_slip_share};
      AssembleHessian(slip);
      ++report.iterations;
      if (!NewtonStep(gradient, &step)) break;
      BodyTwists(step, &step_dV);
      PointVelocities(step_dV, nullptr, &dvc_);
      // Exact line search: f is convex along the step, so its slope rises through zero.
      const double slope0 = gradient.dot(step);
      if (!(slope0 < 0)) {
        report.converged = true;
        break;
      }
      const double alpha = LineSearch(z, step, slope0);
      another_step_likely = alpha < 1 || gradient_norm > std::sqrt(options_.relative_tolerance) * scale;
      last_step_long = alpha > 0.5;
      z += alpha * step;
      RefreshVelocities(z);
      patch_terms_current_ = false;
    }
    // Continuation: the next round (if any) solves with a tenth of σ.
    if (round + 1 < std::max(friction_rounds, 1) && sigma_ > options_.stiction_sigma)
      SetStictionRegularization(std::max(0.1 * sigma_, options_.stiction_sigma));
  }
  // The impulses at the solution, unless the last pass over the points left them so already.
  if (!impulses_current_)
    for (size_t i = 0; i < laws_.size(); ++i) gamma_[i] = CalcPointImpulse(laws_[i], vc_[i], nullptr);
  RefreshFrictionBounds();  // for the next solve
  dz_work_ = z - z_;
  BodyTwists(dz_work_, dV);
  for (const Vector6& d : *dV) report.velocity_change = std::max(report.velocity_change, d.norm());
  z_ = z;
  return report;
}

void PatchProblem::AddImpulses(const Patch& p, const PatchTerms& terms, Eigen::VectorXd* impulse_sum) const {
  const Body* side[2] = {&bodies_[p.body_A], &bodies_[p.body_B]};
  const Vector6* wrench[2] = {&terms.W_A, &terms.W_B};
  for (int s = 0; s < 2; ++s) {
    const Group& g = groups_[side[s]->group];
    if (g.dim == 6)
      impulse_sum->segment<6>(g.offset).noalias() += Rigid(*side[s]).transpose() * *wrench[s];
    else if (g.dim > 0)
      impulse_sum->segment(g.offset, g.dim).noalias() += side[s]->B.transpose() * *wrench[s];
  }
}

Matrix6 PatchProblem::CarryToUnknowns(const Body& side_s, const Matrix6& curvature, const Body& side_t) {
  if (!side_s.block_diagonal || !side_t.block_diagonal) return Rigid(side_s).transpose() * curvature * Rigid(side_t);
  // Bₛᵀ·S·Bₜ block by block, B = diag(B_ww, B_vv): half the multiplications of the two 6 × 6
  // products.
  const Eigen::Map<const Matrix6> B_s = Rigid(side_s), B_t = Rigid(side_t);
  const Matrix3 B_ww_s = B_s.topLeftCorner<3, 3>(), B_vv_s = B_s.bottomRightCorner<3, 3>();
  const Matrix3 B_ww_t = B_t.topLeftCorner<3, 3>(), B_vv_t = B_t.bottomRightCorner<3, 3>();
  Matrix6 block;
  const double b_s = side_s.translation_scale, b_t = side_t.translation_scale;
  if (b_s != 0 && b_t != 0) {
    // B_vv = b·I on both sides (a body whose linear factor is the same on all three axes, as a
    // free body's): four of the eight products are scalings (the same up to round-off).
    block.topLeftCorner<3, 3>().noalias() = B_ww_s.transpose() * (curvature.topLeftCorner<3, 3>() * B_ww_t);
    block.topRightCorner<3, 3>().noalias() = B_ww_s.transpose() * (b_t * curvature.topRightCorner<3, 3>());
    block.bottomLeftCorner<3, 3>().noalias() = b_s * (curvature.bottomLeftCorner<3, 3>() * B_ww_t);
    block.bottomRightCorner<3, 3>() = b_s * (b_t * curvature.bottomRightCorner<3, 3>());
    return block;
  }
  block.topLeftCorner<3, 3>().noalias() = B_ww_s.transpose() * (curvature.topLeftCorner<3, 3>() * B_ww_t);
  block.topRightCorner<3, 3>().noalias() = B_ww_s.transpose() * (curvature.topRightCorner<3, 3>() * B_vv_t);
  block.bottomLeftCorner<3, 3>().noalias() = B_vv_s.transpose() * (curvature.bottomLeftCorner<3, 3>() * B_ww_t);
  block.bottomRightCorner<3, 3>().noalias() = B_vv_s.transpose() * (curvature.bottomRightCorner<3, 3>() * B_vv_t);
  return block;
}

void PatchProblem::AssembleHessian(SlipCurvature slip) {
  std::fill(hessian_.valuePtr(), hessian_.valuePtr() + hessian_.nonZeros(), 0.0);
  for (int diagonal : diagonal_entries_) hessian_.valuePtr()[diagonal] += 1.0;
  PatchTerms evaluated;
  for (size_t pi = 0; pi < patches_.size(); ++pi) {
    const Patch& p = patches_[pi];
    if (!patch_terms_current_) EvaluatePatch(p, true, &evaluated);
    const PatchTerms& terms = patch_terms_current_ ? patch_terms_[pi] : evaluated;
    const Body* side[2] = {&bodies_[p.body_A], &bodies_[p.body_B]};
    // Block (A, B) of two rigid sides: block (B, A) is its transpose, copied rather than computed,
    // which saves one product in four and makes the two blocks exact transposes of each other.
    Matrix6 block_AB;
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t) {
        const BlockPlace& place = block_places_[4 * pi + 2 * s + t];
        if (place.entry < 0) continue;
        if (groups_[side[s]->group].dim == 6 && groups_[side[t]->group].dim == 6) {  // fixed-size products
          Matrix6 block;
          if (s == 1 && t == 0) {
            block = block_AB.transpose();
          } else {
            block = CarryToUnknowns(*side[s], terms.Twist(s, t, slip), *side[t]);
            if (s == 0 && t == 1) block_AB = block;
          }
          Eigen::Map<Matrix6, 0, Eigen::OuterStride<>>(hessian_.valuePtr() + place.entry,
                                                       Eigen::OuterStride<>(place.stride)) += block;
        } else {
          const Eigen::MatrixXd block = side[s]->B.transpose() * terms.Twist(s, t, slip) * side[t]->B;
          Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>(hessian_.valuePtr() + place.entry, block.rows(),
                                                               block.cols(), Eigen::OuterStride<>(place.stride)) +=
              block;
        }
      }
  }
  impulses_current_ = true;  // every patch's points evaluated at vc_
}

void PatchProblem::EvaluatePatch(const Patch& p, bool curvature, PatchTerms* terms) {
  // The patch's wrenches on its two bodies and its curvature in their twists, H = −∂γ/∂vc. A side
  // without unknowns (a fixed or kinematic body: the ground) needs no curvature.
  terms->W_A.setZero();
  terms->W_B.setZero();
  const bool moves_A = curvature && groups_[bodies_[p.body_A].group].dim > 0;
  const bool moves_B = curvature && groups_[bodies_[p.body_B].group].dim > 0;
  if (!moves_A && !moves_B) {
    for (int i = p.first_point; i < p.first_point + p.num_points; ++i) {
      gamma_[i] = CalcPointImpulseAndCurvature(laws_[i], vc_[i], nullptr, nullptr);
      terms->W_A += Wrench(r_A_[i], gamma_[i]);
      terms->W_B -= Wrench(r_B_[i], gamma_[i]);
    }
    return;
  }
  // With J = [−R, I], R = [r]×, a point adds Jᵀ·H·J = [[−R·H·R, R·H], [−H·R, H]]. Where each point is
  // one place on both bodies, r_B = r_A + d with d = c_A − c_B the same for all, so the patch's
  // three blocks follow from three sums over one side's offsets, M0 = Σ H, M1 = Σ H·R and
  // M2 = Σ R·H·R (R·H = −(H·R)ᵀ). With H's parts (PointCurvature) they are sums of outer products:
  // for b·I, M1 += b·R and M2 += b·(r·rᵀ − |r|²·I) ([r]×² = r·rᵀ − |r|²·I); for a term c·u·uᵀ,
  // uᵀ·R = −(r × u)ᵀ gives M1 −= c·u·(r × u)ᵀ and M2 −= c·(r × u)·(r × u)ᵀ.
  const bool by_moments = p.one_place || !(moves_A && moves_B);
  const std::vector<Vector3>& r_base = moves_A ? r_A_ : r_B_;
  struct Moments {
    Matrix3 M0{Matrix3::Zero()}, M1{Matrix3::Zero()}, M2{Matrix3::Zero()};
  } base, slip;
  double sum_b = 0, sum_b_rr = 0;
  Vector3 sum_b_r = Vector3::Zero();
  Matrix3 sum_b_r_rT = Matrix3::Zero();
  // Point by point (each point its own places on A and on B, both moving): for each pair of
  // offsets (r_s, r_t) and u_s = r_s × u, a term c·u·uᵀ adds [[c·u_s·u_tᵀ, c·u_s·uᵀ], [c·u·u_tᵀ,
  // c·u·uᵀ]] to block (s, t), and b·I adds [[−b·(r_t·r_sᵀ − (r_s·r_t)·I), b·[r_s]×], [−b·[r_t]×,
  // b·I]] ([a]×·[c]× = c·aᵀ − (a·c)·I): six outer products a term, not nine 3 × 3 products.
  struct PairSums {
    Matrix3 uu{Matrix3::Zero()}, uA_u{Matrix3::Zero()}, uB_u{Matrix3::Zero()};
    Matrix3 uA_uA{Matrix3::Zero()}, uA_uB{Matrix3::Zero()}, uB_uB{Matrix3::Zero()};
    void Add(double c, const Vector3& u, const Vector3& r_A, const Vector3& r_B) {
      const Vector3 cu = c * u, u_A = r_A.cross(u), u_B = r_B.cross(u), cu_A = c * u_A;
      uu.noalias() += cu * u.transpose();
      uA_u.noalias() += cu_A * u.transpose();
      uB_u.noalias() += (c * u_B) * u.transpose();
      uA_uA.noalias() += cu_A * u_A.transpose();
      uA_uB.noalias() += cu_A * u_B.transpose();
      uB_uB.noalias() += (c * u_B) * u_B.transpose();
    }
    void Blocks(Matrix6* S_AA, Matrix6* S_AB, Matrix6* S_BB) const {
      *S_AA << uA_uA, uA_u, uA_u.transpose(), uu;
      *S_AB << uA_uB, uA_u, uB_u.transpose(), uu;
      *S_BB << uB_uB, uB_u, uB_u.transpose(), uu;
    }
  } pair_base, pair_slip;
  Vector3 sum_b_rB = Vector3::Zero();
  Matrix3 sum_b_rB_rA = Matrix3::Zero(), sum_b_rB_rB = Matrix3::Zero();
  double sum_b_rA_rB = 0, sum_b_rB_rB_dot = 0;
  PointCurvature c;
  for (int i = p.first_point; i < p.first_point + p.num_points; ++i) {
    gamma_[i] = CalcPointImpulseAndCurvature(laws_[i], vc_[i], nullptr, &c);
    terms->W_A += Wrench(r_A_[i], gamma_[i]);
    terms->W_B -= Wrench(r_B_[i], gamma_[i]);
    const Vector3& n = laws_[i].nhat_W;
    if (by_moments) {
      const Vector3& r = r_base[i];
      sum_b += c.b;
      sum_b_r += c.b * r;
      sum_b_rr += c.b * r.squaredNorm();
      sum_b_r_rT.noalias() += (c.b * r) * r.transpose();
      const Vector3 an = c.a_minus_b * n, rn = r.cross(n);
      base.M0.noalias() += an * n.transpose();
      base.M1.noalias() -= an * rn.transpose();
      base.M2.noalias() -= (c.a_minus_b * rn) * rn.transpose();
      if (c.slip > 0) {
        const Vector3 st = c.slip * c.t_W, rt = r.cross(c.t_W);
        slip.M0.noalias() += st * c.t_W.transpose();
        slip.M1.noalias() -= st * rt.transpose();
        slip.M2.noalias() -= (c.slip * rt) * rt.transpose();
      }
      continue;
    }
    const Vector3 &r_A = r_A_[i], &r_B = r_B_[i];
    pair_base.Add(c.a_minus_b, n, r_A, r_B);
    if (c.slip > 0) pair_slip.Add(c.slip, c.t_W, r_A, r_B);
    const Vector3 b_rA = c.b * r_A, b_rB = c.b * r_B;
    sum_b += c.b;
    sum_b_r += b_rA;
    sum_b_rB += b_rB;
    sum_b_r_rT.noalias() += b_rA * r_A.transpose();
    sum_b_rB_rA.noalias() += b_rB * r_A.transpose();
    sum_b_rB_rB.noalias() += b_rB * r_B.transpose();
    sum_b_rr += b_rA.dot(r_A);
    sum_b_rA_rB += b_rA.dot(r_B);
    sum_b_rB_rB_dot += b_rB.dot(r_B);
  }
  if (!by_moments) {
    pair_base.Blocks(&terms->S_AA, &terms->S_AB, &terms->S_BB);
    pair_slip.Blocks(&terms->S_AA_slip, &terms->S_AB_slip, &terms->S_BB_slip);
    // b·I's part of each block (s, t).
    auto add_identity_part = [&](const Vector3& b_rs, const Vector3& b_rt, const Matrix3& b_rt_rsT, double b_rs_rt,
                                 Matrix6* S) {
      S->topLeftCorner<3, 3>() -= b_rt_rsT;
      S->topLeftCorner<3, 3>().diagonal().array() += b_rs_rt;
      S->topRightCorner<3, 3>() += Skew(b_rs);
      S->bottomLeftCorner<3, 3>() -= Skew(b_rt);
      S->bottomRightCorner<3, 3>().diagonal().array() += sum_b;
    };
    add_identity_part(sum_b_r, sum_b_r, sum_b_r_rT, sum_b_rr, &terms->S_AA);
    add_identity_part(sum_b_r, sum_b_rB, sum_b_rB_rA, sum_b_rA_rB, &terms->S_AB);
    add_identity_part(sum_b_rB, sum_b_rB, sum_b_rB_rB, sum_b_rB_rB_dot, &terms->S_BB);
    return;
  }
  base.M0.diagonal().array() += sum_b;
  base.M1 += Skew(sum_b_r);
  base.M2 += sum_b_r_rT;
  base.M2.diagonal().array() -= sum_b_rr;
  // The blocks for the base side (Σ with R of its offsets); R_B = R_A + D for the other side, D =
  // [c_A − c_B]×: (A,B) is Σ with R_s = R_A, R_t = R_B; (B,B) with both R_B.
  const Matrix3 D = Skew(bodies_[p.body_A].c - bodies_[p.body_B].c);
  auto blocks = [&](const Moments& m, Matrix6* S_AA, Matrix6* S_AB, Matrix6* S_BB) {
    auto base_block = [&](Matrix6* S) {
      S->topLeftCorner<3, 3>() = -m.M2;
      S->topRightCorner<3, 3>() = -m.M1.transpose();
      S->bottomLeftCorner<3, 3>() = -m.M1;
      S->bottomRightCorner<3, 3>() = m.M0;
    };
    if (!moves_A) {  // only B moves: the base is B's
      base_block(S_BB);
      return;
    }
    base_block(S_AA);
    if (!moves_B) return;
    const Matrix3 M1tD = m.M1.transpose() * D, M0D = m.M0 * D;
    S_AB->topLeftCorner<3, 3>() = -(m.M2 - M1tD);
    S_AB->topRightCorner<3, 3>() = -m.M1.transpose();
    S_AB->bottomLeftCorner<3, 3>() = -(m.M1 + M0D);
    S_AB->bottomRightCorner<3, 3>() = m.M0;
    S_BB->topLeftCorner<3, 3>() = -(m.M2 - M1tD + D * m.M1 + D * M0D);
    S_BB->topRightCorner<3, 3>() = -m.M1.transpose() + D * m.M0;
    S_BB->bottomLeftCorner<3, 3>() = -(m.M1 + M0D);
    S_BB->bottomRightCorner<3, 3>() = m.M0;
  };
  blocks(base, &terms->S_AA, &terms->S_AB, &terms->S_BB);
  blocks(slip, &terms->S_AA_slip, &terms->S_AB_slip, &terms->S_BB_slip);
}

Vector6 PatchProblem::WrenchOnA(int patch) const {
  const Patch& p = patches_[patch];
  Vector6 W = Vector6::Zero();
  for (int i = p.first_point; i < p.first_point + p.num_points; ++i) W += Wrench(r_A_[i], gamma_[i]);
  return W;
}

}  // namespace hydro
