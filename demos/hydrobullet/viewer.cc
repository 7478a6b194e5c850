#include "demos/hydrobullet/viewer.h"

#include <cstdio>

#ifdef HYDRO_BULLET_VIEWER

#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <BulletDynamics/Featherstone/btMultiBodyPoint2Point.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "adapters/bullet_conversions.h"
#include "demos/hydrobullet/png_file.h"
#include "demos/hydrobullet/scene_painter.h"
#include "demos/hydrobullet/simulation.h"
#include "demos/hydrobullet/viewer_script.h"
#include "plugin/btHydroelasticContactQuery.h"

namespace hydro {
namespace cli {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kOrbitRadiansPerPixel = 0.008;
constexpr double kZoomPerStep = 0.9;  // the distance's factor per wheel step

// A camera about a target: distance, and yaw and pitch in the frame whose z is `up`.
struct OrbitCamera {
  Vector3 target{Vector3::Zero()}, up{Vector3::UnitZ()};
  double distance{1}, yaw{0}, pitch{0.4}, fov_y_deg{35};

  Vector3 Side() const { return up.cross(std::abs(up.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY()).normalized(); }
  Vector3 Direction() const {  // from the target to the eye
    const Vector3 e1 = Side(), e2 = up.cross(e1);
    return std::cos(pitch) * (std::cos(yaw) * e1 + std::sin(yaw) * e2) + std::sin(pitch) * up;
  }
  Camera ToCamera() const {
    Camera camera;
    camera.target = target;
    camera.up = up;
    camera.eye = target + distance * Direction();
    camera.fov_y_deg = fov_y_deg;
    return camera;
  }
  static OrbitCamera From(const Camera& camera) {
    OrbitCamera orbit;
    orbit.target = camera.target;
    orbit.up = camera.up.normalized();
    orbit.fov_y_deg = camera.fov_y_deg;
    const Vector3 d = camera.eye - camera.target;
    orbit.distance = std::max(d.norm(), 1e-3);
    const Vector3 e1 = orbit.Side(), e2 = orbit.up.cross(e1), n = d / orbit.distance;
    orbit.pitch = std::asin(std::clamp(n.dot(orbit.up), -1.0, 1.0));
    orbit.yaw = std::atan2(n.dot(e2), n.dot(e1));
    return orbit;
  }
};

// The world ray through window pixel (x, y) (origin top left).
void PixelRay(const Camera& camera, double x, double y, int width, int height, Vector3* from, Vector3* direction) {
  const Vector3 f = (camera.target - camera.eye).normalized();
  Vector3 s = f.cross(camera.up);
  if (s.norm() < 1e-9) s = f.cross(Vector3::UnitX());
  s.normalize();
  const Vector3 u = s.cross(f);
  const double t = std::tan(camera.fov_y_deg * kPi / 360), aspect = static_cast<double>(width) / height;
  const double nx = 2 * x / width - 1, ny = 1 - 2 * y / height;
  *from = camera.eye;
  *direction = (f + nx * t * aspect * s + ny * t * u).normalized();
}

// Pulling a body with the mouse, as Bullet's ExampleBrowser does: a point-to-point constraint
// from the picked point to a target that follows the mouse at the picked distance.
class MousePull {
 public:
  ~MousePull() { Release(); }
  bool active() const { return rigid_ || multibody_; }
  bool Pick(btMultiBodyDynamicsWorld* world, const Vector3& from, const Vector3& direction, double reach) {
    world_ = world;
    const btVector3 a = bullet::ToBullet(from), b = bullet::ToBullet(Vector3(from + reach * direction));
    btCollisionWorld::ClosestRayResultCallback hit(a, b);
    world->rayTest(a, b, hit);
    if (!hit.hasHit() || hit.m_collisionObject->isStaticOrKinematicObject()) return false;
    distance_ = (hit.m_hitPointWorld - a).length();
    if (auto* body = const_cast<btRigidBody*>(btRigidBody::upcast(hit.m_collisionObject))) {
      body->setActivationState(DISABLE_DEACTIVATION);
      rigid_ = std::make_unique<btPoint2PointConstraint>(
          *body, body->getCenterOfMassTransform().inverse() * hit.m_hitPointWorld);
      rigid_->m_setting.m_impulseClamp = btScalar(30);
      rigid_->m_setting.m_tau = btScalar(0.001);
      world->addConstraint(rigid_.get(), true);
      return true;
    }
    if (const auto* link = btMultiBodyLinkCollider::upcast(hit.m_collisionObject)) {
      btMultiBody* multibody = link->m_multiBody;
      const int index = link->m_link;
      const btTransform X_WL =
          index < 0 ? multibody->getBaseWorldTransform() : multibody->getLink(index).m_cachedWorldTransform;
      multibody_ = std::make_unique<btMultiBodyPoint2Point>(multibody, index, nullptr,
                                                            X_WL.inverse() * hit.m_hitPointWorld, hit.m_hitPointWorld);
      multibody_->setMaxAppliedImpulse(btScalar(30));
      world->addMultiBodyConstraint(multibody_.get());
      return true;
    }
    return false;
  }
  void Move(const Vector3& from, const Vector3& direction) {
    const btVector3 target = bullet::ToBullet(Vector3(from + distance_ * direction));
    if (rigid_) rigid_->setPivotB(target);
    if (multibody_) multibody_->setPivotInB(target);
  }
  void Release() {
    if (rigid_) world_->removeConstraint(rigid_.get());
    if (multibody_) world_->removeMultiBodyConstraint(multibody_.get());
    rigid_.reset();
    multibody_.reset();
  }

