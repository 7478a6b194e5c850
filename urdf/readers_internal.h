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

// The rest of a <mesh> shared by both formats: `scale_text` (may be null), drake:declare_convex
// under `mesh`, then the URI (reported at `uri_element`).
bool FinishMesh(const XmlContext& ctx, const tinyxml2::XMLElement* mesh, const tinyxml2::XMLElement* scale_element,
                const char* scale_text, const tinyxml2::XMLElement* uri_element, const ReadOptions& options,
                Geometry* geometry);

// The shape element inside parent's <geometry>, or null after reporting why there is none.
const tinyxml2::XMLElement* GeometryShape(const XmlContext& ctx, const tinyxml2::XMLElement* parent);

// fixed, revolute, continuous, prismatic, floating or planar.
std::optional<JointType> ParseJointType(const char* type);

// Sets the link's inertia matrix from its six entries and reports one that is not positive
// semi-definite at `element`.
void SetInertia(const XmlContext& ctx, const tinyxml2::XMLElement* element, const double entries[6], Link* link);

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
