#include "fem/btDeformableBodies.h"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <Eigen/Cholesky>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_registry.h"
#include "fem/contact_problem.h"
#include "hydro/contact_material.h"
#include "hydro/math.h"

using hydro::CompliantMesh;
using hydro::Matrix3;
using hydro::RigidTransform;
using hydro::Vector3;
using hydro::bullet::ToBullet;
using hydro::bullet::ToEigen;
using hydro::fem::ContactConstraint;
using hydro::fem::ContactProblemBlock;
using hydro::fem::DeformableContactPoint;
using hydro::fem::FreeMotion;
using hydro::fem::SpringConstraint;
using hydro::fem::VelocityTargetConstraint;
using hydro::fem::VelocityTerm;

namespace {

// Two deformables meet on the fan when either asks for it (setTriangleFanContact).
hydro::PointQuadrature FanIfEitherAsks(hydro::PointQuadrature a, hydro::PointQuadrature b) {
  return a == hydro::PointQuadrature::kPolygonCentroid ? b : a;
}

}  // namespace

btDeformableBodies::btDeformableBodies(btDiscreteDynamicsWorld* world) : m_world(world) {
  m_world->setInternalTickCallback(&btDeformableBodies::PreTick, this, /*isPreTick=*/true);
}

btDeformableBodies::~btDeformableBodies() { m_world->setInternalTickCallback(nullptr, nullptr, true); }

void btDeformableBodies::addBody(hydro::fem::FemBody* body, btScalar friction, btScalar contactModulusFactor) {
  hydro::CheckNonNegative(friction, "btDeformableBodies::addBody: friction of '" + body->name() + "'");
  m_bodies.push_back({body, hydro::fem::MakeDeformableContactModel(*body, contactModulusFactor), friction, {}});
}

void btDeformableBodies::setTriangleFanContact(hydro::fem::FemBody* body, bool enable) {
  for (Entry& entry : m_bodies)
    if (entry.body == body) {
      entry.model.quadrature = enable ? hydro::PointQuadrature::kTriangleFan : hydro::PointQuadrature::kPolygonCentroid;
      return;
    }
  throw hydro::InvalidInput("btDeformableBodies::setTriangleFanContact: the body was not added");
}

void btDeformableBodies::attachVertex(hydro::fem::FemBody* body, int vertex, btRigidBody* rigidBody,
                                      btScalar stiffness) {
  for (Entry& entry : m_bodies) {
    if (entry.body != body) continue;
    if (vertex < 0 || vertex >= body->num_vertices())
      throw hydro::InvalidInput("btDeformableBodies::attachVertex: no vertex " + std::to_string(vertex) + " in '" +
                                body->name() + "'");
    if (!rigidBody || rigidBody->isStaticObject()) {
      body->FixVertex(vertex);  // welded to the world
      return;
    }
    if (!(stiffness > 0))
      throw hydro::InvalidInput("btDeformableBodies::attachVertex: non-positive stiffness for vertex " +
                                std::to_string(vertex) + " of '" + body->name() + "'");
    const btVector3 p_W = ToBullet(body->position(vertex));
    entry.welds.push_back({vertex, rigidBody, rigidBody->getCenterOfMassTransform().inverse() * p_W, stiffness});
    return;
  }
  throw hydro::InvalidInput("btDeformableBodies::attachVertex: the body was not added");
}

void btDeformableBodies::setStictionSpeed(btScalar speed) {
  hydro::CheckPositive(speed, "btDeformableBodies::setStictionSpeed");
  m_options.stiction_speed_m_per_s = speed;
}

void btDeformableBodies::PreTick(btDynamicsWorld* world, btScalar timeStep) {
  static_cast<btDeformableBodies*>(world->getWorldUserInfo())->Step(timeStep);
}

