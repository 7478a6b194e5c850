#pragma once
// Compliance given from outside a model file: rules that make bodies compliant (or rigid
// hydroelastic) by name or shape type, so that a scene saved by an unchanged Bullet program (a
// .bullet file), or a robot file one would rather not edit, runs with patch contact.
//
// A rule file holds one rule per line; '#' starts a comment:
//
//   # selector      kind       properties
//   *               compliant  E=1e7
//   type:box        compliant  E=1e8 hint=0.02 dissipation=5
//   ground          rigid
//   crate_*         none
//
// selector: a body name with shell wildcards (* ? [..]); `type:NAME` for a shape type (box,
// sphere, capsule, cylinder, cone, convex, mesh, plane, compound); `static` or `dynamic` for the
// bodies that do not or do move. kind: compliant, rigid (a rigid hydroelastic surface) or none
// (Bullet's own contact). properties (compliant only): E (Pa, > 0), hint (m, > 0), dissipation
// (s/m, ≥ 0), slab (m, > 0; for a compliant plane). Later rules override earlier ones for the
// bodies they match.
//
// On the command line: `--compliant all` (every moving body compliant at the default E, every
// static one rigid), `--compliant NAME=E` (a body, or a wildcard pattern, compliant at E Pa), and
// `--rules FILE`.
#include <optional>
#include <string>
#include <vector>

#include "urdf/diagnostics.h"
#include "urdf/model.h"

namespace hydro {
namespace urdf {

struct ComplianceRule {
  std::string selector;  // a name pattern, "type:NAME", "static" or "dynamic"
  Compliance compliance{Compliance::kCompliant};
  std::optional<double> hydroelastic_modulus_Pa;
  std::optional<double> mesh_resolution_hint_m;
  std::optional<double> hunt_crossley_dissipation_s_per_m;
  std::optional<double> slab_thickness_m;
  SourceLocation where;  // the rule file's line, or "--compliant"
};

// What a rule is matched against: a body's name, its shape type (as in the selector) and
// whether it moves.
struct RuleSubject {
  std::string name;
  std::string shape_type;
  bool is_static{false};
};

// Reads a rule file (errors with file:line into `diagnostics`; nullopt if any).
std::optional<std::vector<ComplianceRule>> ReadComplianceRules(const std::string& path, Diagnostics* diagnostics);
std::optional<std::vector<ComplianceRule>> ParseComplianceRules(const std::string& text, const std::string& name,
                                                                Diagnostics* diagnostics);
// The rules of one --compliant option: "all" or "NAME=E".
std::optional<std::vector<ComplianceRule>> ParseCompliantOption(const std::string& text, Diagnostics* diagnostics);

// The last rule that matches, or null.
const ComplianceRule* MatchComplianceRule(const std::vector<ComplianceRule>& rules, const RuleSubject& subject);

// Applies the rules to every collision of a model-file scene (subject: "model::link", the
// geometry's type, static for static models and links of mass 0): what a rule sets replaces the
// file's tags. Returns the number of collisions a rule matched.
int ApplyComplianceRules(const std::vector<ComplianceRule>& rules, Scene* scene);

}  // namespace urdf
}  // namespace hydro
