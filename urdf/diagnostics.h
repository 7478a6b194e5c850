#pragma once
// Problems found while reading model files, each tied to a file and line ("file:line: message").
// A file with any error builds nothing; warnings (unknown tags, dropped data) are reported once
// per distinct message.
#include <set>
#include <string>
#include <vector>

namespace hydro {
namespace urdf {

struct Diagnostic {
  std::string file;
  int line{0};  // 0: the file as a whole
  std::string message;
  bool is_error{true};
  std::string ToString() const;  // "file:line: error: message" (or "warning:")
};

class Diagnostics {
 public:
  void Error(const std::string& file, int line, const std::string& message);
  void Warning(const std::string& file, int line, const std::string& message);

  bool has_errors() const { return num_errors_ > 0; }
  int num_errors() const { return num_errors_; }
  const std::vector<Diagnostic>& all() const { return all_; }
  // Every diagnostic on its own line.
  std::string ToString() const;
  // The first error as one line (for a command's exit message), or "" without errors.
  std::string FirstError() const;

 private:
  std::vector<Diagnostic> all_;
  std::set<std::string> warned_;  // warning messages already given (file and line aside)
  int num_errors_{0};
};

}  // namespace urdf
}  // namespace hydro
