#pragma once
// How a contact point's signed distance φ0 = −p0/g (000 eq. 16) changes when body B moves a
// little relative to body A: the first-order update that lets a pair at rest keep its surface
// across steps instead of computing it anew (plugin/surface_reuse.h).
//
// Within one pair of elements each side's pressure is linear, pA(x) = a·x + cA and pB(x) = b·x + cB
// (a = ∇pA, b = ∇pB, both in W). Let B move by δ (a translation, or the local displacement of a
// small rigid motion at the point): pB becomes b·(x − δ) + cB.
//   - B rigid, A compliant: the point lies on B's surface and moves with it, so
//     p0' = pA(x + δ) = p0 + a·δ.
//   - A rigid, B compliant: the point lies on A's surface and stays, so p0' = pB(x − δ) = p0 − b·δ.
//   - Both compliant (004 App. X-B, eq. 16): the equal-pressure plane (a − b)·x + cA − cB + b·δ = 0
//     moves along m̂ = (a − b)/|a − b| by s = −b·δ/|a − b|, where pA grows by (a·m̂)·s, so
//     p0' = p0 − (a·m̂)·(b·δ)/|a − b|.
// With g the point's effective gradient along its normal, φ0' = φ0 + σ·δ, σ = −(∂p0/∂δ)/g. Where
// both gradients lie along the normal n̂ (a = gA·n̂, b = −gB·n̂) every case gives σ = −n̂: the
// distance closes by B's approach along the normal. Tangential gradient components (a tet whose
// field is not aligned with the normal) add the pressure change a sideways slide makes.
#include "hydro/math.h"

namespace hydro {

// σ = ∂φ0/∂δ (W) for a point of normal nhat_BA_W and effective gradient g > 0 (000 eq. 23),
// grad_A_W and grad_B_W the two sides' pressure gradients at the point, null for a rigid side (at
// most one). Returns −nhat_BA_W when g is not positive and finite, or when the gradients give
// no equal-pressure plane.
Vector3 CalcDepthSensitivity(const Vector3& nhat_BA_W, double g_Pa_per_m, const Vector3* grad_A_W,
                             const Vector3* grad_B_W);

}  // namespace hydro
