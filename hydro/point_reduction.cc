#include "hydro/point_reduction.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

#include "hydro/buffers.h"

namespace hydro {
namespace {

// A point's weight for placing its cluster: its elastic force, or its stiffness where it has none
// (a speculative point, not yet touching).
double Weight(const ContactPoint& p) { return p.fn0_N > 0 ? p.fn0_N : p.stiffness_N_per_m; }

// Whether a point's normal is within 60° of the patch's.
bool Aligned(const ContactPoint& p, const Vector3& normal) { return p.nhat_BA_W.dot(normal) >= 0.5; }

}  // namespace

void ReduceContactPoints(const std::vector<ContactPoint>& points, int max_points, std::vector<ContactPoint>* reduced,
                         std::vector<int>* merged_into, Vector3* grid_axis, PointReductionWorkspace* workspace) {
  if (max_points < 1) throw InvalidInput("ReduceContactPoints: max_points must be at least 1");
  reduced->clear();
  const int n = static_cast<int>(points.size());
  if (merged_into) AssignGrowing(merged_into, n, 0);
  if (n <= max_points) {
    *reduced = points;
    if (merged_into)
      for (int i = 0; i < n; ++i) (*merged_into)[i] = i;
    return;
  }
  // The patch's mean normal and weighted centre, and its principal axes in the tangent plane.
  Vector3 centre = Vector3::Zero(), normal = Vector3::Zero();
  double total = 0;
  for (const ContactPoint& p : points) {
    centre += Weight(p) * p.p_WC;
    normal += Weight(p) * p.nhat_BA_W;
    total += Weight(p);
  }
  centre = total > 0 ? Vector3(centre / total) : points[0].p_WC;
  normal = normal.norm() > 0 ? Vector3(normal.normalized()) : Vector3::UnitZ();
  const Vector3 helper = std::abs(normal.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  Vector3 t1 = normal.cross(helper).normalized();
  Vector3 t2 = normal.cross(t1);
  Eigen::Matrix2d covariance = Eigen::Matrix2d::Zero();
  for (const ContactPoint& p : points) {
    const Eigen::Vector2d r(t1.dot(p.p_WC - centre), t2.dot(p.p_WC - centre));
    covariance += Weight(p) * r * r.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> axes(covariance);
  const Eigen::Vector2d major = axes.eigenvectors().col(1);
  Vector3 u = major.x() * t1 + major.y() * t2;
  // A patch whose spread is nearly the same in every direction (a disk, a square) has principal
  // axes that its mesh's lattice or rounding picks, and they turn with the body: a grid that spins
  // with a spinning coin aliases with its slip, and its ε (000 §V-A, 1 GPa, 64 points, ε0 = 0.1)
  // came out 5.0 % and 8.3 % low at u < 5 % and 2 % (2.6 % and 3.0 % with the grid held still).
  // Such a patch keeps the axis its grid had at the last step, laid into the present tangent plane.
  if (grid_axis) {
    const Vector3 last = *grid_axis - normal * normal.dot(*grid_axis);
    const double minor = std::max(axes.eigenvalues()(0), 0.0), most = std::max(axes.eigenvalues()(1), 0.0);
    if (minor >= kIsotropicSpread * most && last.norm() > 0.5) u = last.normalized();
    *grid_axis = u;
  }
  const Vector3 v = normal.cross(u);
  // A grid over the patch's extent along its principal axes, with about `budget` cells shaped like
  // the patch: each cell becomes one point. One pass, whatever the number of points. Points whose
  // normal leaves the patch's by more than 60° (where a body presses in past an edge: the side
  // walls of a coin sunk into a slab, slivers whose pressure barely grows along their normal) get
  // cells of their own: merged into the face's cells they tilted the rim's normals and, through
  // their depth −F/K, loaded the rim's points first, so that a sliding, spinning coin on a 1e8 Pa
  // slab rocked at the step rate and its ε (000 §V-A) came out 20–45 % high with 16 or 64 points,
  // against 1 % without them merged in. (At 30° the edge polygons of BasicDemo's resting boxes were
  // split off too, and the pile took 46 Newton iterations a step instead of 27.)
  //
  // The grid spans the patch's weighted extent, ±√3 standard deviations about its centre along each
  // axis (the whole extent of an evenly loaded rectangle; points beyond fall in the edge cells),
  // not the points' bounding box: polygons that carry next to no force move a bounding box as they
  // appear, and they do appear with the sign of a tilt (a box's side-face slivers where it sinks
  // into another's face), so the grid, and with it every reduced point, jumped as a resting box
  // rocked through level. At 150 µm into a box's corner (hint 0.05) the reduced wrench's rocking
  // stiffness then read 4× the points' Σ k·j·jᵀ, which the step meets a step late.
  const double per_weight = total > 0 ? 1 / total : 0;
  const double half_u = std::max(std::sqrt(3 * std::max(axes.eigenvalues()(1), 0.0) * per_weight), 1e-300);
  const double half_v = std::max(std::sqrt(3 * std::max(axes.eigenvalues()(0), 0.0) * per_weight), 1e-300);
  const double lo_u = -half_u, lo_v = -half_v, width_u = 2 * half_u, width_v = 2 * half_v;
  int off_normal = 0;
  for (const ContactPoint& p : points) off_normal += !Aligned(p, normal);
  // The face keeps most of the budget; off-normal points share a quarter of it (at least one cell).
  const int face_budget =
      off_normal == 0 || off_normal == n || max_points < 2 ? max_points : max_points - std::max(1, max_points / 4);
  const int side_budget = max_points - face_budget;
  using Cell = PointReductionWorkspace::Cell;
  // Both grids in one pass: the face's, then the off-normal points' (none when they have no budget
  // of their own, max_points 1: they join the face's cells). A grid of three or more cells has two
  // rows at least, and three cells make a triangle (one half of the patch, and the other half's
  // two quarters): cells in one row put their points on a line, which does not resist tipping
  // about it. (With 4 points a patch, a face grid of 3 cells was 2 × 1: two compliant 0.2 m boxes
  // stacked at 60 Hz rocked at 0.14 m/s for good.)
  struct Grid {
    int u{0}, v{0};
    bool triangle{false};
    int count() const { return triangle ? 3 : u * v; }
    int cell(int i, int j) const { return triangle ? (i == 0 ? 0 : 1 + j) : i * v + j; }
  };
  auto grid_shape = [&](int budget) {
    Grid g;
    if (budget == 3) {
      g.u = g.v = 2;
      g.triangle = true;
      return g;
    }
    const int most_u = budget >= 4 ? budget / 2 : budget;
    g.u = std::clamp(static_cast<int>(std::lround(std::sqrt(budget * width_u / width_v))), std::min(2, most_u), most_u);
    g.v = std::max(1, budget / g.u);
    return g;
  };
  const Grid face = grid_shape(face_budget);
  const Grid side_grid = side_budget > 0 ? grid_shape(side_budget) : Grid{};
  PointReductionWorkspace own;
  PointReductionWorkspace& scratch = workspace ? *workspace : own;
  std::vector<Cell>& cells = scratch.cells;
  std::vector<int>& cell_point = scratch.cell_point;
  AssignGrowing(&cells, face.count() + side_grid.count(), Cell{});
  for (int k = 0; k < n; ++k) {
    const ContactPoint& p = points[k];
    const bool side = side_budget > 0 && !Aligned(p, normal);
    const Grid& grid = side ? side_grid : face;
    const double a = (u.dot(p.p_WC - centre) - lo_u) / width_u, b = (v.dot(p.p_WC - centre) - lo_v) / width_v;
    const int i = std::clamp(static_cast<int>(a * grid.u), 0, grid.u - 1);
    const int j = std::clamp(static_cast<int>(b * grid.v), 0, grid.v - 1);
    const int cell = (side ? face.count() : 0) + grid.cell(i, j);
    if (merged_into) (*merged_into)[k] = cell;
    Cell& c = cells[cell];
    c.force += p.fn0_N;
    c.stiffness += p.stiffness_N_per_m;
    c.area += p.area_m2;
    c.pressure_area += p.pressure_Pa * p.area_m2;
    c.position += p.fn0_N * p.p_WC;
    c.stiffness_position += p.stiffness_N_per_m * p.p_WC;
    c.normal += Weight(p) * p.nhat_BA_W;
    if (p.stiffness_N_per_m > c.strongest) {
      c.strongest = p.stiffness_N_per_m;
      c.element_A = p.element_A, c.element_B = p.element_B, c.fan_triangle = p.fan_triangle;
    }
  }
  // Cells without stiffness make no point: cell_point[c] is the point cell c became, or −1.
  AssignGrowing(&cell_point, cells.size(), -1);
  for (size_t index = 0; index < cells.size(); ++index) {
    const Cell& c = cells[index];
    if (!(c.stiffness > 0)) continue;
    cell_point[index] = static_cast<int>(reduced->size());
    ContactPoint merged;
    merged.p_WC = c.force > 0 ? Vector3(c.position / c.force) : Vector3(c.stiffness_position / c.stiffness);
    merged.nhat_BA_W = c.normal.normalized();
    merged.stiffness_N_per_m = c.stiffness;
    merged.fn0_N = c.force;
    merged.phi0_m = -c.force / c.stiffness;
    merged.pressure_Pa = c.area > 0 ? c.pressure_area / c.area : 0;  // its points' mean, unbounded
    merged.area_m2 = c.area;
    merged.g_Pa_per_m = c.area > 0 ? c.stiffness / c.area : 0;
    merged.element_A = c.element_A, merged.element_B = c.element_B;
    merged.fan_triangle = c.fan_triangle;
    reduced->push_back(merged);
  }
  if (merged_into)
    for (int& index : *merged_into) index = cell_point[index];
  // The torsional friction moment μ·Σ fn·|r| about the centre (the resistance to spinning in place)
  // shrinks when points merge toward their cells' centres. Spreading the merged points about the
  // centre of force by the ratio restores it, and keeps the net force and its moment: Σ F_j·c_j is
  // unchanged by a scaling about the force centroid of a flat patch.
  Vector3 force_centre = Vector3::Zero();
  double force_total = 0, full_torsion = 0, reduced_torsion = 0;
  for (const ContactPoint& p : points) force_centre += p.fn0_N * p.p_WC, force_total += p.fn0_N;
  if (!(force_total > 0)) return;
  force_centre /= force_total;
  auto lever = [&](const Vector3& p) {
    const Vector3 r = p - force_centre;
    return (r - normal * normal.dot(r)).norm();
  };
  for (const ContactPoint& p : points) full_torsion += p.fn0_N * lever(p.p_WC);
  for (const ContactPoint& p : *reduced) reduced_torsion += p.fn0_N * lever(p.p_WC);
  if (!(reduced_torsion > 0)) return;
  const double spread = std::clamp(full_torsion / reduced_torsion, 1.0, 2.0);
  for (ContactPoint& p : *reduced) {
    const Vector3 r = p.p_WC - force_centre;
    const Vector3 along = normal * normal.dot(r);
    p.p_WC = force_centre + along + spread * (r - along);
  }
}

}  // namespace hydro
