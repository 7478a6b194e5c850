#pragma once
// The format readers behind model_files.h.
#include <tinyxml2.h>

#include <optional>

#include "urdf/model.h"
#include "urdf/model_files.h"
#include "urdf/xml_context.h"

namespace hydro {
namespace urdf {
namespace internal {

std::optional<Scene> ReadUrdfDocument(const tinyxml2::XMLElement* robot, const XmlContext& ctx,
                                      const ReadOptions& options);
// `depth` counts nested <include>s (at most 8, so include cycles end with an error).
std::optional<Scene> ReadSdfDocument(const tinyxml2::XMLElement* sdf, const XmlContext& ctx, const ReadOptions& options,
                                     int depth = 0);

// Resolves a mesh URI for a <mesh> geometry and checks its format; reports at `element`.
bool ResolveMesh(const XmlContext& ctx, const tinyxml2::XMLElement* element, const ReadOptions& options,
                 Geometry* geometry);

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
