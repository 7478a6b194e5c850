#include "hydro/vtk_volume_mesh.h"

#include <gtest/gtest.h>

#include <sstream>

#include "hydro/make_meshes.h"

namespace hydro {
namespace {

std::string ToVtk(const VolumeMesh& mesh) {
  std::ostringstream out;
  out.precision(17);
  out << "# vtk DataFile Version 3.0\nwritten by a test\nASCII\nDATASET UNSTRUCTURED_GRID\n";
  out << "POINTS " << mesh.num_vertices() << " double\n";
  for (const Vector3& p : mesh.vertices()) out << p.x() << " " << p.y() << " " << p.z() << "\n";
  out << "CELLS " << mesh.num_tets() << " " << 5 * mesh.num_tets() << "\n";
  for (const Tet& t : mesh.tets()) out << "4 " << t[0] << " " << t[1] << " " << t[2] << " " << t[3] << "\n";
  out << "CELL_TYPES " << mesh.num_tets() << "\n";
  for (int i = 0; i < mesh.num_tets(); ++i) out << "10\n";
  return out.str();
}

// Two tets sharing a face, in Gmsh's style: a vertex cell and a triangle cell mixed in, one tet
// listed inverted, and an unused point.
const char* kTwoTets = R"(# vtk DataFile Version 2.0
two tets, Created by hand
ASCII
DATASET UNSTRUCTURED_GRID
POINTS 6 double
0 0 0
1 0 0
0 1 0
0 0 1
0 0 -1
5 5 5
CELLS 4 17
1 0
3 0 1 2
4 0 1 2 3
4 0 1 2 4
CELL_TYPES 4
1
5
10
10
)";

TEST(VtkVolumeMeshTest, ReadsGmshStyleFiles) {
  VtkReadReport report;
  const VolumeMeshWithExtent m = ReadVtkVolumeMeshFromString(kTwoTets, "two.vtk", &report);
  EXPECT_EQ(m.mesh->num_tets(), 2);
  EXPECT_EQ(m.mesh->num_vertices(), 5);
  EXPECT_EQ(report.ignored_lower_dimensional_cells, 2);
  EXPECT_EQ(report.dropped_unreferenced_vertices, 1);
  EXPECT_EQ(report.reoriented_tets, 1);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("two.vtk"), std::string::npos);
  EXPECT_NEAR(m.mesh->CalcTotalVolume(), 2.0 / 6.0, 1e-15);
  // Every vertex of this mesh is on its boundary.
  for (double e : m.extent) EXPECT_EQ(e, 0.0);
}

TEST(VtkVolumeMeshTest, RoundTripAndDistanceExtent) {
  const VolumeMeshWithExtent box = MakeBoxVolumeMesh(Vector3(0.4, 0.4, 0.2), 0.05);
  const VolumeMeshWithExtent read = ReadVtkVolumeMeshFromString(ToVtk(*box.mesh), "box.vtk");
  ASSERT_EQ(read.mesh->num_tets(), box.mesh->num_tets());
  EXPECT_NEAR(read.mesh->CalcTotalVolume(), 0.4 * 0.4 * 0.2, 1e-12);
  // The distance extent of a box is distance/Hmin — the box generator's own field — once the
  // deepest vertex sits on the mid-plane.
  for (int v = 0; v < read.mesh->num_vertices(); ++v) EXPECT_NEAR(read.extent[v], box.extent[v], 1e-12);
  // Usable as compliant geometry.
  EXPECT_NO_THROW(MakeCompliantMesh(read, 1e6));
}

TEST(VtkVolumeMeshTest, DistanceToTriangleRegions) {
  const Vector3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_DOUBLE_EQ(DistanceToTriangle(Vector3(0.2, 0.2, 0.5), a, b, c), 0.5);         // face
  EXPECT_DOUBLE_EQ(DistanceToTriangle(Vector3(-1, -1, 0), a, b, c), std::sqrt(2.0));  // vertex a
  EXPECT_DOUBLE_EQ(DistanceToTriangle(Vector3(0.5, -2, 0), a, b, c), 2.0);            // edge ab
  EXPECT_NEAR(DistanceToTriangle(Vector3(1, 1, 0), a, b, c), std::sqrt(0.5), 1e-15);  // edge bc
  EXPECT_DOUBLE_EQ(DistanceToTriangle(Vector3(2, 0, 0), a, b, c), 1.0);               // vertex b
}

// Each malformed file gives "name:line: message".
TEST(VtkVolumeMeshTest, ErrorsNameFileAndLine) {
  auto expect_error = [](const std::string& text, const std::string& where, const std::string& fragment) {
    try {
      ReadVtkVolumeMeshFromString(text, "bad.vtk");
      ADD_FAILURE() << "no error for " << fragment;
    } catch (const InvalidInput& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("bad.vtk:" + where + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(fragment), std::string::npos) << what;
    }
  };
  const std::string header = "# vtk DataFile Version 3.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n";
  const std::string points = "POINTS 4 double\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n";
  expect_error("", "1", "empty file");
  expect_error("hello\n", "1", "not a legacy VTK file");
  expect_error("# vtk DataFile Version 3.0\nt\nBINARY\n", "3", "only ASCII");
  expect_error("# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\n", "4", "POLYDATA is not supported");
  expect_error(header, "4", "no POINTS section");
  expect_error(header + "POINTS 4 double\n0 0 0\n1 0 x\n", "7", "expected a point coordinate, got 'x'");
  expect_error(header + "POINTS 4 double\n0 0 0\n1 0 0\n0 nan 0\n", "8", "not finite");
  expect_error(header + "POINTS 4 double\n0 0 0\n1 0 0\n", "7", "unexpected end of file");
  expect_error(header + points, "9", "no CELLS section");
  expect_error(header + points + "CELLS 1 5\n4 0 1 2 9\nCELL_TYPES 1\n10\n", "11", "refers to vertex 9");
  expect_error(header + points + "CELLS 1 9\n8 0 1 2 3 0 1 2 3\nCELL_TYPES 1\n12\n", "13", "only tetrahedra");
  expect_error(header + points + "CELLS 2 9\n4 0 1 2 3\n3 0 1 2\nCELL_TYPES 3\n10\n5\n5\n", "13",
               "3 types for 2 cells");
  {
    // Miscounted types where every cell has four vertices: read as tets (as Bullet's reader does), warned.
    VtkReadReport report;
    const VolumeMeshWithExtent m =
        ReadVtkVolumeMeshFromString(header + points + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 2\n10\n10\n", "t.vtk", &report);
    EXPECT_EQ(m.mesh->num_tets(), 1);
    ASSERT_EQ(report.warnings.size(), 1u);
    EXPECT_NE(report.warnings[0].find("t.vtk:12: CELL_TYPES lists 2 types for 1 cells"), std::string::npos)
        << report.warnings[0];
  }
  expect_error(header + points + "CELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n", "10", "no tetrahedra");
  expect_error(header + "POINTS 4 double\n0 0 0\n1 0 0\n0 1 0\n1 1 0\nCELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n", "11",
               "degenerate");
  try {
    ReadVtkVolumeMesh("/nonexistent/ball.vtk");
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/ball.vtk:0: cannot open"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydro
