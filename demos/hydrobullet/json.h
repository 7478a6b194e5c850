#pragma once
// Just enough JSON for the tool's outputs: values written as strings, assembled by the caller.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hydro/math.h"

namespace hydro {
namespace cli {

inline std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Non-finite numbers have no JSON form: null.
inline std::string JsonNumber(double x) {
  if (!std::isfinite(x)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", x);
  return buffer;
}

inline std::string JsonVector(const Vector3& v) {
  return "[" + JsonNumber(v.x()) + "," + JsonNumber(v.y()) + "," + JsonNumber(v.z()) + "]";
}

// {"k1":v1,...} from already-formatted values.
inline std::string JsonObject(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i)
    out += (i ? "," : "") + JsonString(members[i].first) + ":" + members[i].second;
  return out + "}";
}

inline std::string JsonArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]";
}

}  // namespace cli
}  // namespace hydro
