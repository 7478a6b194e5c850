#pragma once
// Solver options patch contact needs (DESIGN §3, measured on a prototype: a coin as 36–630
// compliant points in Bullet 3.24, double precision):
// - split impulse off: it would move the penetration correction of stiff compliant points out of
//   the velocity solve, so k and φ0 would no longer act as the implicit spring of 000 eq. 3;
// - friction isotropic: SOLVER_USE_2_FRICTION_DIRECTIONS clamps the two friction rows separately
//   (a box cone reaching 1.41·μ·fn) and froze the coin's ε at its start value, so it is cleared and
//   Bullet's default single direction along the slip is used; fixed world friction axes
//   (SOLVER_DISABLE_VELOCITY_DEPENDENT_FRICTION_DIRECTION) made the coin's spin reverse, so they
//   are cleared too;
// - friction direction caching on (SOLVER_ENABLE_FRICTION_DIRECTION_CACHING): it only affects
//   points flagged BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED, which Bullet's own points in this
//   mode never are. The plugin flags a patch point that stuck in the last step, keeping its
//   friction direction while the predicted slip stays within 45° of it; re-choosing it from the
//   slip every step rocked a tall cube on a slope at the step rate and let it creep ~1 mm/s
//   (measured; see manifold_emitter.cc). Keeping it unconditionally made a soft block creep
//   across a turned load, hence the 45° test;
// - warm starting with factor 1 and randomized order (SOLVER_RANDMIZE_ORDER, Bullet's spelling):
//   Bullet scales warm-started impulses by 0.85, which biases low iteration counts; with both,
//   10 iterations matched the exact coin within ~2 %, and randomized order keeps every point of a
//   very stiff patch loaded;
// - at least `minIterations` iterations (default 10).
#include <BulletDynamics/ConstraintSolver/btContactSolverInfo.h>

void hydroConfigureSolverInfo(btContactSolverInfo& info, int minIterations = 10);
