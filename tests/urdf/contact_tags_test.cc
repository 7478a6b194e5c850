// Round trips of every contact tag in both written forms, and one test per parsing rule and error.
#include <gtest/gtest.h>

#include "test_files.h"

namespace hydro {
namespace urdf {
namespace {

using test::Read;

std::string UrdfWith(const std::string& collision_tags, const std::string& link_tags = "") {
  return "<robot name=\"r\">\n<link name=\"l\">\n<collision>\n<geometry><box size=\"1 1 1\"/></geometry>\n" +
         collision_tags + "\n</collision>\n" + link_tags + "\n</link>\n</robot>\n";
}

std::string SdfWith(const std::string& collision_tags) {
  return "<sdf version=\"1.9\">\n<model name=\"m\">\n<link name=\"l\">\n<collision name=\"c\">\n"
         "<geometry><box><size>1 1 1</size></box></geometry>\n" +
         collision_tags + "\n</collision>\n</link>\n</model>\n</sdf>\n";
}

const ContactProperties& OnlyContact(const std::optional<Scene>& scene) {
  return scene->models.at(0).links.at(0).collisions.at(0).contact;
}

// Expects exactly one error, at `line`, whose message contains `text`.
void ExpectError(const Diagnostics& d, int line, const std::string& text) {
  ASSERT_EQ(d.num_errors(), 1) << d.ToString();
  for (const Diagnostic& diagnostic : d.all()) {
    if (!diagnostic.is_error) continue;
    EXPECT_EQ(diagnostic.line, line) << diagnostic.ToString();
    EXPECT_NE(diagnostic.message.find(text), std::string::npos) << diagnostic.ToString();
  }
}

// The values both written forms below give every numeric tag.
void ExpectTheTaggedValues(const ContactProperties& c) {
  EXPECT_EQ(*c.hydroelastic_modulus_Pa, 5e7);
  EXPECT_EQ(*c.mesh_resolution_hint_m, 0.01);
  EXPECT_EQ(*c.hydroelastic_margin_m, 0.001);
  EXPECT_EQ(*c.hunt_crossley_dissipation_s_per_m, 1.25);
  EXPECT_EQ(*c.relaxation_time_s, 0.1);
  EXPECT_EQ(*c.point_contact_stiffness_N_per_m, 1e5);
  EXPECT_EQ(*c.mu_static, 0.8);
  EXPECT_EQ(*c.mu_dynamic, 0.6);
}

// Expects the URDF to be rejected with exactly one error, at `line`, whose message contains `text`.
void ExpectRejected(const std::string& urdf, int line, const std::string& text) {
  Diagnostics d;
  EXPECT_FALSE(Read(urdf, &d));
  ExpectError(d, line, text);
}

TEST(DrakeProximityTest, EveryTagInTheUrdfAttributeForm) {
  Diagnostics d;
  const auto scene = Read(UrdfWith(R"(<drake:proximity_properties>
      <drake:compliant_hydroelastic/>
      <drake:hydroelastic_modulus value="5e7"/>
      <drake:mesh_resolution_hint value="0.01"/>
      <drake:hydroelastic_margin value="0.001"/>
      <drake:hunt_crossley_dissipation value="1.25"/>
      <drake:relaxation_time value="0.1"/>
      <drake:point_contact_stiffness value="1e5"/>
      <drake:mu_static value="0.8"/>
      <drake:mu_dynamic value="0.6"/>
    </drake:proximity_properties>)"),
                          &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_TRUE(d.all().empty()) << d.ToString();
  const ContactProperties& c = OnlyContact(scene);
  EXPECT_EQ(c.compliance, Compliance::kCompliant);
  ExpectTheTaggedValues(c);
}

TEST(DrakeProximityTest, EveryTagInTheSdfTextForm) {
  Diagnostics d;
  const auto scene = Read(SdfWith(R"(<drake:proximity_properties>
      <drake:rigid_hydroelastic/>
      <drake:hydroelastic_modulus>5e7</drake:hydroelastic_modulus>
      <drake:mesh_resolution_hint>0.01</drake:mesh_resolution_hint>
      <drake:hydroelastic_margin>0.001</drake:hydroelastic_margin>
      <drake:hunt_crossley_dissipation>1.25</drake:hunt_crossley_dissipation>
      <drake:relaxation_time>0.1</drake:relaxation_time>
      <drake:point_contact_stiffness>1e5</drake:point_contact_stiffness>
      <drake:mu_static>0.8</drake:mu_static>
      <drake:mu_dynamic>0.6</drake:mu_dynamic>
    </drake:proximity_properties>)"),
                          &d, "test.sdf");
  ASSERT_TRUE(scene) << d.ToString();
  const ContactProperties& c = OnlyContact(scene);
  EXPECT_EQ(c.compliance, Compliance::kRigid);
  ExpectTheTaggedValues(c);
}

TEST(DrakeProximityTest, BothComplianceTagsAreAnError) {
  ExpectRejected(UrdfWith("<drake:proximity_properties>\n<drake:compliant_hydroelastic/>\n"
                          "<drake:rigid_hydroelastic/>\n</drake:proximity_properties>"),
                 5, "both <drake:compliant_hydroelastic> and <drake:rigid_hydroelastic>");
}

TEST(DrakeProximityTest, NonPositiveModulusIsAnError) {
  ExpectRejected(UrdfWith("<drake:proximity_properties>\n<drake:hydroelastic_modulus value=\"-3\"/>\n"
                          "</drake:proximity_properties>"),
                 6, "drake:hydroelastic_modulus: must be positive (got -3)");
}

TEST(DrakeProximityTest, NonFiniteAndMalformedNumbersAreErrors) {
  for (const std::string value : {"inf", "nan", "1e999"}) {
    ExpectRejected(UrdfWith("<drake:proximity_properties>\n<drake:mesh_resolution_hint value=\"" + value +
                            "\"/>\n</drake:proximity_properties>"),
                   6, "must be finite");
  }
  ExpectRejected(UrdfWith("<drake:proximity_properties>\n<drake:mu_static value=\"0.5x\"/>\n"
                          "</drake:proximity_properties>"),
                 6, "'0.5x' is not a number");
  ExpectRejected(UrdfWith("<drake:proximity_properties>\n<drake:mu_static/>\n</drake:proximity_properties>"), 6,
                 "missing value");
}

TEST(DrakeProximityTest, NegativeMarginDissipationAndFrictionAreErrors) {
  for (const std::string tag : {"drake:hydroelastic_margin", "drake:hunt_crossley_dissipation", "drake:relaxation_time",
                                "drake:mu_static", "drake:mu_dynamic"}) {
    ExpectRejected(
        UrdfWith("<drake:proximity_properties>\n<" + tag + " value=\"-0.1\"/>\n</drake:proximity_properties>"), 6,
        tag + ": must not be negative");
  }
}

TEST(DrakeProximityTest, StaticFrictionBelowDynamicIsAnError) {
  ExpectRejected(UrdfWith("<drake:proximity_properties>\n<drake:mu_static value=\"0.3\"/>\n"
                          "<drake:mu_dynamic value=\"0.5\"/>\n</drake:proximity_properties>"),
                 5, "drake:mu_static (0.300000) must not be less than drake:mu_dynamic (0.500000)");
}

TEST(DrakeProximityTest, OneFrictionCoefficientSetsBoth) {
  Diagnostics d;
  const auto scene =
      Read(UrdfWith("<drake:proximity_properties><drake:mu_dynamic value=\"0.4\"/></drake:proximity_properties>"), &d);
  ASSERT_TRUE(scene);
  EXPECT_EQ(*OnlyContact(scene).mu_static, 0.4);
  EXPECT_EQ(*OnlyContact(scene).mu_dynamic, 0.4);
}

TEST(DrakeProximityTest, UnknownTagsAreWarnedAboutOnce) {
  Diagnostics d;
  const auto scene =
      Read(UrdfWith("<drake:proximity_properties>\n<drake:softness value=\"1\"/>\n"
                    "<drake:softness value=\"2\"/>\n</drake:proximity_properties>",
                    "<collision><geometry><sphere radius=\"1\"/></geometry>\n"
                    "<drake:proximity_properties><drake:softness value=\"3\"/></drake:proximity_properties>"
                    "</collision>"),
           &d);
  ASSERT_TRUE(scene) << d.ToString();
  ASSERT_EQ(d.all().size(), 1u) << d.ToString();
  EXPECT_FALSE(d.all()[0].is_error);
  EXPECT_EQ(d.all()[0].line, 6);
  EXPECT_EQ(d.all()[0].ToString(),
            "test.urdf:6: warning: unknown tag <drake:softness> in <drake:proximity_properties> ignored");
}

TEST(DrakeProximityTest, DeclareConvexUnderMesh) {
  test::TempDir dir("declare_convex");
  dir.Write("cube.obj", test::CubeObj());
  const std::string path = dir.Write("r.urdf",
                                     "<robot name=\"r\"><link name=\"l\"><collision><geometry>"
                                     "<mesh filename=\"cube.obj\"><drake:declare_convex/></mesh>"
                                     "</geometry></collision></link></robot>");
  Diagnostics d;
  const auto scene = ReadModelFile(path, ReadOptions{}, &d);
  ASSERT_TRUE(scene) << d.ToString();
  const Geometry& g = scene->models[0].links[0].collisions[0].geometry;
  EXPECT_TRUE(g.declare_convex);
  EXPECT_EQ(g.mesh_path, dir.path() + "/cube.obj");
}

TEST(DrakeComplianceTest, OmittedValuesTakeTheDefaults) {
  Diagnostics d;
  const auto scene = Read(UrdfWith("<drake_compliance><youngs_modulus>3e6</youngs_modulus></drake_compliance>"), &d);
  ASSERT_TRUE(scene) << d.ToString();
  const ContactProperties& c = OnlyContact(scene);
  EXPECT_TRUE(c.has_drake_compliance);
  EXPECT_EQ(c.youngs_modulus_Pa, 3e6);
  EXPECT_EQ(c.dissipation_s_per_m, 0.32);
  EXPECT_EQ(c.static_friction, 0.5);
  EXPECT_EQ(c.dynamic_friction, 0.5);
}

TEST(DrakeComplianceTest, AllValuesInBothFormats) {
  const std::string block =
      "<drake_compliance><youngs_modulus>3e6</youngs_modulus><dissipation>2</dissipation>"
      "<static_friction>0.9</static_friction><dynamic_friction>0.7</dynamic_friction></drake_compliance>";
  for (bool sdf : {false, true}) {
    Diagnostics d;
    const auto scene = sdf ? Read(SdfWith(block), &d, "t.sdf") : Read(UrdfWith(block), &d);
    ASSERT_TRUE(scene) << d.ToString();
    const ContactProperties& c = OnlyContact(scene);
    EXPECT_EQ(c.youngs_modulus_Pa, 3e6);
    EXPECT_EQ(c.dissipation_s_per_m, 2);
    EXPECT_EQ(c.static_friction, 0.9);
    EXPECT_EQ(c.dynamic_friction, 0.7);
  }
}

TEST(DrakeComplianceTest, FrictionMustComeAsAPair) {
  ExpectRejected(UrdfWith("<drake_compliance>\n<static_friction>0.9</static_friction>\n</drake_compliance>"), 5,
                 "static_friction and dynamic_friction must be given as a pair or not at all");
}

TEST(DrakeComplianceTest, StaticFrictionBelowDynamicIsAnError) {
  ExpectRejected(UrdfWith("<drake_compliance>\n<static_friction>0.2</static_friction>\n"
                          "<dynamic_friction>0.7</dynamic_friction>\n</drake_compliance>"),
                 5, "static_friction (0.200000) must not be less than dynamic_friction (0.700000)");
}

TEST(DrakeComplianceTest, NonPositiveModulusIsAnError) {
  ExpectRejected(UrdfWith("<drake_compliance>\n<youngs_modulus>0</youngs_modulus>\n</drake_compliance>"), 6,
                 "drake_compliance/youngs_modulus: must be positive");
}

TEST(PyBulletContactTest, EveryTagAppliesToTheLinksCollisions) {
  Diagnostics d;
  const auto scene = Read(UrdfWith("", R"(<contact>
      <lateral_friction value="0.9"/>
      <rolling_friction value="0.01"/>
      <spinning_friction value="0.02"/>
      <restitution value="0.3"/>
      <stiffness value="3e4"/>
      <damping value="20"/>
      <friction_anchor/>
    </contact>)"),
                          &d);
  ASSERT_TRUE(scene) << d.ToString();
  const ContactProperties& c = OnlyContact(scene);
  EXPECT_EQ(*c.lateral_friction, 0.9);
  EXPECT_EQ(*c.rolling_friction, 0.01);
  EXPECT_EQ(*c.spinning_friction, 0.02);
  EXPECT_EQ(*c.restitution, 0.3);
  EXPECT_EQ(*c.contact_stiffness_N_per_m, 3e4);
  EXPECT_EQ(*c.contact_damping_N_s_per_m, 20);
  EXPECT_TRUE(c.friction_anchor);
}

TEST(PyBulletContactTest, StiffnessWithoutDampingIsAnError) {
  ExpectRejected(UrdfWith("", "<contact>\n<stiffness value=\"3e4\"/>\n</contact>"), 7,
                 "contact: stiffness and damping must be given together");
}

TEST(HydroTagsTest, SlabThicknessAndInitialVelocity) {
  Diagnostics d;
  const auto scene =
      Read(UrdfWith("<hydro:slab_thickness value=\"0.05\"/>", "<hydro:initial_velocity value=\"1 0 0 0 0 3\"/>"), &d);
  ASSERT_TRUE(scene) << d.ToString();
  EXPECT_EQ(*OnlyContact(scene).slab_thickness_m, 0.05);
  const auto& v = scene->models[0].links[0].initial_velocity;
  ASSERT_TRUE(v);
  EXPECT_EQ(v->v_W, Vector3(1, 0, 0));
  EXPECT_EQ(v->w_W, Vector3(0, 0, 3));
  ExpectRejected(UrdfWith("", "<hydro:initial_velocity value=\"1 0 0\"/>"), 7,
                 "hydro:initial_velocity: expected 6 numbers");
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
