#include "plugin/separation_certificate.h"

namespace hydro {
namespace bullet {

double MaxPointDisplacement(const RigidTransform& X_then, const RigidTransform& X_now, double radius_m) {
  // |R·q + p − R'·q − p'| ≤ |p − p'| + ‖R − R'‖₂·|q|, and the Frobenius norm bounds ‖·‖₂. An
  // unturned body moves every point alike, whatever its radius (+∞ for a half-space).
  const double turn = (X_now.linear() - X_then.linear()).norm();
  return (X_now.translation() - X_then.translation()).norm() + (turn == 0 ? 0.0 : turn * radius_m);
}

void SeparationCertificate::Certify(double gap_m, const RigidTransform& X_W0, double extent0_m, double signature0,
                                    const RigidTransform& X_W1, double extent1_m, double signature1) {
  valid_ = gap_m > 0;
  gap_m_ = gap_m;
  X_W_[0] = X_W0;
  X_W_[1] = X_W1;
  extent_m_[0] = extent0_m;
  extent_m_[1] = extent1_m;
  signature_[0] = signature0;
  signature_[1] = signature1;
}

bool SeparationCertificate::StillApartBy(double closing_m, const RigidTransform& X_W0, double signature0,
                                         const RigidTransform& X_W1, double signature1) const {
  if (!valid_ || signature0 != signature_[0] || signature1 != signature_[1]) return false;
  const double moved =
      MaxPointDisplacement(X_W_[0], X_W0, extent_m_[0]) + MaxPointDisplacement(X_W_[1], X_W1, extent_m_[1]);
  // Written so that a NaN pose or bound fails the test.
  return gap_m_ - moved > closing_m;
}

}  // namespace bullet
}  // namespace hydro
