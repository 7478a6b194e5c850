#include "urdf/compliance_rules.h"

#include <gtest/gtest.h>

#include "test_files.h"
#include "test_world.h"

namespace hydro {
namespace urdf {
namespace {

std::vector<ComplianceRule> MustParse(const std::string& text) {
  Diagnostics d;
  auto rules = ParseComplianceRules(text, "rules.txt", &d);
  EXPECT_TRUE(rules) << d.ToString();
  return rules ? *rules : std::vector<ComplianceRule>{};
}

std::string ParseError(const std::string& text) {
  Diagnostics d;
  EXPECT_FALSE(ParseComplianceRules(text, "rules.txt", &d)) << text;
  return d.ToString();
}

TEST(ComplianceRulesTest, ParsesSelectorsKindsAndProperties) {
  const auto rules = MustParse(
      "# a comment line\n"
      "*            compliant E=1e7\n"
      "\n"
      "type:box     compliant E=2e8 hint=0.02 dissipation=5   # trailing comment\n"
      "ground       rigid\n"
      "static       rigid\n"
      "plane_*      compliant E=1e6 slab=0.05\n"
      "crate_[0-9]  none\n");
  ASSERT_EQ(rules.size(), 6u);
  EXPECT_EQ(rules[0].selector, "*");
  EXPECT_EQ(rules[0].where.line, 2);
  EXPECT_EQ(*rules[1].hydroelastic_modulus_Pa, 2e8);
  EXPECT_EQ(*rules[1].mesh_resolution_hint_m, 0.02);
  EXPECT_EQ(*rules[1].hunt_crossley_dissipation_s_per_m, 5);
  EXPECT_EQ(rules[1].where.line, 4);
  EXPECT_EQ(rules[2].compliance, Compliance::kRigid);
  EXPECT_FALSE(rules[2].hydroelastic_modulus_Pa);
  EXPECT_EQ(*rules[4].slab_thickness_m, 0.05);
  EXPECT_EQ(rules[5].compliance, Compliance::kNone);
}

TEST(ComplianceRulesTest, BadRulesNameTheirLine) {
  EXPECT_NE(ParseError("*  compliant E=1e7\nbox\n").find("rules.txt:2: error: a rule is"), std::string::npos);
  EXPECT_NE(ParseError("*  squishy\n").find("rules.txt:1: error: unknown kind 'squishy'"), std::string::npos);
  EXPECT_NE(ParseError("\n\n*  compliant E=-1\n").find("rules.txt:3: error: E must be positive"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant E=0\n").find("E must be positive"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant E=nan\n").find("'nan' is not a finite number"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant E=1e7x\n").find("'1e7x' is not a finite number"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant hint=0\n").find("hint must be positive"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant dissipation=-2\n").find("dissipation must not be negative"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant mu=0.5\n").find("unknown property 'mu'"), std::string::npos);
  EXPECT_NE(ParseError("*  compliant E\n").find("expected PROPERTY=VALUE"), std::string::npos);
  EXPECT_NE(ParseError("*  rigid E=1e7\n").find("'E' is a property of compliant bodies only"), std::string::npos);
  EXPECT_NE(ParseError("type:blob compliant\n").find("unknown shape type 'blob'"), std::string::npos);
  // Every bad line is reported, not just the first.
  Diagnostics d;
  EXPECT_FALSE(ParseComplianceRules("a squishy\nb compliant E=0\n", "r", &d));
  EXPECT_EQ(d.num_errors(), 2);
}

TEST(ComplianceRulesTest, ReadsAFileAndNamesAMissingOne) {
  test::TempDir dir("rules");
  const std::string path = dir.Write("scene.rules", "crate compliant E=3e6\n");
  Diagnostics d;
  const auto rules = ReadComplianceRules(path, &d);
  ASSERT_TRUE(rules) << d.ToString();
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ(rules->front().where.file, path);
  EXPECT_FALSE(ReadComplianceRules(dir.path() + "/none.rules", &d));
  EXPECT_NE(d.ToString().find("none.rules: error: cannot read"), std::string::npos);
}

TEST(ComplianceRulesTest, CompliantOptionAllAndNameEqualsModulus) {
  Diagnostics d;
  const auto all = ParseCompliantOption("all", &d);
  ASSERT_TRUE(all);
  EXPECT_EQ(MatchComplianceRule(*all, {"crate", "box", false})->compliance, Compliance::kCompliant);
  EXPECT_FALSE(MatchComplianceRule(*all, {"crate", "box", false})->hydroelastic_modulus_Pa);  // the default E
  EXPECT_EQ(MatchComplianceRule(*all, {"ground", "box", true})->compliance, Compliance::kRigid);
  const auto one = ParseCompliantOption("crate_*=5e6", &d);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->front().selector, "crate_*");
  EXPECT_EQ(*one->front().hydroelastic_modulus_Pa, 5e6);
  for (const char* bad : {"crate", "=1e6", "crate=", "crate=soft", "crate=-5"}) {
    Diagnostics e;
    EXPECT_FALSE(ParseCompliantOption(bad, &e)) << bad;
    EXPECT_NE(e.ToString().find("--compliant"), std::string::npos) << e.ToString();
  }
}

TEST(ComplianceRulesTest, TheLastMatchingRuleWins) {
  const auto rules = MustParse(
      "dynamic     compliant E=1e7\n"
      "type:sphere compliant E=2e7\n"
      "ball_2      none\n"
      "static      rigid\n");
  EXPECT_EQ(*MatchComplianceRule(rules, {"crate", "box", false})->hydroelastic_modulus_Pa, 1e7);
  EXPECT_EQ(*MatchComplianceRule(rules, {"ball_1", "sphere", false})->hydroelastic_modulus_Pa, 2e7);
  EXPECT_EQ(MatchComplianceRule(rules, {"ball_2", "sphere", false})->compliance, Compliance::kNone);
  EXPECT_EQ(MatchComplianceRule(rules, {"floor", "plane", true})->compliance, Compliance::kRigid);
  EXPECT_EQ(MatchComplianceRule(MustParse("crate rigid\n"), {"crates", "box", false}), nullptr);
  EXPECT_EQ(MatchComplianceRule({}, {"crate", "box", false}), nullptr);
}

// Rules replace a URDF's tags: an untagged robot becomes compliant where they say, and its
// mass-0 base (static) gets the static rule.
TEST(ComplianceRulesTest, RulesTagAModelFileScene) {
  Scene scene = test::MustRead(R"(<robot name="cart">
    <link name="base"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><box size="1 1 0.1"/></geometry></collision></link>
    <link name="wheel"><inertial><mass value="1"/><inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><sphere radius="0.1"/></geometry></collision>
      <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
    <joint name="axle" type="continuous"><parent link="base"/><child link="wheel"/><axis xyz="0 1 0"/></joint>
  </robot>)",
                               "cart.urdf");
  const auto rules = MustParse("static rigid\ncart::wheel compliant E=4e6 hint=0.01\ntype:box none\n");
  // base: static then type:box → none; wheel sphere: compliant; wheel box: type:box → none.
  EXPECT_EQ(ApplyComplianceRules(rules, &scene), 3);
  const Link& base = scene.models[0].links[0];
  const Link& wheel = scene.models[0].links[1];
  EXPECT_EQ(base.collisions[0].contact.compliance, Compliance::kNone);
  EXPECT_EQ(wheel.collisions[0].contact.compliance, Compliance::kCompliant);
  EXPECT_EQ(*wheel.collisions[0].contact.hydroelastic_modulus_Pa, 4e6);
  EXPECT_EQ(*wheel.collisions[0].contact.mesh_resolution_hint_m, 0.01);
  EXPECT_EQ(wheel.collisions[1].contact.compliance, Compliance::kNone);
  EXPECT_EQ(ApplyComplianceRules(MustParse("static rigid\n"), &scene), 1);
  EXPECT_EQ(scene.models[0].links[0].collisions[0].contact.compliance, Compliance::kRigid);
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
