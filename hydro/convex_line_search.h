#pragma once
// The exact line search of a convex function's Newton step, shared by the patch problem
// (hydro/patch_problem.h) and the deformable contact problem (fem/contact_problem.h).
#include <algorithm>
#include <cmath>

namespace hydro {

// The α ∈ (0, 1] where a convex function's slope along a descent direction, slope(α), crosses
// zero, given slope0 = slope(0) < 0; 1 when the slope is still negative there. f is convex along
// the direction, so its slope rises through zero: regula falsi on [0, 1], each trial kept inside
// the bracket, stopping once |slope| ≤ tolerance·|slope0| (1e-3 is close enough for Newton's next
// step when its convergence test is on the gradient) or after 40 trials.
template <typename SlopeAt>
double ConvexLineSearch(const SlopeAt& slope, double slope0, double tolerance = 1e-3) {
  double alpha = 1;
  double hi_slope = slope(1.0);
  if (hi_slope <= 0) return alpha;
  double lo = 0, lo_slope = slope0, hi = 1;
  for (int k = 0; k < 40; ++k) {
    const double width = hi - lo;
    alpha = std::clamp(lo - lo_slope * width / (hi_slope - lo_slope), lo + 0.05 * width, hi - 0.05 * width);
    const double s = slope(alpha);
    if (std::abs(s) <= tolerance * std::abs(slope0)) break;
    if (s < 0)
      lo = alpha, lo_slope = s;
    else
      hi = alpha, hi_slope = s;
  }
  return alpha;
}

}  // namespace hydro
