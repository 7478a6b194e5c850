#pragma once
// The exact line search of a convex function's Newton step, shared by the island solve and the
// patch-by-patch sweeps (hydro/patch_problem.h).
#include <algorithm>
#include <cmath>

namespace hydro {

// The α ∈ (0, 1] where a convex function's slope along a descent direction, slope(α), crosses
// zero, given slope0 = slope(0) < 0; 1 when the slope is still negative there. f is convex along
// the direction, so its slope rises through zero: regula falsi on [0, 1], each trial kept inside
// the bracket, stopping once |slope| ≤ 1e-3·|slope0| (close enough for Newton's next step: the
// convergence test is on the gradient).
template <typename SlopeAt>
double ConvexLineSearch(const SlopeAt& slope, double slope0) {
  double alpha = 1;
  double hi_slope = slope(1.0);
  if (hi_slope <= 0) return alpha;
  double lo = 0, lo_slope = slope0, hi = 1;
  for (int k = 0; k < 40; ++k) {
    const double width = hi - lo;
    alpha = std::clamp(lo - lo_slope * width / (hi_slope - lo_slope), lo + 0.05 * width, hi - 0.05 * width);
    const double s = slope(alpha);
    if (std::abs(s) <= 1e-3 * std::abs(slope0)) break;
    if (s < 0) lo = alpha, lo_slope = s;
    else hi = alpha, hi_slope = s;
  }
  return alpha;
}

}  // namespace hydro
