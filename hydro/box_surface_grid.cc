#include "hydro/box_surface_grid.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace hydro {

Eigen::Vector3i BoxGridCells(const Vector3& size, double resolution_hint) {
  Eigen::Vector3i cells;
  for (int i = 0; i < 3; ++i) cells[i] = std::max(1, static_cast<int>(std::ceil(size[i] / resolution_hint - 1e-9)));
  return cells;
}

BoxSurfaceGrid::BoxSurfaceGrid(const Vector3& size, double resolution_hint) : half_size_(0.5 * size) {
  for (int i = 0; i < 3; ++i) CheckPositive(size[i], "BoxSurfaceGrid: box size");
  CheckPositive(resolution_hint, "BoxSurfaceGrid: resolution hint");
  cells_ = BoxGridCells(size, resolution_hint);
  face_offset_[0] = 0;
  for (int f = 0; f < 6; ++f) {
    int b, c;
    FaceTangentAxes(f, &b, &c);
    face_offset_[f + 1] = face_offset_[f] + cells_[b] * cells_[c];
  }
  element_.assign(face_offset_[6], -1);
}

int BoxSurfaceGrid::FaceOf(const Vector3& p_BQ) const {
  int a;
  p_BQ.cwiseAbs().cwiseQuotient(half_size_).maxCoeff(&a);
  return 2 * a + (p_BQ[a] > 0 ? 1 : 0);
}

void BoxSurfaceGrid::Record(int face, const Vector3& p_BQ, int element, const char* what) {
  const int a = FaceAxis(face);
  if (!(std::abs(p_BQ[a] - FaceSide(face) * half_size_[a]) <= 1e-9 * half_size_.maxCoeff()))
    throw InvalidInput(std::string(what) + ": element " + std::to_string(element) +
                       " does not lie on a face of the box (not the mesh of this box)");
  int& slot = element_[Slot(face, p_BQ)];
  if (slot < 0) slot = element;
}

void BoxSurfaceGrid::CheckComplete(const char* what) const {
  for (int f = 0; f < 6; ++f)
    for (int i = face_offset_[f]; i < face_offset_[f + 1]; ++i)
      if (element_[i] < 0)
        throw InvalidInput(std::string(what) + ": face " + std::to_string(f) + " cell " +
                           std::to_string(i - face_offset_[f]) +
                           " has no element under it (not the mesh of this box at this hint)");
}

int BoxSurfaceGrid::Slot(int face, const Vector3& p_BQ) const {
  int b, c;
  FaceTangentAxes(face, &b, &c);
  auto cell = [&](int axis) {
    const int i = static_cast<int>(std::floor((p_BQ[axis] + half_size_[axis]) / cell_size(axis)));
    return std::clamp(i, 0, cells_[axis] - 1);
  };
  return face_offset_[face] + cell(b) * cells_[c] + cell(c);
}

}  // namespace hydro
