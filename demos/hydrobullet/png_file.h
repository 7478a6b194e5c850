#pragma once
// Writing an RGB image (rows top first) as a PNG through libpng.
#include <string>
#include <vector>

namespace hydro {
namespace cli {

// False with *error when the file cannot be written.
bool WritePng(const std::string& path, int width, int height, const std::vector<unsigned char>& rgb,
              std::string* error);

}  // namespace cli
}  // namespace hydro