 private:
  btMultiBodyDynamicsWorld* world_{nullptr};
  std::unique_ptr<btPoint2PointConstraint> rigid_;
  std::unique_ptr<btMultiBodyPoint2Point> multibody_;
  double distance_{0};
};

struct ViewState {
  Simulation* simulation{nullptr};
  OrbitCamera orbit;
  MousePull pull;
  bool paused{false}, step_once{false}, show_points{false}, quit{false};
  int picks{0};              // bodies picked up with the mouse
  double speed_slider{0.5};  // 0: a tenth of real time, 0.5: real time, 1: as fast as possible
  bool orbiting{false}, panning{false}, sliding{false};
  double last_x{0}, last_y{0};
  int width{1280}, height{720};
};

double SliderSpeed(double s) { return s >= 0.97 ? 0 : std::pow(10.0, 2 * s - 1); }  // 0: as fast as possible

// The slider's box in window pixels (origin top left): along the bottom, a third of the width.
void SliderBox(const ViewState& v, double* x0, double* x1, double* y) {
  *x0 = 0.62 * v.width;
  *x1 = 0.95 * v.width;
  *y = v.height - 0.05 * v.height;
}

bool OnSlider(const ViewState& v, double x, double y) {
  double x0, x1, sy;
  SliderBox(v, &x0, &x1, &sy);
  return x >= x0 - 8 && x <= x1 + 8 && std::abs(y - sy) < 12;
}

void SetSlider(ViewState* v, double x) {
  double x0, x1, y;
  SliderBox(*v, &x0, &x1, &y);
  v->speed_slider = std::clamp((x - x0) / (x1 - x0), 0.0, 1.0);
}

// The viewer's responses to input, in window pixels (origin top left), apart from GLFW so that a
// script (viewer_script.h) drives them as the window does.
void Key(ViewState* v, char key) {
  if (key == ' ') v->paused = !v->paused;
  if (key == '.' && v->paused) v->step_once = true;
  if (key == 'p') v->show_points = !v->show_points;
  if (key == 27) v->quit = true;
}

void Press(ViewState* v, bool right, double x, double y) {
  v->last_x = x;
  v->last_y = y;
  if (right) {
    v->panning = true;
    return;
  }
  if (OnSlider(*v, x, y)) {
    v->sliding = true;
    SetSlider(v, x);
    return;
  }
  Vector3 from, direction;
  PixelRay(v->orbit.ToCamera(), x, y, v->width, v->height, &from, &direction);
  if (v->pull.Pick(v->simulation->world.get(), from, direction, 100 * v->orbit.distance))
    ++v->picks;
  else
    v->orbiting = true;
}

void Release(ViewState* v, double x, double y) {
  v->last_x = x;
  v->last_y = y;
  v->pull.Release();
  v->orbiting = v->panning = v->sliding = false;
}

void MoveCursor(ViewState* v, double x, double y) {
  const double dx = x - v->last_x, dy = y - v->last_y;
  v->last_x = x;
  v->last_y = y;
  if (v->sliding) SetSlider(v, x);
  if (v->pull.active()) {
    Vector3 from, direction;
    PixelRay(v->orbit.ToCamera(), x, y, v->width, v->height, &from, &direction);
    v->pull.Move(from, direction);
  }
  if (v->orbiting) {
    v->orbit.yaw -= kOrbitRadiansPerPixel * dx;
    v->orbit.pitch = std::clamp(v->orbit.pitch + kOrbitRadiansPerPixel * dy, -1.5, 1.5);
  }
  if (v->panning) {
    const Camera camera = v->orbit.ToCamera();
    const Vector3 f = (camera.target - camera.eye).normalized();
    const Vector3 s = f.cross(camera.up).normalized(), u = s.cross(f);
    const double per_pixel = 2 * v->orbit.distance * std::tan(camera.fov_y_deg * kPi / 360) / v->height;
    v->orbit.target += per_pixel * (-dx * s + dy * u);
  }
}

void Scroll(ViewState* v, double steps) { v->orbit.distance *= std::pow(kZoomPerStep, steps); }

void Replay(ViewState* v, const ViewerEvent& event) {
  switch (event.kind) {
    case ViewerEvent::Kind::kKey:
      Key(v, event.key);
      break;
    case ViewerEvent::Kind::kPress:
      Press(v, event.right, event.x, event.y);
      break;
    case ViewerEvent::Kind::kMove:
      MoveCursor(v, event.x, event.y);
      break;
    case ViewerEvent::Kind::kRelease:
      Release(v, event.x, event.y);
      break;
    case ViewerEvent::Kind::kScroll:
      Scroll(v, event.scroll);
      break;
  }
}

ViewState* State(GLFWwindow* window) { return static_cast<ViewState*>(glfwGetWindowUserPointer(window)); }

void OnKey(GLFWwindow* window, int key, int, int action, int) {
  if (action != GLFW_PRESS) return;
  if (key == GLFW_KEY_SPACE) Key(State(window), ' ');
  if (key == GLFW_KEY_PERIOD) Key(State(window), '.');
  if (key == GLFW_KEY_P) Key(State(window), 'p');
  if (key == GLFW_KEY_ESCAPE) Key(State(window), 27);
}

void OnButton(GLFWwindow* window, int button, int action, int) {
  double x, y;
  glfwGetCursorPos(window, &x, &y);
  if (action == GLFW_RELEASE)
    Release(State(window), x, y);
  else if (button == GLFW_MOUSE_BUTTON_LEFT)
    Press(State(window), false, x, y);
  else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE)
    Press(State(window), true, x, y);
}

void OnCursor(GLFWwindow* window, double x, double y) { MoveCursor(State(window), x, y); }

void OnScroll(GLFWwindow* window, double, double dy) { Scroll(State(window), dy); }

void OnResize(GLFWwindow* window, int width, int height) {
  ViewState* v = State(window);
  v->width = std::max(width, 1);
  v->height = std::max(height, 1);
}

// The overlay in window pixels: readout top left, speed slider bottom right.
void PaintOverlay(const ViewState& v, double sim_time, double real_time_factor, int patches,
                  TextPainter* text_painter) {
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_LIGHTING);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0, v.width, v.height, 0, -1, 1);  // y down, as the mouse
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  const double text = std::max(10.0, 0.022 * v.height);
  char line[160];
  std::snprintf(line, sizeof(line), "t %.3f s   %.2fx real time   %d patches   %s%s", sim_time, real_time_factor,
                patches, v.show_points ? "solver points" : "polygons", v.paused ? "   paused" : "");
  glColor3f(0.1f, 0.1f, 0.12f);
  // Text is drawn upward from its baseline: flip it into the y-down overlay.
  glPushMatrix();
  glTranslated(0.02 * v.width, 0.04 * v.height + text, 0);
  glScaled(1, -1, 1);
  text_painter->Draw(line, 0, 0, text);
  glPopMatrix();
  double x0, x1, y;
  SliderBox(v, &x0, &x1, &y);
  glLineWidth(3);
  glColor3f(0.45f, 0.46f, 0.5f);
  glBegin(GL_LINES);
  glVertex2d(x0, y);
  glVertex2d(x1, y);
  glEnd();
  const double knob = x0 + v.speed_slider * (x1 - x0);
  glColor3f(0.15f, 0.35f, 0.8f);
  glBegin(GL_QUADS);
  glVertex2d(knob - 6, y - 9);
  glVertex2d(knob + 6, y - 9);
  glVertex2d(knob + 6, y + 9);
  glVertex2d(knob - 6, y + 9);
  glEnd();
  glLineWidth(1);
  const double speed = SliderSpeed(v.speed_slider);
  if (speed > 0)
    std::snprintf(line, sizeof(line), "speed %.2fx", speed);
  else
    std::snprintf(line, sizeof(line), "speed fastest");
  glColor3f(0.1f, 0.1f, 0.12f);
  glPushMatrix();
  glTranslated(x0, y - 14, 0);
  glScaled(1, -1, 1);
  text_painter->Draw(line, 0, 0, text);
  glPopMatrix();
}

}  // namespace

