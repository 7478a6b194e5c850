#include "hydro/compliant_box.h"

#include <string>

namespace hydro {

CompliantBox::CompliantBox(const Vector3& size, double modulus_Pa, double resolution_hint, const CompliantMesh& mesh)
    : grid_(size, resolution_hint) {
  CheckPositive(modulus_Pa, "CompliantBox: hydroelastic modulus");
  gradient_Pa_per_m_ = modulus_Pa / half_size().minCoeff();
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
    const int face = grid_.FaceOf(q);
    const Vector3 expected =
        -gradient_Pa_per_m_ * BoxSurfaceGrid::FaceSide(face) * Vector3::Unit(BoxSurfaceGrid::FaceAxis(face));
    if (!((field.gradient(t) - expected).norm() <= 1e-6 * gradient_Pa_per_m_))
      throw InvalidInput("CompliantBox: tet " + std::to_string(t) +
                         " on a face of the box does not carry the box's field (not a MakeBoxVolumeMesh mesh of this "
                         "size and modulus)");
    grid_.Record(face, q, t, "CompliantBox");
  }
  grid_.CheckComplete("CompliantBox");
}

RigidBox::RigidBox(const Vector3& size, double resolution_hint, const TriangleSurfaceMesh& mesh)
    : grid_(size, resolution_hint) {
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const Triangle& k = mesh.triangle(t);
    const Vector3 q = (mesh.vertex(k[0]) + mesh.vertex(k[1]) + mesh.vertex(k[2])) / 3.0;
    grid_.Record(grid_.FaceOf(q), q, t, "RigidBox");
  }
  grid_.CheckComplete("RigidBox");
}

}  // namespace hydro
