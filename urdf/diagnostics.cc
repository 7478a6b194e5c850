#include "urdf/diagnostics.h"

namespace hydro {
namespace urdf {

std::string Diagnostic::ToString() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  out += is_error ? ": error: " : ": warning: ";
  return out + message;
}

void Diagnostics::Error(const std::string& file, int line, const std::string& message) {
  all_.push_back({file, line, message, true});
  ++num_errors_;
}

void Diagnostics::Warning(const std::string& file, int line, const std::string& message) {
  if (!warned_.insert(message).second) return;
  all_.push_back({file, line, message, false});
}

std::string Diagnostics::ToString() const {
  std::string out;
  for (const Diagnostic& d : all_) out += d.ToString() + "\n";
  return out;
}

std::string Diagnostics::FirstError() const {
  for (const Diagnostic& d : all_)
    if (d.is_error) return d.ToString();
  return "";
}

}  // namespace urdf
}  // namespace hydro
