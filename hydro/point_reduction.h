#pragma once
// Fewer solver points for users who need speed over detail (DESIGN §3): a patch's points are
// grouped into at most N clusters and each cluster replaced by one point that keeps
//   - its total stiffness K = Σ kᵢ,
//   - its elastic force F = Σ fn0ᵢ (so φ0 = −F/K),
//   - the moment of that force: the point sits at the force-weighted centroid Σ fn0ᵢ·pᵢ / F,
// along the force-weighted mean normal. On a flat patch the net force, moment and stiffness of the
// patch are exactly those of the full set; what is lost is how the stiffness is spread (the
// patch's resistance to rocking is approximated by N points).
#include <vector>

#include "hydro/point_approximation.h"

namespace hydro {

// Clusters by k-means on the point positions (farthest-point seeding, a few Lloyd iterations).
// `max_points` ≥ 1; with at most that many points the input is copied unchanged.
void ReduceContactPoints(const std::vector<ContactPoint>& points, int max_points, std::vector<ContactPoint>* reduced);

}  // namespace hydro
