// PyBullet's <deformable> and Drake's <drake:deformable_properties>: read, validated, and errors.
#include <gtest/gtest.h>

#include "test_files.h"

namespace hydro {
namespace urdf {
namespace {

// One right tet with unit legs: volume 1/6 m³.
const char* kTetVtk =
    "# vtk DataFile Version 2.0\ntet\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 double\n"
    "0 0 0\n1 0 0\n0 1 0\n0 0 1\nCELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n";

TEST(DeformableTest, PyBulletFormFromLameParameters) {
  test::TempDir dir("deformable");
  dir.Write("tet.vtk", kTetVtk);
  const std::string path = dir.Write("soft.urdf", R"(<robot name="soft">
  <deformable name="blob">
    <inertial><mass value="2"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
    <collision_margin value="0.006"/>
    <neohookean mu="60" lambda="200" damping="0.01"/>
    <simulation_mesh filename="tet.vtk"/>
    <origin xyz="0 0 1"/>
  </deformable>
</robot>)");
  Diagnostics d;
  const auto scene = ReadModelFile(path, ReadOptions{}, &d);
  ASSERT_TRUE(scene) << d.ToString();
  ASSERT_EQ(scene->deformables.size(), 1u);
  const Deformable& body = scene->deformables[0];
  EXPECT_EQ(body.name, "blob");
  // E = μ(3λ + 2μ)/(λ + μ) = 60·720/260, ν = λ/(2(λ + μ)) = 200/520.
  EXPECT_DOUBLE_EQ(body.youngs_modulus_Pa, 60.0 * 720 / 260);
  EXPECT_DOUBLE_EQ(body.poisson_ratio, 200.0 / 520);
  EXPECT_DOUBLE_EQ(body.mass_density_kg_per_m3, 12.0);  // 2 kg over 1/6 m³
  EXPECT_EQ(body.stiffness_damping, 0.01);
  EXPECT_EQ(body.num_vertices, 4);
  EXPECT_EQ(body.num_tets, 1);
  EXPECT_EQ(body.X_WD.translation(), Vector3(0, 0, 1));
  ASSERT_EQ(d.all().size(), 1u);  // collision_margin is read but not used: said once
}

TEST(DeformableTest, DrakeSdfForm) {
  test::TempDir dir("drake_deformable");
  dir.Write("tet.vtk", kTetVtk);
  const std::string path = dir.Write("soft.sdf", R"(<sdf version="1.9"><model name="soft">
  <pose>0 0 2 0 0 0</pose>
  <link name="body">
    <collision name="c"><geometry><mesh><uri>tet.vtk</uri></mesh></geometry></collision>
    <drake:deformable_properties>
      <drake:youngs_modulus>1e5</drake:youngs_modulus>
      <drake:poissons_ratio>0.4</drake:poissons_ratio>
      <drake:mass_density>500</drake:mass_density>
      <drake:mass_damping>0.1</drake:mass_damping>
      <drake:stiffness_damping>0.02</drake:stiffness_damping>
    </drake:deformable_properties>
  </link></model></sdf>)");
  Diagnostics d;
  const auto scene = ReadModelFile(path, ReadOptions{}, &d);
  ASSERT_TRUE(scene) << d.ToString();
  ASSERT_EQ(scene->deformables.size(), 1u);
  EXPECT_TRUE(scene->models.empty());
  const Deformable& body = scene->deformables[0];
  EXPECT_EQ(body.name, "soft::body");
  EXPECT_EQ(body.youngs_modulus_Pa, 1e5);
  EXPECT_EQ(body.poisson_ratio, 0.4);
  EXPECT_EQ(body.mass_density_kg_per_m3, 500);
  EXPECT_EQ(body.mass_damping, 0.1);
  EXPECT_EQ(body.stiffness_damping, 0.02);
  EXPECT_EQ(body.num_tets, 1);
  EXPECT_EQ(body.X_WD.translation(), Vector3(0, 0, 2));
}

TEST(DeformableTest, BadMaterialsAndMeshesAreErrors) {
  test::TempDir dir("bad_deformable");
  dir.Write("tet.vtk", kTetVtk);
  dir.Write("flat.vtk",
            "# vtk DataFile Version 2.0\nflat\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 double\n"
            "0 0 0\n1 0 0\n0 1 0\n1 1 0\nCELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n");
  dir.Write("cube.obj", test::CubeObj());
  auto sdf = [&](const std::string& mesh, const std::string& nu, const std::string& E) {
    return dir.Write("s.sdf", "<sdf version=\"1.9\"><model name=\"m\"><link name=\"b\">\n"
                              "<collision name=\"c\"><geometry><mesh><uri>" + mesh + "</uri></mesh></geometry></collision>\n"
                              "<drake:deformable_properties>\n<drake:youngs_modulus>" + E + "</drake:youngs_modulus>\n"
                              "<drake:poissons_ratio>" + nu + "</drake:poissons_ratio>\n</drake:deformable_properties>\n"
                              "</link></model></sdf>");
  };
  struct Case {
    std::string mesh, nu, E, message;
  };
  for (const Case& c : {Case{"tet.vtk", "0.5", "1e5", "Poisson's ratio must be in (-1, 0.5) (got 0.500000)"},
                        Case{"tet.vtk", "0.3", "-1e5", "Young's modulus must be positive"},
                        Case{"tet.vtk", "0.3", "0", "Young's modulus must be positive"},
                        Case{"cube.obj", "0.3", "1e5", "is not a tet mesh"},
                        Case{"flat.vtk", "0.3", "1e5", "flat.vtk:11: tetrahedron is degenerate"}}) {
    Diagnostics d;
    EXPECT_FALSE(ReadModelFile(sdf(c.mesh, c.nu, c.E), ReadOptions{}, &d)) << c.message;
    ASSERT_TRUE(d.has_errors());
    EXPECT_NE(d.FirstError().find("s.sdf:3: error: deformable 'm::b': "), std::string::npos) << d.FirstError();
    EXPECT_NE(d.FirstError().find(c.message), std::string::npos) << d.FirstError();
  }
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
