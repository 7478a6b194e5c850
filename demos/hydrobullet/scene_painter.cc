#include "demos/hydrobullet/scene_painter.h"

#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>
#include <GL/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "adapters/bullet_conversions.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticDebugDraw.h"

namespace hydro {
namespace cli {

namespace {

constexpr double kPi = 3.14159265358979323846;

bool IsPlane(const btCollisionObject* object) {
  return object->getCollisionShape()->getShapeType() == STATIC_PLANE_PROXYTYPE;
}

// The bounding box of the scene's moving bodies, or of all but planes when none moves.
bool SceneBounds(const Simulation& simulation, Vector3* lo, Vector3* hi) {
  for (int pass = 0; pass < 2; ++pass) {
    bool any = false;
    for (const urdf::BuiltBody& body : simulation.built->bodies()) {
      const btCollisionObject* object = body.collider;
      if (!object || IsPlane(object) || (pass == 0 && object->isStaticOrKinematicObject())) continue;
      btVector3 a, b;
      object->getCollisionShape()->getAabb(object->getWorldTransform(), a, b);
      if (!any) *lo = bullet::ToEigen(a), *hi = bullet::ToEigen(b);
      *lo = lo->cwiseMin(bullet::ToEigen(a));
      *hi = hi->cwiseMax(bullet::ToEigen(b));
      any = true;
    }
    for (const auto& d : simulation.deformables) {
      for (int v = 0; v < d->num_vertices(); ++v) {
        const Vector3 p = d->position(v);
        if (!any) *lo = *hi = p;
        *lo = lo->cwiseMin(p);
        *hi = hi->cwiseMax(p);
        any = true;
      }
    }
    if (any) return true;
  }
  return false;
}

double SceneExtent(const Simulation& simulation) {
  Vector3 lo, hi;
  return SceneBounds(simulation, &lo, &hi) ? std::max((hi - lo).norm(), 0.02) : 1.0;
}

const float kStatic[3] = {0.62f, 0.63f, 0.66f};
const float kMoving[][3] = {{0.86f, 0.80f, 0.68f}, {0.72f, 0.76f, 0.86f}, {0.84f, 0.72f, 0.80f}, {0.74f, 0.84f, 0.74f}};

void LookAt(const Camera& camera) {
  const Vector3 f = (camera.target - camera.eye).normalized();
  Vector3 s = f.cross(camera.up);
  if (s.norm() < 1e-9) s = f.cross(Vector3::UnitX());
  s.normalize();
  const Vector3 u = s.cross(f);
  const double m[16] = {s.x(),
                        u.x(),
                        -f.x(),
                        0,
                        s.y(),
                        u.y(),
                        -f.y(),
                        0,
                        s.z(),
                        u.z(),
                        -f.z(),
                        0,
                        -s.dot(camera.eye),
                        -u.dot(camera.eye),
                        f.dot(camera.eye),
                        1};
  glLoadMatrixd(m);
}

void Vertex(const Vector3& p) { glVertex3d(p.x(), p.y(), p.z()); }

// A flat-shaded triangle (inside glBegin(GL_TRIANGLES)).
void FlatTriangle(const Vector3& a, const Vector3& b, const Vector3& c) {
  const Vector3 n = (b - a).cross(c - a);
  glNormal3d(n.x(), n.y(), n.z());
  Vertex(a);
  Vertex(b);
  Vertex(c);
}

// A plane drawn as a square of side 6·extent about the point nearest `centre`, with grid lines.
void PaintPlane(const btStaticPlaneShape& plane, const btTransform& X_WS, const Vector3& centre, double extent) {
  const Vector3 n = bullet::ToEigen(X_WS.getBasis() * plane.getPlaneNormal()).normalized();
  const Vector3 on = bullet::ToEigen(X_WS * (plane.getPlaneNormal() * plane.getPlaneConstant()));
  const Vector3 c = centre - n * n.dot(centre - on);
  Vector3 e1 = n.cross(std::abs(n.z()) < 0.9 ? Vector3::UnitZ() : Vector3::UnitX()).normalized();
  const Vector3 e2 = n.cross(e1);
  const double half = 3 * extent;
  glColor3f(0.80f, 0.81f, 0.83f);
  glNormal3d(n.x(), n.y(), n.z());
  glBegin(GL_QUADS);
  Vertex(c - half * e1 - half * e2);
  Vertex(c + half * e1 - half * e2);
  Vertex(c + half * e1 + half * e2);
  Vertex(c - half * e1 + half * e2);
  glEnd();
  // Grid lines just above the plane, a tenth of the extent apart (depth cue).
  const double spacing = std::pow(10.0, std::floor(std::log10(extent / 2)));
  glColor3f(0.66f, 0.67f, 0.70f);
  glBegin(GL_LINES);
  const Vector3 lift = n * extent * 1e-3;
  for (double t = -half; t <= half; t += spacing) {
    Vertex(c + lift + t * e1 - half * e2);
    Vertex(c + lift + t * e1 + half * e2);
    Vertex(c + lift - half * e1 + t * e2);
    Vertex(c + lift + half * e1 + t * e2);
  }
  glEnd();
}

}  // namespace

Camera FrameScene(const Simulation& simulation) {
  Camera camera;
  Vector3 lo(-0.5, -0.5, -0.5), hi(0.5, 0.5, 0.5);
  SceneBounds(simulation, &lo, &hi);
  const Vector3 g = bullet::ToEigen(simulation.world->getGravity());
  camera.up = g.norm() > 0 ? Vector3(-g.normalized()) : Vector3::UnitZ();
  const Vector3 side =
      camera.up.cross(std::abs(camera.up.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY()).normalized();
  const Vector3 front = side.cross(camera.up);
  const Vector3 direction = (0.55 * front + 0.85 * side + 0.5 * camera.up).normalized();
  camera.target = (lo + hi) / 2;
  const double radius = std::max((hi - lo).norm() / 2, 0.01);
  camera.eye = camera.target + direction * radius / std::sin(camera.fov_y_deg * kPi / 360) * 1.15;
  return camera;
}

Camera CommandCamera(const CommandLine& args, const Simulation& simulation) {
  Camera camera = FrameScene(simulation);
  if (args.camera.size() == 6) {
    camera.eye = Vector3(args.camera[0], args.camera[1], args.camera[2]);
    camera.target = Vector3(args.camera[3], args.camera[4], args.camera[5]);
  }
  return camera;
}

std::vector<unsigned char> ReadFramebufferRgb(int width, int height) {
  std::vector<unsigned char> bottom_up(static_cast<size_t>(width) * height * 3), rows(bottom_up.size());
  glFinish();
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
  const size_t stride = static_cast<size_t>(width) * 3;
  for (int y = 0; y < height; ++y) std::copy_n(&bottom_up[(height - 1 - y) * stride], stride, &rows[y * stride]);
  return rows;
}

void GlDebugDraw::drawLine(const btVector3& from, const btVector3& to, const btVector3& color) {
  glColor3d(color.x(), color.y(), color.z());
  glBegin(GL_LINES);
  glVertex3d(from.x(), from.y(), from.z());
  glVertex3d(to.x(), to.y(), to.z());
  glEnd();
}

void GlDebugDraw::drawTriangle(const btVector3& a, const btVector3& b, const btVector3& c, const btVector3& color,
                               btScalar) {
  glColor3d(color.x(), color.y(), color.z());
  glBegin(GL_TRIANGLES);
  glVertex3d(a.x(), a.y(), a.z());
  glVertex3d(b.x(), b.y(), b.z());
  glVertex3d(c.x(), c.y(), c.z());
  glEnd();
}

void GlDebugDraw::drawContactPoint(const btVector3& point, const btVector3& normal, btScalar, int,
                                   const btVector3& color) {
  glPointSize(6);
  glColor3d(color.x(), color.y(), color.z());
  glBegin(GL_POINTS);
  glVertex3d(point.x(), point.y(), point.z());
  glEnd();
  (void)normal;
}

void ScenePainter::Paint(const Simulation& simulation, const Camera& camera, int width, int height, double dt) {
  const double extent = SceneExtent(simulation);
  glViewport(0, 0, width, height);
  glClearColor(0.93f, 0.94f, 0.96f, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  const double distance = (camera.eye - camera.target).norm();
  const double near = std::max(distance * 1e-2, 1e-5), far = distance * 100 + extent * 10;
  const double top = near * std::tan(camera.fov_y_deg * kPi / 360), aspect = static_cast<double>(width) / height;
  glFrustum(-top * aspect, top * aspect, -top, top, near, far);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  // A light from over the viewer's shoulder, fixed to the camera.
  const float light[4] = {0.3f, 0.6f, 1.0f, 0.0f}, ambient[4] = {0.35f, 0.35f, 0.35f, 1},
              diffuse[4] = {0.7f, 0.7f, 0.7f, 1};
  glLightfv(GL_LIGHT0, GL_POSITION, light);
  glLightfv(GL_LIGHT0, GL_DIFFUSE, diffuse);
  glLightModelfv(GL_LIGHT_MODEL_AMBIENT, ambient);
  glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
  LookAt(camera);
  PaintBodies(simulation, extent);
  PaintDeformables(simulation);
  double max_pressure = 0;
  PaintPatches(simulation, dt, extent, &max_pressure);
  if (max_pressure > 0) PaintColourBar(width, height, 0.03, "pressure", max_pressure, " Pa");
  if (max_strain_ > 0) PaintColourBar(width, height, 0.84, "strain", max_strain_, "");
}

void ScenePainter::PaintBodies(const Simulation& simulation, double extent) {
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  glEnable(GL_NORMALIZE);
  glEnable(GL_COLOR_MATERIAL);
  glColorMaterial(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE);
  Vector3 lo, hi;
  const Vector3 centre = SceneBounds(simulation, &lo, &hi) ? Vector3((lo + hi) / 2) : Vector3::Zero();
  int moving = 0;
  for (const urdf::BuiltBody& body : simulation.built->bodies()) {
    const btCollisionObject* object = body.collider;
    if (!object) continue;
    if (IsPlane(object)) {
      glDisable(GL_LIGHTING);
      PaintPlane(*static_cast<const btStaticPlaneShape*>(object->getCollisionShape()), object->getWorldTransform(),
                 centre, extent);
      glEnable(GL_LIGHTING);
      continue;
    }
    const float* colour = object->isStaticOrKinematicObject() ? kStatic : kMoving[moving++ % 4];
    glColor3fv(colour);
    const RigidTransform X_WS = bullet::ToRigidTransform(object->getWorldTransform());
    glBegin(GL_TRIANGLES);
    for (const auto& [mesh, X_SG] : surfaces_.Of(object->getCollisionShape())) {
      const RigidTransform X_WG = X_WS * X_SG;
      for (const Triangle& triangle : mesh.triangles()) {
        FlatTriangle(X_WG * mesh.vertices()[triangle[0]], X_WG * mesh.vertices()[triangle[1]],
                     X_WG * mesh.vertices()[triangle[2]]);
      }
    }
    glEnd();
  }
  glDisable(GL_LIGHTING);
}

void ScenePainter::PaintDeformables(const Simulation& simulation) {
  double& max_strain = max_strain_;
  max_strain = 0;
  std::vector<std::vector<double>> strains;
  for (const auto& body : simulation.deformables) {
    strains.push_back(body->CalcElementStrains());
    for (double e : strains.back()) max_strain = std::max(max_strain, e);
  }
  glEnable(GL_LIGHTING);
  for (size_t k = 0; k < simulation.deformables.size(); ++k) {
    const fem::FemBody& body = *simulation.deformables[k];
    Boundary& boundary = boundaries_[&body];
    if (boundary.faces.empty()) {
      // A face is on the boundary when one tet alone has it; its outward order is the tet's face
      // order seen from outside (the fourth vertex behind it).
      std::map<std::array<int, 3>, int> count;
      std::vector<std::pair<std::array<int, 3>, int>> faces;
      for (int t = 0; t < body.num_tets(); ++t) {
        const auto& tet = body.tets()[t];
        const std::array<std::array<int, 3>, 4> tet_faces = {
            {{tet[1], tet[2], tet[3]}, {tet[0], tet[3], tet[2]}, {tet[0], tet[1], tet[3]}, {tet[0], tet[2], tet[1]}}};
        for (const auto& face : tet_faces) {
          std::array<int, 3> key = face;
          std::sort(key.begin(), key.end());
          ++count[key];
          faces.emplace_back(face, t);
        }
      }
      for (const auto& [face, t] : faces) {
        std::array<int, 3> key = face;
        std::sort(key.begin(), key.end());
        if (count[key] == 1) {
          boundary.faces.push_back(face);
          boundary.tets.push_back(t);
        }
      }
    }
    glBegin(GL_TRIANGLES);
    for (size_t f = 0; f < boundary.faces.size(); ++f) {
      const btVector3 colour = hydroPressureColor(static_cast<btScalar>(strains[k][boundary.tets[f]]),
                                                  static_cast<btScalar>(max_strain > 0 ? max_strain : 1));
      glColor3d(colour.x(), colour.y(), colour.z());
      FlatTriangle(body.position(boundary.faces[f][0]), body.position(boundary.faces[f][1]),
                   body.position(boundary.faces[f][2]));
    }
    glEnd();
  }
  glDisable(GL_LIGHTING);
}

void ScenePainter::PaintPatches(const Simulation& simulation, double dt, double extent, double* max_pressure) {
  patches_.clear();
  if (!simulation.plugin) return;
  patches_ = hydroGetContactPatches(simulation.dispatcher.get(), dt);
  double max_force = 0;
  for (const btHydroelasticContactPatch& patch : patches_) {
    *max_pressure = std::max<double>(*max_pressure, patch.m_maxPressure);
    max_force = std::max<double>(max_force, patch.m_forceOnBody0.length());
  }
  if (*max_pressure <= 0) return;
  // Over the bodies: a patch lies inside the overlap of the two, hidden by their surfaces.
  glDisable(GL_DEPTH_TEST);
  if (show_points_) {
    // The solver's points: every manifold point, coloured by its share of the largest impulse.
    const btDispatcher* dispatcher = simulation.dispatcher.get();
    double largest = 0;
    for (int m = 0; m < dispatcher->getNumManifolds(); ++m) {
      const btPersistentManifold* manifold = const_cast<btDispatcher*>(dispatcher)->getManifoldByIndexInternal(m);
      for (int i = 0; i < manifold->getNumContacts(); ++i)
        largest = std::max<double>(largest, manifold->getContactPoint(i).m_appliedImpulse);
    }
    glPointSize(7);
    glBegin(GL_POINTS);
    for (int m = 0; m < dispatcher->getNumManifolds(); ++m) {
      const btPersistentManifold* manifold = const_cast<btDispatcher*>(dispatcher)->getManifoldByIndexInternal(m);
      for (int i = 0; i < manifold->getNumContacts(); ++i) {
        const btManifoldPoint& point = manifold->getContactPoint(i);
        const btVector3 c =
            hydroPressureColor(point.m_appliedImpulse, static_cast<btScalar>(largest > 0 ? largest : 1));
        glColor3d(c.x(), c.y(), c.z());
        glVertex3d(point.m_positionWorldOnB.x(), point.m_positionWorldOnB.y(), point.m_positionWorldOnB.z());
      }
    }
    glEnd();
    glEnable(GL_DEPTH_TEST);
    *max_pressure = 0;  // no pressure colours: no colour bar
    return;
  }
  glLineWidth(2);
  hydroDebugDrawPatches(patches_, &debug_draw_,
                        max_force > 0 ? static_cast<btScalar>(0.25 * extent / max_force) : btScalar(0));
  glLineWidth(1);
  glEnable(GL_DEPTH_TEST);
}

void ScenePainter::PaintColourBar(int width, int height, double left, const std::string& title, double max_value,
                                  const std::string& unit) {
  glDisable(GL_DEPTH_TEST);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0, width, 0, height, -1, 1);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  const double x0 = left * width, x1 = x0 + 0.025 * width, y0 = 0.2 * height, y1 = 0.8 * height;
  const int bands = 64;
  glBegin(GL_QUAD_STRIP);
  for (int i = 0; i <= bands; ++i) {
    const double f = static_cast<double>(i) / bands;
    const btVector3 c = hydroPressureColor(static_cast<btScalar>(f), btScalar(1));
    glColor3d(c.x(), c.y(), c.z());
    glVertex2d(x0, y0 + f * (y1 - y0));
    glVertex2d(x1, y0 + f * (y1 - y0));
  }
  glEnd();
  glColor3f(0.1f, 0.1f, 0.12f);
  glBegin(GL_LINE_LOOP);
  glVertex2d(x0, y0);
  glVertex2d(x1, y0);
  glVertex2d(x1, y1);
  glVertex2d(x0, y1);
  glEnd();
  const double text = std::max(8.0, 0.025 * height);
  char label[48];
  for (double f : {0.0, 0.5, 1.0}) {
    std::snprintf(label, sizeof(label), "%.3g%s", f * max_value, unit.c_str());
    text_.Draw(label, x1 + 0.4 * text, y0 + f * (y1 - y0) - text / 2, text);
  }
  text_.Draw(title, x0, y1 + text, text);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace cli
}  // namespace hydro
