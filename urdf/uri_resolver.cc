#include "urdf/uri_resolver.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace hydro {
namespace urdf {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> SplitPathList(const char* list) {
  std::vector<std::string> dirs;
  if (!list) return dirs;
  std::stringstream in(list);
  std::string dir;
  while (std::getline(in, dir, ':'))
    if (!dir.empty()) dirs.push_back(dir);
  return dirs;
}

bool IsFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool IsDirectory(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// "scheme://NAME/rest" → NAME, rest.
void SplitNameAndRest(const std::string& after_scheme, std::string* name, std::string* rest) {
  const size_t slash = after_scheme.find('/');
  *name = after_scheme.substr(0, slash);
  *rest = slash == std::string::npos ? "" : after_scheme.substr(slash + 1);
}

std::string Join(const std::vector<std::string>& dirs) {
  std::string out;
  for (const std::string& dir : dirs) out += (out.empty() ? "" : ", ") + dir;
  return out.empty() ? "(none)" : out;
}

}  // namespace

std::optional<std::string> ResolveUri(const std::string& uri, const std::string& referencing_file,
                                      const SearchPaths& search, std::string* error, std::string* note) {
  if (note) note->clear();
  const fs::path base = fs::path(referencing_file).parent_path();
  if (uri.empty()) {
    *error = "empty file name";
    return std::nullopt;
  }
  if (uri.rfind("file://", 0) == 0) {
    const fs::path path = uri.substr(7);
    const fs::path full = path.is_absolute() ? path : base / path;
    if (IsFile(full)) return full.lexically_normal().string();
    *error = "no file " + full.string();
    return std::nullopt;
  }
  if (uri.rfind("package://", 0) == 0) {
    std::string name, rest;
    SplitNameAndRest(uri.substr(10), &name, &rest);
    std::vector<std::string> dirs = search.package_paths;
    if (search.use_environment)
      for (const std::string& dir : SplitPathList(std::getenv("ROS_PACKAGE_PATH"))) dirs.push_back(dir);
    for (const std::string& dir : dirs) {
      std::vector<fs::path> roots = {fs::path(dir) / name};
      if (fs::path(dir).filename() == name) roots.push_back(dir);
      std::error_code ec;
      if (IsDirectory(dir))
        for (const auto& entry : fs::directory_iterator(dir, ec))
          if (entry.is_directory(ec)) roots.push_back(entry.path() / name);
      for (const fs::path& root : roots)
        if (IsFile(root / rest)) return (root / rest).lexically_normal().string();
    }
    // A description package next to (or above) the file that uses it.
    for (fs::path dir = base; !dir.empty(); dir = dir.parent_path()) {
      if (dir.filename() == name && IsFile(dir / rest)) return (dir / rest).lexically_normal().string();
      if (IsFile(dir / name / rest)) return (dir / name / rest).lexically_normal().string();
      if (dir == dir.parent_path()) break;
    }
    *error = "package '" + name + "' with " + rest + " not found (searched " + Join(dirs) +
             " and the directories above the file; set ROS_PACKAGE_PATH or give a package path)";
    return std::nullopt;
  }
  if (uri.rfind("model://", 0) == 0) {
    std::string name, rest;
    SplitNameAndRest(uri.substr(8), &name, &rest);
    std::vector<std::string> dirs = search.model_paths;
    if (search.use_environment) {
      for (const std::string& dir : SplitPathList(std::getenv("SDF_PATH"))) dirs.push_back(dir);
      for (const std::string& dir : SplitPathList(std::getenv("GZ_SIM_RESOURCE_PATH"))) dirs.push_back(dir);
    }
    dirs.push_back(base.empty() ? "." : base.string());
    for (const std::string& dir : dirs) {
      const fs::path root = fs::path(dir) / name;
      if (rest.empty() ? IsDirectory(root) : IsFile(root / rest))
        return (rest.empty() ? root : root / rest).lexically_normal().string();
    }
    *error = "model '" + name + "' not found (searched " + Join(dirs) + "; set SDF_PATH or GZ_SIM_RESOURCE_PATH)";
    return std::nullopt;
  }
  if (uri.find("://") != std::string::npos) {
    *error = "unsupported URI scheme in '" + uri + "' (use a path, file://, package:// or model://)";
    return std::nullopt;
  }
  const fs::path path(uri);
  const fs::path full = path.is_absolute() ? path : base / path;
  if (IsFile(full)) return full.lexically_normal().string();
  // PyBullet's lookup: a rooted path under the file's directory, a relative one under the
  // directories above it.
  const fs::path relative = path.relative_path();
  const fs::path first_dir = path.is_absolute() ? base : base.parent_path();
  for (fs::path dir = first_dir; !relative.empty(); dir = dir.parent_path()) {
    const fs::path candidate = (dir.empty() ? fs::path(".") : dir) / relative;
    if (IsFile(candidate)) {
      if (note)
        *note = "'" + uri + "' is not a file; using " + candidate.lexically_normal().string() +
                (path.is_absolute() ? ", relative to the model file" : ", from a directory above the model file") +
                " as PyBullet does";
      return candidate.lexically_normal().string();
    }
    if (dir.empty() || dir == dir.parent_path()) break;
  }
  *error = "no file " + full.string();
  return std::nullopt;
}

}  // namespace urdf
}  // namespace hydro
