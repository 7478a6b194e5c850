// The model's rest data against closed forms for one right tet (edges a, b, c along the axes):
// V = abc/6, Dm⁻¹ = diag(1/a, 1/b, 1/c), lumped masses ρV/4, K0e symmetric with the six rigid
// modes in its null space and the strain energy ½V·εᵀCε of uniform strains; validation names the
// body and the element; unused vertices are dropped and the tets renumbered; the kept shape
// gradients are those of the rest mesh, and Dm⁻¹ and F taken from them are those of Dm⁻¹.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <random>
#include <string>
#include <utility>

#include "fem/fem_model.h"

namespace hydro {
namespace fem {
namespace {

constexpr double kA = 0.3, kB = 0.5, kC = 0.7;  // m

Material SomeMaterial() {
  Material material;
  material.youngs_modulus_Pa = 2e6;
  material.poisson_ratio = 0.3;
  material.density_kg_per_m3 = 1200;
  return material;
}

FemModel RightTet(MassModel mass_model = MassModel::kLumped) {
  return FemModel("right tet", {{0, 0, 0}, {kA, 0, 0}, {0, kB, 0}, {0, 0, kC}}, {{0, 1, 2, 3}}, SomeMaterial(),
                  mass_model);
}

// The 12 corner displacements of the displacement field u(X).
template <typename Field>
Vector12 Displacements(const FemModel& model, Field u) {
  Vector12 u_e;
  for (int a = 0; a < 4; ++a) u_e.segment<3>(3 * a) = u(model.rest_positions()[model.tets()[0][a]]);
  return u_e;
}

TEST(FemModelTest, RightTetVolumeAndDmInverseAreClosedForms) {
  const FemModel model = RightTet();
  EXPECT_NEAR(model.volume(0), kA * kB * kC / 6, 1e-17);
  EXPECT_LT((model.CalcDmInverse(0) - Vector3(1 / kA, 1 / kB, 1 / kC).asDiagonal().toDenseMatrix()).norm(), 1e-14);
}

TEST(FemModelTest, LumpedMassesShareTheTetsMassEqually) {
  const FemModel model = RightTet();
  const double mass = SomeMaterial().density_kg_per_m3 * kA * kB * kC / 6;
  for (int v = 0; v < 4; ++v) EXPECT_NEAR(model.lumped_mass(v), mass / 4, 1e-14);
  EXPECT_NEAR(model.CalcMass(), mass, 1e-14);
}

TEST(FemModelTest, AssembledMassCarriesTheBodysMassPerAxis) {
  const double mass = SomeMaterial().density_kg_per_m3 * kA * kB * kC / 6;
  for (MassModel mass_model : {MassModel::kLumped, MassModel::kConsistent}) {
    std::vector<Eigen::Triplet<double>> M;
    RightTet(mass_model).AssembleMass(&M);
    double total = 0;
    for (const auto& t : M) {
      EXPECT_EQ(t.row() % 3, t.col() % 3);  // no coupling across axes
      total += t.value();
    }
    EXPECT_NEAR(total, 3 * mass, 1e-13);
  }
}

TEST(FemModelTest, RestStiffnessIsSymmetricWithTheRigidModesInItsNullSpace) {
  const FemModel model = RightTet();
  const Matrix12& K = model.rest_stiffness(0);
  EXPECT_LT((K - K.transpose()).norm(), 1e-12 * K.norm());
  // Three translations and three infinitesimal rotations ω × X.
  for (int axis = 0; axis < 3; ++axis) {
    const Vector3 e = Vector3::Unit(axis);
    const Vector12 translation = Displacements(model, [&](const Vector3&) { return e; });
    const Vector12 rotation = Displacements(model, [&](const Vector3& X) { return Vector3(e.cross(X)); });
    EXPECT_LT((K * translation).norm(), 1e-12 * K.norm() * translation.norm());
    EXPECT_LT((K * rotation).norm(), 1e-12 * K.norm() * rotation.norm());
  }
  // Nothing else: exactly six zero eigenvalues, six positive.
  const Eigen::SelfAdjointEigenSolver<Matrix12> eigen(K);
  const double largest = eigen.eigenvalues()[11];
  for (int i = 0; i < 6; ++i) EXPECT_LT(std::abs(eigen.eigenvalues()[i]), 1e-12 * largest);
  EXPECT_GT(eigen.eigenvalues()[6], 1e-3 * largest);
}

TEST(FemModelTest, RestStiffnessGivesTheStrainEnergyOfUniformStrains) {
  const FemModel model = RightTet();
  const Matrix12& K = model.rest_stiffness(0);
  const LameParameters lame = ToLame(SomeMaterial().youngs_modulus_Pa, SomeMaterial().poisson_ratio);
  const double V = kA * kB * kC / 6, strain = 1e-3;
  // Uniaxial ε_xx = ε (lateral strains zero): ½V(λ + 2μ)ε².
  const Vector12 stretch = Displacements(model, [&](const Vector3& X) { return Vector3(strain * X.x(), 0, 0); });
  EXPECT_NEAR(0.5 * stretch.dot(K * stretch), 0.5 * V * (lame.lambda + 2 * lame.mu) * strain * strain, 1e-12);
  // Simple shear, engineering γ_yz = γ: ½Vμγ².
  const Vector12 shear = Displacements(model, [&](const Vector3& X) { return Vector3(0, strain * X.z(), 0); });
  EXPECT_NEAR(0.5 * shear.dot(K * shear), 0.5 * V * lame.mu * strain * strain, 1e-12);
}

TEST(FemModelTest, RestCoordinatesFollowTheTetsCornerOrder) {
  const FemModel model("pair", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}}, {{0, 1, 2, 3}, {1, 4, 2, 3}},
                       SomeMaterial());
  const Vector12 X_e = model.RestCoordinates(1);
  for (int a = 0; a < 4; ++a) EXPECT_EQ(Vector3(X_e.segment<3>(3 * a)), model.rest_positions()[model.tets()[1][a]]);
  EXPECT_EQ(Vector3(X_e.segment<3>(3)), Vector3(1, 1, 1));
}

// Ten tets on 40 random points in [−1, 1]³, each turned positive.
FemModel RandomTetModel(unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  std::vector<Vector3> points(40);
  for (Vector3& p : points) p = Vector3(coordinate(random), coordinate(random), coordinate(random));
  std::vector<Tet> tets;
  for (int i = 0; i + 3 < static_cast<int>(points.size()); i += 4) {
    Tet t = {i, i + 1, i + 2, i + 3};
    if (SignedTetVolume(points[t[0]], points[t[1]], points[t[2]], points[t[3]]) < 0) std::swap(t[1], t[2]);
    tets.push_back(t);
  }
  return FemModel("random", points, tets, SomeMaterial());
}

TEST(FemModelTest, KeptShapeGradientsEqualOnesComputedAfreshFromTheRestMesh) {
  const FemModel model = RandomTetModel(16);
  ASSERT_EQ(model.num_tets(), 10);
  for (int e = 0; e < model.num_tets(); ++e) {
    Matrix3 Dm;
    const Tet& t = model.tets()[e];
    for (int i = 0; i < 3; ++i) Dm.col(i) = model.rest_positions()[t[i + 1]] - model.rest_positions()[t[0]];
    const std::array<Vector3, 4> fresh = CalcShapeGradients(Dm.inverse());
    // Bit for bit: the Neo-Hookean step reads the kept ones where it once computed them.
    for (int a = 0; a < 4; ++a) EXPECT_EQ(model.shape_gradients(e)[a], fresh[a]) << "tet " << e << " corner " << a;
  }
}

TEST(FemModelTest, DmInverseAndDeformationGradientFromTheShapeGradientsAreThoseOfDmInverse) {
  // The model keeps ∇N_a only; Dm⁻¹ (its rows ∇N_1..3) and F = Ds·Dm⁻¹ come from them bit for bit.
  const FemModel model = RandomTetModel(17);
  std::mt19937 random(18);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  Eigen::VectorXd x(3 * model.num_vertices());
  for (int i = 0; i < x.size(); ++i) x[i] = coordinate(random);
  for (int e = 0; e < model.num_tets(); ++e) {
    Matrix3 Dm;
    const Tet& t = model.tets()[e];
    for (int i = 0; i < 3; ++i) Dm.col(i) = model.rest_positions()[t[i + 1]] - model.rest_positions()[t[0]];
    const Matrix3 Dm_inverse = Dm.inverse();
    EXPECT_TRUE(model.CalcDmInverse(e) == Dm_inverse) << "tet " << e;
    EXPECT_TRUE(model.CalcDeformationGradient(x, e) == CalcDeformationGradient(x, t, Dm_inverse)) << "tet " << e;
  }
}

TEST(FemModelTest, BadMeshNamesTheBodyAndTheElement) {
  try {
    FemModel("jelly", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 2, 1, 3}}, SomeMaterial());
    FAIL() << "an inverted tet was accepted";
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("deformable 'jelly': ", 0), 0u) << message;
    EXPECT_NE(message.find("tet 0"), std::string::npos) << message;
    EXPECT_NE(message.find("inverted"), std::string::npos) << message;
  }
}

TEST(FemModelTest, UnusedVerticesAreDroppedAndTheTetsRenumbered) {
  // Vertex 0 is unused: the others become 0..3 in their order.
  const FemModel model("jelly", {{9, 9, 9}, {0, 0, 0}, {kA, 0, 0}, {0, kB, 0}, {0, 0, kC}}, {{1, 2, 3, 4}},
                       SomeMaterial());
  ASSERT_EQ(model.num_vertices(), 4);
  EXPECT_EQ(model.tets()[0], (Tet{0, 1, 2, 3}));
  EXPECT_EQ(model.rest_positions()[1], Vector3(kA, 0, 0));
  ASSERT_EQ(model.warnings().size(), 1u);
  EXPECT_EQ(model.warnings()[0], "deformable 'jelly': 1 vertices no tet uses were dropped");
  EXPECT_NEAR(model.volume(0), kA * kB * kC / 6, 1e-17);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