int View(const CommandLine& args, const ViewOptions& options) {
  std::vector<ViewerEvent> script;
  std::string script_error;
  if (!options.input_script.empty() && !ReadViewerScript(options.input_script, &script, &script_error)) {
    std::fprintf(stderr, "hydrobullet: %s\n", script_error.c_str());
    return 1;
  }
  Simulation simulation(args.plugin);
  if (!LoadOrReportForCommand(args, &simulation)) return 1;
  if (!glfwInit()) {
    std::fprintf(stderr, "hydrobullet: view needs a display: GLFW could not start (no X server? try xvfb-run)\n");
    return 1;
  }
  glfwWindowHint(GLFW_SAMPLES, 4);
  GLFWwindow* window = glfwCreateWindow(options.width_px, options.height_px, ("hydrobullet view " + args.file).c_str(),
                                        nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    std::fprintf(stderr, "hydrobullet: view could not open an OpenGL window\n");
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(options.frames > 0 ? 0 : 1);
  ViewState v;
  v.simulation = &simulation;
  const Camera camera = CommandCamera(args, simulation);
  v.orbit = OrbitCamera::From(camera);
  glfwGetFramebufferSize(window, &v.width, &v.height);
  glfwSetWindowUserPointer(window, &v);
  glfwSetKeyCallback(window, OnKey);
  glfwSetMouseButtonCallback(window, OnButton);
  glfwSetCursorPosCallback(window, OnCursor);
  glfwSetScrollCallback(window, OnScroll);
  glfwSetFramebufferSizeCallback(window, OnResize);

  const double dt = args.dt_s > 0 ? args.dt_s : simulation.scene.step_size_s;
  ScenePainter painter;
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  double owed = 0;  // simulated time the display is behind
  double rtf = 0, window_sim = 0, window_wall = 0;
  int frame = 0, result = 0;
  size_t next_event = 0;
  while (!glfwWindowShouldClose(window) && !v.quit) {
    glfwPollEvents();
    for (; next_event < script.size() && script[next_event].frame <= frame; ++next_event)
      Replay(&v, script[next_event]);
    const auto now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last).count();
    last = now;
    int steps = 0;
    bool stepped = false;  // the steps were taken already (as fast as possible)
    if (options.frames > 0) {
      steps = v.paused ? 0 : 1;
    } else if (!v.paused) {
      const double speed = SliderSpeed(v.speed_slider);
      if (speed == 0) {
        // As fast as possible: step for a frame's worth (1/30 s) of wall time.
        const auto until = now + std::chrono::milliseconds(33);
        do {
          simulation.Step(dt);
          ++steps;
        } while (Clock::now() < until);
        stepped = true;
      } else {
        owed += wall * speed;
        steps = static_cast<int>(owed / dt);
        const int cap = std::max(1, static_cast<int>(0.05 / dt));  // slower than asked rather than frozen
        if (steps > cap)
          steps = cap, owed = 0;
        else
          owed -= steps * dt;
      }
    } else if (v.step_once) {
      steps = 1;
      v.step_once = false;
    }
    if (!stepped)
      for (int i = 0; i < steps; ++i) simulation.Step(dt);
    window_sim += steps * dt;
    window_wall += wall;
    if (window_wall > 0.5) {
      rtf = window_sim / window_wall;
      window_sim = window_wall = 0;
    }
    painter.set_show_points(v.show_points);
    painter.Paint(simulation, v.orbit.ToCamera(), v.width, v.height, dt);
    PaintOverlay(v, simulation.time, rtf, painter.patches_drawn(), &painter.text());
    ++frame;
    if (options.frames > 0 && frame >= options.frames) {
      if (!options.screenshot.empty()) {
        glReadBuffer(GL_BACK);
        std::string error;
        if (!WritePng(options.screenshot, v.width, v.height, ReadFramebufferRgb(v.width, v.height), &error)) {
          std::fprintf(stderr, "hydrobullet: %s\n", error.c_str());
          result = 1;
        }
      }
      glfwSetWindowShouldClose(window, GLFW_TRUE);
    }
    glfwSwapBuffers(window);
  }
  v.pull.Release();
  glfwDestroyWindow(window);
  glfwTerminate();
  if (options.frames > 0) {
    // What the frames did, for tests and for replaying a script: the view and the bodies.
    std::printf("%d frames, t = %.9g s%s%s\n", frame, simulation.time,
                options.screenshot.empty() ? "" : ", screenshot ", options.screenshot.c_str());
    const OrbitCamera& o = v.orbit;
    std::printf("camera yaw %.9g pitch %.9g distance %.9g target %.9g %.9g %.9g\n", o.yaw, o.pitch, o.distance,
                o.target.x(), o.target.y(), o.target.z());
    std::printf("speed slider %.9g paused %d points %d picks %d\n", v.speed_slider, v.paused, v.show_points, v.picks);
    for (const urdf::BuiltBody& body : simulation.built->bodies()) {
      if (body.is_static) continue;
      const Vector3 p = simulation.built->LinkPose(body).translation();
      std::printf("body %s %.9g %.9g %.9g\n", body.name.c_str(), p.x(), p.y(), p.z());
    }
  }
  return result;
}

}  // namespace cli
}  // namespace hydro

#else

namespace hydro {
namespace cli {
int View(const CommandLine&, const ViewOptions&) {
  std::fprintf(stderr,
               "hydrobullet: view is not available: this build has HYDRO_BULLET_VIEWER or HYDRO_BULLET_RENDER OFF\n");
  return 1;
}
}  // namespace cli
}  // namespace hydro

#endif
