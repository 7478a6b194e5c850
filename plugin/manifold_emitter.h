#pragma once
// Writes a patch's solver points into Bullet manifolds (DESIGN §3 "Emitting a patch"): four points
// per btPersistentManifold, as many manifolds as the patch needs, each point a compliant contact
// (BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING) whose stiffness k = g·A and signed distance
// φ0 = −p0/g come from 000 §IV, so Bullet's solver applies the implicit point law of 000 eq. 3.
#include "plugin/patch_state.h"

namespace hydro {
namespace bullet {

// Reads back the normal impulse each point received in the last solve, keyed by element pair,
// in the order the points were emitted.
void HarvestWarmStart(PatchState* state);

// Clears the state's manifolds and fills them with state->points (world frame, A = body0), with
// the combined friction and Hunt–Crossley dissipation of the state. Warm-starts every point from
// the impulse its element pair carried last step. Bullet's callbacks fire as for its own contact:
// gContactStartedCallback when the patch gets points after having none, gContactEndedCallback
// when it has none left (once per patch, on its first manifold, not per manifold or step), and
// gContactAddedCallback for each point when either object has CF_CUSTOM_MATERIAL_CALLBACK.
void EmitPoints(PatchState* state);

// The patch's contact ends (its pair goes): gContactEndedCallback if it had points.
void EndPatch(PatchState* state);

// How many emissions in a row a pair keeps manifolds it does not use before giving them back (a
// sixth of a second at Bullet's 60 Hz step).
constexpr int kManifoldReleaseSteps = 10;

// Called by EmitPoints with the manifolds this emission needs: after kManifoldReleaseSteps
// emissions in a row with manifolds to spare, releases those none of them needed.
void TrimManifolds(PatchState* state, size_t needed);

// Releases the state's manifolds beyond the first `keep` back to the dispatcher (all by default).
void ReleaseManifolds(PatchState* state, size_t keep = 0);

}  // namespace bullet
}  // namespace hydro
