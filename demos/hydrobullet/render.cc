// `hydrobullet render`: one picture of the scene at a given time, drawn offscreen.
#include <cmath>
#include <cstdio>

#include "demos/hydrobullet/commands.h"
#include "demos/hydrobullet/simulation.h"

#ifdef HYDRO_BULLET_RENDER
#include "demos/hydrobullet/offscreen_gl.h"
#include "demos/hydrobullet/png_file.h"
#include "demos/hydrobullet/scene_painter.h"
#endif

namespace hydro {
namespace cli {

#ifdef HYDRO_BULLET_RENDER
int Render(const CommandLine& args) {
  Simulation simulation(args.plugin);
  if (!LoadOrReportForCommand(args, &simulation)) return 1;
  const double dt = args.dt_s > 0 ? args.dt_s : simulation.scene.step_size_s;
  const long steps = std::lround(args.render_time_s / dt);
  for (long i = 0; i < steps; ++i) simulation.Step(dt);
  OffscreenGl gl(args.width_px, args.height_px);
  if (!gl.ok()) {
    std::fprintf(stderr, "hydrobullet: %s\n", gl.error().c_str());
    return 1;
  }
  const Camera camera = CommandCamera(args, simulation);
  ScenePainter painter;
  // The patches were solved over the last step (none at t = 0: their forces read zero).
  painter.Paint(simulation, camera, args.width_px, args.height_px, dt);
  std::string error;
  if (!WritePng(args.image_path, args.width_px, args.height_px, gl.ReadRgb(), &error)) {
    std::fprintf(stderr, "hydrobullet: %s\n", error.c_str());
    return 1;
  }
  std::printf("t = %g s (%ld steps of %g s): %s, %d x %d, camera at %g,%g,%g looking at %g,%g,%g\n", steps * dt, steps,
              dt, args.image_path.c_str(), args.width_px, args.height_px, camera.eye.x(), camera.eye.y(),
              camera.eye.z(), camera.target.x(), camera.target.y(), camera.target.z());
  return 0;
}
#else
int Render(const CommandLine&) {
  std::fprintf(stderr,
               "hydrobullet: render is not available: this build has HYDRO_BULLET_RENDER=OFF (no EGL/OpenGL)\n");
  return 1;
}
#endif

}  // namespace cli
}  // namespace hydro
