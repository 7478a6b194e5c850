#pragma once
// A bounded number of solver points per patch (DESIGN §3): a patch's points are binned in a grid of
// at most N cells over its weighted extent (±√3 standard deviations) along its principal axes, and
// each cell replaced by one point that keeps
//   - its total stiffness K = Σ kᵢ,
//   - its elastic force F = Σ fn0ᵢ (so φ0 = −F/K),
//   - the moment of that force: the point sits at the force-weighted centroid Σ fn0ᵢ·pᵢ / F,
// along the force-weighted mean normal. The merged points are then spread about the patch's
// centre of force (in its plane) by the factor that restores the torsional friction moment
// Σ fn0ᵢ·|rᵢ| (at most 2×). On a flat patch the net force, its moment, the stiffness and the
// torsional friction moment of the patch are exactly those of the full set; what is approximated
// is how the stiffness is spread (the patch's resistance to rocking, by N points). Points whose
// normal is more than 60° from the patch's (side walls pressed in past an edge) are binned apart,
// in a quarter of the cells, so that no merged point mixes the two. A grid of 3 or more cells has
// two rows at least (3 cells: a triangle), so that the points are never all on one line. One pass
// over the points.
#include <vector>

#include "hydro/point_approximation.h"

namespace hydro {

// A patch's spread along its minor principal axis at least this fraction of that along its major
// one (variances) counts as the same in every direction: its axes are not the patch's own.
constexpr double kIsotropicSpread = 0.9;

// The grid's cells, kept by a caller that reduces at every step (a pair, a kept surface) so that a
// reduction allocates nothing once they have grown. Used by one thread at a time.
struct PointReductionWorkspace {
  struct Cell {
    double force{0}, stiffness{0}, area{0}, pressure_area{0}, strongest{-1};
    Vector3 position{Vector3::Zero()}, stiffness_position{Vector3::Zero()}, normal{Vector3::Zero()};
    int element_A{-1}, element_B{-1}, fan_triangle{0};
  };
  std::vector<Cell> cells;
  std::vector<int> cell_point;  // the reduced point each cell became, or −1
};

// `max_points` ≥ 1; with at most that many points the input is copied unchanged. If `merged_into`
// is given, (*merged_into)[i] is the index in `reduced` of the point that points[i] joined, or −1
// where its cell had no stiffness and made no point. If `grid_axis` is given (W; zero at first),
// a patch of isotropic spread (kIsotropicSpread) lays its grid along it instead of along its
// principal axes, and the grid's axis is written back: a pair passes the same vector each step.
// Without a `workspace` the call makes its own cells.
void ReduceContactPoints(const std::vector<ContactPoint>& points, int max_points, std::vector<ContactPoint>* reduced,
                         std::vector<int>* merged_into = nullptr, Vector3* grid_axis = nullptr,
                         PointReductionWorkspace* workspace = nullptr);

}  // namespace hydro
