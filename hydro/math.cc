#include "hydro/math.h"

#include <sstream>

namespace hydro {

void CheckPositive(double value, std::string_view what) {
  if (!(std::isfinite(value) && value > 0)) {
    std::ostringstream msg;
    msg << what << " must be finite and positive, got " << value;
    throw InvalidInput(msg.str());
  }
}

void CheckNonNegative(double value, std::string_view what) {
  if (!(std::isfinite(value) && value >= 0)) {
    std::ostringstream msg;
    msg << what << " must be finite and non-negative, got " << value;
    throw InvalidInput(msg.str());
  }
}

void CheckPose(const RigidTransform& X, const char* what) {
  if (!X.matrix().allFinite()) {
    throw InvalidInput(std::string(what) + " has a non-finite entry");
  }
  const Matrix3 R = X.linear();
  const double orthonormality_error = (R.transpose() * R - Matrix3::Identity()).cwiseAbs().maxCoeff();
  if (orthonormality_error > 1e-9 || R.determinant() < 0) {
    std::ostringstream msg;
    msg << what << " is not a rigid transform (rotation part off by " << orthonormality_error << ", det "
        << R.determinant() << ")";
    throw InvalidInput(msg.str());
  }
}

void CheckFiniteVertices(const std::vector<Vector3>& vertices, const char* mesh) {
  for (int v = 0; v < static_cast<int>(vertices.size()); ++v) {
    if (!IsFinite(vertices[v])) {
      std::ostringstream msg;
      msg << mesh << ": vertex " << v << " has a non-finite coordinate";
      throw InvalidInput(msg.str());
    }
  }
}

}  // namespace hydro
