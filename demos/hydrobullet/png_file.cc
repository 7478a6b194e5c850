#include "demos/hydrobullet/png_file.h"

#include <png.h>

#include <cstdio>

namespace hydro {
namespace cli {

bool WritePng(const std::string& path, int width, int height, const std::vector<unsigned char>& rgb,
              std::string* error) {
  // libpng's simplified API: no setjmp, errors in the image's message.
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&image, path.c_str(), 0, rgb.data(), width * 3, nullptr)) {
    *error = "cannot write " + path + ": " + image.message;
    return false;
  }
  return true;
}

}  // namespace cli
}  // namespace hydro
