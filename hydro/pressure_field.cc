#include "hydro/pressure_field.h"

#include <algorithm>
#include <sstream>

namespace hydro {

PressureField::PressureField(std::shared_ptr<const VolumeMesh> mesh, std::vector<double> vertex_pressures_Pa)
    : mesh_(std::move(mesh)), values_(std::move(vertex_pressures_Pa)) {
  if (!mesh_) throw InvalidInput("PressureField: no mesh");
  if (static_cast<int>(values_.size()) != mesh_->num_vertices()) {
    std::ostringstream msg;
    msg << "PressureField: " << values_.size() << " values for " << mesh_->num_vertices() << " vertices";
    throw InvalidInput(msg.str());
  }
  for (size_t v = 0; v < values_.size(); ++v) {
    if (!(std::isfinite(values_[v]) && values_[v] >= 0)) {
      std::ostringstream msg;
      msg << "PressureField: vertex " << v << " has pressure " << values_[v] << " (must be finite and non-negative)";
      throw InvalidInput(msg.str());
    }
    max_value_ = std::max(max_value_, values_[v]);
  }
  const int num_tets = mesh_->num_tets();
  gradients_.resize(num_tets);
  offsets_.resize(num_tets);
  zero_face_.assign(num_tets, -1);
  range_.resize(num_tets);
  for (int t = 0; t < num_tets; ++t) {
    const Tet& k = mesh_->tet(t);
    range_[t] = {std::min({values_[k[0]], values_[k[1]], values_[k[2]], values_[k[3]]}),
                 std::max({values_[k[0]], values_[k[1]], values_[k[2]], values_[k[3]]})};
    const Vector3& a = mesh_->vertex(k[0]);
    Matrix3 edges;
    edges.row(0) = mesh_->vertex(k[1]) - a;
    edges.row(1) = mesh_->vertex(k[2]) - a;
    edges.row(2) = mesh_->vertex(k[3]) - a;
    const Vector3 dp(values_[k[1]] - values_[k[0]], values_[k[2]] - values_[k[0]], values_[k[3]] - values_[k[0]]);
    // edges·∇p = Δp; the mesh guarantees a non-degenerate tet.
    gradients_[t] = edges.partialPivLu().solve(dp);
    offsets_[t] = values_[k[0]] - gradients_[t].dot(a);
    for (int i = 0; i < 4; ++i) {
      if (values_[k[(i + 1) % 4]] == 0 && values_[k[(i + 2) % 4]] == 0 && values_[k[(i + 3) % 4]] == 0) {
        zero_face_[t] = i;
        break;
      }
    }
  }
}

std::vector<double> PressuresFromExtent(const std::vector<double>& extent, double modulus_Pa, double stiffening_k) {
  CheckPositive(modulus_Pa, "hydroelastic modulus");
  if (!(std::isfinite(stiffening_k) && stiffening_k >= 0 && stiffening_k < 1)) {
    std::ostringstream msg;
    msg << "nonlinear stiffening k must lie in [0, 1), got " << stiffening_k;
    throw InvalidInput(msg.str());
  }
  std::vector<double> p(extent.size());
  for (size_t v = 0; v < extent.size(); ++v) {
    const double e = extent[v];
    if (!(std::isfinite(e) && e >= -1e-12 && e <= 1 + 1e-12)) {
      std::ostringstream msg;
      msg << "extent at vertex " << v << " is " << e << ", outside [0, 1]";
      throw InvalidInput(msg.str());
    }
    const double e_clamped = std::clamp(e, 0.0, 1.0);
    // 001 eq. 5.3–5.4: p0 = M(e)·e with M(e) = M0/(1 − k·e).
    p[v] = modulus_Pa / (1.0 - stiffening_k * e_clamped) * e_clamped;
  }
  return p;
}

}  // namespace hydro
