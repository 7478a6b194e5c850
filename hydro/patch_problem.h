#pragma once
// The contact patches among a group of bodies (an island) solved together, for the bodies'
// velocities at the end of the step, with everything else held fixed (Castro et al. 2022, SAP,
// restricted to patches; 000 §IV gives each patch's points).
//
// Each body b is a rigid body, or anything that moves like one at its patches: its twist
// V_b = [ω; v] about its reference point c_b changes by G_b·W for an impulse wrench W = [τ; f]
// about c_b, G_b ⪰ 0 its mobility (the inverse of its 6×6 spatial inertia; 0 for a fixed or
// kinematic body, whose twist is given). Bodies may be coupled: the links of one multibody move
// together, the twists of its k bodies changing by G·W for the 6k-vector W of their wrenches,
// G = J·M⁻¹·Jᵀ. A group of coupled bodies (one body alone is a group) has unknowns z_g with
// G = B·Bᵀ, B = [B_1; …; B_k] (6k × dim z_g), and V_b = V_b⁰ + B_b·z_g: V_b⁰ the twist without the
// patches' impulses. The velocities minimize
//
//   f(z) = ½·|z|² + Σ_i ℓ_i(vc_i(z)),   vc_i = J_Ai·V_A − J_Bi·V_B,  J_si = [−[p_i − c_s]×, I],
//
// over every point i of every patch (A, B its bodies), ℓ_i the convex point law of
// hydro/compliant_point_law.h. In z the mass weighting is the identity (½|z|² is the kinetic
// energy of the impulses, ½·Wᵀ·G·W), so every unknown has one scale and the stopping rule needs no
// scaling. The optimality condition is momentum balance, z_g = Σ_b∈g B_bᵀ·Σ ±J_biᵀ·γ_i. Newton's
// method with an exact line search solves it: an iteration costs a pass over the points (two where
// the step's convergence check did not take the curvature along, Solve), each patch's curvature
// summed in its two bodies' twist space (6×6 blocks) and carried to z once per patch, and a sparse
// factorization with one block per group and per touching pair of groups.
// Solving the island's patches together is what lets a stack of stiff boxes settle: patch by
// patch (block Gauss–Seidel), two 0.2 m boxes at 1e8 Pa and 60 Hz still rocked at 0.3 rad/s after
// 10 sweeps a step and needed 50. Tried again with each patch's block solved exactly by Newton
// (Bullet's row-by-row order, the other patches' impulses held): a 5-box pyramid at 1e8 Pa and 60 Hz
// took 33–44 sweeps a step and still moved at 1 mm/s, a 204-box one moved at 4 cm/s after 20 sweeps
// a step and 2.6 cm/s after 100; solved together, 1e-5 m/s.
//
// The friction bound μ·γ̄n of every point is lagged: it is that of the normal impulses of the last
// solve (or of the warm start, at first), refreshed between rounds and, within a round that is not
// the solve's last, between Newton steps until it settles (bounds_follow_newton_steps), so that
// the fixed point of the rounds is exact Coulomb friction with the implicit compliant law.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <utility>
#include <vector>

#include "hydro/block_sparse_cholesky.h"
#include "hydro/compliant_point_law.h"
#include "hydro/math.h"

