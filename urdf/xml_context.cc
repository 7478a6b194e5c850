#include "urdf/xml_context.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hydro {
namespace urdf {

using tinyxml2::XMLElement;

SourceLocation XmlContext::Where(const XMLElement* element) const {
  return {file_, element ? element->GetLineNum() : 0};
}

void XmlContext::Error(const XMLElement* element, const std::string& message) const {
  diagnostics_->Error(file_, element ? element->GetLineNum() : 0, message);
}

void XmlContext::Warning(const XMLElement* element, const std::string& message) const {
  diagnostics_->Warning(file_, element ? element->GetLineNum() : 0, message);
}

namespace {

// Parses one number token; false unless the whole token is a number.
bool ParseToken(const std::string& token, double* value) {
  if (token.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtod(token.c_str(), &end);
  return end == token.c_str() + token.size();
}

std::vector<std::string> Tokens(const char* text) {
  std::vector<std::string> tokens;
  std::istringstream in(text ? text : "");
  std::string token;
  while (in >> token) tokens.push_back(token);
  return tokens;
}

}  // namespace

std::optional<double> XmlContext::Number(const XMLElement* element, const char* text, const std::string& what,
                                         Check check) const {
  const std::vector<std::string> tokens = Tokens(text);
  if (tokens.empty()) {
    Error(element, what + ": missing value");
    return std::nullopt;
  }
  double value;
  if (tokens.size() != 1 || !ParseToken(tokens[0], &value)) {
    Error(element, what + ": '" + std::string(text) + "' is not a number");
    return std::nullopt;
  }
  if (!std::isfinite(value)) {
    Error(element, what + ": must be finite (got " + tokens[0] + ")");
    return std::nullopt;
  }
  if (check == Check::kPositive && !(value > 0)) {
    Error(element, what + ": must be positive (got " + tokens[0] + ")");
    return std::nullopt;
  }
  if (check == Check::kNonNegative && value < 0) {
    Error(element, what + ": must not be negative (got " + tokens[0] + ")");
    return std::nullopt;
  }
  return value;
}

std::optional<std::vector<double>> XmlContext::Numbers(const XMLElement* element, const char* text, int n,
                                                       const std::string& what) const {
  const std::vector<std::string> tokens = Tokens(text);
  if (static_cast<int>(tokens.size()) != n) {
    const std::string given = text ? text : "";
    const bool xacro = given.find("$(") != std::string::npos || given.find("${") != std::string::npos;
    Error(element, what + ": expected " + std::to_string(n) + " numbers, got '" + given + "'" +
                       (xacro ? " (a xacro substitution: expand the file with xacro first)" : ""));
    return std::nullopt;
  }
  std::vector<double> values(n);
  for (int i = 0; i < n; ++i) {
    if (!ParseToken(tokens[i], &values[i])) {
      Error(element, what + ": '" + tokens[i] + "' is not a number");
      return std::nullopt;
    }
    if (!std::isfinite(values[i])) {
      Error(element, what + ": must be finite (got " + tokens[i] + ")");
      return std::nullopt;
    }
  }
  return values;
}

std::optional<Vector3> XmlContext::Vector(const XMLElement* element, const char* text, const std::string& what) const {
  const auto values = Numbers(element, text, 3, what);
  if (!values) return std::nullopt;
  return Vector3((*values)[0], (*values)[1], (*values)[2]);
}

std::optional<Vector3> XmlContext::PositiveVector(const XMLElement* element, const char* text, const std::string& what,
                                                  const std::string& each) const {
  const auto v = Vector(element, text, what);
  if (!v) return std::nullopt;
  if (!(v->minCoeff() > 0)) {
    Error(element, what + ": every " + each + " must be positive");
    return std::nullopt;
  }
  return v;
}

std::optional<Vector3> XmlContext::UnitVector(const XMLElement* element, const char* text,
                                              const std::string& what) const {
  const auto v = Vector(element, text, what);
  if (!v) return std::nullopt;
  if (!(v->norm() > 1e-12)) {
    Error(element, what + ": zero vector");
    return std::nullopt;
  }
  return v->normalized();
}

const char* XmlContext::RequiredName(const XMLElement* element, const char* tag) const {
  const char* name = element->Attribute("name");
  if (name && *name) return name;
  Error(element, std::string(tag) + " needs a name");
  return nullptr;
}

std::optional<bool> XmlContext::Bool(const XMLElement* element, const char* text, const std::string& what) const {
  const std::vector<std::string> tokens = Tokens(text);
  if (tokens.size() == 1) {
    if (tokens[0] == "true" || tokens[0] == "1") return true;
    if (tokens[0] == "false" || tokens[0] == "0") return false;
  }
  Error(element, what + ": expected true or false, got '" + std::string(text ? text : "") + "'");
  return std::nullopt;
}

const char* TagValue(const XMLElement* element) {
  if (const char* value = element->Attribute("value")) return value;
  return element->GetText();
}

RigidTransform PoseFromXyzRpy(const Vector3& xyz, const Vector3& rpy) {
  RigidTransform X = RigidTransform::Identity();
  X.linear() = (Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
                Eigen::AngleAxisd(rpy.x(), Vector3::UnitX()))
                   .toRotationMatrix();
  X.translation() = xyz;
  return X;
}

bool ParseXml(const std::string& text, const std::string& name, tinyxml2::XMLDocument* document,
              Diagnostics* diagnostics) {
  if (document->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    // TinyXML2's text is "Error=NAME ErrorID=… Line number=N: detail"; keep the name and detail.
    std::string message = std::string("malformed XML (") + document->ErrorName() + ")";
    const std::string full = document->ErrorStr() ? document->ErrorStr() : "";
    const size_t colon = full.find(": ");
    if (colon != std::string::npos) message += ": " + full.substr(colon + 2);
    diagnostics->Error(name, std::max(1, document->ErrorLineNum()), message);
    return false;
  }
  return true;
}

bool LoadXml(const std::string& path, tinyxml2::XMLDocument* document, Diagnostics* diagnostics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics->Error(path, 0, "cannot open the file");
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseXml(text.str(), path, document, diagnostics);
}

}  // namespace urdf
}  // namespace hydro
