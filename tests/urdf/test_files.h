#pragma once
// Helpers for model-file tests: temporary directories with files written from strings.
#include <filesystem>
#include <fstream>
#include <string>

#include "urdf/model_files.h"

namespace hydro {
namespace urdf {
namespace test {

// A fresh directory under the system temp dir, removed with the object.
class TempDir {
 public:
  explicit TempDir(const std::string& name) {
    path_ = std::filesystem::temp_directory_path() / ("hydro_urdf_test_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  // Writes `text` to path()/relative (creating directories) and returns the full path.
  std::string Write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// A closed unit cube as OBJ text.
inline std::string CubeObj() {
  return "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
}

// Reads `text` as a model file named `name`; returns the scene (or nullopt) and the diagnostics.
inline std::optional<Scene> Read(const std::string& text, Diagnostics* diagnostics,
                                 const std::string& name = "test.urdf") {
  ReadOptions options;
  options.search.use_environment = false;
  return ReadModelString(text, name, options, diagnostics);
}

}  // namespace test
}  // namespace urdf
}  // namespace hydro