namespace hydro {

using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

struct PatchBody {
  Matrix6 mobility{Matrix6::Zero()};  // G_b, ⪰ 0, twist order [ω; v] about p_WC
  Vector3 p_WC{Vector3::Zero()};      // the reference point c_b (centre of mass)
};

struct PatchPoint {
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

struct PatchProblemOptions {
  double near_rigid_beta{1.0};  // β of the near-rigid regime (0 turns it off)
  // σ of the stiction regularization, Rt_i = σ·wt·K/k_i for point i of stiffness k_i in a patch of
  // stiffness K = Σ k_j (σ·wt·N for N equal points; compliant_point_law.h): rounds start at
  // stiction_sigma_start, where friction is smooth and Newton converges in a few iterations, and
  // divide it by 10 a round down to stiction_sigma, each from the last round's solution, inside
  // whose stick set the problem is then nearly quadratic (continuation). A stuck patch creeps at σ
  // times the velocity change its friction impulse makes in a step, whatever its number of points:
  // with Rt = σ·wt per point, a patch of N points was N times stiffer in stick than its body's
  // mass, which is what stalled Newton on piles (a 140-box pyramid at 60 Hz: 25–42 iterations a
  // step, 10–15 with the factor N). The default is SAP's (Castro et al. 2022 §V, σ = 10⁻³): at 10⁻⁴
  // a stuck patch creeps a tenth as far, but stick is then ten times stiffer than the bodies'
  // masses and Newton stalls wherever many points change between stick and slip (steps of 0.01–0.05
  // along Newton's direction): BasicDemo's block at rest took 830 M instructions for 30 steps
  // instead of 690 M, the 1,000-box pile 1.2 s a step instead of 0.45 s, the 1,015-box pyramid's
  // first steps 7 s instead of 2.2 s. Continuation from stiction_sigma_start (a round at each
  // tenth) applies when σ is set below it.
  double stiction_sigma{1e-3};
  double stiction_sigma_start{1e-3};
  double relative_tolerance{1e-6};  // |∇f| ≤ this · max(|z|, |Σ Cᵀγ|)
  // Sparse islands of at least this many unknowns reuse their last factorization of Newton's
  // matrix: each Newton step is then conjugate gradients on the present matrix preconditioned by it
  // (to a residual of newton_step_tolerance·|∇f|, within newton_step_cg_iterations), and the matrix
  // is factorized anew only when that fails. The factorization is kept across solves while the
  // island's pattern is unchanged (a pile at rest).
  int reuse_factorization_from{60};
  // A solve's first round gives sliding points the majorizing curvature (SlipCurvature in
  // compliant_point_law.h: iteratively reweighted least squares) until the gradient falls below
  // this fraction of its scale or a step fails to halve it, then the exact one, which converges
  // quadratically near the solution. Where many sliding points come to stick in one step (a pile
  // landing), exact Newton steps overshoot through their stick disks and the line search cuts them
  // to 0.005–0.03; majorized ones are taken whole, each halving the gradient. 0: always exact.
  double majorize_slip_until{0.1};
  // Then, down to blend_slip_until of the gradient's scale, round 0's steps keep this share of the
  // majorizing curvature along each sliding point's slip (SlipCurvature: 0 is exact). Where many
  // points of a large island change between stick and slip (the 1,000-box pile's toppling
  // columns at 240 Hz, plugin_bench BM_StepBoxPile's scene, steps 120–199), the exact steps were cut
  // to 0.01–0.07 by the line search and Newton stalled at a tenth of the gradient's scale for the
  // rest of the round: 33 Newton steps a step in its largest island, 352 ms; with a share of 0.3,
  // 27 and 230 ms (0.1 and 0.5 did about as well). Below blend_slip_until the exact curvature
  // converges quadratically: blending all the way took the small islands about 20 % more Newton steps.
  // blended_slip_share 0: no blending (exact steps); blend_slip_until 0: blended steps to the end of
  // round 0.
  double blended_slip_share{0.3};
  double blend_slip_until{1e-3};
  // Within a round that has another after it, the lagged friction bounds follow the Newton steps:
  // before each step after the first, where μ·γn at the iterate differs from the bounds by more
  // than the settling tolerance (1e-3 of the largest bound, the rounds' own), the bounds are set to
  // it. This test measures how far the bounds drifted over the last step, not their distance from
  // the fixed point at a converged iterate (the rounds' test), so following stops only after a
  // step of more than half Newton's length that left them settled; the round then converges at
  // fixed bounds, its impulses are a solved problem's, and the rounds' stopping rule holds as
  // before. Each round then needs no converged solve at bounds that the next round changes: in the
  // 1,000-brick wall's first ten steps at 60 Hz (plugin_bench BM_StepWall/2/8), rounds 0, 1 and 2
  // of a step took 6–10, 4–12 and 2–5 Newton steps, the first two converging at bounds the next
  // round refreshed; with the bounds following, 17.9 Newton steps a step became 10.5 (the
  // 1,015-box pyramid's first steps 31 to 14.3, the 1 GPa coin 4.4 to 3.2 a solve; a pile at rest,
  // BM_RestPyramid, 1.9 to 1.85). Bounds that followed to the end of the round took the pile at
  // rest 2.2 Newton steps a step; bounds that stopped after any step that left them settled took
  // the wall 11.4. false: bounds refreshed only between rounds.
  bool bounds_follow_newton_steps{true};
  double newton_step_tolerance{1e-2};
  // A failed attempt costs its CG iterations and then the factorization it was to save, and an
  // iteration (two triangular solves and a product) costs about a tenth of a factorization (the
  // 1,000-box pile's largest island: 0.2–0.3 ms against 2.8–3.4 ms). In that pile's landing
  // (BM_StepBoxPile/3/1000, the whole process) 10 iterations failed 1,714 of 5,398 attempts, and a
  // third of the successes took 7–10; 20 failed 431 of 4,750. With 30 the run took 0.945 of the
  // time (4 runs each, 0.937–0.955), with 20 as long as with 30 (0.96; 0.96–1.10). (Measured with
  // Eigen's SimplicialLDLT; the block factorization made both cheaper, the factorization more.)
  int newton_step_cg_iterations{20};
  // A preconditioned Newton step that took more than this many CG iterations marks the kept
  // factorization stale, and the next Newton step factorizes anew (0: never). Without it a pile at
  // rest kept the factorization of its cold first steps as its preconditioner: the 1,015-box
  // pyramid at 60 Hz and 1e8 Pa (plugin_bench's BM_RestPyramid scene, steps 100–149) took about 7
  // CG iterations a Newton step and 3 Newton steps a step, 108 ms a step; refactorized once, 1–2
  // and 2, 77 ms (with SimplicialLDLT). With the block factorization 8 was tried against 4, whole
  // processes in turn, three pairs each; time with 4 over time with 8, median (range): the
  // pyramid's first steps 1.20 (0.91–1.21), the 1,000-box pile 1.14 (0.95–1.44), the wall 1.00
  // (0.90–1.28). Within the machine's noise, so 4 stays.
  int refactorize_after_cg_iterations{4};
};

struct PatchProblemReport {
  int iterations{0};
  bool converged{false};
  double velocity_change{0};  // the largest |ΔV| of a body over the solve
};

class PatchProblem {
 public:
  // Starts a new problem (keeps buffers). Throws InvalidInput on a non-positive step.
  void Reset(double dt_s, const PatchProblemOptions& options = {});
  // Adds a body; returns its index.
  int AddBody(const PatchBody& body);
  // Adds k = p_WC.size() coupled bodies with reference points p_WC and mobility factor B
  // (6k × r, B·Bᵀ = G, r ≥ 0 the unknowns they share); returns the first one's index (the others
  // follow). Throws InvalidInput on a size mismatch or a non-finite value.
  int AddCoupledBodies(const Eigen::MatrixXd& B, const std::vector<Vector3>& p_WC);
  // Adds a patch between bodies A and B (indices from AddBody); returns its index. Throws
  // InvalidInput on a bad index or a non-finite or non-positive point value.
  int AddPatch(int body_A, int body_B, const std::vector<PatchPoint>& points);

