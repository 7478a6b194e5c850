#include "hydro/volume_mesh.h"

#include <gtest/gtest.h>

#include "hydro/pressure_field.h"

namespace hydro {
namespace {

std::vector<Vector3> UnitTetVertices() {
  return {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)};
}

TEST(VolumeMeshTest, AcceptsPositiveTetAndComputesVolume) {
  VolumeMesh mesh(UnitTetVertices(), {Tet{0, 1, 2, 3}});
  EXPECT_NEAR(mesh.CalcTotalVolume(), 1.0 / 6.0, 1e-15);
  const std::array<Vector3, 4>& n = mesh.inward_normals(0);
  const std::array<double, 4>& d = mesh.face_offsets(0);
  const Vector3 inside(0.1, 0.1, 0.1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_GT(n[i].dot(inside), d[i]);
    // The vertex opposite face i lies strictly inside its half-space.
    EXPECT_GT(n[i].dot(mesh.vertex(i)), d[i] + 0.1);
  }
}

TEST(VolumeMeshTest, RejectsInvertedDegenerateAndBadInput) {
  EXPECT_THROW(VolumeMesh(UnitTetVertices(), {Tet{0, 2, 1, 3}}), InvalidInput);  // inverted
  auto flat = UnitTetVertices();
  flat[3] = Vector3(0.3, 0.3, 0);
  EXPECT_THROW(VolumeMesh(flat, {Tet{0, 1, 2, 3}}), InvalidInput);               // degenerate
  EXPECT_THROW(VolumeMesh(UnitTetVertices(), {Tet{0, 1, 2, 7}}), InvalidInput);  // index
  EXPECT_THROW(VolumeMesh(UnitTetVertices(), {Tet{0, 1, 1, 3}}), InvalidInput);  // repeated
  EXPECT_THROW(VolumeMesh(UnitTetVertices(), {}), InvalidInput);                 // empty
  auto nan = UnitTetVertices();
  nan[2].x() = std::nan("");
  EXPECT_THROW(VolumeMesh(nan, {Tet{0, 1, 2, 3}}), InvalidInput);
  try {
    VolumeMesh(UnitTetVertices(), {Tet{0, 1, 2, 3}, Tet{0, 2, 1, 3}});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("tet 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("inverted"), std::string::npos) << e.what();
  }
}

TEST(VolumeMeshTest, AFiniteTetTooLargeToMeasureIsNamedSo) {
  // Coordinates near the largest double are finite, but a volume's cube of them overflows: the
  // message says so instead of calling the tet degenerate.
  auto huge = UnitTetVertices();
  for (Vector3& p : huge) p *= 1e300;
  try {
    VolumeMesh(huge, {Tet{0, 1, 2, 3}});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("tet 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("too large to measure"), std::string::npos) << e.what();
  }
}

TEST(PressureFieldTest, GradientReproducesLinearField) {
  auto mesh = std::make_shared<VolumeMesh>(UnitTetVertices(), std::vector<Tet>{Tet{0, 1, 2, 3}});
  const Vector3 grad(2, -3, 5);
  std::vector<double> values;
  for (const Vector3& p : mesh->vertices()) values.push_back(10 + grad.dot(p));
  PressureField field(mesh, values);
  EXPECT_TRUE(field.gradient(0).isApprox(grad, 1e-12));
  EXPECT_NEAR(field.EvaluateInTet(0, Vector3(0.2, 0.3, 0.1)), 10 + grad.dot(Vector3(0.2, 0.3, 0.1)), 1e-12);
  EXPECT_EQ(field.ZeroPressureFace(0), -1);
  PressureField boundary(mesh, {1.0, 0.0, 0.0, 0.0});
  EXPECT_EQ(boundary.ZeroPressureFace(0), 0);
  EXPECT_THROW(PressureField(mesh, {1.0, -1.0, 0.0, 0.0}), InvalidInput);
  EXPECT_THROW(PressureField(mesh, {1.0, 0.0}), InvalidInput);
}

TEST(PressureFieldTest, NonlinearScaleFollows001Eq54) {
  const auto p = PressuresFromExtent({0.0, 0.5, 1.0}, 1e5, 0.5);
  EXPECT_DOUBLE_EQ(p[0], 0.0);
  EXPECT_DOUBLE_EQ(p[1], 1e5 / 0.75 * 0.5);
  EXPECT_DOUBLE_EQ(p[2], 1e5 / 0.5);
  EXPECT_THROW(PressuresFromExtent({0.5}, -1.0), InvalidInput);
  EXPECT_THROW(PressuresFromExtent({0.5}, 1e5, 1.0), InvalidInput);
  EXPECT_THROW(PressuresFromExtent({1.5}, 1e5), InvalidInput);
}

}  // namespace
}  // namespace hydro
