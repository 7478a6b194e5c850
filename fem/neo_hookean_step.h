#pragma once
// Backward Euler's step for the Neo-Hookean model (fem/neo_hookean.h): the elastic potential of a
// body's mesh, and the contact-free motion that minimizes the step's incremental potential by
// Newton's method. The linear and corotational models need no such iteration: their step is one
// linear solve (FemBody::CalcFreeMotion).
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

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

// Backward Euler's free motion from `state`: v* minimizes the incremental potential
//   ½(v⁺ − v)ᵀM(v⁺ − v) + Ψ(q + δt·v⁺) − δt·v⁺ᵀM·g + ½δt·v⁺ᵀD·v⁺,  D = αM + β·∇²Ψ(q),
// by Newton's method from v (0 at fixed DoFs) with a backtracking line search that never accepts
// an inverted element, until the step is below 1e-10 of the velocity scale (at most 50
// iterations). A is the Newton matrix at the solution (the contact problem's weight: the
// potential to second order, 002 §VIII's fallback for large deformation with "Hessian positive
// definite corrections"). `factorization` is the body's, its analysis kept from step to step;
// `timings` and `report` are overwritten. Throws InvalidInput naming the body if Newton's matrix
// cannot be factored.
FreeMotion CalcNeoHookeanFreeMotion(const FemModel& model, const FemState& state, double dt, const Vector3& gravity,
                                    ReusedFactorization* factorization, StepTimings* timings, NewtonReport* report);

}  // namespace fem
}  // namespace hydro
