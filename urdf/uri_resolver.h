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
// where it looked.
std::optional<std::string> ResolveUri(const std::string& uri, const std::string& referencing_file,
                                      const SearchPaths& search, std::string* error);

}  // namespace urdf
}  // namespace hydro
