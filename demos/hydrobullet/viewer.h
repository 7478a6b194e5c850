#pragma once
// `hydrobullet view FILE`: the scene simulated live in a window (GLFW + OpenGL), drawn by the same
// ScenePainter as `render`: bodies shaded, FEM bodies by strain, patches coloured by pressure with
// a colour bar in Pa and each patch's net force at its centre of pressure.
//
// Controls: space pauses and resumes, '.' steps once while paused, 'p' switches between whole
// patches and the solver's points, Escape quits. The mouse orbits (left drag on empty space), pans
// (right drag) and zooms (wheel); a left drag on a moving body pulls it with a spring the way
// Bullet's ExampleBrowser does. The slider at the bottom sets the speed from a tenth of real time
// to as fast as possible. The readout shows simulated time, the real-time factor and the patches.
#include <string>

#include "demos/hydrobullet/commands.h"

namespace hydro {
namespace cli {

struct ViewOptions {
  int width_px{1280}, height_px{720};
  // For tests: quit after this many frames (0: run until closed), stepping once a frame, and write
  // the last frame to `screenshot` (PNG) if given.
  // At the end of those frames it prints the view (camera, slider, toggles, picks) and each moving
  // body's position.
  int frames{0};
  std::string screenshot;
  std::string input_script;  // events to replay (viewer_script.h), or empty
};

int View(const CommandLine& args, const ViewOptions& options);

}  // namespace cli
}  // namespace hydro
