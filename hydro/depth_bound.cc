#include "hydro/depth_bound.h"

#include <algorithm>
#include <limits>

namespace hydro {

std::pair<double, double> CalcTetExtentAlong(const VolumeMesh& mesh, const RigidTransform& X_WM, int t,
                                             const Vector3& n_W) {
  const Vector3 n_M = X_WM.linear().transpose() * n_W;
  const double offset = n_W.dot(X_WM.translation());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int v : mesh.tet(t)) {
    const double s = n_M.dot(mesh.vertex(v));
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  return {lo + offset, hi + offset};
}

void BoundDepthByOverlap(double overlap_m, double* phi0_m) {
  constexpr double kSmallestOverlap = 1e-9;
  *phi0_m = std::max(*phi0_m, -std::max(overlap_m, kSmallestOverlap));
}

}  // namespace hydro
