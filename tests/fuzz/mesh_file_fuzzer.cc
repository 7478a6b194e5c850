// libFuzzer target for the mesh readers: OBJ, STL (ASCII and binary) and legacy VTK tet meshes.
// The first byte picks the reader; every failure must be an InvalidInput with a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "hydro/vtk_volume_mesh.h"
#include "urdf/mesh_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0:
        hydro::urdf::ReadObjFromString(text, "fuzz.obj");
        break;
      case 1:
        hydro::urdf::ReadStlFromString(text, "fuzz.stl");
        break;
      default:
        hydro::ReadVtkVolumeMeshFromString(text, "fuzz.vtk");
        break;
    }
  } catch (const hydro::InvalidInput& e) {
    if (std::string(e.what()).empty()) __builtin_trap();
  }
  return 0;
}
