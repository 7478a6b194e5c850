// The contact problem's assembly (fem/contact_problem_assembly.h) against dense products written
// out here: grouped Jacobians, their impulse and curvature sums, the Delassus trace, and Newton's
// matrix written in place.
#include "fem/contact_problem_assembly.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>
#include <vector>

namespace hydro {
namespace fem {
namespace internal {
namespace {

constexpr int kUnknowns = 15;

// A rigid body's 6 DoFs (unknowns 0–5) and a deformable's three vertices (unknowns 6–14).
std::vector<BlockLayout> TwoBlocks() {
  std::vector<BlockLayout> layout(2);
  for (int i = 0; i < 6; ++i) layout[0].unknown.push_back(i);
  for (int i = 0; i < 9; ++i) layout[1].unknown.push_back(6 + i);
  layout[1].offset = 6;
  return layout;
}

Eigen::Matrix<double, 3, Eigen::Dynamic> Random3(int cols, std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, cols);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < cols; ++c) J(r, c) = u(*rng);
  return J;
}

// A deformable point's row [w₁·I, w₂·I, w₃·I] over the three vertices.
Eigen::Matrix<double, 3, Eigen::Dynamic> Barycentric(double w1, double w2, double w3) {
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, 9);
  J << w1 * Matrix3::Identity(), w2 * Matrix3::Identity(), w3 * Matrix3::Identity();
  return J;
}

// The constraint's dense row over all unknowns.
Eigen::Matrix<double, 3, kUnknowns> Dense(const std::vector<VelocityTerm>& terms,
                                          const std::vector<BlockLayout>& layout) {
  Eigen::Matrix<double, 3, kUnknowns> J = Eigen::Matrix<double, 3, kUnknowns>::Zero();
  for (const VelocityTerm& t : terms)
    for (int c = 0; c < t.Jv_BcAc_W.cols(); ++c) J.col(layout[t.block].unknown[t.first_dof + c]) += t.Jv_BcAc_W.col(c);
  return J;
}

struct Fixture {
  std::vector<BlockLayout> layout = TwoBlocks();
  std::vector<std::vector<VelocityTerm>> constraints;
  GroupedJacobian rows;
  Fixture() {
    std::mt19937 rng(5);
    // Rigid body against the deformable (two points of one pair of elements: one group), a point
    // on the deformable only (its own group, of the barycentric form), and one on the body only.
    for (int k = 0; k < 2; ++k)
      constraints.push_back({{0, 0, Random3(6, &rng)}, {1, 0, Barycentric(0.2 + 0.1 * k, 0.5, 0.3 - 0.1 * k)}});
    constraints.push_back({{1, 0, Barycentric(0.6, 0.3, 0.1)}});
    constraints.push_back({{0, 0, Random3(6, &rng)}, {0, 3, Random3(3, &rng)}});  // DoFs 3–5 named twice
    for (const auto& terms : constraints) rows.Add(terms, layout);
  }
};

TEST(ContactProblemAssemblyTest, ConstraintsNamingTheSameUnknownsShareAGroup) {
  const Fixture f;
  EXPECT_EQ(f.rows.num_groups(), 3);
  EXPECT_EQ(f.rows.group(0), f.rows.group(1));
  EXPECT_NE(f.rows.group(2), f.rows.group(0));
  EXPECT_NE(f.rows.group(3), f.rows.group(0));
  EXPECT_EQ(f.rows.unknowns(f.rows.group(3)).size(), 6u);  // a DoF named twice is one unknown
}

TEST(ContactProblemAssemblyTest, VelocitiesImpulsesAndCurvaturesMatchDenseProducts) {
  Fixture f;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd x(kUnknowns);
  for (int i = 0; i < kUnknowns; ++i) x[i] = u(rng);
  std::vector<Eigen::VectorXd> local;
  f.rows.Gather(x, &local);
  f.rows.ClearSums(true);
  Eigen::VectorXd gradient = Eigen::VectorXd::Zero(kUnknowns), expected_gradient = gradient;
  Eigen::MatrixXd expected_H = Eigen::MatrixXd::Zero(kUnknowns, kUnknowns);
  for (size_t c = 0; c < f.constraints.size(); ++c) {
    const Eigen::Matrix<double, 3, kUnknowns> J = Dense(f.constraints[c], f.layout);
    EXPECT_LT((f.rows.Times(static_cast<int>(c), local) - J * x).norm(), 1e-14) << c;
    const Vector3 impulse(u(rng), u(rng), u(rng));
    Matrix3 B;
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) B(r, k) = u(rng);
    const Matrix3 H = B * B.transpose();  // symmetric, as the laws' curvatures are
    f.rows.AddImpulse(static_cast<int>(c), impulse);
    f.rows.AddCurvature(static_cast<int>(c), H);
    expected_gradient += J.transpose() * impulse;
    expected_H += J.transpose() * H * J;
  }
  f.rows.ScatterImpulses(&gradient);
  EXPECT_LT((gradient - expected_gradient).norm(), 1e-13);
  HessianAssembly assembly;
  assembly.Begin();
  f.rows.ScatterCurvatures(&assembly);
  const Eigen::MatrixXd H(assembly.Finish(kUnknowns));
  // Only the lower triangle is written (the factorization reads no other).
  const Eigen::MatrixXd lower = expected_H.triangularView<Eigen::Lower>();
  EXPECT_LT((H - lower).norm(), 1e-13 * expected_H.norm());
}