namespace {

void ReportOnce(const std::string& message) {
  static std::set<std::string> reported;
  if (reported.insert(message).second) std::fprintf(stderr, "HydroBullet: %s\n", message.c_str());
}

struct Box {
  Vector3 lo, hi;
  bool Overlaps(const Box& o) const { return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all(); }
};

// A multibody in the contact problem: its generalized velocities (all 6 + n, or the n joint
// velocities of a fixed base) with its mass matrix as weight.
struct MultiBodyBlock {
  btMultiBody* body;
  int block;
  int first;              // 6 for a fixed base (the base's six entries are not unknowns), else 0
  Eigen::MatrixXd M_inv;  // over the unknowns
};

// What a btMultiBodyJointMotor aims at. Bullet 3.24 keeps the targets protected with no getters;
// a pointer to a protected member, formed in a derived class, reads them from any motor.
struct MotorSettings : btMultiBodyJointMotor {
  static btScalar Get(const btMultiBodyJointMotor& motor, btScalar btMultiBodyJointMotor::*field) {
    return motor.*field;
  }
  static constexpr btScalar btMultiBodyJointMotor::*kDesiredVelocity = &MotorSettings::m_desiredVelocity;
  static constexpr btScalar btMultiBodyJointMotor::*kDesiredPosition = &MotorSettings::m_desiredPosition;
  static constexpr btScalar btMultiBodyJointMotor::*kKd = &MotorSettings::m_kd;
  static constexpr btScalar btMultiBodyJointMotor::*kKp = &MotorSettings::m_kp;
  static constexpr btScalar btMultiBodyJointMotor::*kRhsClamp = &MotorSettings::m_rhsClamp;
};

// The contact problem of one internal step, assembled from the world.
class StepProblem {
 public:
  explicit StepProblem(double dt) : dt_(dt) {}

  std::vector<ContactProblemBlock> blocks;
  std::vector<ContactConstraint> contacts;
  std::vector<SpringConstraint> springs;
  std::vector<int> contact_body_A, contact_body_B;  // deformable entry per side, -1 if none
  std::map<btRigidBody*, int> rigid_blocks;
  std::vector<MultiBodyBlock> multibodies;

  // The block of a dynamic rigid body, made on first use with its predicted velocity as free
  // motion: Bullet integrates the body's total force in the step that follows, and
  // stepSimulation has already added gravity to it (applyGravity runs before the internal steps).
  int RigidBlock(btRigidBody* rigid) {
    auto found = rigid_blocks.find(rigid);
    if (found != rigid_blocks.end()) return found->second;
    const Vector3 v_star = ToEigen(rigid->getLinearVelocity() + rigid->getTotalForce() * rigid->getInvMass() * dt_);
    const Vector3 w_star =
        ToEigen(rigid->getAngularVelocity() + rigid->getInvInertiaTensorWorld() * rigid->getTotalTorque() * dt_);
    blocks.push_back(hydro::fem::MakeRigidBlock(1 / rigid->getInvMass(),
                                                ToEigen(rigid->getInvInertiaTensorWorld()).inverse(), v_star, w_star));
    // The solve starts from the body's present velocity, like the deformables' (see the .h).
    blocks.back().u_guess.resize(6);
    blocks.back().u_guess << ToEigen(rigid->getLinearVelocity()), ToEigen(rigid->getAngularVelocity());
    return rigid_blocks[rigid] = static_cast<int>(blocks.size()) - 1;
  }

