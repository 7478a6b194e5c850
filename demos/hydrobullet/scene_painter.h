#pragma once
// Drawing a simulation with OpenGL's fixed-function pipeline, for `render` (and a viewer): bodies
// shaded, ground planes as large squares, and the patches drawn by the plugin's own btIDebugDraw
// code (hydroDebugDrawPatches: polygons coloured by pressure, each patch's net force from its
// centre of pressure) and FEM bodies coloured by strain, through a btIDebugDraw that issues GL calls, over the bodies,
// with a colour bar in Pa. The caller provides a current GL context.
#include <LinearMath/btIDebugDraw.h>

#include <array>
#include <map>
#include <vector>

#include "demos/hydrobullet/commands.h"
#include "demos/hydrobullet/shape_surfaces.h"
#include "demos/hydrobullet/simulation.h"
#include "demos/hydrobullet/text_painter.h"
#include "plugin/btHydroelasticContactQuery.h"

namespace hydro {
namespace cli {

struct Camera {
  Vector3 eye{1, -1.6, 0.9};
  Vector3 target{0, 0, 0};
  Vector3 up{0, 0, 1};
  double fov_y_deg{35};
};

// A view of the whole scene: its moving bodies (or all bodies, if none moves) from the front
// right and above, `up` against gravity.
Camera FrameScene(const Simulation& simulation);
// FrameScene's view, or the command line's --camera (eye, target) if given.
Camera CommandCamera(const CommandLine& args, const Simulation& simulation);

// The current framebuffer's pixels, RGB, top row first (GL reads bottom up), for a PNG.
std::vector<unsigned char> ReadFramebufferRgb(int width, int height);

// btIDebugDraw as immediate-mode GL: triangles filled, lines and contact points as lines.
class GlDebugDraw : public btIDebugDraw {
 public:
  void drawLine(const btVector3& from, const btVector3& to, const btVector3& color) override;
  void drawTriangle(const btVector3& a, const btVector3& b, const btVector3& c, const btVector3& color,
                    btScalar alpha) override;
  void drawContactPoint(const btVector3& point, const btVector3& normal, btScalar distance, int lifeTime,
                        const btVector3& color) override;
  void reportErrorWarning(const char*) override {}
  void draw3dText(const btVector3&, const char*) override {}
  void setDebugMode(int mode) override { mode_ = mode; }
  int getDebugMode() const override { return mode_; }

 private:
  int mode_{DBG_DrawContactPoints};
};

class ScenePainter {
 public:
  // Draws the scene into the current context's width × height framebuffer; `dt` is the step the
  // world was stepped with (the patches' forces are impulses over it).
  void Paint(const Simulation& simulation, const Camera& camera, int width, int height, double dt);
  // Draw each pair's solver points (the manifolds' points Bullet's solver takes) instead of its
  // patch polygons.
  void set_show_points(bool on) { show_points_ = on; }
  TextPainter& text() { return text_; }
  // The patches drawn by the last Paint.
  int patches_drawn() const { return static_cast<int>(patches_.size()); }

 private:
  void PaintBodies(const Simulation& simulation, double extent);
  // FEM bodies: their boundary triangles coloured by their tets' strain (blue at none, red at the
  // largest in the scene).
  void PaintDeformables(const Simulation& simulation);
  void PaintPatches(const Simulation& simulation, double dt, double extent, double* max_pressure);
  // A colour bar from 0 to max_value at `left` (a fraction of the width), labelled in `unit`.
  void PaintColourBar(int width, int height, double left, const std::string& title, double max_value,
                      const std::string& unit);

  ShapeSurfaces surfaces_;
  bool show_points_{false};
  // Per FEM body: its boundary faces (vertex indices, outward) and the tet each belongs to.
  struct Boundary {
    std::vector<std::array<int, 3>> faces;
    std::vector<int> tets;
  };
  std::map<const fem::FemBody*, Boundary> boundaries_;
  GlDebugDraw debug_draw_;
  std::vector<btHydroelasticContactPatch> patches_;  // read once a frame
  double max_strain_{0};                             // the FEM bodies' largest, last frame
  TextPainter text_;
};

}  // namespace cli
}  // namespace hydro