TEST(ContactProblemAssemblyTest, TheDelassusTraceIsThatOfTheDenseRow) {
  const Fixture f;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (size_t c = 0; c < f.constraints.size(); ++c) {
    const std::vector<int>& unknowns = f.rows.unknowns(f.rows.group(static_cast<int>(c)));
    const int m = static_cast<int>(unknowns.size());
    Eigen::MatrixXd B(m, m);
    for (int r = 0; r < m; ++r)
      for (int k = 0; k < m; ++k) B(r, k) = u(rng);
    const Eigen::MatrixXd W = B * B.transpose();
    // W over the group's unknowns, as a dense matrix over all of them.
    Eigen::MatrixXd W_full = Eigen::MatrixXd::Zero(kUnknowns, kUnknowns);
    for (int r = 0; r < m; ++r)
      for (int k = 0; k < m; ++k) W_full(unknowns[r], unknowns[k]) = W(r, k);
    const Eigen::Matrix<double, 3, kUnknowns> J = Dense(f.constraints[c], f.layout);
    const double expected = (J * W_full * J.transpose()).trace();
    EXPECT_NEAR(f.rows.CongruenceTrace(static_cast<int>(c), W), expected, 1e-13 * std::abs(expected)) << c;
  }
}

// The first assembly records where each entry lands; later ones write values in place, and must
// give the matrix a fresh assembly of the same entries would (repeated entries summed).
TEST(ContactProblemAssemblyTest, NewtonsMatrixWrittenInPlaceEqualsAFreshAssembly) {
  const std::vector<std::tuple<int, int, double>> pattern = {{0, 0, 1}, {2, 1, 2}, {2, 1, 3}, {3, 3, 4}, {3, 0, 5}};
  HessianAssembly in_place;
  for (int round = 0; round < 3; ++round) {
    in_place.Begin();
    HessianAssembly fresh;
    fresh.Begin();
    for (const auto& [row, col, value] : pattern) {
      in_place.Add(row, col, value * (round + 1));
      fresh.Add(row, col, value * (round + 1));
    }
    const Eigen::MatrixXd H(in_place.Finish(4)), expected(fresh.Finish(4));
    EXPECT_EQ(H, expected) << "round " << round;
    EXPECT_EQ(H(2, 1), 5.0 * (round + 1));
  }
}

// An assembly begun again before its first Finish() (a Newton call that stopped at its first
// convergence check) starts its recording over instead of counting the entries twice.
TEST(ContactProblemAssemblyTest, AnAssemblyBegunAgainBeforeItsFirstFinishStartsOver) {
  HessianAssembly assembly;
  assembly.Begin();
  assembly.Add(1, 0, 2.0);
  assembly.Begin();
  assembly.Add(1, 0, 3.0);
  const Eigen::MatrixXd H(assembly.Finish(2));
  EXPECT_EQ(H(1, 0), 3.0);
  EXPECT_EQ(H.sum(), 3.0);
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
