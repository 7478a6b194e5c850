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
  // render: the picture at render_time_s, width × height, from `camera` (eye, target) if given.
  double render_time_s{0};
  std::string image_path;
  int width_px{1280};
  int height_px{720};
  std::vector<double> camera;
  // run --video: the run drawn at 30 frames per simulated second, encoded by ffmpeg.
  std::string video_path;
};

struct Simulation;
// Reports a failed command's reason on stderr ("hydrobullet: reason") and returns its exit code, 1.
int Fail(const std::string& reason);
// Loads the command line's file into `simulation`; warnings and errors go to stderr (the first
// error last, on its own line).
bool LoadOrReportForCommand(const CommandLine& args, Simulation* simulation);

int Inspect(const CommandLine& args);
int Contact(const CommandLine& args);
int Run(const CommandLine& args);
// One picture of the scene at args.render_time_s (render.cc); 1 when rendering is unavailable.
int Render(const CommandLine& args);

}  // namespace cli
}  // namespace hydro
