#include "fem/fem_state.h"

namespace hydro {
namespace fem {

FemState::FemState(const FemModel& model) {
  const int num_vertices = model.num_vertices();
  rotations.assign(model.num_tets(), Matrix3::Identity());
  fixed.assign(3 * num_vertices, false);
  q.resize(3 * num_vertices);
  for (int i = 0; i < num_vertices; ++i) q.segment<3>(3 * i) = model.rest_positions()[i];
  v = Eigen::VectorXd::Zero(q.size());
}

void FemState::SetRigid(const FemModel& model, const RigidTransform& X_WB, const Vector3& v_WB, const Vector3& w_WB) {
  for (int i = 0; i < model.num_vertices(); ++i) {
    const Vector3 p_WV = X_WB * model.rest_positions()[i];
    q.segment<3>(3 * i) = p_WV;
    v.segment<3>(3 * i) = v_WB + w_WB.cross(p_WV - X_WB.translation());
  }
}

void FemState::FixVertex(int vertex) {
  for (int k = 0; k < 3; ++k) {
    fixed[3 * vertex + k] = true;
    v[3 * vertex + k] = 0;
  }
}

void FemState::UpdateRotations(const FemModel& model, const Eigen::VectorXd& x) {
  for (int e = 0; e < model.num_tets(); ++e) rotations[e] = CalcPolarRotation(model.CalcDeformationGradient(x, e));
}

int FemState::IndexFreeDofs(std::vector<int>* index) const {
  const int n = num_dofs();
  index->assign(n, -1);
  int num_free = 0;
  for (int i = 0; i < n; ++i)
    if (!fixed[i]) (*index)[i] = num_free++;
  return num_free;
}

Vector12 Gather(const Eigen::VectorXd& x, const Tet& t) {
  Vector12 x_e;
  for (int a = 0; a < 4; ++a) x_e.segment<3>(3 * a) = x.segment<3>(3 * t[a]);
  return x_e;
}

}  // namespace fem
}  // namespace hydro
