#pragma once
// The hydrobullet subcommands. Each returns the process exit code: 0 on success, 1 when the
// model or a run fails (one-line reason on stderr), 2 for a usage error.
#include <map>
#include <string>
#include <vector>

#include "urdf/bullet_builder.h"
#include "urdf/compliance_rules.h"
#include "urdf/model_files.h"

namespace hydro {
namespace cli {

struct CommandLine {
  std::string command;
  std::string file;
  bool json{false};
  bool plugin{true};
  bool multibody{true};
  double duration_s{1.0};
  double dt_s{0};      // 0: the file's step (SDF <physics>) or 1 ms
  double log_dt_s{0};  // 0: every 10 ms, or every step when dt is longer
  std::string out_dir{"hydrobullet_out"};
  urdf::ReadOptions read;
  urdf::BuildOptions build;
  std::vector<urdf::ComplianceRule> rules;  // --compliant, --rules (in order; later ones win)
};

int Inspect(const CommandLine& args);
int Contact(const CommandLine& args);
int Run(const CommandLine& args);

}  // namespace cli
}  // namespace hydro
