#include "hydro/compliant_box.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace hydro {

CompliantBox::CompliantBox(const Vector3& size, double modulus_Pa, double resolution_hint, const CompliantMesh& mesh)
    : half_size_(0.5 * size), modulus_Pa_(modulus_Pa) {
  for (int i = 0; i < 3; ++i) CheckPositive(size[i], "CompliantBox: box size");
  CheckPositive(modulus_Pa, "CompliantBox: hydroelastic modulus");
  CheckPositive(resolution_hint, "CompliantBox: resolution hint");
  gradient_Pa_per_m_ = modulus_Pa / half_size_.minCoeff();
  // The grid of MakeBoxVolumeMesh's surface at this hint.
  for (int i = 0; i < 3; ++i) cells_[i] = std::max(1, static_cast<int>(std::ceil(size[i] / resolution_hint - 1e-9)));
  face_offset_[0] = 0;
  for (int f = 0; f < 6; ++f) {
    int b, c;
    FaceTangentAxes(f, &b, &c);
    face_offset_[f + 1] = face_offset_[f] + cells_[b] * cells_[c];
  }
  tet_under_cell_.assign(face_offset_[6], -1);

  // Each boundary triangle lies in one face of the box; its tet lies in that face's region, where
  // the field's gradient is −(E/Hmin)·s·x̂_a.
  const VolumeMesh& volume = mesh.mesh();
  const PressureField& field = mesh.field();
  for (int t = 0; t < volume.num_tets(); ++t) {
    const int opposite = field.ZeroPressureFace(t);
    if (opposite < 0) continue;
    Vector3 q = Vector3::Zero();
    for (int k = 0; k < 4; ++k)
      if (k != opposite) q += volume.vertex(volume.tet(t)[k]) / 3.0;
    int a;
    q.cwiseAbs().cwiseQuotient(half_size_).maxCoeff(&a);
    const int face = 2 * a + (q[a] > 0 ? 1 : 0);
    const Vector3 expected = -gradient_Pa_per_m_ * FaceSide(face) * Vector3::Unit(a);
    if (!((field.gradient(t) - expected).norm() <= 1e-6 * gradient_Pa_per_m_))
      throw InvalidInput("CompliantBox: tet " + std::to_string(t) +
                         " on a face of the box does not carry the box's field (not a MakeBoxVolumeMesh mesh of this "
                         "size, modulus and hint)");
    const int index = Slot(face, q);
    if (tet_under_cell_[index] < 0) tet_under_cell_[index] = t;
  }
  for (int f = 0; f < 6; ++f)
    for (int i = face_offset_[f]; i < face_offset_[f + 1]; ++i)
      if (tet_under_cell_[i] < 0)
        throw InvalidInput("CompliantBox: face " + std::to_string(f) + " cell " + std::to_string(i - face_offset_[f]) +
                           " has no tet under it (not a MakeBoxVolumeMesh mesh of this size and hint)");
}

int CompliantBox::Slot(int face, const Vector3& p_BQ) const {
  int b, c;
  FaceTangentAxes(face, &b, &c);
  auto cell = [&](int axis) {
    const int i = static_cast<int>(std::floor((p_BQ[axis] + half_size_[axis]) / cell_size(axis)));
    return std::clamp(i, 0, cells_[axis] - 1);
  };
  return face_offset_[face] + cell(b) * cells_[c] + cell(c);
}

int CompliantBox::TetUnder(int face, const Vector3& p_BQ) const { return tet_under_cell_[Slot(face, p_BQ)]; }

}  // namespace hydro
