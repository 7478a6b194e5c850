#include "fem/btDeformableBodies.h"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cstdio>
#include <set>
#include <string>

#include "hydro/math.h"

#include "adapters/bullet_conversions.h"
#include "adapters/shape_registry.h"
#include "hydro/contact_material.h"

using hydro::Matrix3;
using hydro::RigidTransform;
using hydro::Vector3;
using hydro::bullet::ToBullet;
using hydro::bullet::ToEigen;
using hydro::fem::DeformableContactPoint;
using hydro::fem::RigidParticipant;

btDeformableBodies::btDeformableBodies(btDiscreteDynamicsWorld* world) : m_world(world) {
  m_world->setInternalTickCallback(&btDeformableBodies::PreTick, this, /*isPreTick=*/true);
}

btDeformableBodies::~btDeformableBodies() { m_world->setInternalTickCallback(nullptr, nullptr, true); }

void btDeformableBodies::addBody(hydro::fem::FemBody* body, btScalar friction, btScalar contactModulusFactor) {
  m_bodies.push_back({body, hydro::fem::MakeDeformableContactModel(*body, contactModulusFactor), friction, {}});
}

void btDeformableBodies::attachVertex(hydro::fem::FemBody* body, int vertex, btRigidBody* rigidBody, btScalar stiffness) {
  for (Entry& entry : m_bodies) {
    if (entry.body != body) continue;
    if (!rigidBody || rigidBody->isStaticObject()) {
      body->FixVertex(vertex);  // welded to the world
      return;
    }
    if (vertex < 0 || vertex >= body->num_vertices() || !(stiffness > 0))
      throw hydro::InvalidInput("btDeformableBodies::attachVertex: no vertex " + std::to_string(vertex) +
                                " in '" + body->name() + "', or a non-positive stiffness");
    const btVector3 p_W = ToBullet(body->position(vertex));
    entry.welds.push_back({vertex, rigidBody, rigidBody->getCenterOfMassTransform().inverse() * p_W, stiffness});
    return;
  }
  throw hydro::InvalidInput("btDeformableBodies::attachVertex: the body was not added");
}

void btDeformableBodies::PreTick(btDynamicsWorld* world, btScalar timeStep) {
  static_cast<btDeformableBodies*>(world->getWorldUserInfo())->Step(timeStep);
}

namespace {

void ReportOnce(const std::string& message) {
  static std::set<std::string> reported;
  if (reported.insert(message).second) std::fprintf(stderr, "HydroBullet: %s\n", message.c_str());
}

}  // namespace

void btDeformableBodies::Step(btScalar dt) {
  m_reports.clear();
  const Vector3 gravity = ToEigen(m_world->getGravity());
  hydro::bullet::ShapeRegistry& registry = hydro::bullet::ShapeRegistry::Instance();
  for (Entry& entry : m_bodies) {
    hydro::fem::FemBody& body = *entry.body;
    // The deformed body's bounds, grown by what it may move this step.
    Vector3 lo = body.position(0), hi = lo;
    for (int v = 1; v < body.num_vertices(); ++v) lo = lo.cwiseMin(body.position(v)), hi = hi.cwiseMax(body.position(v));
    const double reach = dt * body.v().cwiseAbs().maxCoeff() + 1e-3 * (hi - lo).maxCoeff();
    lo.array() -= reach;
    hi.array() += reach;
    std::vector<DeformableContactPoint> points;
    std::vector<RigidParticipant> participants;
    std::vector<btRigidBody*> participant_bodies;
    // The index of a dynamic rigid body among the participants, adding it on first use.
    auto participant_of = [&](btRigidBody* rigid) {
      for (size_t k = 0; k < participant_bodies.size(); ++k)
        if (participant_bodies[k] == rigid) return static_cast<int>(k);
      RigidParticipant p;
      p.mass_kg = 1 / rigid->getInvMass();
      p.inertia_W = ToEigen(rigid->getInvInertiaTensorWorld()).inverse();
      p.p_WBcm = ToEigen(rigid->getCenterOfMassPosition());
      // Bullet integrates the body's total force in the step that follows; stepSimulation has
      // already added gravity to it (applyGravity runs before the internal steps).
      p.v_star = ToEigen(rigid->getLinearVelocity() + rigid->getTotalForce() * rigid->getInvMass() * dt);
      p.w_star = ToEigen(rigid->getAngularVelocity() + rigid->getInvInertiaTensorWorld() * rigid->getTotalTorque() * dt);
      participants.push_back(p);
      participant_bodies.push_back(rigid);
      return static_cast<int>(participants.size()) - 1;
    };
    std::vector<hydro::fem::VertexAttachment> attachments;
    for (const Weld& weld : entry.welds) {
      if (weld.rigid->isStaticOrKinematicObject()) {
        ReportOnce("welds to kinematic bodies are not supported yet; that weld is skipped");
        continue;
      }
      const int participant = participant_of(weld.rigid);
      attachments.push_back({weld.vertex, participant, ToEigen(weld.rigid->getCenterOfMassTransform() * weld.p_BQ),
                             static_cast<double>(weld.stiffness)});
    }
    for (int i = 0; i < m_world->getNumCollisionObjects(); ++i) {
      btCollisionObject* object = m_world->getCollisionObjectArray()[i];
      const btCollisionShape* shape = object->getCollisionShape();
      btVector3 object_lo, object_hi;
      shape->getAabb(object->getWorldTransform(), object_lo, object_hi);
      if (object_lo.x() > hi.x() || object_lo.y() > hi.y() || object_lo.z() > hi.z() || object_hi.x() < lo.x() ||
          object_hi.y() < lo.y() || object_hi.z() < lo.z())
        continue;
      btRigidBody* rigid = btRigidBody::upcast(object);
      if (!rigid) {
        ReportOnce("deformables do not touch multibody links or soft bodies yet; that contact is skipped");
        continue;
      }
      const auto geometry = registry.Geometry(shape);
      const RigidTransform X_WG = hydro::bullet::ToRigidTransform(object->getWorldTransform()) * geometry->X_SG;
      const double friction = hydro::CombineFriction(entry.friction, object->getFriction());
      std::vector<DeformableContactPoint> found;
      using Kind = hydro::bullet::ShapeGeometry::Kind;
      if (geometry->kind == Kind::kRigidMesh) {
        found = hydro::fem::FindContacts(body, entry.model, *geometry->rigid_mesh, X_WG, friction);
      } else if (geometry->kind == Kind::kRigidHalfSpace) {
        found = hydro::fem::FindContacts(body, entry.model, hydro::RigidHalfSpace{}, X_WG, friction);
      } else {
        ReportOnce("deformables touch rigid shapes only (not compliant or unsupported ones such as " +
                   hydro::bullet::ShapeTypeName(shape->getShapeType()) + "); that contact is skipped");
        continue;
      }
      if (found.empty()) continue;
      int participant = -1;
      if (!rigid->isStaticOrKinematicObject()) {
        participant = participant_of(rigid);
      } else if (rigid->isKinematicObject()) {
        ReportOnce("a kinematic body touching a deformable is treated as static this step");
      }
      for (DeformableContactPoint& point : found) {
        point.rigid = participant;
        points.push_back(point);
      }
    }
    m_reports.push_back(body.StepWithContacts(dt, gravity, points, &participants, &attachments));
    for (size_t k = 0; k < participants.size(); ++k) {
      participant_bodies[k]->activate();
      participant_bodies[k]->applyCentralImpulse(ToBullet(participants[k].impulse_W));
      participant_bodies[k]->applyTorqueImpulse(ToBullet(participants[k].angular_impulse_W));
    }
  }
}
