// Whole files: a ROS-style arm with package:// OBJ/STL meshes, an SDF gripper world with includes,
// frames and nested models, and the structural errors (malformed XML, broken joint trees, missing
// meshes, bad values), each reported as file:line with nothing built.
#include <gtest/gtest.h>

#include <cstring>

#include "test_files.h"
#include "tests/invalid_input.h"
#include "urdf/mesh_files.h"

namespace hydro {
namespace urdf {
namespace {

using test::Read;

std::string BinaryStlTriangle() {
  std::string bytes(84 + 50, '\0');
  const std::uint32_t count = 1;
  std::memcpy(&bytes[80], &count, 4);
  const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  std::memcpy(&bytes[84 + 12], corners, sizeof(corners));
  return bytes;
}

const char* kArmUrdf = R"(<?xml version="1.0"?>
<robot name="arm">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
  <link name="world"/>
  <joint name="base_weld" type="fixed">
    <parent link="world"/><child link="base"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/>
  </joint>
  <link name="base">
    <inertial><origin xyz="0 0 0.05"/><mass value="2.0"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <visual><geometry><mesh filename="package://arm_description/meshes/base.stl"/></geometry></visual>
    <collision><geometry><mesh filename="package://arm_description/meshes/base.obj" scale="0.5 0.5 0.5"/></geometry></collision>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.2" rpy="0 0 1.5707963267948966"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="20" velocity="2"/>
    <dynamics damping="0.1" friction="0.01"/>
  </joint>
  <link name="upper">
    <inertial><mass value="1.0"/><inertia ixx="0.02" iyy="0.02" izz="0.001"/></inertial>
    <collision><origin xyz="0 0 0.15"/><geometry><capsule radius="0.03" length="0.3"/></geometry></collision>
  </link>
  <joint name="elbow" type="continuous">
    <parent link="upper"/><child link="fore"/>
    <origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
  </joint>
  <link name="fore">
    <inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.001"/></inertial>
    <collision name="finger_pad"><origin xyz="0 0 0.1"/><geometry><box size="0.04 0.04 0.2"/></geometry>
      <drake:proximity_properties><drake:compliant_hydroelastic/><drake:hydroelastic_modulus value="1e6"/></drake:proximity_properties>
    </collision>
  </link>
  <transmission name="t"><type>SimpleTransmission</type></transmission>
</robot>
)";

TEST(UrdfFileTest, ArmWithPackageMeshes) {
  test::TempDir dir("arm");
  dir.Write("arm_description/package.xml", "<package/>");
  dir.Write("arm_description/meshes/base.obj", test::CubeObj());
  dir.Write("arm_description/meshes/base.stl", BinaryStlTriangle());
  const std::string path = dir.Write("arm_description/urdf/arm.urdf", kArmUrdf);
  Diagnostics d;
  ReadOptions options;
  options.search.use_environment = false;
  options.search.package_paths = {dir.path()};
  const auto scene = ReadModelFile(path, options, &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_TRUE(d.all().empty()) << d.ToString();
  ASSERT_EQ(scene->models.size(), 1u);
  const Model& arm = scene->models[0];
  EXPECT_EQ(arm.name, "arm");
  EXPECT_TRUE(arm.fixed_base);
  ASSERT_EQ(arm.links.size(), 4u);
  ASSERT_EQ(arm.joints.size(), 3u);
  int collisions = 0;
  double mass = 0;
  for (const Link& link : arm.links) {
    collisions += static_cast<int>(link.collisions.size());
    mass += link.inertial.mass_kg;
  }
  EXPECT_EQ(collisions, 3);
  EXPECT_DOUBLE_EQ(mass, 3.5);
  const Link& base = *arm.FindLink("base");
  EXPECT_EQ(base.collisions[0].geometry.mesh_path, dir.path() + "/arm_description/meshes/base.obj");
  EXPECT_EQ(base.collisions[0].geometry.scale, Vector3(0.5, 0.5, 0.5));
  EXPECT_EQ(base.inertial.X_LI.translation(), Vector3(0, 0, 0.05));
  // Link frames: base at 0.1, upper 0.2 above it turned 90° about z, fore 0.3 above upper.
  EXPECT_TRUE(arm.FindLink("upper")->X_ML.translation().isApprox(Vector3(0, 0, 0.3)));
  EXPECT_TRUE(arm.FindLink("fore")->X_ML.translation().isApprox(Vector3(0, 0, 0.6)));
  EXPECT_TRUE((arm.FindLink("fore")->X_ML.linear() * Vector3::UnitX()).isApprox(Vector3::UnitY()));
  const Joint& shoulder = arm.joints[1];
  EXPECT_EQ(shoulder.type, JointType::kRevolute);
  EXPECT_EQ(shoulder.lower, -1.5);
  EXPECT_EQ(shoulder.upper, 1.5);
  EXPECT_EQ(shoulder.damping, 0.1);
  EXPECT_EQ(shoulder.axis_J, Vector3(0, 1, 0));
  EXPECT_EQ(arm.joints[2].type, JointType::kContinuous);
  EXPECT_EQ(arm.FindLink("fore")->collisions[0].contact.compliance, Compliance::kCompliant);
  EXPECT_EQ(arm.FindLink("fore")->collisions[0].name, "finger_pad");
  // Through ROS_PACKAGE_PATH instead of an option.
  ::setenv("ROS_PACKAGE_PATH", dir.path().c_str(), 1);
  Diagnostics from_env;
  EXPECT_TRUE(ReadModelFile(path, ReadOptions{}, &from_env)) << from_env.ToString();
  ::unsetenv("ROS_PACKAGE_PATH");
}

TEST(SdfFileTest, GripperWorldWithIncludesFramesAndNestedModels) {
  test::TempDir dir("gripper");
  dir.Write("models/finger/model.config",
            "<?xml version='1.0'?><model><name>finger</name><sdf version='1.9'>finger.sdf</sdf></model>");
  dir.Write("models/finger/meshes/pad.stl",
            "solid pad\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
            "vertex 0 1 0\nendloop\nendfacet\nendsolid pad\n");
  dir.Write("models/finger/finger.sdf", R"(<sdf version="1.9"><model name="finger">
    <link name="pad"><inertial><mass>0.1</mass></inertial>
      <collision name="pad_collision"><geometry><mesh><uri>meshes/pad.stl</uri></mesh></geometry>
        <drake:proximity_properties><drake:compliant_hydroelastic/><drake:hydroelastic_modulus>2e5</drake:hydroelastic_modulus></drake:proximity_properties>
      </collision></link></model></sdf>)");
  const std::string path = dir.Write("world.sdf", R"(<?xml version="1.0"?>
<sdf version="1.8">
  <world name="grasp">
    <gravity>0 0 -9.8</gravity>
    <physics type="bullet"><max_step_size>0.002</max_step_size></physics>
    <light name="sun" type="directional"/>
    <model name="ground"><static>true</static>
      <link name="plane"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link>
    </model>
    <model name="gripper">
      <pose>0 0 0.5 0 0 0</pose>
      <frame name="tool" attached_to="palm"><pose>0 0 -0.1 0 0 0</pose></frame>
      <link name="palm"><inertial><mass>1.0</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
        <collision name="palm_box"><geometry><box><size>0.2 0.1 0.05</size></box></geometry></collision>
      </link>
      <link name="left"><pose relative_to="tool">0.05 0 0 0 0 0</pose><inertial><mass>0.2</mass></inertial>
        <collision name="left_box"><geometry><box><size>0.02 0.05 0.1</size></box></geometry></collision>
      </link>
      <joint name="left_slide" type="prismatic"><parent>palm</parent><child>left</child>
        <axis><xyz>1 0 0</xyz><limit><lower>-0.05</lower><upper>0.05</upper></limit><dynamics><damping>5</damping></dynamics></axis>
      </joint>
      <include><uri>model://finger</uri><name>right_finger</name><pose>-0.05 0 -0.1 0 0 0</pose></include>
      <joint name="right_weld" type="fixed"><parent>palm</parent><child>right_finger::pad</child></joint>
    </model>
    <model name="rod"><pose degrees="true">0 0 0.3 90 0 0</pose>
      <link name="body"><inertial><mass>0.3</mass></inertial>
        <collision name="c"><geometry><cylinder><radius>0.01</radius><length>0.2</length></cylinder></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
)");
  Diagnostics d;
  ReadOptions options;
  options.search.use_environment = false;
  options.search.model_paths = {dir.path() + "/models"};
  const auto scene = ReadModelFile(path, options, &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_TRUE(d.all().empty()) << d.ToString();
  EXPECT_TRUE(scene->has_world);
  EXPECT_EQ(scene->gravity_W, Vector3(0, 0, -9.8));
  EXPECT_EQ(scene->step_size_s, 0.002);
  ASSERT_EQ(scene->models.size(), 3u);
  EXPECT_TRUE(scene->models[0].is_static);
  EXPECT_EQ(scene->models[0].links[0].collisions[0].geometry.type, GeometryType::kPlane);
  const Model& gripper = scene->models[1];
  ASSERT_EQ(gripper.links.size(), 3u);
  ASSERT_EQ(gripper.joints.size(), 2u);
  EXPECT_TRUE(gripper.X_WM.translation().isApprox(Vector3(0, 0, 0.5)));
  // left sits 5 cm along x from "tool", which is 10 cm below the palm.
  EXPECT_TRUE(gripper.FindLink("left")->X_ML.translation().isApprox(Vector3(0.05, 0, -0.1)));
  const Link* pad = gripper.FindLink("right_finger::pad");
  ASSERT_NE(pad, nullptr);
  EXPECT_TRUE(pad->X_ML.translation().isApprox(Vector3(-0.05, 0, -0.1)));
  EXPECT_EQ(pad->collisions[0].contact.compliance, Compliance::kCompliant);
  EXPECT_EQ(*pad->collisions[0].contact.hydroelastic_modulus_Pa, 2e5);
  EXPECT_EQ(pad->collisions[0].geometry.mesh_path, dir.path() + "/models/finger/meshes/pad.stl");
  EXPECT_DOUBLE_EQ(pad->inertial.mass_kg, 0.1);
  const Joint& slide = gripper.joints[0];
  EXPECT_EQ(slide.type, JointType::kPrismatic);
  EXPECT_EQ(slide.axis_J, Vector3(1, 0, 0));
  EXPECT_EQ(slide.damping, 5);
  // The joint frame is the child's frame, seen from the palm: X_PJ = X_MP⁻¹·X_MC.
  EXPECT_TRUE(slide.X_PJ.translation().isApprox(Vector3(0.05, 0, -0.1)));
  EXPECT_EQ(gripper.joints[1].child, "right_finger::pad");
  const Model& rod = scene->models[2];
  EXPECT_TRUE((rod.X_WM.linear() * Vector3::UnitZ()).isApprox(-Vector3::UnitY(), 1e-12));
}

// Structural errors, one per rule: each is reported at its file:line and builds nothing.
struct BadFile {
  const char* name;
  const char* text;
  int line;
  const char* message;
};

class BadFileTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadFileTest, ReportsWhereAndBuildsNothing) {
  const BadFile& bad = GetParam();
  Diagnostics d;
  EXPECT_FALSE(Read(bad.text, &d, bad.name));
  ASSERT_TRUE(d.has_errors());
  const std::string first = d.FirstError();
  EXPECT_NE(first.find(std::string(bad.name) + ":" + std::to_string(bad.line) + ": error: "), std::string::npos)
      << first;
  EXPECT_NE(first.find(bad.message), std::string::npos) << first;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BadFileTest,
    ::testing::Values(
        BadFile{"malformed.urdf", "<robot name=\"r\">\n<link name=\"a\">\n</robot>\n", 2, "malformed XML"},
        BadFile{"empty.urdf", "", 1, "malformed XML (XML_ERROR_EMPTY_DOCUMENT)"},
        BadFile{"root.urdf", "<mujoco/>\n", 1, "neither URDF"},
        BadFile{"geometry.urdf",
                "<robot name=\"r\">\n<link name=\"a\"><collision><geometry>\n<torus r=\"1\"/>\n"
                "</geometry></collision></link></robot>",
                3, "unknown geometry <torus>"},
        BadFile{"mesh.urdf",
                "<robot name=\"r\"><link name=\"a\">\n<collision><geometry>\n<mesh filename=\"nowhere.obj\"/>\n"
                "</geometry></collision></link></robot>",
                3, "missing mesh 'nowhere.obj'"},
        BadFile{"package.urdf",
                "<robot name=\"r\"><link name=\"a\">\n<collision><geometry>\n"
                "<mesh filename=\"package://nopkg/m.obj\"/>\n</geometry></collision></link></robot>",
                3, "package 'nopkg'"},
        BadFile{"negative_mass.urdf",
                "<robot name=\"r\"><link name=\"a\">\n<inertial>\n<mass value=\"-1\"/>\n"
                "</inertial></link></robot>",
                3, "mass: must not be negative"},
        BadFile{"box.urdf",
                "<robot name=\"r\"><link name=\"a\"><collision><geometry>\n<box size=\"1 0 1\"/>\n"
                "</geometry></collision></link></robot>",
                2, "every edge must be positive"},
        BadFile{"radius.urdf",
                "<robot name=\"r\"><link name=\"a\"><collision><geometry>\n<sphere radius=\"nan\"/>\n"
                "</geometry></collision></link></robot>",
                2, "sphere radius: must be finite"},
        BadFile{"origin.urdf",
                "<robot name=\"r\"><link name=\"a\"><collision>\n<origin xyz=\"1 2\"/>\n"
                "<geometry><sphere radius=\"1\"/></geometry></collision></link></robot>",
                2, "origin xyz: expected 3 numbers"},
        BadFile{"inertia.urdf",
                "<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"1\"/>\n"
                "<inertia ixx=\"-1\" iyy=\"1\" izz=\"1\"/>\n</inertial></link></robot>",
                2, "not positive semi-definite"},
        BadFile{"parent.urdf",
                "<robot name=\"r\"><link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\">\n"
                "<parent link=\"ghost\"/><child link=\"a\"/></joint></robot>",
                2, "joint 'j': parent link 'ghost' does not exist"},
        BadFile{"two_parents.urdf",
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n"
                "<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n"
                "<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n"
                "</robot>",
                3, "link 'c' already has the parent joint 'j1'"},
        BadFile{"cycle.urdf",
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n"
                "<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                "<joint name=\"j2\" type=\"fixed\"><parent link=\"c\"/><child link=\"a\"/></joint>\n"
                "<joint name=\"j3\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n"
                "</robot>",
                3, "cycle"},
        BadFile{"two_roots.urdf", "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/></robot>", 1,
                "more than one root link ('a', 'b')"},
        BadFile{"joint_type.urdf",
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>\n"
                "<joint name=\"j\" type=\"screw\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>",
                2, "unknown type 'screw'"},
        BadFile{"limit.urdf",
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>\n"
                "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>",
                2, "needs a <limit>"},
        BadFile{"duplicate.urdf", "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"a\"/></robot>", 3,
                "a second link named 'a'"},
        BadFile{"no_links.urdf", "<robot name=\"r\">\n</robot>", 1, "has no links"},
        BadFile{"relative_to.sdf",
                "<sdf version=\"1.9\"><model name=\"m\">\n<link name=\"a\">\n"
                "<pose relative_to=\"nowhere\">0 0 0 0 0 0</pose></link></model></sdf>",
                2, "unknown frame 'nowhere'"},
        BadFile{"frame_cycle.sdf",
                "<sdf version=\"1.9\"><model name=\"m\">\n<link name=\"a\">\n"
                "<pose relative_to=\"f\">0 0 0 0 0 0</pose></link>\n"
                "<frame name=\"f\" attached_to=\"a\"/></model></sdf>",
                2, "cycle"},
        BadFile{"include.sdf",
                "<sdf version=\"1.9\"><world name=\"w\">\n<include><uri>model://absent</uri></include>\n"
                "</world></sdf>",
                2, "model 'absent' not found"},
        BadFile{"nested.sdf",
                "<sdf version=\"1.9\"><model name=\"a\"><model name=\"b\">\n<model name=\"c\">"
                "<link name=\"l\"/></model></model></model></sdf>",
                2, "nested more than one level"},
        BadFile{"sdf_joint.sdf",
                "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\"/>\n"
                "<joint name=\"j\" type=\"revolute\"><parent>a</parent><child>b</child></joint>"
                "</model></sdf>",
                2, "child link 'b' does not exist"},
        BadFile{"xacro.urdf",
                "<robot name=\"r\"><link name=\"a\"><collision>\n<origin xyz=\"$(optenv X 0 0 1)\"/>"
                "<geometry><box size=\"1 1 1\"/></geometry></collision></link></robot>",
                2, "(a xacro substitution: expand the file with xacro first)"},
        BadFile{"link_name.urdf", "<robot name=\"r\">\n<link/></robot>", 2, "<link> needs a name"},
        BadFile{"empty_geometry.urdf",
                "<robot name=\"r\"><link name=\"a\"><collision>\n<geometry/>\n"
                "</collision></link></robot>",
                2, "<geometry> is empty"},
        BadFile{"no_geometry.urdf", "<robot name=\"r\"><link name=\"a\">\n<collision/></link></robot>", 2,
                "<collision> needs a <geometry>"},
        BadFile{"capsule.urdf",
                "<robot name=\"r\"><link name=\"a\"><collision><geometry>\n"
                "<capsule radius=\"0.1\" length=\"-1\"/>\n</geometry></collision></link></robot>",
                2, "capsule length: must be positive"},
        BadFile{"axis.urdf",
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\">\n</link>"
                "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>\n"
                "<axis xyz=\"0 0 0\"/></joint></robot>",
                3, "joint 'j': the axis is zero"},
        BadFile{"limits.urdf",
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>"
                "<joint name=\"j\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>\n"
                "<limit lower=\"one\" upper=\"-1\"/></joint></robot>",
                2, "limit lower: 'one' is not a number"},
        BadFile{"deformable.urdf",
                "<robot name=\"r\">\n<deformable name=\"d\"><inertial><mass value=\"1\"/>"
                "</inertial></deformable></robot>",
                2, "needs <neohookean mu=… lambda=…/>"},
        BadFile{"version.sdf", "<sdf>\n<model name=\"m\"><link name=\"a\"/></model></sdf>", 1, "<sdf> needs a version"},
        BadFile{"quaternion.sdf",
                "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\">\n"
                "<pose rotation_format=\"quat_xyzw\">0 0 0 0 0 0 0</pose></link></model></sdf>",
                2, "pose: zero quaternion"},
        BadFile{"rotation_format.sdf",
                "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\">\n"
                "<pose rotation_format=\"matrix\">0 0 0 0 0 0</pose></link></model></sdf>",
                2, "unknown rotation_format 'matrix'"},
        BadFile{"pose.sdf",
                "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\">\n"
                "<pose>0 0 inf 0 0 0</pose></link></model></sdf>",
                2, "pose: must be finite"},
        BadFile{"static.sdf",
                "<sdf version=\"1.9\"><model name=\"m\">\n<static>maybe</static>"
                "<link name=\"a\"/></model></sdf>",
                2, "static: expected true or false"},
        BadFile{"collision_name.sdf",
                "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\">\n"
                "<collision><geometry><sphere><radius>1</radius></sphere></geometry></collision>"
                "</link></model></sdf>",
                2, "<collision> needs a name"},
        BadFile{"include_uri.sdf", "<sdf version=\"1.9\"><world name=\"w\">\n<include/></world></sdf>", 2,
                "<include> needs a <uri>"},
        BadFile{"no_models.sdf", "<sdf version=\"1.9\">\n<world name=\"w\"/></sdf>", 1, "no models in the file"},
        BadFile{"step.sdf",
                "<sdf version=\"1.9\"><world name=\"w\"><physics>\n<max_step_size>0</max_step_size>"
                "</physics><model name=\"m\"><link name=\"a\"/></model></world></sdf>",
                2, "physics max_step_size: must be positive"},
        BadFile{"ellipsoid.sdf",
                "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\"><collision name=\"c\">"
                "<geometry><ellipsoid>\n<radii>1 -1 1</radii></ellipsoid></geometry></collision>"
                "</link></model></sdf>",
                2, "every radius must be positive"}),
    [](const ::testing::TestParamInfo<BadFile>& info) {
      std::string name = info.param.name;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(MeshFileTest, ObjAndStlReadersAndTheirErrors) {
  const SurfaceMeshData cube = ReadObjFromString(test::CubeObj(), "cube.obj");
  EXPECT_EQ(cube.vertices.size(), 8u);
  EXPECT_EQ(cube.triangles.size(), 12u);
  const SurfaceMeshData quad =
      ReadObjFromString("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1/1 2/2/2 3/3/3 -1/4/4\n", "q.obj");
  EXPECT_EQ(quad.triangles.size(), 2u);
  EXPECT_EQ(ReadStlFromString(BinaryStlTriangle(), "t.stl").triangles.size(), 1u);
  const auto error_of = hydro::test::ErrorOf;
  EXPECT_EQ(error_of([] { ReadObjFromString("v 0 0 0\nf 1 2 3\n", "bad.obj"); }),
            "bad.obj:2: face refers to vertex 2, but only 1 vertices are defined so far");
  EXPECT_EQ(error_of([] { ReadObjFromString("v 0 0\n", "short.obj"); }), "short.obj:1: a vertex needs three numbers");
  EXPECT_EQ(error_of([] { ReadObjFromString("# nothing\n", "empty.obj"); }), "empty.obj: the mesh has no faces");
  EXPECT_EQ(error_of([] { ReadStlFromString("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n", "a.stl"); }),
            "a.stl:4: a vertex needs three numbers");
  EXPECT_EQ(error_of([] { ReadStlFromString("garbage", "g.stl"); }).substr(0, 8), "g.stl:1:");
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
