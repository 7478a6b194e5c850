// CompactVertices, shared by the FEM model and the VTK reader: unused vertices go, the kept ones
// keep their order, the tets are renumbered onto the same positions, and
// a bad index is refused with the mesh left as it was.
#include "hydro/compact_vertices.h"

#include <gtest/gtest.h>

#include <string>

namespace hydro {
namespace {

// Five points of which a tet {1, 2, 3, 4} leaves 0 unused.
std::vector<Vector3> FivePoints() { return {{9, 9, 9}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}; }

TEST(CompactVerticesTest, UnreferencedVerticesAreDropped) {
  std::vector<Vector3> vertices = FivePoints();
  std::vector<Tet> tets = {{1, 2, 3, 4}};
  EXPECT_EQ(CompactVertices(&vertices, &tets), 1);
  ASSERT_EQ(vertices.size(), 4u);
  for (const Vector3& p : vertices) EXPECT_NE(p, Vector3(9, 9, 9));
}

TEST(CompactVerticesTest, KeptVerticesKeepTheirOrder) {
  // Two tets that use the vertices in index order, with strays at the start, middle and end.
  std::vector<Vector3> vertices = {{7, 7, 7}, {0, 0, 0}, {1, 0, 0}, {8, 8, 8},
                                   {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {9, 9, 9}};
  std::vector<Tet> tets = {{1, 2, 4, 5}, {2, 6, 4, 5}};
  EXPECT_EQ(CompactVertices(&vertices, &tets), 3);
  const std::vector<Vector3> expected = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  EXPECT_EQ(vertices, expected);
  EXPECT_EQ(tets[0], (Tet{0, 1, 2, 3}));
  EXPECT_EQ(tets[1], (Tet{1, 4, 2, 3}));
}

TEST(CompactVerticesTest, TetsAreRenumberedOntoTheSamePositions) {
  const std::vector<Vector3> original = {{5, 5, 5}, {0, 0, 1}, {1, 1, 1}, {0, 0, 0}, {6, 6, 6}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<Tet> original_tets = {{3, 5, 6, 1}, {5, 2, 6, 1}};
  std::vector<Vector3> vertices = original;
  std::vector<Tet> tets = original_tets;
  EXPECT_EQ(CompactVertices(&vertices, &tets), 2);
  ASSERT_EQ(vertices.size(), 5u);
  ASSERT_EQ(tets.size(), original_tets.size());
  // The kept 1, 2, 3, 5, 6 become 0..4 in their order.
  EXPECT_EQ(tets[0], (Tet{2, 3, 4, 0}));
  EXPECT_EQ(tets[1], (Tet{3, 1, 4, 0}));
  for (size_t t = 0; t < tets.size(); ++t)
    for (int a = 0; a < 4; ++a) EXPECT_EQ(vertices[tets[t][a]], original[original_tets[t][a]]) << t << " " << a;
}

TEST(CompactVerticesTest, AMeshThatUsesEveryVertexIsUnchanged) {
  const std::vector<Vector3> original = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  std::vector<Vector3> vertices = original;
  std::vector<Tet> tets = {{0, 1, 2, 3}};
  EXPECT_EQ(CompactVertices(&vertices, &tets), 0);
  EXPECT_EQ(vertices, original);
  EXPECT_EQ(tets[0], (Tet{0, 1, 2, 3}));
}

TEST(CompactVerticesTest, AMeshWhoseTetsUseItsVerticesOutOfOrderKeepsItsNumbering) {
  // A FEM body's vertex i is its mesh's vertex i, however the tets list their corners (numbered
  // by first use, this mesh became {0, 1, 2, 3, 4} with its vertices reordered).
  const std::vector<Vector3> original = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  const std::vector<Tet> original_tets = {{4, 1, 2, 3}, {0, 2, 1, 3}};
  std::vector<Vector3> vertices = original;
  std::vector<Tet> tets = original_tets;
  EXPECT_EQ(CompactVertices(&vertices, &tets), 0);
  EXPECT_EQ(vertices, original);
  EXPECT_EQ(tets, original_tets);
}

TEST(CompactVerticesTest, AnIndexOutOfRangeIsRefusedWithTheMeshUnchanged) {
  for (int bad : {5, -1}) {
    std::vector<Vector3> vertices = FivePoints();
    std::vector<Tet> tets = {{1, 2, 3, 4}, {1, 2, bad, 4}};
    try {
      CompactVertices(&vertices, &tets);
      FAIL() << "vertex " << bad << " was accepted";
    } catch (const InvalidInput& e) {
      EXPECT_EQ(std::string(e.what()), "tet 1 refers to vertex " + std::to_string(bad) + " but there are 5 vertices");
    }
    EXPECT_EQ(vertices, FivePoints());
    EXPECT_EQ(tets[0], (Tet{1, 2, 3, 4}));
  }
}

TEST(CompactVerticesTest, AnEmptyMeshStaysEmpty) {
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  EXPECT_EQ(CompactVertices(&vertices, &tets), 0);
  EXPECT_TRUE(vertices.empty());
  EXPECT_TRUE(tets.empty());
}

TEST(CompactVerticesTest, NoTetsDropsEveryVertex) {
  std::vector<Vector3> vertices = FivePoints();
  std::vector<Tet> tets;
  EXPECT_EQ(CompactVertices(&vertices, &tets), 5);
  EXPECT_TRUE(vertices.empty());
}

}  // namespace
}  // namespace hydro