  // Warm start: the patch's impulse wrench W_A on A about c_A (−W_A on B, transported). Returns,
  // per body, the twist change that makes the bodies' velocities include it (added to *dV; every
  // body of a coupled group moves).
  void StartFromWrench(int patch, const Vector6& W_A, std::vector<Vector6>* dV);

  // Solves from the bodies' twists now, V (per body, including the problem's own share): at most
  // `max_iterations` Newton iterations per round and `friction_rounds` rounds. *dV gets each
  // body's twist change.
  PatchProblemReport Solve(const std::vector<Vector6>& V, int max_iterations, int friction_rounds,
                           std::vector<Vector6>* dV);

  int num_bodies() const { return num_bodies_; }
  // A body's group, and the change of a group's unknowns z_g over the last Solve (dim z_g).
  int group_of(int body) const { return bodies_[body].group; }
  Eigen::VectorXd GroupChange(int group) const;
  int num_patches() const { return static_cast<int>(patches_.size()); }
  int num_points(int patch) const { return patches_[patch].num_points; }
  int near_rigid_points() const { return near_rigid_points_; }
  // The factor AddPatch scaled a patch's stiffness by: 1 where δt resolves it, below 1 in the
  // near-rigid regime, where the patch's total stiffness is replaced by the one its period of
  // β·δt/4 gives (PatchNearRigidScale), and only its points' shares of it count.
  double stiffness_scale(int patch) const { return patches_[patch].stiffness_scale; }
  // Factorizations of Newton's matrix since Reset (the other Newton steps reused one).
  int factorizations() const { return factorizations_; }
  // Conjugate-gradient iterations of the Newton steps that reused a factorization, since Reset.
  int conjugate_gradient_iterations() const { return cg_iterations_; }
  // The impulse on A at point i of a patch (world), after the last Solve.
  const Vector3& impulse(int patch, int i) const { return gamma_[patches_[patch].first_point + i]; }
  // A patch's net impulse wrench on A about c_A, after the last Solve.
  Vector6 WrenchOnA(int patch) const;