  // The block of a multibody. Its free motion is Bullet's own articulated-body step without
  // constraints (gravity and applied forces, Coriolis terms), taken and undone here; its mass
  // matrix is the inverse of the response to unit generalized impulses. Joint motors and limits
  // are constraints of Bullet's solver and act in Bullet's step that follows.
  int MultiBody(btMultiBody* body) {
    for (const MultiBodyBlock& m : multibodies)
      if (m.body == body) return static_cast<int>(&m - multibodies.data());
    const int full = 6 + body->getNumDofs();
    const int first = body->hasFixedBase() ? 6 : 0;
    const int n = full - first;
    Eigen::VectorXd v0(full);
    for (int i = 0; i < full; ++i) v0[i] = body->getVelocityVector()[i];
    body->computeAccelerationsArticulatedBodyAlgorithmMultiDof(dt_, scratch_r_, scratch_v_, scratch_m_, false, false,
                                                               false);
    Eigen::VectorXd v_free(full);
    for (int i = 0; i < full; ++i) v_free[i] = body->getVelocityVector()[i];
    std::vector<btScalar> undo(full);
    for (int i = 0; i < full; ++i) undo[i] = static_cast<btScalar>(v_free[i] - v0[i]);
    body->applyDeltaVeeMultiDof(undo.data(), -1);
    MultiBodyBlock m{body, static_cast<int>(blocks.size()), first, Eigen::MatrixXd(n, n)};
    std::vector<btScalar> unit(full, 0), response(full, 0);
    for (int j = 0; j < n; ++j) {
      unit[first + j] = 1;
      body->calcAccelerationDeltasMultiDof(unit.data(), response.data(), scratch_r_, scratch_v_);
      unit[first + j] = 0;
      for (int i = 0; i < n; ++i) m.M_inv(i, j) = response[first + i];
    }
    m.M_inv = 0.5 * (m.M_inv + m.M_inv.transpose());
    Eigen::MatrixXd M = m.M_inv.ldlt().solve(Eigen::MatrixXd::Identity(n, n));
    M = 0.5 * (M + M.transpose());
    ContactProblemBlock block;
    block.A = M.sparseView();
    block.u_star = v_free.tail(n);
    block.u_guess = v0.tail(n);
    blocks.push_back(std::move(block));
    multibodies.push_back(std::move(m));
    return static_cast<int>(multibodies.size()) - 1;
  }

  // Bullet's joint motors on the multibodies in the problem, as velocity targets: the velocity
  // Bullet's solver will drive the joint to, rhs = kp·erp·(q_d − q)/δt + v + kd·(v_d − v)
  // (clamped; btMultiBodyJointMotor::createConstraintRows), with v the free motion, bounded by the
  // motor's impulse. They make the prediction right — a motor-held plate does not give way in
  // this solve — and are not applied here: Bullet's motor applies its own impulse after.
  void AddMotorTargets(btDiscreteDynamicsWorld* world, std::vector<VelocityTargetConstraint>* targets) const {
    auto* multibody_world = dynamic_cast<btMultiBodyDynamicsWorld*>(world);
    if (!multibody_world) return;
    for (int i = 0; i < multibody_world->getNumMultiBodyConstraints(); ++i) {
      btMultiBodyConstraint* constraint = multibody_world->getMultiBodyConstraint(i);
      if (constraint->getConstraintType() != MULTIBODY_CONSTRAINT_1DOF_JOINT_MOTOR) continue;
      const auto& motor = static_cast<const btMultiBodyJointMotor&>(*constraint);
      const MultiBodyBlock* m = nullptr;
      for (const MultiBodyBlock& candidate : multibodies)
        if (candidate.body == constraint->getMultiBodyA()) m = &candidate;
      if (!m || constraint->getMaxAppliedImpulse() <= 0) continue;
      const int link = constraint->getLinkA();
      const int dof = 6 + m->body->getLink(link).m_dofOffset - m->first;
      const double v = blocks[m->block].u_star[dof];
      const double q = m->body->getJointPosMultiDof(link)[0];
      auto get = [&](btScalar btMultiBodyJointMotor::*field) { return MotorSettings::Get(motor, field); };
      const double clamp = get(MotorSettings::kRhsClamp);
      const double target = std::clamp<double>(
          get(MotorSettings::kKp) * motor.getErp() * (get(MotorSettings::kDesiredPosition) - q) / dt_ + v +
              get(MotorSettings::kKd) * (get(MotorSettings::kDesiredVelocity) - v),
          -clamp, clamp);
      VelocityTargetConstraint t;
      t.block = m->block;
      t.J_s = Eigen::RowVectorXd::Zero(m->M_inv.rows());
      t.J_s[dof] = 1;
      t.s_target = target;
      t.stiffness = 1e4 / m->M_inv(dof, dof);  // 10⁴ times the joint's effective mass: nearly hard
      t.max_impulse = constraint->getMaxAppliedImpulse();
      targets->push_back(t);
    }
  }

