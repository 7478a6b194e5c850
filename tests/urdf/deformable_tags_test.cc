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
    return dir.Write("s.sdf",
                     "<sdf version=\"1.9\"><model name=\"m\"><link name=\"b\">\n"
                     "<collision name=\"c\"><geometry><mesh><uri>" +
                         mesh +
                         "</uri></mesh></geometry></collision>\n"
                         "<drake:deformable_properties>\n<drake:youngs_modulus>" +
                         E +
                         "</drake:youngs_modulus>\n"
                         "<drake:poissons_ratio>" +
                         nu +
                         "</drake:poissons_ratio>\n</drake:deformable_properties>\n"
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

// What btDeformableBodies needs beyond the material: friction (SDF: the mesh collision's Drake
// friction; URDF: PyBullet's <friction>), hydro:triangle_fan_contact, and <physics>'
// hydro:stiction_speed.
TEST(DeformableTest, FrictionTriangleFanAndStictionSpeed) {
  test::TempDir dir("deformable_contact");
  dir.Write("tet.vtk", kTetVtk);
  const std::string sdf = dir.Write("s.sdf", R"(<sdf version="1.9"><world name="w">
  <physics><max_step_size>0.04</max_step_size><hydro:stiction_speed>1e-6</hydro:stiction_speed></physics>
  <model name="stone"><link name="fan">
    <collision name="c"><geometry><mesh><uri>tet.vtk</uri></mesh></geometry>
      <drake:proximity_properties><drake:mu_dynamic>0.7</drake:mu_dynamic></drake:proximity_properties>
    </collision>
    <drake:deformable_properties>
      <drake:youngs_modulus>2e10</drake:youngs_modulus>
      <hydro:triangle_fan_contact>true</hydro:triangle_fan_contact>
    </drake:deformable_properties>
  </link>
  <link name="plain">
    <collision name="c"><geometry><mesh><uri>tet.vtk</uri></mesh></geometry>
      <surface><friction><ode><mu>0.3</mu></ode></friction></surface>
    </collision>
    <drake:deformable_properties><drake:youngs_modulus>1e5</drake:youngs_modulus></drake:deformable_properties>
  </link>
  <link name="default">
    <collision name="c"><geometry><mesh><uri>tet.vtk</uri></mesh></geometry></collision>
    <drake:deformable_properties><drake:youngs_modulus>1e5</drake:youngs_modulus></drake:deformable_properties>
  </link></model></world></sdf>)");
  Diagnostics d;
  const auto scene = ReadModelFile(sdf, ReadOptions{}, &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_TRUE(d.all().empty()) << d.ToString();
  EXPECT_EQ(scene->stiction_speed_m_per_s, 1e-6);
  ASSERT_EQ(scene->deformables.size(), 3u);
  EXPECT_EQ(scene->deformables[0].friction, 0.7);
  EXPECT_TRUE(scene->deformables[0].triangle_fan_contact);
  EXPECT_EQ(scene->deformables[1].friction, 0.3);
  EXPECT_FALSE(scene->deformables[1].triangle_fan_contact);
  EXPECT_FALSE(scene->deformables[2].friction);  // btDeformableBodies' default
  const auto unset = ReadModelString(R"(<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>)", "x.sdf",
                                     ReadOptions{}, &d);
  ASSERT_TRUE(unset) << d.ToString();
  EXPECT_FALSE(unset->stiction_speed_m_per_s);  // btDeformableBodies' default

  const std::string urdf = dir.Write("u.urdf", R"(<robot name="soft">
  <deformable name="blob">
    <inertial><mass value="2"/></inertial>
    <neohookean mu="60" lambda="200"/>
    <friction value="0.9"/>
    <hydro:triangle_fan_contact value="1"/>
    <simulation_mesh filename="tet.vtk"/>
  </deformable>
</robot>)");
  Diagnostics du;
  const auto robot = ReadModelFile(urdf, ReadOptions{}, &du);
  ASSERT_TRUE(robot) << du.ToString();
  EXPECT_TRUE(du.all().empty()) << du.ToString();  // <friction> is used now, not warned about
  EXPECT_EQ(robot->deformables[0].friction, 0.9);
  EXPECT_TRUE(robot->deformables[0].triangle_fan_contact);
}

TEST(DeformableTest, BadContactSettingsAreErrorsWithTheirLine) {
  test::TempDir dir("bad_deformable_contact");
  dir.Write("tet.vtk", kTetVtk);
  auto sdf = [&](const std::string& fan, const std::string& speed) {
    return dir.Write("s.sdf",
                     "<sdf version=\"1.9\"><world name=\"w\">\n"
                     "<physics><hydro:stiction_speed>" +
                         speed +
                         "</hydro:stiction_speed></physics>\n"
                         "<model name=\"m\"><link name=\"b\">\n"
                         "<collision name=\"c\"><geometry><mesh><uri>tet.vtk</uri></mesh></geometry></collision>\n"
                         "<drake:deformable_properties><drake:youngs_modulus>1e5</drake:youngs_modulus>\n"
                         "<hydro:triangle_fan_contact>" +
                         fan +
                         "</hydro:triangle_fan_contact>\n"
                         "</drake:deformable_properties></link></model></world></sdf>");
  };
  struct Case {
    std::string fan, speed, message;
  };
  for (const Case& c :
       {Case{"yes", "1e-6", "s.sdf:6: error: hydro:triangle_fan_contact: expected true or false, got 'yes'"},
        Case{"", "1e-6", "s.sdf:6: error: hydro:triangle_fan_contact: expected true or false"},
        Case{"true", "0", "s.sdf:2: error: hydro:stiction_speed: must be positive (got 0)"},
        Case{"true", "fast", "s.sdf:2: error: hydro:stiction_speed: 'fast' is not a number"}}) {
    Diagnostics d;
    EXPECT_FALSE(ReadModelFile(sdf(c.fan, c.speed), ReadOptions{}, &d)) << c.message;
    EXPECT_NE(d.FirstError().find(c.message), std::string::npos) << d.FirstError();
  }
  const std::string urdf = dir.Write("u.urdf",
                                     "<robot name=\"r\">\n<deformable name=\"blob\">\n"
                                     "<inertial><mass value=\"2\"/></inertial>\n"
                                     "<neohookean mu=\"60\" lambda=\"200\"/>\n<friction value=\"-0.5\"/>\n"
                                     "<simulation_mesh filename=\"tet.vtk\"/>\n</deformable>\n</robot>");
  Diagnostics d;
  EXPECT_FALSE(ReadModelFile(urdf, ReadOptions{}, &d));
  EXPECT_NE(d.FirstError().find("u.urdf:5: error: deformable friction: must not be negative (got -0.5)"),
            std::string::npos)
      << d.FirstError();
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
