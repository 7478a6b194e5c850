// libFuzzer target for the URDF and SDF readers (the root element picks the format): any bytes
// must give a scene or diagnostics, never a crash, hang or sanitizer report. The input's first
// byte also decides whether mesh files are looked up (they never exist here, so that path reports
// missing meshes).
#include <cstddef>
#include <cstdint>
#include <string>

#include "urdf/model_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hydro::urdf::ReadOptions options;
  options.search.use_environment = false;
  options.load_deformable_meshes = false;
  hydro::urdf::Diagnostics diagnostics;
  const auto scene = hydro::urdf::ReadModelString(text, "/nonexistent/fuzz.xml", options, &diagnostics);
  // A scene is never returned together with an error.
  if (scene && diagnostics.has_errors()) __builtin_trap();
  return 0;
}
