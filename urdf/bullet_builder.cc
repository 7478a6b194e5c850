// A Scene built into Bullet (bullet_builder.h): each model as rigid bodies (static, free, or held
// by constraints when built with --rigid) or as a multibody (bullet_builder_multibody.cc), split
// into trees at floating joints. Shapes come from bullet_builder_shapes.cc.
#include "urdf/bullet_builder.h"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <BulletDynamics/ConstraintSolver/btFixedConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>
#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>

#include <Eigen/Eigenvalues>

// BuiltScene owns these; its construction here needs them whole.
#include <BulletWorldImporter/btMultiBodyWorldImporter.h>

#include <map>

#include "adapters/bullet_conversions.h"
#include "adapters/hydroelastic_properties.h"
#include "urdf/bullet_builder_internal.h"
#include "urdf/model_tree.h"

namespace hydro {
namespace urdf {

using bullet::ToBullet;

namespace internal {

void Builder::DefaultMass(const Model& model, const Link& link, double* mass, btVector3* moments) const {
  Warning(link.where, "link '" + model.name + "::" + link.name +
                          "' moves but has no <inertial>; using 1 kg and unit moments of inertia, as PyBullet does");
  *mass = 1;
  *moments = btVector3(1, 1, 1);
}

void Builder::Inertia(const Link& link, bool sdf_defaults, double* mass, btVector3* moments,
                      RigidTransform* X_LB) const {
  if (!link.has_inertial) {
    *X_LB = RigidTransform::Identity();
    *mass = sdf_defaults ? 1.0 : 0.0;
    *moments = sdf_defaults ? btVector3(1, 1, 1) : btVector3(0, 0, 0);
    return;
  }
  const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(link.inertial.I_I);
  Matrix3 R_IB = eigen.eigenvectors();
  if (R_IB.determinant() < 0) R_IB.col(2) *= -1;
  *X_LB = link.inertial.X_LI;
  X_LB->linear() = link.inertial.X_LI.linear() * R_IB;
  *mass = link.inertial.mass_kg;
  const Vector3 m = eigen.eigenvalues().cwiseMax(0.0);
  *moments = ToBullet(m);
}

void Builder::SetContactProperties(const Link& link, btCollisionObject* object) const {
  for (const Collision& collision : link.collisions) {
    const ContactProperties& c = collision.contact;
    double friction = -1;
    if (c.mu_dynamic)
      friction = *c.mu_dynamic;
    else if (c.has_drake_compliance)
      friction = c.dynamic_friction;
    else if (c.lateral_friction)
      friction = *c.lateral_friction;
    if (friction >= 0) object->setFriction(friction);
    if (c.rolling_friction) object->setRollingFriction(*c.rolling_friction);
    if (c.spinning_friction) object->setSpinningFriction(*c.spinning_friction);
    if (c.restitution) object->setRestitution(*c.restitution);
    if (c.contact_stiffness_N_per_m && c.contact_damping_N_s_per_m)
      object->setContactStiffnessAndDamping(*c.contact_stiffness_N_per_m, *c.contact_damping_N_s_per_m);
    if (c.friction_anchor)
      object->setCollisionFlags(object->getCollisionFlags() | btCollisionObject::CF_HAS_FRICTION_ANCHOR);
    break;  // one set per Bullet object: the link's first collision decides
  }
}

std::optional<InitialVelocity> Builder::VelocityOf(const Model& model, const Link& link,
                                                   const std::string& name) const {
  if (auto it = options.velocities.find(name); it != options.velocities.end()) return it->second;
  if (auto it = options.velocities.find(model.name); it != options.velocities.end()) return it->second;
  if (link.initial_velocity) return link.initial_velocity;
  return model.initial_velocity;
}

RigidTransform Builder::ModelPose(const Model& model) const {
  if (auto it = options.poses.find(model.name); it != options.poses.end()) return it->second;
  return model.X_WM;
}

void Builder::AddRigidBody(const Model& model, const Link& link, bool is_static, bool sdf_defaults) {
  double mass;
  btVector3 moments;
  RigidTransform X_LB;
  Inertia(link, sdf_defaults, &mass, &moments, &X_LB);
  if (!is_static && !link.has_inertial && !(mass > 0)) DefaultMass(model, link, &mass, &moments);
  // PyBullet's rule: a link of mass 0 is static (plane.urdf, table.urdf).
  if (!(mass > 0)) is_static = true;
  if (is_static) mass = 0, moments.setZero();
  btCollisionShape* shape = LinkShape(link, X_LB, !is_static);
  if (Failed()) return;
  if (!shape) {
    if (is_static) return;  // nothing to collide and nothing to move
    shape = Keep(new btCompoundShape());
  }
  const std::string name = model.name + "::" + link.name;
  RigidTransform X_WL = ModelPose(model) * link.X_ML;
  if (auto it = options.poses.find(name); it != options.poses.end()) X_WL = it->second;
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, moments);
  info.m_startWorldTransform = ToBullet(X_WL * X_LB);
  auto body = std::make_unique<btRigidBody>(info);
  SetContactProperties(link, body.get());
  if (!is_static) {
    if (auto v = VelocityOf(model, link, name)) {
      body->setLinearVelocity(ToBullet(v->v_W + v->w_W.cross((X_WL * X_LB).translation() - X_WL.translation())));
      body->setAngularVelocity(ToBullet(v->w_W));
    }
  }
  world->addRigidBody(body.get());
  BuiltBody built_body;
  built_body.name = name;
  built_body.model = model.name;
  built_body.collider = body.get();
  built_body.rigid_body = body.get();
  built_body.X_LB = X_LB;
  built_body.is_static = is_static;
  built->bodies_.push_back(built_body);
  built->rigid_bodies_.push_back(std::move(body));
}

void Builder::AddModel(const Model& model, bool sdf) {
  std::vector<int> order, parent_joint;
  if (!CheckJointTree(model, /*allow_world_parent=*/sdf, diagnostics, &order, &parent_joint)) {
    return;
  }
  if (model.is_static) {
    for (const Link& link : model.links) AddRigidBody(model, link, /*is_static=*/true, sdf);
    return;
  }
  if (model.joints.empty()) {
    for (const Link& link : model.links) AddRigidBody(model, link, /*is_static=*/false, sdf);
    return;
  }
  if (!options.multibody) {
    AddConstrainedBodies(model, order, parent_joint, sdf);
    return;
  }
  // A floating joint leaves its child free: in a multibody the model splits there into trees,
  // each built on its own (the child's subtree gets a floating base).
  bool any_floating = false;
  for (const Joint& joint : model.joints) any_floating |= joint.type == JointType::kFloating;
  if (!any_floating) {
    AddMultibody(model, order, parent_joint, sdf);
    return;
  }
  std::vector<int> tree(model.links.size(), -1);
  int num_trees = 0;
  for (int l : order) {
    const int j = parent_joint[l];
    const Link* parent = j < 0 ? nullptr : model.FindLink(model.joints[j].parent);
    if (!parent || model.joints[j].type == JointType::kFloating)
      tree[l] = num_trees++;
    else
      tree[l] = tree[parent - model.links.data()];
  }
  for (int t = 0; t < num_trees && !Failed(); ++t) {
    Model part = model;
    part.links.clear();
    part.joints.clear();
    for (size_t l = 0; l < model.links.size(); ++l)
      if (tree[l] == t) part.links.push_back(model.links[l]);
    for (const Joint& joint : model.joints)
      if (joint.type != JointType::kFloating && part.FindLink(joint.child)) part.joints.push_back(joint);
    // Only the tree that holds the original root keeps a weld to the world.
    part.fixed_base = model.fixed_base && tree[order[0]] == t;
    AddModel(part, sdf);
  }
}

void Builder::AddConstrainedBodies(const Model& model, const std::vector<int>& order,
                                   const std::vector<int>& parent_joint, bool sdf) {
  // Links: URDF's "world" root is the world itself.
  std::map<std::string, btRigidBody*> bodies;
  for (int l : order) {
    const Link& link = model.links[l];
    if (!sdf && link.name == "world" && parent_joint[l] < 0) continue;
    const size_t bodies_before = built->bodies_.size();
    AddRigidBody(model, link, false, sdf);
    if (Failed()) return;
    // A static link with nothing to collide adds no body: its joints hold their children to the world.
    if (built->bodies_.size() > bodies_before) bodies[link.name] = built->bodies_.back().rigid_body;
  }
  for (int l : order) {
    if (parent_joint[l] < 0) continue;
    const Joint& joint = model.joints[parent_joint[l]];
    if (joint.motor) {
      Error(joint.motor->where, "joint '" + joint.name + "': hydro:motor drives multibody joints only (not --rigid)");
      return;
    }
    const auto child_it = bodies.find(joint.child);
    if (child_it == bodies.end()) continue;  // a static link with no collision: nothing to hold
    btRigidBody* child = child_it->second;
    const auto parent_it = bodies.find(joint.parent);
    btRigidBody* parent = parent_it == bodies.end() ? nullptr : parent_it->second;
    const BuiltBody* child_built = built->FindByCollider(child);
    // Joint frame J in each Bullet body frame, with x along the joint axis (Bullet's hinge and
    // slider axes).
    const Link& child_link = model.links[l];
    const RigidTransform X_WM = ModelPose(model);
    const Link* parent_link = model.FindLink(joint.parent);
    const RigidTransform X_WP = X_WM * (parent_link ? parent_link->X_ML : RigidTransform::Identity());
    RigidTransform X_WJ = X_WP * joint.X_PJ;
    RigidTransform X_JA = RigidTransform::Identity();
    X_JA.linear() = Eigen::Quaterniond::FromTwoVectors(Vector3::UnitX(), joint.axis_J).toRotationMatrix();
    const RigidTransform X_WA = X_WJ * X_JA;                                 // axis frame
    const RigidTransform X_WC = X_WM * child_link.X_ML * child_built->X_LB;  // C: the child's Bullet body frame
    const btTransform frame_in_child = ToBullet(X_WC.inverse() * X_WA);
    btTransform frame_in_parent = ToBullet(X_WA);
    if (parent) frame_in_parent = ToBullet(bullet::ToRigidTransform(parent->getWorldTransform()).inverse() * X_WA);
    btTypedConstraint* constraint = nullptr;
    btRigidBody& fixed = btTypedConstraint::getFixedBody();
    btRigidBody& a = parent ? *parent : fixed;
    switch (joint.type) {
      case JointType::kFixed:
        constraint = new btFixedConstraint(a, *child, frame_in_parent, frame_in_child);
        break;
      case JointType::kRevolute:
      case JointType::kContinuous: {
        auto* hinge =
            new btHingeConstraint(a, *child, frame_in_parent.getOrigin(), frame_in_child.getOrigin(),
                                  frame_in_parent.getBasis().getColumn(0), frame_in_child.getBasis().getColumn(0));
        if (joint.type == JointType::kRevolute && std::isfinite(joint.lower) && std::isfinite(joint.upper))
          hinge->setLimit(joint.lower, joint.upper);
        constraint = hinge;
        break;
      }
      case JointType::kPrismatic: {
        auto* slider = new btSliderConstraint(a, *child, frame_in_parent, frame_in_child, true);
        const bool limited = std::isfinite(joint.lower) && std::isfinite(joint.upper);
        slider->setLowerLinLimit(limited ? joint.lower : 1);  // Bullet: lower > upper is free
        slider->setUpperLinLimit(limited ? joint.upper : -1);
        slider->setLowerAngLimit(0);
        slider->setUpperAngLimit(0);
        constraint = slider;
        break;
      }
      case JointType::kPlanar: {
        // Free in the plane normal to the axis (x of the axis frame) and about it.
        auto* planar = new btGeneric6DofSpring2Constraint(a, *child, frame_in_parent, frame_in_child);
        planar->setLinearLowerLimit(btVector3(0, 1, 1));
        planar->setLinearUpperLimit(btVector3(0, -1, -1));
        planar->setAngularLowerLimit(btVector3(1, 0, 0));
        planar->setAngularUpperLimit(btVector3(-1, 0, 0));
        constraint = planar;
        break;
      }
      case JointType::kSpherical:
        constraint = new btPoint2PointConstraint(a, *child, frame_in_parent.getOrigin(), frame_in_child.getOrigin());
        break;
      case JointType::kFloating:
        continue;
    }
    world->addConstraint(constraint, /*disableCollisionsBetweenLinkedBodies=*/true);
    built->constraints_.emplace_back(constraint);
  }
}

}  // namespace internal

btHydroelasticProperties HydroelasticProperties(const ContactProperties& c) {
  btHydroelasticProperties properties;
  properties.m_kind =
      c.compliance == Compliance::kCompliant ? btHydroelasticProperties::COMPLIANT : btHydroelasticProperties::RIGID;
  properties.m_hydroelasticModulus = c.hydroelastic_modulus_Pa.value_or(kDefaultHydroelasticModulus);
  properties.m_resolutionHint = c.mesh_resolution_hint_m.value_or(0);
  properties.m_huntCrossleyDissipation = c.hunt_crossley_dissipation_s_per_m.value_or(0);
  properties.m_slabThickness = c.slab_thickness_m.value_or(kDefaultSlabThickness);
  return properties;
}

std::unique_ptr<BuiltScene> BuildScene(const Scene& scene, btMultiBodyDynamicsWorld* world, const BuildOptions& options,
                                       Diagnostics* diagnostics) {
  auto built = std::unique_ptr<BuiltScene>(new BuiltScene);
  built->world_ = world;
  world->setGravity(ToBullet(scene.gravity_W));
  internal::Builder builder{scene, world, options, diagnostics, built.get(), diagnostics->num_errors()};
  for (const Model& model : scene.models) {
    const size_t first_body = built->bodies_.size();
    builder.AddModel(model, model.sdf_rules);
    if (builder.Failed()) return nullptr;  // the destructor takes out what was added
    // Without self-collision a model's bodies pass through each other: a multibody by its own
    // flag (setHasSelfCollision), separate bodies (free links, --rigid, split trees) pair by pair.
    if (!model.self_collide) {
      auto& bodies = built->bodies_;
      for (size_t i = first_body; i < bodies.size(); ++i)
        for (size_t j = i + 1; j < bodies.size(); ++j) {
          btCollisionObject *a = bodies[i].collider, *b = bodies[j].collider;
          if (!a || !b || (bodies[i].multibody && bodies[i].multibody == bodies[j].multibody)) continue;
          a->setIgnoreCollisionCheck(b, true);
          b->setIgnoreCollisionCheck(a, true);
        }
    }
  }
  return built;
}

}  // namespace urdf
}  // namespace hydro
