#pragma once
// The exact line search of a convex function's Newton step, shared by the patch problem
// (hydro/patch_problem.h) and the deformable contact problem (fem/contact_problem.h).
#include <algorithm>
#include <cmath>

namespace hydro {

// The α ∈ (0, 1] where a convex function's slope along a descent direction, slope(α), crosses
// zero, given slope0 = slope(0) < 0; 1 when the slope is still negative there. f is convex along
// the direction, so its slope rises through zero: regula falsi on the bracket [0, 1], stopping once
// |slope| ≤ tolerance·|slope0| (1e-3 is close enough for Newton's next step when its convergence
// test is on the gradient). Illinois' rule halves the slope kept at an end that stays twice in a row,
// so that a slope far steeper on one side of its zero than on the other (a contact point reaching
// stiff stick, or pressing in) still converges superlinearly: plain regula falsi crept up on the
// zero from the gentle side (kept inside the bracket by 5 % of its width, it was still 1e-2 off
// after 40 trials for a slope 1e4 times steeper past its zero). A full step whose slope is
// already within the tolerance is taken as it is, after one trial: near the solution that is
// every Newton step, which the bracket search cut to 0.9999 in three more trials (each a pass over
// every contact point).
template <typename SlopeAt>
double ConvexLineSearch(const SlopeAt& slope, double slope0, double tolerance = 1e-3) {
  const double target = tolerance * std::abs(slope0);
  double hi_slope = slope(1.0);
  if (hi_slope <= target) return 1.0;
  double lo = 0, lo_slope = slope0, hi = 1, alpha = 1;
  int kept = 0;  // the end kept by the last trial: −1 the low one, +1 the high one
  for (int k = 0; k < 60 && hi - lo > 1e-14; ++k) {
    alpha = lo - lo_slope * (hi - lo) / (hi_slope - lo_slope);  // inside: lo_slope < 0 < hi_slope
    const double s = slope(alpha);
    if (std::abs(s) <= target) break;
    if (s < 0) {
      lo = alpha, lo_slope = s;
      if (kept == -1) hi_slope *= 0.5;
      kept = -1;
    } else {
      hi = alpha, hi_slope = s;
      if (kept == 1) lo_slope *= 0.5;
      kept = 1;
    }
  }
  return alpha;
}

}  // namespace hydro
