#pragma once
// What both patch solvers (btHydroelasticConstraintSolver for rigid bodies,
// btHydroelasticMultiBodyConstraintSolver for Featherstone links too) do with a PatchState around
// hydro::PatchProblem: its points as the problem's, last step's impulse as the warm start, and the
// solved impulses back into the state and its manifolds.
#include <BulletDynamics/ConstraintSolver/btSolverBody.h>

#include <vector>

#include "hydro/patch_problem.h"
#include "plugin/patch_state.h"

namespace hydro {
namespace bullet {

// The settings a program gives both solvers, checked where they enter: each returns its value, or
// throws InvalidInput naming `setter` and the value. Sweeps ≥ 0 (0: Bullet's own iterations only);
// near-rigid threshold β finite and ≥ 0 (0: off); stiction regularization σ finite and > 0.
int CheckedMinPatchSweeps(int sweeps, const char* setter);
double CheckedNearRigidThreshold(double beta, const char* setter);
double CheckedStictionRegularization(double sigma, const char* setter);

// Takes a patch into the solver group numbered `serial`: true the first time the group meets it (a
// patch has several manifolds) and if it has points; a patch without points loses its warm start.
bool TakePatch(PatchState* state, unsigned serial);

// The order a solver group's patches are solved in: by their bodies' places in the world
// (btCollisionObject::getWorldArrayIndex), then by the compound children they are (PatchState's
// child0, child1), then by their places in Bullet's list (`listed_a`, `listed_b`: a pair met
// twice). Bullet's manifold order changes from step to step
// as manifolds come and go; in this order a pile at rest numbers its bodies alike every step, so
// Newton's matrix keeps its layout and its last factorization stays a preconditioner
// (hydro/patch_problem.h). A total order, for std::sort (std::stable_sort would allocate).
bool SolvedBefore(const PatchState& a, int listed_a, const PatchState& b, int listed_b);

// A rigid solver body as a problem body: its mobility about its centre of mass (zero when fixed).
PatchBody RigidPatchBody(const btSolverBody& body);
// The twist [ω; v] a solver body has now: its velocity at the step's start, what gravity and
// applied forces add over the step, and what the solver has applied so far.
Vector6 CurrentTwist(const btSolverBody& body);
// Adds a twist change to a (dynamic) solver body's velocity.
void ApplyTwistChange(btSolverBody* body, const Vector6& dV);

// The state's points as patch points (A = body0), with the pair's friction and Hunt–Crossley
// dissipation.
void MakePatchPoints(const PatchState& state, std::vector<PatchPoint>* points);

// Last step's net impulse of the patch on body0, about the point c_A; false when there is none.
bool WarmWrenchAbout(const PatchState& state, const Vector3& c_A, Vector6* W_A);

// After a solve: keeps the patch's net impulse on body0 about c_A for the next step's warm start,
// and writes each point's impulse into its manifold point, where Bullet's users (and the patch
// query) read them: the normal impulse, and the friction impulse along the first lateral direction.
void StoreSolvedPatch(const PatchProblem& problem, int patch, const Vector3& c_A, PatchState* state);

}  // namespace bullet
}  // namespace hydro
