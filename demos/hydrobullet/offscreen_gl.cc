#include "demos/hydrobullet/offscreen_gl.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

#include <algorithm>
#include <cstdio>

#include "demos/hydrobullet/scene_painter.h"

namespace hydro {
namespace cli {

namespace {
std::string EglError(const char* call) {
  char text[96];
  std::snprintf(text, sizeof(text), "%s failed (EGL error 0x%x)", call, eglGetError());
  return text;
}
}  // namespace

OffscreenGl::OffscreenGl(int width, int height) : width_(width), height_(height) {
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay display = get_platform_display
                           ? get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                           : EGL_NO_DISPLAY;
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    error_ = "no offscreen OpenGL: " + EglError("EGL surfaceless display") +
             " (Debian: apt-get install libegl-mesa0 libgl1-mesa-dri)";
    return;
  }
  display_ = display;
  const EGLint config_attributes[] = {
      EGL_SURFACE_TYPE,    EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_DEPTH_SIZE, 24,
      EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,  EGL_NONE};
  EGLConfig config;
  EGLint configs = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &configs) || configs < 1) {
    error_ = "no offscreen OpenGL: no RGB pbuffer configuration with a depth buffer";
    return;
  }
  const EGLint pbuffer_attributes[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
  surface_ = eglCreatePbufferSurface(display, config, pbuffer_attributes);
  if (surface_ == EGL_NO_SURFACE) {
    error_ = EglError("eglCreatePbufferSurface");
    return;
  }
  eglBindAPI(EGL_OPENGL_API);
  context_ = eglCreateContext(display, config, EGL_NO_CONTEXT, nullptr);
  if (context_ == EGL_NO_CONTEXT) {
    error_ = EglError("eglCreateContext");
    return;
  }
  if (!eglMakeCurrent(display, surface_, surface_, context_)) error_ = EglError("eglMakeCurrent");
}

OffscreenGl::~OffscreenGl() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display_, context_);
  if (surface_) eglDestroySurface(display_, surface_);
  // No eglTerminate: Mesa's driver would be unloaded with a few hundred bytes it never frees,
  // which LeakSanitizer then reports from an unknown module; kept loaded, they stay reachable.
  // The process ends soon after a picture, and a later context reuses the display.
}

std::vector<unsigned char> OffscreenGl::ReadRgb() const { return ReadFramebufferRgb(width_, height_); }

}  // namespace cli
}  // namespace hydro
