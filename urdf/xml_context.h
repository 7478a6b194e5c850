#pragma once
// Reading values out of TinyXML2 elements with every problem reported as file:line.
#include <tinyxml2.h>

#include <optional>
#include <string>
#include <vector>

#include "hydro/math.h"
#include "urdf/diagnostics.h"
#include "urdf/model.h"

namespace hydro {
namespace urdf {

enum class Check { kAny, kPositive, kNonNegative };

class XmlContext {
 public:
  XmlContext(std::string file, Diagnostics* diagnostics) : file_(std::move(file)), diagnostics_(diagnostics) {}

  const std::string& file() const { return file_; }
  Diagnostics* diagnostics() const { return diagnostics_; }
  SourceLocation Where(const tinyxml2::XMLElement* element) const;

  void Error(const tinyxml2::XMLElement* element, const std::string& message) const;
  void Warning(const tinyxml2::XMLElement* element, const std::string& message) const;

  // A number from `text` (an attribute value or element text) for `what`; errors for a missing,
  // malformed, non-finite or out-of-range value, reported at `element`.
  std::optional<double> Number(const tinyxml2::XMLElement* element, const char* text, const std::string& what,
                               Check check = Check::kAny) const;
  // Exactly n whitespace-separated finite numbers.
  std::optional<std::vector<double>> Numbers(const tinyxml2::XMLElement* element, const char* text, int n,
                                             const std::string& what) const;
  std::optional<Vector3> Vector(const tinyxml2::XMLElement* element, const char* text, const std::string& what) const;
  // Three numbers that must all be positive (a box's size, an ellipsoid's radii); reports
  // "`what`: every `each` must be positive".
  std::optional<Vector3> PositiveVector(const tinyxml2::XMLElement* element, const char* text, const std::string& what,
                                        const std::string& each) const;
  // Three numbers, not all zero, scaled to unit length (a plane's normal).
  std::optional<Vector3> UnitVector(const tinyxml2::XMLElement* element, const char* text,
                                    const std::string& what) const;
  // The element's name attribute; null, after reporting "`tag` needs a name", where it is missing
  // or empty.
  const char* RequiredName(const tinyxml2::XMLElement* element, const char* tag) const;
  // A boolean: true/false/1/0.
  std::optional<bool> Bool(const tinyxml2::XMLElement* element, const char* text, const std::string& what) const;

 private:
  std::string file_;
  Diagnostics* diagnostics_;
};

// The value of a tag written either as <tag value="…"/> (URDF form) or <tag>…</tag> (SDF form).
const char* TagValue(const tinyxml2::XMLElement* element);

// R = Rz(yaw)·Ry(pitch)·Rx(roll), the fixed-axis roll-pitch-yaw of URDF and SDF.
RigidTransform PoseFromXyzRpy(const Vector3& xyz, const Vector3& rpy);

// Loads and parses a file (or text) into `document`; reports XML syntax errors with their line.
bool LoadXml(const std::string& path, tinyxml2::XMLDocument* document, Diagnostics* diagnostics);
bool ParseXml(const std::string& text, const std::string& name, tinyxml2::XMLDocument* document,
              Diagnostics* diagnostics);

}  // namespace urdf
}  // namespace hydro
