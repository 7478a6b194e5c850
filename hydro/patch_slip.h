#pragma once
// How the two bodies of a patch slip over it: the slide at its centre and the spin about its
// normal, both as speeds, and whether the spin makes the friction turn across the patch.
//
// A patch's friction is ∫ μ·p·ŝ dA, ŝ the direction of the slip velocity v_BA(p) = v_BAo + w_BA×(p − o).
// Where the patch slides much faster than it spins, ŝ is nearly one direction over the patch and a
// coarse quadrature of p (hydro/point_reduction.h's 16 cells) gives its force and moment. Where
// the spin's speed at the rim is comparable to the slide, ŝ turns around the instantaneous spin
// centre near or inside the patch, and the coupled force and torsional moment (Elandt et al. 2019,
// seed 000 §V-A, the sliding and spinning coin) need the pressure resolved finer: 16 points put
// the coin's ε 14 % off, 64 within 3 % (tests/plugin/coin_test.cc).
#include <vector>

#include "hydro/point_approximation.h"

namespace hydro {

struct PatchSlip {
  double slide_m_per_s{0};  // |tangential part of v_BA| at the patch's force-weighted centroid
  double spin_m_per_s{0};   // |w_BA·n̂|·ρ, ρ the patch's radius of gyration about its centroid times √2
};

// The slip of the patch `points` (A's material points relative to B's): v_BAo_W is A's velocity
// relative to B's at the world point p_WO, w_BA_W A's angular velocity relative to B's. The
// centroid, normal and radius weigh each point by its force fn0 (its area where no point has
// force); ρ is √(2·mean r²), the radius of a uniformly pressed disk. No points: a zero slip.
PatchSlip CalcPatchSlip(const std::vector<ContactPoint>& points, const Vector3& p_WO, const Vector3& v_BAo_W,
                        const Vector3& w_BA_W);

// Whether a patch's friction turns across it: its spin at the rim is at least a twentieth of its
// slide (the spin centre within twenty radii) and at least 1 mm/s (a resting pile's jitter is not
// spin). A patch that turned at the last step keeps turning down to half those thresholds, so a
// coin slowing through them does not switch its point budget back and forth. Even a slow spin
// needs the finer points: its torsional friction, μ·∫p·(ω×r)⊥²/v dA where the slide dominates,
// weighs the pressure's second moment, which 16 cells' centroids understate. The coin started at
// ε0 = 10 (spin a tenth of its slide) with the threshold at a quarter turned 40 of its 254 steps,
// and its ε came out 3.3 % low at u < 10 %; at a twentieth it turns throughout, within 1.1 %.
bool PatchFrictionTurns(const PatchSlip& slip, bool turned_last_step);

}  // namespace hydro
