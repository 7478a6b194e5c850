#include "demos/hydrobullet/video.h"

#include <sys/wait.h>

namespace hydro {
namespace cli {

namespace {
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
}  // namespace

bool FindFfmpeg(const std::string& ffmpeg, std::string* error) {
  const int status = std::system((Quoted(ffmpeg) + " -version >/dev/null 2>&1").c_str());
  if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  *error = "--video needs ffmpeg, and '" + ffmpeg +
           "' does not run: install it (Debian: apt-get install ffmpeg), or leave out --video";
  return false;
}

VideoRecorder::VideoRecorder(const std::string& ffmpeg, const std::string& path, int width, int height, int fps,
                             const Camera& camera)
    : width_(width - width % 2), height_(height - height % 2), fps_(fps), camera_(camera), path_(path) {
  gl_ = std::make_unique<OffscreenGl>(width_, height_);
  if (!gl_->ok()) {
    error_ = gl_->error();
    return;
  }
  const std::string command = Quoted(ffmpeg) + " -loglevel error -y -f rawvideo -pix_fmt rgb24 -s " +
                              std::to_string(width_) + "x" + std::to_string(height_) + " -r " + std::to_string(fps) +
                              " -i - -pix_fmt yuv420p " + Quoted(path);
  pipe_ = ::popen(command.c_str(), "w");
  if (!pipe_) error_ = "cannot start " + ffmpeg;
}

VideoRecorder::~VideoRecorder() {
  if (pipe_) ::pclose(pipe_);
}

bool VideoRecorder::AddFrame(const Simulation& simulation, double dt) {
  if (!pipe_) return false;
  painter_.Paint(simulation, camera_, width_, height_, dt);
  const std::vector<unsigned char> rgb = gl_->ReadRgb();
  if (std::fwrite(rgb.data(), 1, rgb.size(), pipe_) != rgb.size()) {
    error_ = "ffmpeg stopped taking frames for " + path_;
    return false;
  }
  ++frames_;
  return true;
}

bool VideoRecorder::Finish() {
  if (!pipe_) return false;
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error_ = "ffmpeg failed to write " + path_;
    return false;
  }
  return true;
}

}  // namespace cli
}  // namespace hydro
