#pragma once
// An OpenGL context with no display: EGL on Mesa's surfaceless platform with a pbuffer of the
// image's size (software rendering by llvmpipe when there is no GPU). Compatibility profile, so
// the fixed-function pipeline draws the scene (scene_painter.h).
#include <string>
#include <vector>

namespace hydro {
namespace cli {

class OffscreenGl {
 public:
  // Makes a width × height context current; on failure ok() is false and error() says why.
  OffscreenGl(int width, int height);
  ~OffscreenGl();
  OffscreenGl(const OffscreenGl&) = delete;
  OffscreenGl& operator=(const OffscreenGl&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  // The framebuffer as RGB rows, top row first.
  std::vector<unsigned char> ReadRgb() const;

 private:
  int width_, height_;
  void* display_{nullptr};
  void* surface_{nullptr};
  void* context_{nullptr};
  std::string error_;
};

}  // namespace cli
}  // namespace hydro
