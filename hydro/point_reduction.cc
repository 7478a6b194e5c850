#include "hydro/point_reduction.h"

#include <algorithm>
#include <limits>

namespace hydro {

void ReduceContactPoints(const std::vector<ContactPoint>& points, int max_points, std::vector<ContactPoint>* reduced) {
  if (max_points < 1) throw InvalidInput("ReduceContactPoints: max_points must be at least 1");
  reduced->clear();
  const int n = static_cast<int>(points.size());
  if (n <= max_points) {
    *reduced = points;
    return;
  }
  // Farthest-point seeding from the point farthest from the force-weighted centre: spreads the
  // seeds over the patch deterministically.
  Vector3 centre = Vector3::Zero();
  double total = 0;
  for (const ContactPoint& p : points) {
    centre += p.fn0_N * p.p_WC;
    total += p.fn0_N;
  }
  centre = total > 0 ? Vector3(centre / total) : points[0].p_WC;
  std::vector<Vector3> seeds;
  std::vector<double> distance(n, std::numeric_limits<double>::infinity());
  int next = 0;
  double farthest = -1;
  for (int i = 0; i < n; ++i) {
    const double d = (points[i].p_WC - centre).squaredNorm();
    if (d > farthest) farthest = d, next = i;
  }
  for (int s = 0; s < max_points; ++s) {
    seeds.push_back(points[next].p_WC);
    farthest = -1;
    for (int i = 0; i < n; ++i) {
      distance[i] = std::min(distance[i], (points[i].p_WC - seeds.back()).squaredNorm());
      if (distance[i] > farthest) farthest = distance[i], next = i;
    }
  }
  std::vector<int> label(n, 0);
  for (int iteration = 0; iteration < 8; ++iteration) {
    for (int i = 0; i < n; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (int s = 0; s < max_points; ++s) {
        const double d = (points[i].p_WC - seeds[s]).squaredNorm();
        if (d < best) best = d, label[i] = s;
      }
    }
    std::vector<Vector3> sum(max_points, Vector3::Zero());
    std::vector<double> weight(max_points, 0);
    for (int i = 0; i < n; ++i) {
      sum[label[i]] += points[i].stiffness_N_per_m * points[i].p_WC;
      weight[label[i]] += points[i].stiffness_N_per_m;
    }
    for (int s = 0; s < max_points; ++s)
      if (weight[s] > 0) seeds[s] = sum[s] / weight[s];
  }
  for (int s = 0; s < max_points; ++s) {
    ContactPoint merged;
    double force = 0, stiffness = 0, area = 0, strongest = -1;
    Vector3 position = Vector3::Zero(), normal = Vector3::Zero(), stiffness_position = Vector3::Zero();
    for (int i = 0; i < n; ++i) {
      if (label[i] != s) continue;
      const ContactPoint& p = points[i];
      force += p.fn0_N;
      stiffness += p.stiffness_N_per_m;
      area += p.area_m2;
      position += p.fn0_N * p.p_WC;
      stiffness_position += p.stiffness_N_per_m * p.p_WC;
      normal += (p.fn0_N > 0 ? p.fn0_N : p.stiffness_N_per_m) * p.nhat_BA_W;
      if (p.stiffness_N_per_m > strongest) {
        strongest = p.stiffness_N_per_m;
        merged.element_A = p.element_A;
        merged.element_B = p.element_B;
        merged.polygon = p.polygon;
      }
    }
    if (!(stiffness > 0)) continue;
    merged.p_WC = force > 0 ? Vector3(position / force) : Vector3(stiffness_position / stiffness);
    merged.nhat_BA_W = normal.normalized();
    merged.stiffness_N_per_m = stiffness;
    merged.fn0_N = force;
    merged.phi0_m = -force / stiffness;
    merged.area_m2 = area;
    merged.g_Pa_per_m = area > 0 ? stiffness / area : 0;
    reduced->push_back(merged);
  }
}

}  // namespace hydro
