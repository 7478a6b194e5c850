#pragma once
// The convex contact problem of one time step (002 eq. 13, after Castro et al.'s SAP), shared by
// every body that touches a deformable: FEM bodies, rigid bodies and multibodies are "blocks" of
// velocity unknowns u_b (their velocities at the end of the step), each with its free motion u*_b
// (the step without these constraints) and a positive definite weight A_b (FEM: the step matrix of
// 002 eq. 11; rigid body: diag(m, m, m, I_W); multibody: its mass matrix). The step solves
//
//   minimize  ½ Σ_b ‖u_b − u*_b‖²_{A_b} + Σ_i ℓ_i(v_BcAc_W,i) + Σ_k ½·k_k·‖e_k‖²
//
// where v_BcAc_W,i = Σ Jv_BcAc_W·u + v_BcAc_W_prescribed is contact point i's velocity of side A's
// point Ac relative to side B's point Bc, expressed in W (m/s); ℓ_i its implicit compliant law
// (000 eqs. 13–16: normal impulse δt·k·(−φ0 − δt·vn)₊) plus regularized Coulomb friction
// μ·γn·(√(|vt|² + ε²) − ε) with γn lagged (001 eq. 5.16), vn = v_BcAc_W·nhat_W and
// vt = v_BcAc_W − vn·nhat_W; and e_k the gap of a spring (a weld) at the end of the step. Its
// optimality condition is momentum balance,
// A_b(u_b − u*_b) = Σ Jv_BcAc_Wᵀ·γ, which the report measures.
//
// Participating DoFs (002 §VI-A, VI-B): a block given with the factorization of its A, where at
// most a third of its DoFs take part (or that is small), enters the problem only through the DoFs
// that some constraint involves, P, with the Schur complement
// S = ((A⁻¹)_PP)⁻¹ as weight, (A⁻¹)_PP read from the factorization already made for the free
// motion (InverseSubmatrix: sparse forward solves along the elimination tree). The other DoFs
// follow exactly: u = u* + A⁻¹E_P·S·(u_P − u*_P), one more solve.
//
// The stages, one file each (internal to hydro_fem): the participating DoFs and the Schur
// complement (contact_problem_layout.h), the constraints' grouped Jacobians and Newton's matrix
// (contact_problem_assembly.h), near-rigid softening (near_rigid_softening.h), the objective's
// gradient, Hessian and slope (contact_problem_objective.h), Newton's method with the exact line
// search (contact_problem_newton.h) and the recovery of every DoF (contact_problem_recovery.h).
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <memory>
#include <vector>

#include "fem/step_factorization.h"
#include "hydro/math.h"

