#pragma once
// The state of a FEM body (002 §V): what changes as it moves — vertex positions q and velocities
// v (3 entries per vertex, world frame), each tet's corotational rotation R (002 §V-B), and which
// DoFs are fixed. Sized for one FemModel; a copy is a snapshot the body can be reset to.
#include <Eigen/Core>

#include <vector>

#include "fem/fem_model.h"
#include "fem/tet_element.h"
#include "hydro/math.h"
#include "hydro/volume_mesh.h"

namespace hydro {
namespace fem {

struct FemState {
  // At rest: q = the rest positions, v = 0, every R = I, no DoF fixed.
  explicit FemState(const FemModel& model);

  int num_dofs() const { return static_cast<int>(q.size()); }
  Vector3 position(int vertex) const { return q.segment<3>(3 * vertex); }
  Vector3 velocity(int vertex) const { return v.segment<3>(3 * vertex); }

  // Places the body rigidly: q = X_WB·X for each rest position X, v = v_WB + ω_WB × (q − p_WB).
  void SetRigid(const FemModel& model, const RigidTransform& X_WB, const Vector3& v_WB, const Vector3& w_WB);
  // Fixes the vertex's three DoFs and zeroes their velocity.
  void FixVertex(int vertex);
  // R of each tet from the polar decomposition of its deformation gradient at positions x.
  void UpdateRotations(const FemModel& model, const Eigen::VectorXd& x);
  // Numbers the free DoFs in order: (*index)[i] is DoF i's index among them, −1 where fixed.
  // Returns how many are free.
  int IndexFreeDofs(std::vector<int>* index) const;

  Eigen::VectorXd q;               // 3 per vertex, world frame (m)
  Eigen::VectorXd v;               // 3 per vertex, world frame (m/s)
  std::vector<Matrix3> rotations;  // per tet, R of F = R·S: the corotational frame (002 §V-B)
  // Per DoF. Fixed DoFs are a boundary condition, not geometry: they change at run time
  // (FixVertex after construction) and constrain v (0 there), so they live with v here — a
  // snapshot restores both together — and the model stays immutable.
  std::vector<bool> fixed;
};

// x_e, the 12 coordinates of tet t's corners in x (3 per vertex).
Vector12 Gather(const Eigen::VectorXd& x, const Tet& t);

}  // namespace fem
}  // namespace hydro
