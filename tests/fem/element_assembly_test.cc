// Assembly into a fixed pattern (fem/element_assembly.h): the step matrix a body assembles that
// way equals the one summed from triplets (FemBody::StepMatrix), for both mass models, a rotated
// and damped body, and after fixing another vertex changes the pattern.
#include <gtest/gtest.h>

#include "fem/element_assembly.h"
#include "fem/fem_body.h"

namespace hydro {
namespace fem {
namespace {

double LargestDifference(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  return Eigen::MatrixXd(a - b).cwiseAbs().maxCoeff();
}

TEST(ElementAssemblyTest, StepMatrixMatchesTheTripletSum) {
  for (MassModel mass_model : {MassModel::kLumped, MassModel::kConsistent}) {
    std::vector<Vector3> vertices;
    std::vector<Tet> tets;
    MakeTetGrid(Vector3(0.2, 0.1, 0.1), 4, 2, 2, &vertices, &tets);
    Material material;
    material.youngs_modulus_Pa = 1e5;
    material.mass_damping_1_per_s = 0.5;
    material.stiffness_damping_s = 0.02;
    FemBody body("bar", vertices, tets, material, mass_model);
    body.FixVertex(0);
    // Bent and spinning, so that every element has its own rotation.
    Eigen::VectorXd q(3 * body.num_vertices()), v(3 * body.num_vertices());
    for (int i = 0; i < body.num_vertices(); ++i) {
      const Vector3 X = body.rest_positions()[i];
      q.segment<3>(3 * i) = Vector3(X.x(), X.y() + 0.5 * X.x() * X.x(), X.z() - 0.2 * X.x() * X.y());
      v.segment<3>(3 * i) = Vector3(0.1, -X.z(), X.y());
    }
    body.SetState(q, v);
    const double dt = 0.01, theta = 0.75;
    const FreeMotion free_motion = body.CalcFreeMotion(dt, Vector3(0, 0, -9.81), theta);
    const Eigen::SparseMatrix<double> reference = body.StepMatrix(dt, theta);  // same rotations
    const double scale = Eigen::MatrixXd(reference).cwiseAbs().maxCoeff();
    EXPECT_LT(LargestDifference(free_motion.A, reference), 1e-12 * scale);
    // A new fixed vertex: a smaller pattern, assembled afresh.
    body.FixVertex(body.num_vertices() - 1);
    const FreeMotion after = body.CalcFreeMotion(dt, Vector3(0, 0, -9.81), theta);
    ASSERT_EQ(after.A.rows(), free_motion.A.rows() - 3);
    EXPECT_LT(LargestDifference(after.A, body.StepMatrix(dt, theta)), 1e-12 * scale);
  }
}

TEST(ElementAssemblyTest, SkipsFixedDofsAndKeepsTheDiagonal) {
  // One tet, vertex 0 fixed: 9 free DoFs, every entry among them present, none of vertex 0's.
  const std::vector<Tet> tets = {{0, 1, 2, 3}};
  std::vector<int> index(12, -1);
  for (int i = 3; i < 12; ++i) index[i] = i - 3;
  ElementAssembly assembly(tets, index, 9);
  Eigen::SparseMatrix<double> A = assembly.zero_pattern();
  EXPECT_EQ(A.nonZeros(), 81);
  Eigen::Matrix<double, 12, 12> Ke;
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) Ke(r, c) = 100 * r + c;
  assembly.Add(0, Ke, 2.0, &A);
  assembly.AddDiagonal(4, 0.5, &A);
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) EXPECT_EQ(A.coeff(r, c), 2 * Ke(r + 3, c + 3) + (r == 4 && c == 4 ? 0.5 : 0.0));
}

TEST(ElementAssemblyTest, SlotFindsAnEntryOfThePatternAndNoneOutsideIt) {
  // Two tets sharing the face 1-2-3: vertices 0 and 4 are never in one tet. No DoF fixed.
  const std::vector<Tet> tets = {{0, 1, 2, 3}, {4, 1, 2, 3}};
  std::vector<int> index(15);
  for (int i = 0; i < 15; ++i) index[i] = i;
  const ElementAssembly assembly(tets, index, 15);
  Eigen::SparseMatrix<double> A = assembly.zero_pattern();
  const int slot = assembly.Slot(1, 7);
  ASSERT_GE(slot, 0);
  A.valuePtr()[slot] = 3.0;
  EXPECT_EQ(A.coeff(1, 7), 3.0);
  EXPECT_EQ(assembly.Slot(0, 12), -1);  // vertices 0 and 4: not in the pattern
  EXPECT_EQ(assembly.Slot(-1, 7), -1);  // a fixed DoF
  EXPECT_EQ(assembly.Slot(14, 14), A.nonZeros() - 1);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
