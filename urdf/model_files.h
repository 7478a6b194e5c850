#pragma once
// Reading URDF and SDF files into a Scene (model.h). Every problem goes to `diagnostics` as
// file:line; a file with errors yields nullopt (nothing is built from it). Never throws for bad
// input.
#include <optional>
#include <string>

#include "urdf/diagnostics.h"
#include "urdf/model.h"
#include "urdf/uri_resolver.h"

namespace hydro {
namespace urdf {

struct ReadOptions {
  SearchPaths search;
  // Load deformables' tet meshes to validate them and count vertices and tets.
  bool load_deformable_meshes{true};
};

// URDF (<robot>) or SDF (<sdf>), chosen by the root element.
std::optional<Scene> ReadModelFile(const std::string& path, const ReadOptions& options, Diagnostics* diagnostics);
std::optional<Scene> ReadModelString(const std::string& text, const std::string& name, const ReadOptions& options,
                                     Diagnostics* diagnostics);

}  // namespace urdf
}  // namespace hydro