  // The velocity of point p_W on a multibody link (-1: the base), times sign.
  void AppendLinkTerms(int multibody, int link, const Vector3& p_W, double sign, std::vector<VelocityTerm>* terms) {
    const MultiBodyBlock& m = multibodies[multibody];
    const int full = 6 + m.body->getNumDofs();
    Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, full - m.first);
    std::vector<btScalar> row(full, 0);
    for (int axis = 0; axis < 3; ++axis) {
      btVector3 direction(0, 0, 0);
      direction[axis] = 1;
      m.body->fillContactJacobianMultiDof(link, ToBullet(p_W), direction, row.data(), scratch_r_, scratch_v_,
                                          scratch_m_);
      for (int j = m.first; j < full; ++j) J(axis, j - m.first) = sign * row[j];
    }
    terms->push_back({m.block, 0, J});
  }

 private:
  double dt_;
  btAlignedObjectArray<btScalar> scratch_r_;
  btAlignedObjectArray<btVector3> scratch_v_;
  btAlignedObjectArray<btMatrix3x3> scratch_m_;
};

ContactConstraint MakeContact(const Vector3& nhat_W, double stiffness, double phi0, double friction) {
  ContactConstraint c;
  c.nhat_W = nhat_W;
  c.stiffness_N_per_m = stiffness;
  c.phi0_m = phi0;
  c.friction = friction;
  return c;
}

}  // namespace