 private:
  // Reads the matrix and multiplies by it (tests/hydro/patch_problem_test.cc): conjugate gradients'
  // block product checked against Eigen's product with the same matrix.
  friend class PatchProblemTester;
  struct Group {
    int offset{-1};  // of its unknowns in z; -1: it has none
    int dim{0};
    int first_body{0}, num_bodies{0};  // its bodies, which are numbered consecutively
  };
  struct Body {
    Vector3 c{Vector3::Zero()};
    Eigen::Matrix<double, 6, Eigen::Dynamic> B;  // 6 × its group's dim
    int group{-1};
    // What a point's inverse masses need of the body's own mobility G = B·Bᵀ (InverseMasses): G,
    // the traces of its rotational and translational blocks, and the axial vector of G_wv.
    Matrix6 G{Matrix6::Zero()};
    double trace_ww{0}, trace_vv{0};
    Vector3 coupling_axial{Vector3::Zero()};  // a(G_wv): r·a = tr([r]×·G_wv)
    // B is 6 × 6 with zero off-diagonal 3 × 3 blocks (a free rigid body about its centre of
    // mass: G couples no spin to translation), so Bᵀ·S·B is four blocks of two 3 × 3 products
    // each (CarryToUnknowns).
    bool block_diagonal{false};
    // b where B's translational block is b·I with b > 0 (CarryToUnknowns), else 0.
    double translation_scale{0};
  };
  struct Patch {
    int body_A{-1}, body_B{-1};
    int first_point{0}, num_points{0};
    bool warm{false};           // started from a wrench (StartFromWrench)
    bool one_place{true};       // every point is at one place on both bodies (no p_WQ_B of its own)
    double stiffness_scale{1};  // the near-rigid regime's softening of the whole patch (AddPatch)
  };
  // Where a block of Newton's matrix lies in hessian_'s values: entry (r, c) at entry + r + c·stride
  // (a block column's columns hold the same rows); entry −1: none.
  struct BlockPlace {
    int entry{-1};
    int stride{0};
  };

  // A patch at the contact velocities vc_: its wrenches on A and on B about their reference
  // points, and if `curvature` is set its curvature in their twists, S = Σ Jᵀ·H·J with
  // H = −∂γ/∂vc (blocks (A,A), (A,B), (B,B); none for a side without unknowns), in two parts
  // (PointCurvature): S(w) = S_base − (1 − w)·S_slip for the slip rule w. Each point's impulse
  // goes into gamma_.
  struct PatchTerms {
    Vector6 W_A, W_B;
    Matrix6 S_AA, S_AB, S_BB;                 // of b·I + (a − b)·n̂·n̂ᵀ
    Matrix6 S_AA_slip, S_AB_slip, S_BB_slip;  // of s·t̂·t̂ᵀ
    // The block (s, t) of the curvature in the twists [V_A; V_B], s, t ∈ {0: A, 1: B}, for slip
    // rule `slip`: vc = J_A·V_A − J_B·V_B makes (A,B) = −S_AB and (B,A) = −S_ABᵀ.
    Matrix6 Twist(int s, int t, SlipCurvature slip) const {
      const double keep = 1 - slip.along_slip;
      if (s == t) return s == 0 ? Matrix6(S_AA - keep * S_AA_slip) : Matrix6(S_BB - keep * S_BB_slip);
      const Matrix6 S = keep * S_AB_slip - S_AB;
      return s == 0 ? S : Matrix6(S.transpose());
    }
  };
  void EvaluatePatch(const Patch& p, bool curvature, PatchTerms* terms);
  // Adds a patch's wrenches, carried to its groups' unknowns (Σ Cᵀγ), to *impulse_sum.
  void AddImpulses(const Patch& p, const PatchTerms& terms, Eigen::VectorXd* impulse_sum) const;
  // Newton's matrix I + Σ Cᵀ·H·C at the present contact velocities, into hessian_ (sliding
  // points' H per `slip`), from patch_terms_ when they are current.
  void AssembleHessian(SlipCurvature slip);

