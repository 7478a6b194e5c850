#pragma once
// Solver options patch contact needs (DESIGN §3, measured on a prototype: a coin as 36–630
// compliant points in Bullet 3.24, double precision):
// - split impulse off: it would move the penetration correction of stiff compliant points out of
//   the velocity solve, so k and φ0 would no longer act as the implicit spring of 000 eq. 3;
// - friction isotropic: SOLVER_USE_2_FRICTION_DIRECTIONS clamps the two friction rows separately
//   (a box cone reaching 1.41·μ·fn) and froze the coin's ε at its start value, so it is cleared and
//   Bullet's default single direction along the slip is used; fixed world friction axes
//   (SOLVER_DISABLE_VELOCITY_DEPENDENT_FRICTION_DIRECTION) made the coin's spin reverse, so they
//   are cleared too. (Tried and dropped: our own per-point friction directions with direction
//   caching — Bullet 3.24 restarts friction rows at zero, so they cannot be warm-started, and
//   choosing the sticking direction from last step's impulse made a soft block creep on an
//   incline where Bullet's velocity-dependent direction holds it.);
// - warm starting with factor 1 and randomized order (SOLVER_RANDMIZE_ORDER, Bullet's spelling):
//   Bullet scales warm-started impulses by 0.85, which biases low iteration counts; with both,
//   10 iterations matched the exact coin within ~2 %, and randomized order keeps every point of a
//   very stiff patch loaded;
// - at least `minIterations` iterations (default 10).
#include <BulletDynamics/ConstraintSolver/btContactSolverInfo.h>

void hydroConfigureSolverInfo(btContactSolverInfo& info, int minIterations = 10);
