#include "hydro/check.h"

namespace hydro {
namespace internal {

void FailDemand(const char* condition, const char* file, int line, const std::string& message) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": invariant '" + condition +
                      "' failed: " + message + " (a bug in HydroBullet; please report it)");
}

}  // namespace internal
}  // namespace hydro
