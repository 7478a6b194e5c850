#include "urdf/compliance_rules.h"

#include <fnmatch.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace hydro {
namespace urdf {
namespace {

const char* const kShapeTypes[] = {"box",    "sphere", "capsule", "cylinder", "cone",
                                   "convex", "mesh",   "plane",   "compound", "ellipsoid"};

bool ParseNumber(const std::string& text, double* value) {
  std::istringstream in(text);
  in >> *value;
  return in && in.peek() == std::char_traits<char>::eof() && std::isfinite(*value);
}

// One rule from its words; errors name `where`.
std::optional<ComplianceRule> ParseRule(const std::vector<std::string>& words, const SourceLocation& where,
                                        Diagnostics* diagnostics) {
  auto fail = [&](const std::string& message) -> std::optional<ComplianceRule> {
    diagnostics->Error(where.file, where.line, message);
    return std::nullopt;
  };
  if (words.size() < 2) return fail("a rule is 'SELECTOR KIND [PROPERTY=VALUE ...]', got '" + words[0] + "'");
  ComplianceRule rule;
  rule.where = where;
  rule.selector = words[0];
  if (rule.selector.rfind("type:", 0) == 0) {
    bool known = false;
    for (const char* type : kShapeTypes) known |= rule.selector.substr(5) == type;
    if (!known)
      return fail("unknown shape type '" + rule.selector.substr(5) +
                  "' (box, sphere, capsule, cylinder, cone, convex, mesh, plane, compound or ellipsoid)");
  }
  const std::string& kind = words[1];
  if (kind == "compliant")
    rule.compliance = Compliance::kCompliant;
  else if (kind == "rigid")
    rule.compliance = Compliance::kRigid;
  else if (kind == "none")
    rule.compliance = Compliance::kNone;
  else
    return fail("unknown kind '" + kind + "' (compliant, rigid or none)");
  for (size_t i = 2; i < words.size(); ++i) {
    const size_t equals = words[i].find('=');
    if (equals == std::string::npos) return fail("expected PROPERTY=VALUE, got '" + words[i] + "'");
    const std::string key = words[i].substr(0, equals), text = words[i].substr(equals + 1);
    if (rule.compliance != Compliance::kCompliant) return fail("'" + key + "' is a property of compliant bodies only");
    double value;
    if (!ParseNumber(text, &value)) return fail(key + ": '" + text + "' is not a finite number");
    if (key == "E") {
      if (!(value > 0)) return fail("E must be positive (Pa)");
      rule.hydroelastic_modulus_Pa = value;
    } else if (key == "hint") {
      if (!(value > 0)) return fail("hint must be positive (m)");
      rule.mesh_resolution_hint_m = value;
    } else if (key == "dissipation") {
      if (!(value >= 0)) return fail("dissipation must not be negative (s/m)");
      rule.hunt_crossley_dissipation_s_per_m = value;
    } else if (key == "slab") {
      if (!(value > 0)) return fail("slab must be positive (m)");
      rule.slab_thickness_m = value;
    } else {
      return fail("unknown property '" + key + "' (E, hint, dissipation or slab)");
    }
  }
  return rule;
}

}  // namespace

std::optional<std::vector<ComplianceRule>> ParseComplianceRules(const std::string& text, const std::string& name,
                                                                Diagnostics* diagnostics) {
  std::vector<ComplianceRule> rules;
  std::istringstream lines(text);
  std::string line;
  const int errors_before = diagnostics->num_errors();
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string word; in >> word;) words.push_back(word);
    if (words.empty()) continue;
    if (auto rule = ParseRule(words, SourceLocation{name, number}, diagnostics)) rules.push_back(*rule);
  }
  if (diagnostics->num_errors() > errors_before) return std::nullopt;
  return rules;
}

std::optional<std::vector<ComplianceRule>> ReadComplianceRules(const std::string& path, Diagnostics* diagnostics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics->Error(path, 0, "cannot read the rule file");
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseComplianceRules(text.str(), path, diagnostics);
}

std::optional<std::vector<ComplianceRule>> ParseCompliantOption(const std::string& text, Diagnostics* diagnostics) {
  const SourceLocation where{"--compliant", 0};
  if (text == "all") {
    ComplianceRule moving, fixed;
    moving.selector = "dynamic";
    moving.where = where;
    fixed.selector = "static";
    fixed.compliance = Compliance::kRigid;
    fixed.where = where;
    return std::vector<ComplianceRule>{moving, fixed};
  }
  const size_t equals = text.rfind('=');
  if (equals == std::string::npos || equals == 0) {
    diagnostics->Error(where.file, 0, "expected 'all' or NAME=E, got '" + text + "'");
    return std::nullopt;
  }
  auto rule = ParseRule({text.substr(0, equals), "compliant", "E" + text.substr(equals)}, where, diagnostics);
  if (!rule) return std::nullopt;
  return std::vector<ComplianceRule>{*rule};
}

const ComplianceRule* MatchComplianceRule(const std::vector<ComplianceRule>& rules, const RuleSubject& subject) {
  const ComplianceRule* match = nullptr;
  for (const ComplianceRule& rule : rules) {
    bool matches;
    if (rule.selector == "static")
      matches = subject.is_static;
    else if (rule.selector == "dynamic")
      matches = !subject.is_static;
    else if (rule.selector.rfind("type:", 0) == 0)
      matches = rule.selector.substr(5) == subject.shape_type;
    else
      matches = fnmatch(rule.selector.c_str(), subject.name.c_str(), 0) == 0;
    if (matches) match = &rule;
  }
  return match;
}

int ApplyComplianceRules(const std::vector<ComplianceRule>& rules, Scene* scene) {
  int matched = 0;
  for (Model& model : scene->models)
    for (Link& link : model.links) {
      const bool is_static =
          model.is_static || link.name == "world" || (link.has_inertial && !(link.inertial.mass_kg > 0));
      for (Collision& collision : link.collisions) {
        const std::string type = collision.geometry.type == GeometryType::kMesh && collision.geometry.declare_convex
                                     ? "convex"
                                     : GeometryTypeName(collision.geometry.type);
        const ComplianceRule* rule = MatchComplianceRule(rules, {model.name + "::" + link.name, type, is_static});
        if (!rule) continue;
        ++matched;
        ContactProperties& c = collision.contact;
        c.compliance = rule->compliance;
        if (rule->hydroelastic_modulus_Pa) c.hydroelastic_modulus_Pa = rule->hydroelastic_modulus_Pa;
        if (rule->mesh_resolution_hint_m) c.mesh_resolution_hint_m = rule->mesh_resolution_hint_m;
        if (rule->hunt_crossley_dissipation_s_per_m)
          c.hunt_crossley_dissipation_s_per_m = rule->hunt_crossley_dissipation_s_per_m;
        if (rule->slab_thickness_m) c.slab_thickness_m = rule->slab_thickness_m;
      }
    }
  return matched;
}

}  // namespace urdf
}  // namespace hydro
