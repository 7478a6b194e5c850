#include "hydro/contact_surface_util.h"

namespace hydro {
namespace internal {

void ClipPolygonByTet(const std::array<Vector3, 4>& inward_normals, const std::array<double, 4>& offsets,
                      const Vector3& n_poly, int skip_face, double tolerance, ClipPolygon* poly) {
  for (int f = 0; f < 4 && poly->n >= 3; ++f) {
    if (f == skip_face) continue;
    bool in_plane = true;
    for (int i = 0; i < poly->n && in_plane; ++i)
      in_plane = std::abs(inward_normals[f].dot(poly->p[i]) - offsets[f]) <= tolerance;
    if (in_plane) {
      if (inward_normals[f].dot(n_poly) <= 0) poly->n = 0;
      continue;
    }
    ClipPolygonByHalfSpace(inward_normals[f], offsets[f], tolerance, poly);
  }
}

}  // namespace internal
}  // namespace hydro
