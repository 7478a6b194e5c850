#pragma once
// Backward Euler's step for the Neo-Hookean model (fem/neo_hookean.h): the elastic potential of a
// body's mesh, and the contact-free motion that minimizes the step's incremental potential by
// Newton's method. The linear and corotational models need no such iteration: their step is one
// linear solve (FemBody::CalcFreeMotion).
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

#include "fem/element_assembly.h"
#include "fem/fem_model.h"
#include "fem/fem_state.h"
#include "fem/free_motion.h"
#include "fem/step_factorization.h"
#include "hydro/math.h"

namespace hydro {
namespace fem {

// How Newton's method went in a Neo-Hookean step: its iterations, and whether it met its
// tolerance (before any step: nothing has failed).
struct NewtonReport {
  int iterations{0};
  bool converged{true};
};

// Ψ(x) = Σ_e V_e·ψ(F_e(x)) over the model's tets at positions x (3 per vertex; +infinity if any
// tet is inverted), and optionally its gradient and its Hessian as triplets over every DoF, each
// element's block projected to PSD (eigenvalues clamped at 0) so that Newton's matrix stays
// positive definite.
double CalcNeoHookeanEnergy(const FemModel& model, const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                            std::vector<Eigen::Triplet<double>>* hessian);
// The same, the Hessian's free-DoF block added (times `hessian_scale`) straight into *hessian, a
// matrix with `assembly`'s pattern: Newton's matrix refilled in place, with no triplets to sort.
// `gradient` may be null.
double CalcNeoHookeanEnergy(const FemModel& model, const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                            const ElementAssembly& assembly, double hessian_scale,
                            Eigen::SparseMatrix<double>* hessian);

// What a body's Neo-Hookean steps keep from one to the next (no Newton iteration builds a matrix
// pattern): the pattern of Newton's matrix over the free DoFs with the mass matrix in it, made
// again only when the free DoFs change, and where each entry of the step's damping matrix lands.
struct NeoHookeanWorkspace {
  std::vector<int> free_index;       // the DoFs' free indices the pattern was made for
  ElementAssembly assembly;          // Newton's matrix's pattern over the free DoFs
  Eigen::SparseMatrix<double> mass;  // M's free-DoF block, in that pattern
  std::vector<int> damping_slots;    // per nonzero of D (over every DoF): its slot, −1 if fixed
  int num_patterns{0};               // how many times the pattern was made (for tests)
};

// Backward Euler's free motion from `state`: v* minimizes the incremental potential
//   ½(v⁺ − v)ᵀM(v⁺ − v) + Ψ(q + δt·v⁺) − δt·v⁺ᵀM·g + ½δt·v⁺ᵀD·v⁺,  D = αM + β·∇²Ψ(q),
// by Newton's method from v (0 at fixed DoFs) with a backtracking line search that never accepts
// an inverted element, until the step is below 1e-10 of the velocity scale (at most 50
// iterations). A is the Newton matrix at the solution (the contact problem's weight: the
// potential to second order, 002 §VIII's fallback for large deformation with "Hessian positive
// definite corrections"). `factorization` and `workspace` are the body's, kept from step to step
// (the workspace's pattern is made again if the state's fixed DoFs are not those it was made for);
// `timings` and `report` are overwritten. Throws InvalidInput naming the body if Newton's matrix
// cannot be factored.
FreeMotion CalcNeoHookeanFreeMotion(const FemModel& model, const FemState& state, double dt, const Vector3& gravity,
                                    ReusedFactorization* factorization, NeoHookeanWorkspace* workspace,
                                    StepTimings* timings, NewtonReport* report);

}  // namespace fem
}  // namespace hydro
