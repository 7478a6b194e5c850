#pragma once
// `hydrobullet run --video out.mp4`: the run drawn as render draws it (scene_painter.h), a frame
// per 1/fps of simulated time, piped as raw RGB to ffmpeg (Debian's `ffmpeg`), which encodes it.
#include <cstdio>
#include <memory>
#include <string>

#include "demos/hydrobullet/offscreen_gl.h"
#include "demos/hydrobullet/scene_painter.h"

namespace hydro {
namespace cli {

// Whether `ffmpeg` runs; otherwise *error says how to get it.
bool FindFfmpeg(const std::string& ffmpeg, std::string* error);

class VideoRecorder {
 public:
  // An offscreen context of width × height (even numbers, as the encoder needs) and ffmpeg
  // writing `path`; on failure ok() is false and error() says why.
  VideoRecorder(const std::string& ffmpeg, const std::string& path, int width, int height, int fps,
                const Camera& camera);
  ~VideoRecorder();
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  int fps() const { return fps_; }
  // Draws the simulation as it is now (stepped by dt) and sends the frame.
  bool AddFrame(const Simulation& simulation, double dt);
  // Closes the stream; false with error() when ffmpeg failed.
  bool Finish();
  int frames() const { return frames_; }

 private:
  int width_, height_, fps_;
  Camera camera_;
  std::unique_ptr<OffscreenGl> gl_;
  ScenePainter painter_;
  FILE* pipe_{nullptr};
  int frames_{0};
  std::string path_, error_;
};

}  // namespace cli
}  // namespace hydro
