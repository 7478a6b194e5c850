// A body's state: at rest when made; a rigid placement q = X_WB·X with v = v_WB + ω × (q − p_WB),
// whose tets' polar rotations are X_WB's rotation; fixed vertices (v = 0 there) left out of the
// free-DoF numbering; a tet's 12 coordinates gathered in its corner order.
#include <gtest/gtest.h>

#include "fem/fem_state.h"

namespace hydro {
namespace fem {
namespace {

FemModel TwoTets() {
  return FemModel("pair", {{0, 0, 0}, {0.3, 0, 0}, {0, 0.5, 0}, {0, 0, 0.7}, {0.4, 0.4, 0.4}},
                  {{0, 1, 2, 3}, {1, 4, 2, 3}}, Material());
}

RigidTransform SomePose() {
  RigidTransform X_WB = RigidTransform::Identity();
  X_WB.linear() = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  X_WB.translation() = Vector3(0.1, -0.2, 0.3);
  return X_WB;
}

TEST(FemStateTest, StartsAtRest) {
  const FemModel model = TwoTets();
  const FemState state(model);
  ASSERT_EQ(state.num_dofs(), 15);
  for (int i = 0; i < model.num_vertices(); ++i) EXPECT_EQ(state.position(i), model.rest_positions()[i]);
  EXPECT_TRUE(state.v.isZero(0));
  ASSERT_EQ(state.rotations.size(), 2u);
  for (const Matrix3& R : state.rotations) EXPECT_EQ(R, Matrix3::Identity());
  std::vector<int> index;
  EXPECT_EQ(state.IndexFreeDofs(&index), 15);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(index[i], i);
}

TEST(FemStateTest, RigidPlacementMovesEveryVertexWithThePose) {
  const FemModel model = TwoTets();
  FemState state(model);
  const RigidTransform X_WB = SomePose();
  const Vector3 v_WB(0.1, 0.2, -0.3), w_WB(3, 5, 1);
  state.SetRigid(model, X_WB, v_WB, w_WB);
  for (int i = 0; i < model.num_vertices(); ++i) {
    const Vector3 p_WV = X_WB.linear() * model.rest_positions()[i] + X_WB.translation();
    EXPECT_LT((state.position(i) - p_WV).norm(), 1e-15);
    EXPECT_LT((state.velocity(i) - (v_WB + w_WB.cross(p_WV - X_WB.translation()))).norm(), 1e-14);
  }
  // Vertex 0 rests at B's origin: it moves with v_WB alone.
  EXPECT_LT((state.velocity(0) - v_WB).norm(), 1e-15);
  // A rigid motion deforms nothing: each tet's polar rotation is the pose's.
  state.UpdateRotations(model, state.q);
  for (const Matrix3& R : state.rotations) EXPECT_LT((R - X_WB.linear()).norm(), 1e-13);
}

TEST(FemStateTest, FixedVerticesStopAndLeaveTheFreeNumbering) {
  const FemModel model = TwoTets();
  FemState state(model);
  state.SetRigid(model, RigidTransform::Identity(), Vector3(1, 2, 3), Vector3::Zero());
  state.FixVertex(1);
  for (int i = 0; i < state.num_dofs(); ++i) EXPECT_EQ(state.fixed[i], i / 3 == 1) << i;
  EXPECT_EQ(state.velocity(1), Vector3::Zero());
  EXPECT_EQ(state.velocity(2), Vector3(1, 2, 3));
  std::vector<int> index;
  EXPECT_EQ(state.IndexFreeDofs(&index), 12);
  const std::vector<int> expected = {0, 1, 2, -1, -1, -1, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(index, expected);
}

TEST(FemStateTest, GatherTakesATetsCoordinatesInCornerOrder) {
  Eigen::VectorXd x(15);
  for (int i = 0; i < 15; ++i) x[i] = 10.0 * i;
  const Tet t = {4, 1, 2, 3};
  const Vector12 x_e = Gather(x, t);
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(x_e[3 * a + k], x[3 * t[a] + k]);
  EXPECT_EQ(x_e[0], 120.0);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