namespace hydro {
namespace fem {

struct ContactProblemBlock {
  Eigen::SparseMatrix<double> A;  // positive definite
  Eigen::VectorXd u_star;
  // Where Newton starts (optional; the free motion otherwise): the velocities of the last step
  // make a resting structure start next to its solution.
  Eigen::VectorXd u_guess;
  // The factorization of A, when the block may be reduced to its participating DoFs.
  std::shared_ptr<const StepFactorization> factorization;
};

// A part of a constraint's velocity v_BcAc_W — the velocity of side A's point Ac relative to side
// B's point Bc, expressed in W (m/s): Jv_BcAc_W·u_b[first_dof … first_dof + Jv_BcAc_W.cols()).
// Jv_BcAc_W maps those generalized velocities of block b to their share of v_BcAc_W (3 rows; a
// term of B's side carries B's velocity with a minus sign).
struct VelocityTerm {
  int block{-1};
  int first_dof{0};
  Eigen::Matrix<double, 3, Eigen::Dynamic> Jv_BcAc_W;
};

// A compliant contact point (000 §IV) between A's material point Ac and B's Bc:
//   v_BcAc_W = Σ_terms Jv_BcAc_W·u_b + v_BcAc_W_prescribed,
// the velocity of Ac relative to Bc in W; nhat_W points out of B into A. γ, the impulse on A
// (expressed in W, N·s), is returned.
struct ContactConstraint {
  std::vector<VelocityTerm> terms;
  // The part of v_BcAc_W no unknown carries (m/s): the motion of a body whose velocity is
  // prescribed (for a kinematic body B, −v_WBc: btDeformableBodies keeps its tangential part).
  Vector3 v_BcAc_W_prescribed{Vector3::Zero()};
  Vector3 nhat_W{Vector3::UnitZ()};
  double stiffness_N_per_m{0};
  double phi0_m{0};
  double friction{0};
};

// A zero-length spring between a point Ac of A and a point Bc of B (a weld): its gap at the end
// of the step is
//   e_W = p_BcAc_W_start + δt·v_BcAc_W,  v_BcAc_W = Σ_terms Jv_BcAc_W·u_b + v_BcAc_W_prescribed,
// the terms giving Ac's velocity minus Bc's in W.
struct SpringConstraint {
  std::vector<VelocityTerm> terms;
  Vector3 v_BcAc_W_prescribed{Vector3::Zero()};  // m/s, the part of v_BcAc_W no unknown carries
  // Ac's position measured from Bc, expressed in W, at the start of the step (m): the spring's
  // gap then, zero when the weld is closed; the impulse on A, −δt·k·e_W, closes it.
  Vector3 p_BcAc_W_start{Vector3::Zero()};
  double stiffness_N_per_m{0};
};

// A velocity target on one generalized velocity combination s = J_s·u_b (a joint motor): the
// bounded impulse λ = clamp(c·(s_target − s), ±max_impulse) drives s toward s_target — as a hard
// constraint for large c, and convex (a Huber penalty) for any c. Such constraints shape the
// prediction of a body that Bullet's own solver drives; their impulses are reported apart.
struct VelocityTargetConstraint {
  int block{-1};
  Eigen::RowVectorXd J_s;  // maps the whole block's u_b to the speed s (m/s or rad/s): s = J_s·u_b
  double s_target{0};      // the speed s is driven to, in s's units
  double stiffness{0};     // c, N·s per m/s (or per rad/s)
  double max_impulse{0};   // ≥ 0
};

struct ContactProblemOptions {
  // ε of the regularized friction (001 eq. 5.16): friction reaches μ·γn within this slip speed,
  // so a joint held by friction creeps at up to about ε. Smaller holds better and costs more
  // Newton iterations (a masonry arch creeps 9.7 mm in a minute at 1e-4 m/s, 1.6 mm at 1e-6).
  double stiction_speed_m_per_s{1e-4};
  // From this many unknowns on, a refinement round starts with the Newton matrix the last round
  // factored (see SolveContactProblem): below it a factorization costs less than the extra
  // iterations (the arch's 243 unknowns factor in 0.06 ms; the grasp's 1,032 in ~5 ms).
  int reuse_factorization_from_unknowns{500};
};

struct ContactProblemResult {
  std::vector<Eigen::VectorXd> u;          // per block
  std::vector<Eigen::VectorXd> impulse;    // per block: Σ Jv_BcAc_Wᵀ·(impulse on A)
  std::vector<Vector3> contact_impulse_W;  // per contact: γ, on side A (−γ on B)
  std::vector<Vector3> spring_impulse_W;   // per spring: on side A (the opposite on B)
  // Per block, Σ J_sᵀ·λ of the velocity targets (not in `impulse`): A_b(u_b − u*_b) = impulse + this.
  std::vector<Eigen::VectorXd> target_impulse;
  int iterations{0};            // Newton iterations, all rounds together
  int factorizations{0};        // of Newton's matrix (refinement rounds may reuse the last one)
  int friction_rounds{0};       // frictional rounds with a refreshed lagged γn
  bool friction_settled{true};  // whether γn stopped changing within the rounds
  bool converged{false};
  double residual{0};          // ‖S(u − u*) − Σ Jᵀγ‖∞ over the problem's unknowns, N·s
  int near_rigid_contacts{0};  // contacts softened to what the step resolves (fem/near_rigid_softening.h)
  int unknowns{0};             // after reduction to participating DoFs
  int total_dofs{0};
  double schur_s{0};   // time spent forming Schur complements
  double newton_s{0};  // time spent in the Newton iterations
};

// Solves the problem by Newton's method with an exact line search; the objective is convex for a
// fixed lagged γn. The first lagged γn is that of the warm start u_guess where blocks have one,
// else that of the frictionless problem's solution; the frictional problem is then solved again
// with γn refreshed from each solution until γn changes by less than 1e-3 of the largest (at
// most 5 rounds); a refinement round of a large problem starts with the last round's factored
// matrix — still a descent direction, the line search exact — and refactors once the scaled
// residual falls by less than half in a step. Each Newton solve stops by SAP's rule — the momentum
// residual, diag(A)^(-1/2)-scaled, below 1e-6 of the scaled momentum change or constraint impulses
// (002 §VII's εr) — or when its step vanishes to round-off; one that does neither within 100
// iterations is reported as not converged — never silently.
ContactProblemResult SolveContactProblem(double dt, const std::vector<ContactProblemBlock>& blocks,
                                         const std::vector<ContactConstraint>& contacts,
                                         const std::vector<SpringConstraint>& springs,
                                         const std::vector<VelocityTargetConstraint>& targets = {},
                                         const ContactProblemOptions& options = {});

// [r]×: the matrix of r × (·). A rigid point's velocity is v + ω × r = v − [r]×·ω.
Matrix3 CrossMatrix(const Vector3& r);

}  // namespace fem
}  // namespace hydro
