#pragma once
// A pair once found apart stays apart until its bodies have moved as far as they were apart.
//
// If every point of two bodies' extents projected on some fixed world axis d̂ leaves a gap g
// between them, and since then each point of body i has moved by at most D_i, the projections
// along d̂ are still at least g − D_0 − D_1 apart. A point within r of a body's frame origin moves
// by at most |p − p'| + ‖R − R'‖₂·r ≤ |p − p'| + ‖R − R'‖_F·r from pose (R', p') to (R, p). So
// a pair certified at gap g is still apart by more than the most it can close in the coming step
// (closing_m) while g − D_0 − D_1 > closing_m, and its seven-axis test (pair_contact.h) can be
// skipped: a pile's neighbour pairs at rest skip it step after step. Teleported bodies move their
// poses, and so void the certificate like any motion.
#include "hydro/math.h"

namespace hydro {
namespace bullet {

// The most any point within `radius_m` of the frame origin moves from pose X_then to X_now.
double MaxPointDisplacement(const RigidTransform& X_then, const RigidTransform& X_now, double radius_m);

class SeparationCertificate {
 public:
  // Bodies posed at X_W0 and X_W1, their geometries within extent0_m and extent1_m of their
  // frames' origins, are apart by gap_m > 0 along some fixed axis. The signatures are any values
  // that change when a body's shape does (Bullet's bounding-sphere radius).
  void Certify(double gap_m, const RigidTransform& X_W0, double extent0_m, double signature0,
               const RigidTransform& X_W1, double extent1_m, double signature1);
  void Clear() { valid_ = false; }
  bool valid() const { return valid_; }
  double extent0_m() const { return extent_m_[0]; }
  double extent1_m() const { return extent_m_[1]; }
  // Whether bodies now at X_W0 and X_W1 are still apart by more than closing_m along that axis.
  // False when no certificate is held, or a signature differs from the one certified.
  bool StillApartBy(double closing_m, const RigidTransform& X_W0, double signature0, const RigidTransform& X_W1,
                    double signature1) const;

 private:
  bool valid_{false};
  double gap_m_{0};
  double extent_m_[2] = {0, 0};
  double signature_[2] = {0, 0};
  RigidTransform X_W_[2] = {RigidTransform::Identity(), RigidTransform::Identity()};
};

}  // namespace bullet
}  // namespace hydro
