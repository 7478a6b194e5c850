#include "urdf/model_files.h"

#include "urdf/readers_internal.h"

namespace hydro {
namespace urdf {

namespace {

std::optional<Scene> ReadDocument(const tinyxml2::XMLDocument& document, const std::string& name,
                                  const ReadOptions& options, Diagnostics* diagnostics) {
  const XmlContext ctx(name, diagnostics);
  const tinyxml2::XMLElement* root = document.RootElement();
  if (!root) {
    diagnostics->Error(name, 0, "empty file");
    return std::nullopt;
  }
  const std::string tag = root->Name();
  if (tag == "robot") return internal::ReadUrdfDocument(root, ctx, options);
  if (tag == "sdf") return internal::ReadSdfDocument(root, ctx, options);
  ctx.Error(root, "neither URDF (<robot>) nor SDFormat (<sdf>): the root element is <" + tag + ">");
  return std::nullopt;
}

}  // namespace

std::optional<Scene> ReadModelFile(const std::string& path, const ReadOptions& options, Diagnostics* diagnostics) {
  tinyxml2::XMLDocument document;
  if (!LoadXml(path, &document, diagnostics)) return std::nullopt;
  return ReadDocument(document, path, options, diagnostics);
}

std::optional<Scene> ReadModelString(const std::string& text, const std::string& name, const ReadOptions& options,
                                     Diagnostics* diagnostics) {
  tinyxml2::XMLDocument document;
  if (!ParseXml(text, name, &document, diagnostics)) return std::nullopt;
  return ReadDocument(document, name, options, diagnostics);
}

}  // namespace urdf
}  // namespace hydro
