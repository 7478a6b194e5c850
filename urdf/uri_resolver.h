#pragma once
// Finds the files that model files refer to: relative paths, file://, package:// (ROS) and
// model:// (SDFormat / Gazebo).
#include <optional>
#include <string>
#include <vector>

namespace hydro {
namespace urdf {

struct SearchPaths {
  // Directories searched for package://NAME/...: DIR/NAME, DIR itself when it is named NAME, and
  // DIR/*/NAME. ROS_PACKAGE_PATH (':'-separated) is appended when use_environment is set.
  std::vector<std::string> package_paths;
  // Directories searched for model://NAME/...: DIR/NAME. SDF_PATH and GZ_SIM_RESOURCE_PATH are
  // appended when use_environment is set.
  std::vector<std::string> model_paths;
  bool use_environment{true};
};

// The file `uri` names, written in `referencing_file`. Without a match: nullopt and *error says
// where it looked. A plain path that does not name a file is then looked for the way PyBullet
// does: an absolute one ("/meshes/x.stl") relative to the referencing file's directory, a relative
// one relative to each directory above it (PyBullet's data root). A file found so is returned
// and, when `note` is given, *note says how it was found (worth a warning: the file is not
// portable); otherwise *note is left empty.
std::optional<std::string> ResolveUri(const std::string& uri, const std::string& referencing_file,
                                      const SearchPaths& search, std::string* error, std::string* note = nullptr);

}  // namespace urdf
}  // namespace hydro