  int AddGroup(int dim);
  // The next body's entry, its B sized 6 × cols: a kept one (from before the last Reset) or a new one.
  Body& NewBody(int cols);
  static void SetMobilityTerms(Body* body);
  // B of a body whose group has six unknowns, as a fixed-size matrix.
  static Eigen::Map<const Matrix6> Rigid(const Body& body) { return Eigen::Map<const Matrix6>(body.B.data()); }
  // Bₛᵀ·S·Bₜ: a curvature block S in two rigid bodies' twists, carried to their unknowns.
  static Matrix6 CarryToUnknowns(const Body& side_s, const Matrix6& curvature, const Body& side_t);
  void BuildPattern();
  // Where the matrix stores entry (r, c) of its block (row group, column group), one it holds.
  int EntryOf(int row_group, int column_group, int r, int c) const;
  // Where each patch's blocks (s, t), s, t ∈ {0: A, 1: B}, lie, and the diagonal's entries.
  void PlaceBlocks();
  // Each body's twist change B_b·(z − z0)_g, then each point's contact velocity change.
  void BodyTwists(const Eigen::VectorXd& dz, std::vector<Vector6>* dV) const;
  // vc_i = base_i (none: 0) + J_Ai·dV_A − J_Bi·dV_B.
  void PointVelocities(const std::vector<Vector6>& dV, const std::vector<Vector3>* base,
                       std::vector<Vector3>* vc) const;
  void RefreshVelocities(const Eigen::VectorXd& z);
  // Sets every point's friction bound to μ·γn at the current velocities.
  void RefreshFrictionBounds();
  // The same unless the bounds in use are settled: within kFrictionBoundsSettled (patch_problem.cc)
  // of the largest of them from μ·γn. Returns whether it refreshed them.
  bool RefreshUnsettledFrictionBounds();
  // μ·γn at the current velocities into next_bounds_, and their largest; returns the largest change
  // from the bounds in use.
  double NextFrictionBounds(double* largest);
  // Makes next_bounds_ the bounds in use.
  void UseNextFrictionBounds(double largest);
  // Sets every point's Rt = σ·wt·K/k_i, its stiction share of its patch (AddPatch says why).
  void SetStictionRegularization(double sigma);
  double sigma_{0};
  double Slope(double alpha, const Eigen::VectorXd& z, const Eigen::VectorXd& d) const;
  // The α ∈ (0, 1] where f's slope along d (dvc_ its contact velocities) crosses zero, from z.
  double LineSearch(const Eigen::VectorXd& z, const Eigen::VectorXd& d, double slope0) const;
  // Scales the warm start z down (towards no patch impulse at all) as far as that lowers f.
  // Returns whether it moved z; if not, *impulse_sum and *gradient are Σ Cᵀγ and ∇f at z, with
  // the friction bounds as they are.
  bool TemperWarmStart(Eigen::VectorXd* z, Eigen::VectorXd* impulse_sum, Eigen::VectorXd* gradient);
  bool warm_start_unsolved_{false};
  // The Delassus block C·Cᵀ of a point p (on A) / p_B (on B) along n: its normal and mean
  // tangential inverse mass.
  void InverseMasses(int body_A, int body_B, const Vector3& p_A, const Vector3& p_B, const Vector3& n, double* wn,
                     double* wt) const;

