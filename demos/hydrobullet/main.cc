// hydrobullet: inspect, contact and run URDF/SDF scenes with pressure-field patch contact.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "demos/hydrobullet/commands.h"
#include "demos/hydrobullet/plot.h"
#include "demos/hydrobullet/viewer.h"
#include "urdf/compliance_rules.h"
#include "urdf/xml_context.h"

namespace {

using hydro::cli::CommandLine;

const char* kUsage =
    "usage: hydrobullet <command> [options] FILE\n"
    "FILE: a URDF, an SDF, or a world saved by Bullet (.bullet)\n"
    "commands:\n"
    "  inspect   what the file describes (models, links, joints, collisions and their compliance)\n"
    "  contact   the contact surfaces of the file's initial configuration\n"
    "  run       simulate headless and write CSV, JSON and VTK results\n"
    "  view      simulate live in a window: patches coloured by pressure, orbit, pull bodies\n"
    "  render    one picture of the scene at a given time, drawn offscreen (PNG)\n"
    "  plot      PNG plots of a run's contacts and bodies (gnuplot)\n"
    "'hydrobullet <command> --help' shows the command's options.\n";

const char* kCommonOptions =
    "  --compliant all     every moving body compliant (default E), every static one rigid hydroelastic\n"
    "  --compliant NAME=E  bodies named NAME (shell wildcards) compliant at E Pa; repeatable\n"
    "  --rules FILE        compliance rules by name or shape type (see urdf/TAGS.md); repeatable\n"
    "  --package-path DIR  search DIR for package:// URIs (also ROS_PACKAGE_PATH)\n"
    "  --model-path DIR    search DIR for model:// URIs (also SDF_PATH, GZ_SIM_RESOURCE_PATH)\n"
    "  --help              this text\n";

std::string Help(const std::string& command) {
  if (command == "view")
    return std::string(
               "usage: hydrobullet view FILE [options]\n  Simulates live in a window (GLFW + OpenGL): bodies shaded, "
               "FEM bodies by strain, patches by\n  pressure with a colour bar in Pa and each patch's net force.\n"
               "  space pause/resume   . one step while paused   p polygons/solver points   Esc quit\n"
               "  mouse: left drag orbits (on a moving body: pulls it), right drag pans, wheel zooms;\n"
               "  the slider at the bottom sets the speed, a tenth of real time to as fast as possible.\n"
               "  --width W, --height H, --camera ex,ey,ez,tx,ty,tz   window size and first view\n"
               "  --frames N, --screenshot IMAGE.png   quit after N frames (one step each), saving the last,\n"
               "                                       and print the view and the moving bodies' positions\n"
               "  --input EVENTS   replay keys and mouse events at given frames (lines 'FRAME key space|period|p|\n"
               "                   escape', 'FRAME press left|right X Y', 'FRAME move X Y', 'FRAME release X Y',\n"
               "                   'FRAME scroll DY'; pixels from the top left)\n"
               "  --dt S, --set ..., --no-plugin, --rigid   as for run\n") +
           kCommonOptions;
  if (command == "render")
    return std::string(
               "usage: hydrobullet render FILE --out IMAGE.png [options]\n  Simulates to --time and draws the scene "
               "offscreen (EGL, no display needed): bodies shaded,\n  contact polygons coloured by pressure with a "
               "colour "
               "bar in Pa, each patch's net force from its\n  centre of pressure (magenta).\n"
               "  --time S            simulated time of the picture (default 0)\n"
               "  --out IMAGE.png     the picture (required)\n"
               "  --width W, --height H   size in pixels (default 1280 x 720)\n"
               "  --camera ex,ey,ez,tx,ty,tz   eye and target (default: the whole scene from the front right)\n"
               "  --dt S              step (default: the file's)\n"
               "  --set NAME.velocity=…, NAME.pose=…, --no-plugin, --rigid   as for run\n") +
           kCommonOptions;
  if (command == "inspect")
    return std::string(
               "usage: hydrobullet inspect FILE [--json]\n  Prints models, links, joints and collisions with "
               "their compliance, or the file's errors as file:line.\n  --json              machine-readable "
               "output\n") +
           kCommonOptions;
  if (command == "contact")
    return std::string(
               "usage: hydrobullet contact FILE [--json]\n  Prints every touching pair's patch in the initial "
               "configuration: polygons, area, force and torque\n  on the first body (world frame, torque "
               "about the origin), centre of pressure, max pressure.\n  --json              "
               "machine-readable output\n  --rigid             build jointed models as rigid bodies + constraints\n") +
           kCommonOptions;
  return std::string(
             "usage: hydrobullet run FILE [options]\n  Simulates headless and writes DIR/bodies.csv, DIR/contacts.csv, "
             "DIR/summary.json and a VTK time series (DIR/series.pvd).\n"
             "  --duration S        simulated time (default 1)\n"
             "  --dt S              step (default: the file's <physics> step, else 0.001)\n"
             "  --log-dt S          logging interval (default 0.01, or every step when dt is longer)\n"
             "  --out DIR           output directory (default hydrobullet_out)\n"
             "  --set NAME.velocity=vx,vy,vz,wx,wy,wz   initial velocity of a model or model::link (world)\n"
             "  --set NAME.pose=x,y,z,roll,pitch,yaw    initial pose of a model (or a free model::link)\n"
             "  --no-plugin         stock Bullet on the same file, for comparison\n"
             "  --video FILE.mp4    also draw the run (30 frames per simulated second) and encode it with ffmpeg\n"
             "  --width W, --height H, --camera ex,ey,ez,tx,ty,tz   the video's size and view (as for render)\n"
             "  --rigid             build jointed models as rigid bodies + constraints\n") +
         kCommonOptions;
}

const char* kPlotHelp =
    "usage: hydrobullet plot DIR [options]\n"
    "  Plots DIR/contacts.csv and DIR/bodies.csv (from `hydrobullet run --out DIR`) as PNG files with gnuplot:\n"
    "  per pair normal force, contact area, max pressure and centre of pressure against time; the moving\n"
    "  bodies' speed and angular speed. Each PNG's gnuplot script (.gp) and data (.dat) are beside it.\n"
    "  --out DIR2          where the plots go (default DIR/plots)\n"
    "  --width W, --height H   image size in pixels (default 1200 x 900)\n";

int Usage(const std::string& message) {
  std::fprintf(stderr, "hydrobullet: %s\n%s", message.c_str(), kUsage);
  return 2;
}

bool ParseNumber(const std::string& text, double* value) {
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(*value);
}

bool ParseNumbers(const std::string& text, int n, std::vector<double>* values) {
  std::stringstream in(text);
  std::string item;
  values->clear();
  while (std::getline(in, item, ',')) {
    double v;
    if (!ParseNumber(item, &v)) return false;
    values->push_back(v);
  }
  return static_cast<int>(values->size()) == n;
}

// NAME.velocity=… or NAME.pose=…
bool ParseSet(const std::string& text, CommandLine* args, std::string* error) {
  const size_t equals = text.find('=');
  const size_t dot = text.rfind('.', equals);
  if (equals == std::string::npos || dot == std::string::npos || dot == 0) {
    *error = "--set expects NAME.velocity=… or NAME.pose=…, got '" + text + "'";
    return false;
  }
  const std::string name = text.substr(0, dot), what = text.substr(dot + 1, equals - dot - 1);
  if (what != "velocity" && what != "pose") {
    *error = "--set: unknown property '" + what + "' (velocity or pose)";
    return false;
  }
  // Six numbers, each finite: a NaN or an infinity is named with its place, not built into the world.
  std::vector<double> v;
  std::stringstream values(text.substr(equals + 1));
  for (std::string item; std::getline(values, item, ',');) {
    double x;
    if (!ParseNumber(item, &x)) {
      *error = "--set " + name + "." + what + ": value " + std::to_string(v.size() + 1) + " ('" + item +
               "') is not a finite number";
      return false;
    }
    v.push_back(x);
  }
  if (v.size() != 6) {
    *error = "--set " + name + "." + what + " needs six comma-separated numbers, got " + std::to_string(v.size());
    return false;
  }
  if (what == "velocity")
    args->build.velocities[name] = {hydro::Vector3(v[0], v[1], v[2]), hydro::Vector3(v[3], v[4], v[5])};
  else
    args->build.poses[name] =
        hydro::urdf::PoseFromXyzRpy(hydro::Vector3(v[0], v[1], v[2]), hydro::Vector3(v[3], v[4], v[5]));
  return true;
}

int PlotCommand(int argc, char** argv) {
  hydro::cli::PlotOptions options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto size = [&](int* out) {
      double value;
      if (i + 1 >= argc || !ParseNumber(argv[++i], &value) || value < 16 || value > 10000 || value != std::floor(value))
        return false;
      *out = static_cast<int>(value);
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kPlotHelp);
      return 0;
    } else if (arg == "--out") {
      if (i + 1 >= argc) return Usage("--out needs a directory");
      options.out_dir = argv[++i];
    } else if (arg == "--width") {
      if (!size(&options.width_px)) return Usage("--width needs a whole number of pixels, 16 to 10000");
    } else if (arg == "--height") {
      if (!size(&options.height_px)) return Usage("--height needs a whole number of pixels, 16 to 10000");
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unknown option '" + arg + "' for plot");
    } else if (options.run_dir.empty()) {
      options.run_dir = arg;
    } else {
      return Usage("more than one DIR given");
    }
  }
  if (options.run_dir.empty()) return Usage("no DIR given");
  if (const char* gnuplot = std::getenv("HYDROBULLET_GNUPLOT")) options.gnuplot = gnuplot;
  return hydro::cli::Plot(options);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage("no command");
  CommandLine args;
  args.command = argv[1];
  if (args.command == "--help" || args.command == "-h" || args.command == "help") {
    std::printf("%s", kUsage);
    return 0;
  }
  if (args.command == "plot") return PlotCommand(argc, argv);
  hydro::cli::ViewOptions view;
  if (args.command != "inspect" && args.command != "contact" && args.command != "run" && args.command != "render" &&
      args.command != "view")
    return Usage("unknown command '" + args.command + "'");
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    auto number = [&](double* out) {
      std::string text;
      return value(&text) && ParseNumber(text, out) && *out > 0;
    };
    std::string text, error;
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", Help(args.command).c_str());
      return 0;
    } else if (arg == "--json" && args.command != "run") {
      args.json = true;
    } else if (arg == "--package-path") {
      if (!value(&text)) return Usage("--package-path needs a directory");
      args.read.search.package_paths.push_back(text);
    } else if (arg == "--model-path") {
      if (!value(&text)) return Usage("--model-path needs a directory");
      args.read.search.model_paths.push_back(text);
    } else if (arg == "--compliant" || arg == "--rules") {
      if (!value(&text)) return Usage(arg + (arg == "--rules" ? " needs a file" : " needs 'all' or NAME=E"));
      hydro::urdf::Diagnostics diagnostics;
      const auto rules = arg == "--rules" ? hydro::urdf::ReadComplianceRules(text, &diagnostics)
                                          : hydro::urdf::ParseCompliantOption(text, &diagnostics);
      if (!rules) {
        std::fprintf(stderr, "%shydrobullet: %s\n", diagnostics.ToString().c_str(), diagnostics.FirstError().c_str());
        return 1;
      }
      args.rules.insert(args.rules.end(), rules->begin(), rules->end());
    } else if (arg == "--rigid" && args.command != "inspect") {
      args.build.multibody = false;
    } else if (args.command == "run" && arg == "--duration") {
      if (!number(&args.duration_s)) return Usage("--duration needs a positive number of seconds");
    } else if (args.command == "render" && arg == "--time") {
      std::string text;
      if (!value(&text) || !ParseNumber(text, &args.render_time_s) || args.render_time_s < 0)
        return Usage("--time needs a number of seconds, 0 or more");
    } else if (args.command == "run" && arg == "--video") {
      if (!value(&args.video_path)) return Usage("--video needs an .mp4 file");
    } else if (args.command == "render" && arg == "--out") {
      if (!value(&args.image_path)) return Usage("--out needs a PNG file");
    } else if (args.command == "view" && arg == "--frames") {
      double frames;
      if (!number(&frames) || frames != std::floor(frames)) return Usage("--frames needs a whole number");
      view.frames = static_cast<int>(frames);
    } else if (args.command == "view" && arg == "--screenshot") {
      if (!value(&view.screenshot)) return Usage("--screenshot needs a PNG file");
    } else if (args.command == "view" && arg == "--input") {
      if (!value(&view.input_script)) return Usage("--input needs a file of viewer events");
    } else if ((args.command == "render" || args.command == "run" || args.command == "view") &&
               (arg == "--width" || arg == "--height")) {
      double pixels;
      if (!number(&pixels) || pixels < 16 || pixels > 8192 || pixels != std::floor(pixels))
        return Usage(arg + " needs a whole number of pixels, 16 to 8192");
      (arg == "--width" ? args.width_px : args.height_px) = static_cast<int>(pixels);
    } else if ((args.command == "render" || args.command == "run" || args.command == "view") && arg == "--camera") {
      if (!value(&text) || !ParseNumbers(text, 6, &args.camera))
        return Usage("--camera needs six comma-separated numbers: eye x,y,z then target x,y,z");
    } else if ((args.command == "run" || args.command == "render" || args.command == "view") && arg == "--dt") {
      if (!number(&args.dt_s)) return Usage("--dt needs a positive number of seconds");
    } else if (args.command == "run" && arg == "--log-dt") {
      if (!number(&args.log_dt_s)) return Usage("--log-dt needs a positive number of seconds");
    } else if (args.command == "run" && arg == "--out") {
      if (!value(&args.out_dir)) return Usage("--out needs a directory");
    } else if ((args.command == "run" || args.command == "render" || args.command == "view") && arg == "--no-plugin") {
      args.plugin = false;
      args.build.patch_contact = false;
    } else if ((args.command == "run" || args.command == "render" || args.command == "view") && arg == "--set") {
      if (!value(&text)) return Usage("--set needs NAME.velocity=… or NAME.pose=…");
      if (!ParseSet(text, &args, &error)) return Usage(error);
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unknown option '" + arg + "' for " + args.command);
    } else if (args.file.empty()) {
      args.file = arg;
    } else {
      return Usage("more than one FILE given");
    }
  }
  if (args.file.empty()) return Usage("no FILE given");
  if (args.command == "inspect") return hydro::cli::Inspect(args);
  if (args.command == "contact") return hydro::cli::Contact(args);
  if (args.command == "view") {
    view.width_px = args.width_px;
    view.height_px = args.height_px;
    return hydro::cli::View(args, view);
  }
  if (args.command == "render") {
    if (args.image_path.empty()) return Usage("render needs --out IMAGE.png");
    return hydro::cli::Render(args);
  }
  return hydro::cli::Run(args);
}
