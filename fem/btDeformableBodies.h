#pragma once
// FEM deformable bodies stepping inside a Bullet world (002): add the bodies, and every
// stepSimulation() also steps them. Before each of Bullet's internal steps (a pre-tick callback),
// the deformables solve their implicit steps in one convex contact problem (fem/contact_problem.h)
// together with their contacts — with each other, with static and kinematic geometry, and with
// dynamic rigid bodies and multibody links, whose velocities join the same problem — then give
// those bodies the opposite impulses; Bullet's own step follows with them applied. See
// fem/README.md for the ordering and why it is stable. Works in a btDiscreteDynamicsWorld and in
// a btMultiBodyDynamicsWorld.
//
// Uses the world's internal pre-tick callback: do not install another one on the same world.
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <vector>

#include "fem/deformable_contact.h"
#include "fem/fem_body.h"

class btDeformableBodies {
 public:
  explicit btDeformableBodies(btDiscreteDynamicsWorld* world);
  ~btDeformableBodies();
  btDeformableBodies(const btDeformableBodies&) = delete;
  btDeformableBodies& operator=(const btDeformableBodies&) = delete;

  // The body is owned by the caller and must outlive this object. `friction` is combined with each
  // Bullet object's friction by the core's rule; the contact modulus is this factor times E.
  void addBody(hydro::fem::FemBody* body, btScalar friction = 0.5, btScalar contactModulusFactor = 10);
  // Contact points of an added body: one per contact polygon (default), or one per triangle of
  // each polygon's centroid fan — for coarse meshes whose faces are a few polygons, which would
  // otherwise rest on a line of points and tip (fem/deformable_contact.h).
  void setTriangleFanContact(hydro::fem::FemBody* body, bool enable);
  int getNumBodies() const { return static_cast<int>(m_bodies.size()); }
  // Welds a vertex of an added body to `rigidBody` where the vertex is now (bubble-gripper style):
  // an implicit spring of `stiffness` N/m inside the contact solve. A null or static body welds it
  // to the world; a kinematic body carries it along its motion, and a dynamic one pulls and is
  // pulled.
  void attachVertex(hydro::fem::FemBody* body, int vertex, btRigidBody* rigidBody, btScalar stiffness = 1e5);
  // The contact solve of the last internal step, one report per added body: the shared problem's
  // iterations, convergence and residual, and the impulse of every contact on that body.
  const std::vector<hydro::fem::ContactSolveReport>& getLastReports() const { return m_reports; }
  // ε of the regularized friction (m/s, default 1e-4): joints held by friction creep at up to
  // about this speed; smaller holds better and costs more Newton iterations.
  void setStictionSpeed(btScalar speed);
  // Where the last internal step's time went (seconds): the bodies' free motions (assembly and
  // factorization), contact geometry (deformed fields and polygons), Schur complements, and the
  // contact solve's Newton iterations.
  struct StepTimings {
    double assembly{0}, factorization{0}, geometry{0}, schur{0}, newton{0}, total{0};
  };
  const StepTimings& getLastTimings() const { return m_timings; }
  // Contact points of the last internal step, all bodies together.
  int getLastNumContacts() const { return m_lastNumContacts; }

 private:
  struct Weld {
    int vertex;
    btRigidBody* rigid;
    btVector3 p_BQ;  // in the rigid body's frame
    btScalar stiffness;
  };
  struct Entry {
    hydro::fem::FemBody* body;
    hydro::fem::DeformableContactModel model;
    btScalar friction;
    std::vector<Weld> welds;
  };
  static void PreTick(btDynamicsWorld* world, btScalar timeStep);
  void Step(btScalar timeStep);

  btDiscreteDynamicsWorld* m_world;
  std::vector<Entry> m_bodies;
  std::vector<hydro::fem::ContactSolveReport> m_reports;
  int m_lastNumContacts = 0;
  hydro::fem::ContactProblemOptions m_options;
  StepTimings m_timings;
};