  double dt_{0};
  PatchProblemOptions options_;
  std::vector<Group> groups_;
  std::vector<Body> bodies_;  // the first num_bodies_ are the problem's
  int num_bodies_{0};
  std::vector<Patch> patches_;
  std::vector<int> patch_of_;       // per point
  std::vector<Vector3> r_A_, r_B_;  // per point: its place on A and on B from their reference points
  // Per point: μ; the tangential inverse mass times the point's stiction share K/k_i (Rt = σ·this);
  // the normal inverse mass.
  std::vector<double> mu_, stick_wt_, wn_;
  std::vector<CompliantPointLaw> laws_;
  std::vector<Vector3> vc_start_, vc_, dvc_, gamma_;
  // gamma_ is every point's impulse at vc_ under the current laws: the last full pass left it so,
  // and neither the velocities nor the laws have changed since.
  bool impulses_current_{false};
  // Every patch's terms with curvature at vc_, kept by the gradient's pass of a Newton iteration
  // where another step is likely (Solve), for AssembleHessian to take instead of evaluating every
  // point again.
  std::vector<PatchTerms> patch_terms_;
  bool patch_terms_current_{false};
  std::vector<Vector6> body_dV_;
  Eigen::VectorXd z_, z_start_, z_solve_start_;
  int num_unknowns_{0};
  bool finalized_{false};
  bool bounds_set_{false};
  double largest_bound_{0};
  std::vector<double> next_bounds_;  // NextFrictionBounds' output
  int near_rigid_points_{0};
  int factorizations_{0};
  int cg_iterations_{0};
  // Newton's matrix: its pattern (one block per group and per touching pair of groups) and factorization.
  Eigen::SparseMatrix<double> hessian_;
  std::vector<BlockPlace> block_places_;  // patch k's block (s, t) at 4·k + 2·s + t
  std::vector<int> diagonal_entries_;     // per unknown, in hessian_'s values
  // What the pattern was built from: every group's dimension and every patch's two groups. A pile
  // at rest brings the same every step, and keeps its matrix and its blocks' places.
  std::vector<int> pattern_key_, pattern_key_scratch_;
  BlockSparseCholesky factorization_;  // one block per group with unknowns
  // Every island's matrix is sparse, however small: with the block factorization a separate
  // dense path for small islands (once chosen over Eigen's SimplicialLDLT) cost as much or more.
  // The matrix's blocks, (column group, row group) sorted, for which hessian_ is laid out and
  // factorization_ analysed; where each block's entry (0, 0) lies in hessian_'s values (entry
  // (r, c) at that + r + c·column_height_[column group]); and whether factorization_ holds a
  // factorization of a matrix of that pattern (possibly an earlier one: a preconditioner).
  std::vector<std::pair<int, int>> block_pattern_, block_pattern_scratch_;
  std::vector<int> pattern_dims_, pattern_dims_scratch_;  // every group's dimension
  std::vector<int> block_start_;                          // per block of block_pattern_
  std::vector<int> column_height_;                        // per group: the rows its columns hold
  bool factorized_{false};
  // Newton's step for the present matrix, −H⁻¹·∇f (reuse_factorization_from says how); false when
  // the matrix cannot be factorized.
  bool NewtonStep(const Eigen::VectorXd& gradient, Eigen::VectorXd* step);
  // Conjugate gradients for H·step = −∇f, preconditioned by the factorization held; false when
  // they do not reach the tolerance within the iterations allowed.
  bool PreconditionedNewtonStep(const Eigen::VectorXd& gradient, Eigen::VectorXd* step, int* iterations);
  // y = H·x for Newton's matrix, block by block.
  void MultiplyHessian(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  bool factorization_stale_{false};  // see refactorize_after_cg_iterations
  Eigen::VectorXd cg_residual_, cg_direction_, cg_product_, cg_preconditioned_;
  // Solve's workspaces, kept so that a solve allocates nothing once they have grown.
  Eigen::VectorXd z_work_, gradient_work_, step_work_, impulse_sum_work_, direction_work_, dz_work_;
  std::vector<Vector6> step_dV_;
};

// G of a rigid body about its centre of mass, twist order [ω; v]: blockdiag(F_ω·I⁻¹_W·F_ω, m⁻¹·F_v),
// F the (diagonal) angular and linear factors that lock axes.
Matrix6 RigidBodyMobility(const Matrix3& inverse_inertia_W, double inverse_mass, const Vector3& angular_factor,
                          const Vector3& linear_factor);

}  // namespace hydro