void btDeformableBodies::Step(btScalar dt) {
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const auto step_start = Clock::now();
  m_timings = StepTimings{};
  const Vector3 gravity = ToEigen(m_world->getGravity());
  hydro::bullet::ShapeRegistry& registry = hydro::bullet::ShapeRegistry::Instance();
  const int num_bodies = static_cast<int>(m_bodies.size());
  StepProblem problem(dt);
  // Blocks 0 … num_bodies − 1: the deformables' contact-free steps, each with its factorization so
  // the problem keeps only its participating DoFs.
  std::vector<FreeMotion> free_motions;
  std::vector<CompliantMesh> geometries;
  std::vector<Box> bounds;
  for (Entry& entry : m_bodies) {
    hydro::fem::FemBody& body = *entry.body;
    free_motions.push_back(body.CalcFreeMotion(dt, gravity));
    const FreeMotion& free_motion = free_motions.back();
    m_timings.assembly += body.last_step_timings().assembly_s;
    m_timings.factorization += body.last_step_timings().factorization_s + body.last_step_timings().solve_s;
    // Newton starts from the last step's velocities: a resting body starts next to its solution.
    ContactProblemBlock block = hydro::fem::MakeFemBlock(free_motion, &body.v());
    problem.blocks.push_back(std::move(block));
    const auto geometry_start = Clock::now();
    geometries.push_back(hydro::fem::MakeDeformedGeometry(body, entry.model));
    m_timings.geometry += seconds_since(geometry_start);
    // The deformed body's bounds, grown by what it may move this step.
    Box box{body.position(0), body.position(0)};
    for (int v = 1; v < body.num_vertices(); ++v)
      box.lo = box.lo.cwiseMin(body.position(v)), box.hi = box.hi.cwiseMax(body.position(v));
    const double reach = dt * body.v().cwiseAbs().maxCoeff() + 1e-3 * (box.hi - box.lo).maxCoeff();
    box.lo.array() -= reach;
    box.hi.array() += reach;
    bounds.push_back(box);
  }
  auto add_contact = [&](ContactConstraint c, int body_A, int body_B) {
    problem.contacts.push_back(std::move(c));
    problem.contact_body_A.push_back(body_A);
    problem.contact_body_B.push_back(body_B);
  };

  const auto contacts_start = Clock::now();
  for (int b = 0; b < num_bodies; ++b) {
    Entry& entry = m_bodies[b];
    hydro::fem::FemBody& body = *entry.body;
    const FreeMotion& free_motion = free_motions[b];
    // Welds to moving rigid bodies: springs whose B side is the body's point Q.
    for (const Weld& weld : entry.welds) {
      SpringConstraint s;
      hydro::fem::AppendVertexTerms(free_motion, b, weld.vertex, +1, &s.terms);
      const Vector3 p_WQ = ToEigen(weld.rigid->getCenterOfMassTransform() * weld.p_BQ);
      const Vector3 r = p_WQ - ToEigen(weld.rigid->getCenterOfMassPosition());
      if (weld.rigid->isKinematicObject()) {
        // stepSimulation has already moved a kinematic body to its pose at the end of the step
        // (saveKinematicState, before the internal steps): p_WQ is where Q will be; nothing prescribed.
      } else {
        hydro::fem::AppendRigidTerms(problem.RigidBlock(weld.rigid), r, -1, &s.terms);
      }
      s.p_BcAc_W_start = body.position(weld.vertex) - p_WQ;
      s.stiffness_N_per_m = weld.stiffness;
      problem.springs.push_back(std::move(s));
    }
    // The world's collision objects near the body.
    for (int i = 0; i < m_world->getNumCollisionObjects(); ++i) {
      btCollisionObject* object = m_world->getCollisionObjectArray()[i];
      const btCollisionShape* shape = object->getCollisionShape();
      btVector3 object_lo, object_hi;
      shape->getAabb(object->getWorldTransform(), object_lo, object_hi);
      if (!bounds[b].Overlaps(Box{ToEigen(object_lo), ToEigen(object_hi)})) continue;
      // Sensors, and the contact-free colliders the URDF builder gives links for Bullet's islands,
      // push nothing (Bullet's own rule for objects without contact response).
      if (!object->hasContactResponse()) continue;
      btRigidBody* rigid = btRigidBody::upcast(object);
      btMultiBodyLinkCollider* link = btMultiBodyLinkCollider::upcast(object);
      if (!rigid && !link) {
        ReportOnce(
            "deformables touch rigid bodies, multibody links and other deformables, not Bullet's soft "
            "bodies; that contact is skipped");
        continue;
      }
      const auto geometry = registry.Geometry(shape);
      const RigidTransform X_WG = hydro::bullet::ToRigidTransform(object->getWorldTransform()) * geometry->X_SG;
      const double friction = hydro::CombineFriction(entry.friction, object->getFriction());
      std::vector<DeformableContactPoint> found;
      using Kind = hydro::bullet::ShapeGeometry::Kind;
      switch (geometry->kind) {
        case Kind::kRigidMesh:
          found = hydro::fem::FindContacts(body, geometries[b], *geometry->rigid_mesh, X_WG, friction,
                                           entry.model.quadrature);
          break;
        case Kind::kRigidHalfSpace:
          found = hydro::fem::FindContacts(body, geometries[b], hydro::RigidHalfSpace{}, X_WG, friction,
                                           entry.model.quadrature);
          break;
        case Kind::kCompliantMesh:
          found = hydro::fem::FindContacts(body, geometries[b], *geometry->compliant_mesh, X_WG, friction,
                                           entry.model.quadrature);
          break;
        case Kind::kCompliantHalfSpace:
          found = hydro::fem::FindContacts(body, geometries[b], *geometry->compliant_half_space, X_WG, friction,
                                           entry.model.quadrature);
          break;
        default:
          ReportOnce("deformables do not touch " + hydro::bullet::ShapeTypeName(shape->getShapeType()) +
                     " shapes yet (" + geometry->error + "); that contact is skipped");
          continue;
      }
      for (const DeformableContactPoint& p : found) {
        ContactConstraint c = MakeContact(p.nhat_W, p.stiffness_N_per_m, p.phi0_m, p.friction);
        hydro::fem::AppendDeformableTerms(body, free_motion, b, p.tet, p.weights, +1, &c.terms);
        if (link && 6 + link->m_multiBody->getNumDofs() == (link->m_multiBody->hasFixedBase() ? 6 : 0)) {
          // A fixed multibody without joints: static geometry.
        } else if (link) {
          const int multibody = problem.MultiBody(link->m_multiBody);
          problem.AppendLinkTerms(multibody, link->m_link, p.p_WC, -1, &c.terms);
        } else if (rigid->isKinematicObject()) {
          // A kinematic body is already at its end-of-step pose (saveKinematicState runs before
          // the internal steps), so the geometry has its normal motion; its velocity enters only
          // tangentially, for friction to drag along.
          const Vector3 r = p.p_WC - ToEigen(rigid->getCenterOfMassPosition());
          const Vector3 v_Q = ToEigen(rigid->getLinearVelocity()) + ToEigen(rigid->getAngularVelocity()).cross(r);
          c.v_BcAc_W_prescribed = -(v_Q - p.nhat_W.dot(v_Q) * p.nhat_W);
        } else if (!rigid->isStaticObject()) {
          hydro::fem::AppendRigidTerms(problem.RigidBlock(rigid), p.p_WC - ToEigen(rigid->getCenterOfMassPosition()),
                                       -1, &c.terms);
        }
        add_contact(std::move(c), b, -1);
      }
    }
    // The other deformables (compliant–compliant through the two deformed fields).
    for (int o = b + 1; o < num_bodies; ++o) {
      if (!bounds[b].Overlaps(bounds[o])) continue;
      const double friction = hydro::CombineFriction(entry.friction, m_bodies[o].friction);
      for (const auto& p :
           hydro::fem::FindContacts(body, geometries[b], *m_bodies[o].body, geometries[o], friction,
                                    FanIfEitherAsks(entry.model.quadrature, m_bodies[o].model.quadrature))) {
        ContactConstraint c = MakeContact(p.nhat_W, p.stiffness_N_per_m, p.phi0_m, p.friction);
        hydro::fem::AppendDeformableTerms(body, free_motion, b, p.tet_A, p.weights_A, +1, &c.terms);
        hydro::fem::AppendDeformableTerms(*m_bodies[o].body, free_motions[o], o, p.tet_B, p.weights_B, -1, &c.terms);
        add_contact(std::move(c), b, o);
      }
    }
  }

  m_timings.geometry += seconds_since(contacts_start);
  std::vector<VelocityTargetConstraint> targets;
  problem.AddMotorTargets(m_world, &targets);
  const hydro::fem::ContactProblemResult solution =
      hydro::fem::SolveContactProblem(dt, problem.blocks, problem.contacts, problem.springs, targets, m_options);
  m_lastNumContacts = static_cast<int>(problem.contacts.size());
  m_timings.schur = solution.schur_s;
  m_timings.newton = solution.newton_s;
  m_reports.assign(num_bodies, hydro::fem::ToReport(solution));
  for (size_t i = 0; i < problem.contacts.size(); ++i) {
    const Vector3& gamma = solution.contact_impulse_W[i];
    if (problem.contact_body_A[i] >= 0) m_reports[problem.contact_body_A[i]].impulse_on_body_W += gamma;
    if (problem.contact_body_B[i] >= 0) m_reports[problem.contact_body_B[i]].impulse_on_body_W -= gamma;
  }
  if (!solution.converged)
    ReportOnce("a deformable contact problem did not converge in 100 Newton iterations (residual " +
               std::to_string(solution.residual) + " N·s); see getLastReports()");
  for (int b = 0; b < num_bodies; ++b) m_bodies[b].body->CommitStep(dt, free_motions[b], solution.u[b]);
  // The opposite impulses on Bullet's bodies, integrated by Bullet's step that follows.
  for (const auto& [rigid, block] : problem.rigid_blocks) {
    rigid->activate();
    rigid->applyCentralImpulse(ToBullet(Vector3(solution.impulse[block].head<3>())));
    rigid->applyTorqueImpulse(ToBullet(Vector3(solution.impulse[block].tail<3>())));
  }
  for (const MultiBodyBlock& m : problem.multibodies) {
    const Eigen::VectorXd dv = m.M_inv * solution.impulse[m.block];
    std::vector<btScalar> delta(6 + m.body->getNumDofs(), 0);
    for (int i = 0; i < dv.size(); ++i) delta[m.first + i] = dv[i];
    m.body->applyDeltaVeeMultiDof(delta.data(), 1);
    m.body->wakeUp();
  }
  m_timings.total = seconds_since(step_start);
}
