// libFuzzer target for .bullet files: the checks LoadBulletWorldFile makes before it reads a file
// into the caller's world — the layout check (urdf/bullet_file_check.h), then Bullet's own
// reader in a child process (urdf/bullet_file_probe.h). Neither may crash this process, and every
// refusal says why.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urdf/bullet_file_check.h"
#include "urdf/bullet_file_probe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string problem;
  if (!hydro::urdf::CheckBulletFileLayout(reinterpret_cast<const char*>(data), size, &problem)) {
    if (problem.empty()) __builtin_trap();
    return 0;
  }
  // What LoadBulletWorldFile does next: Bullet's reader in a child process, which may crash on a
  // damaged file; this process must not.
  const std::vector<char> bytes(data, data + size);
  if (!hydro::urdf::ProbeBulletFileInChild(bytes, &problem) && problem.empty()) __builtin_trap();
  return 0;
}
