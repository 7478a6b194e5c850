// A model's joint tree as one Featherstone multibody (PyBullet's default): its base, links, joint
// limits, motors and colliders.
#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointLimitConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <map>

#include "adapters/bullet_conversions.h"
#include "urdf/bullet_builder_internal.h"

namespace hydro {
namespace urdf {

using bullet::ToBullet;

namespace internal {

void Builder::AddMultibody(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint,
                           bool sdf) {
  const RigidTransform X_WM = ModelPose(model);
  // The base: the root link, welded when it is URDF's "world" or jointed to SDF's "world" (then a
  // massless world frame is the base and every link hangs from it).
  const int root = order[0];
  // SDF joints name "world" when no link has that name (URDF's "world" is a link, the root).
  bool world_joint = false;
  if (!model.FindLink("world"))
    for (const Joint& joint : model.joints) world_joint |= joint.parent == "world";
  int num_roots = 0;
  for (int l : order)
    num_roots += parent_joint[l] < 0 || (world_joint && model.joints[parent_joint[l]].parent == "world");
  if (num_roots > 1 && !world_joint) {
    Error(model.where, "model '" + model.name + "': more than one root link; joint them or use separate models");
    return;
  }
  const bool base_is_world = world_joint;
  // Base inertia and frame.
  double base_mass = 0;
  btVector3 base_moments(0, 0, 0);
  RigidTransform X_LBbase = RigidTransform::Identity();
  RigidTransform X_WBase = X_WM;
  if (!base_is_world) {
    const Link& base = model.links[root];
    Inertia(base, sdf, &base_mass, &base_moments, &X_LBbase);
    X_WBase = X_WM * base.X_ML * X_LBbase;
    if (!model.fixed_base && !base.has_inertial && !(base_mass > 0))
      DefaultMass(model, base, &base_mass, &base_moments);
  }
  // PyBullet's rule: a base of mass 0 is fixed (kuka_iiwa/model.urdf, cartpole.urdf).
  const bool fixed = base_is_world || model.fixed_base || !(base_mass > 0);
  std::vector<int> links;  // model link index of each multibody link
  for (int l : order)
    if (base_is_world || l != root) links.push_back(l);
  for (int l : links) {
    const Joint& joint = model.joints[parent_joint[l]];
    if (joint.type == JointType::kFloating) {
      Error(joint.where, "joint '" + joint.name +
                             "': a floating joint inside a multibody is not supported; use rigid bodies (--rigid) "
                             "or make the child a separate model");
      return;
    }
  }
  auto multibody = std::make_unique<btMultiBody>(static_cast<int>(links.size()), base_mass, base_moments, fixed,
                                                 /*canSleep=*/true);
  multibody->setBaseWorldTransform(ToBullet(X_WBase));
  multibody->setHasSelfCollision(model.self_collide);
  // btMultiBody damps every body by default (0.04); files carry their own joint damping instead,
  // and a free body must keep its momentum as a rigid body does.
  multibody->setLinearDamping(0);
  multibody->setAngularDamping(0);
  std::map<std::string, int> index;  // link name → multibody link index (-1 base)
  // Each link's Bullet body frame B (its centre of mass and principal axes) in W, by link name.
  std::map<std::string, RigidTransform> X_WB_by_link;
  if (!base_is_world) {
    index[model.links[root].name] = -1;
    X_WB_by_link[model.links[root].name] = X_WBase;
  } else {
    index["world"] = -1;
    X_WB_by_link["world"] = X_WBase;
  }
  // The mass carried beyond each link. A massless link may move on its joint when links beyond it
  // carry mass (humanoid.urdf makes a shoulder of three revolute joints through massless links):
  // Featherstone's articulated inertia on the joint is then that of the links beyond, as in PyBullet.
  std::map<std::string, double> mass_beyond;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Link& link = model.links[*it];
    mass_beyond[link.name] += link.has_inertial ? link.inertial.mass_kg : (sdf ? 1.0 : 0.0);
    if (parent_joint[*it] >= 0) mass_beyond[model.joints[parent_joint[*it]].parent] += mass_beyond[link.name];
  }
  std::vector<RigidTransform> X_LB(links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    const Link& link = model.links[links[i]];
    const Joint& joint = model.joints[parent_joint[links[i]]];
    double mass;
    btVector3 moments;
    Inertia(link, sdf, &mass, &moments, &X_LB[i]);
    if (!(mass > 0) && !link.has_inertial && joint.type != JointType::kFixed) DefaultMass(model, link, &mass, &moments);
    // A welded link may be massless, and a moving one when mass lies beyond it.
    if (!(mass > 0) && joint.type != JointType::kFixed && !(mass_beyond[link.name] > 0)) {
      Error(link.where, "link '" + model.name + "::" + link.name + "' moves on joint '" + joint.name +
                            "' but has no mass; give it an <inertial>");
      return;
    }
    // B: this link's Bullet body frame; Bp: its parent's; P: the parent link's own frame.
    const RigidTransform X_WB = X_WM * link.X_ML * X_LB[i];
    const RigidTransform& X_WBp = X_WB_by_link.at(joint.parent);
    const RigidTransform X_WP = joint.parent == "world" ? X_WM : X_WM * model.FindLink(joint.parent)->X_ML;
    const RigidTransform X_WJ = X_WP * joint.X_PJ;
    // Bullet's setup: rotation parent→this (maps parent-frame vectors into this frame), pivot
    // offsets, and the axis in this frame.
    const Matrix3 R_BBp = X_WB.linear().transpose() * X_WBp.linear();
    const btQuaternion rot_parent_to_this = ToBullet(RigidTransform(R_BBp)).getRotation();
    const btVector3 parent_com_to_pivot =
        ToBullet(X_WBp.linear().transpose() * (X_WJ.translation() - X_WBp.translation()));
    const btVector3 pivot_to_com = ToBullet(X_WB.linear().transpose() * (X_WB.translation() - X_WJ.translation()));
    const btVector3 axis = ToBullet(X_WB.linear().transpose() * X_WJ.linear() * joint.axis_J);
    const int parent = index.at(joint.parent);
    const int me = static_cast<int>(i);
    switch (joint.type) {
      case JointType::kFixed:
        multibody->setupFixed(me, mass, moments, parent, rot_parent_to_this, parent_com_to_pivot, pivot_to_com, true);
        break;
      case JointType::kRevolute:
      case JointType::kContinuous:
        multibody->setupRevolute(me, mass, moments, parent, rot_parent_to_this, axis, parent_com_to_pivot, pivot_to_com,
                                 true);
        break;
      case JointType::kPrismatic:
        multibody->setupPrismatic(me, mass, moments, parent, rot_parent_to_this, axis, parent_com_to_pivot,
                                  pivot_to_com, true);
        break;
      case JointType::kPlanar:
        multibody->setupPlanar(me, mass, moments, parent, rot_parent_to_this, axis,
                               ToBullet(X_WBp.linear().transpose() * (X_WB.translation() - X_WBp.translation())), true);
        break;
      case JointType::kSpherical:
        multibody->setupSpherical(me, mass, moments, parent, rot_parent_to_this, parent_com_to_pivot, pivot_to_com,
                                  true);
        break;
      case JointType::kFloating:
        break;
    }
    index[link.name] = me;
    X_WB_by_link[link.name] = X_WB;
  }
  multibody->finalizeMultiDof();
  world->addMultiBody(multibody.get());
  // Limits and damping.
  std::vector<bool> constrained(links.size(), false);  // the link's joint has a limit or a motor
  for (size_t i = 0; i < links.size(); ++i) {
    const Joint& joint = model.joints[parent_joint[links[i]]];
    if ((joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic) && std::isfinite(joint.lower) &&
        std::isfinite(joint.upper)) {
      auto* limit = new btMultiBodyJointLimitConstraint(multibody.get(), static_cast<int>(i), joint.lower, joint.upper);
      world->addMultiBodyConstraint(limit);
      built->multibody_constraints_.emplace_back(limit);
      constrained[i] = true;
    }
    if (joint.damping > 0)
      built->dampings_.push_back(
          {multibody.get(), static_cast<int>(i), joint.damping, multibody->getLink(i).m_dofCount});
    if (joint.motor) {
      // The impulse bound and targets are set before each step (ApplyJointMotors).
      auto* motor = new btMultiBodyJointMotor(multibody.get(), static_cast<int>(i), 0, 0, 0);
      world->addMultiBodyConstraint(motor);
      built->multibody_constraints_.emplace_back(motor);
      built->motors_.push_back({motor, *joint.motor});
      constrained[i] = true;
      multibody->setCanSleep(false);  // a driven multibody must not fall asleep between keyframes
    }
  }
  // Colliders.
  auto add_collider = [&](const Link& link, int link_index, const RigidTransform& X_LB_link) {
    const std::string name = model.name + "::" + link.name;
    btCollisionShape* shape = LinkShape(link, X_LB_link, true);
    BuiltBody body;
    body.name = name;
    body.model = model.name;
    body.multibody = multibody.get();
    body.link_index = link_index;
    body.X_LB = X_LB_link;
    if (shape) {
      auto collider = std::make_unique<btMultiBodyLinkCollider>(multibody.get(), link_index);
      collider->setCollisionShape(shape);
      collider->setWorldTransform(ToBullet(X_WB_by_link.at(link.name)));
      SetContactProperties(link, collider.get());
      const bool is_fixed_base = link_index == -1 && fixed;
      world->addCollisionObject(
          collider.get(), is_fixed_base ? int(btBroadphaseProxy::StaticFilter) : int(btBroadphaseProxy::DefaultFilter),
          is_fixed_base ? int(btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter)
                        : int(btBroadphaseProxy::AllFilter));
      if (link_index == -1)
        multibody->setBaseCollider(collider.get());
      else
        multibody->getLink(link_index).m_collider = collider.get();
      body.collider = collider.get();
      built->colliders_.push_back(std::move(collider));
    }
    built->bodies_.push_back(body);
  };
  if (!base_is_world) add_collider(model.links[root], -1, X_LBbase);
  for (size_t i = 0; i < links.size(); ++i) add_collider(model.links[links[i]], static_cast<int>(i), X_LB[i]);
  // Bullet 3.24 solves a multibody constraint (joint limit, motor) only within the simulation
  // island of its link's collider, or failing that its parent's
  // (btMultiBodyJointLimitConstraint/btMultiBodyJointMotor::getIslandIdA/B): with neither, its
  // island is -1, which btSimulationIslandManager::processIslands never hands to the solver, and
  // the limit or motor would be silently ignored. Such a link gets a collider that takes part in
  // islands (btMultiBodyDynamicsWorld::calculateSimulationIslands joins it to the multibody's other
  // colliders) but in no contact: an empty shape in collision filter group 0 with mask 0, which the
  // broadphase pairs with nothing, and no contact response besides. It is not the link's
  // BuiltBody::collider, which stays null: the link still has no collision geometry.
  for (size_t i = 0; i < links.size(); ++i) {
    const int parent = multibody->getParent(static_cast<int>(i));
    const btMultiBodyLinkCollider* parent_collider =
        parent < 0 ? multibody->getBaseCollider() : multibody->getLink(parent).m_collider;
    if (!constrained[i] || multibody->getLink(static_cast<int>(i)).m_collider || parent_collider) continue;
    if (!built->no_contact_shape_) built->no_contact_shape_ = Keep(new btEmptyShape());
    auto collider = std::make_unique<btMultiBodyLinkCollider>(multibody.get(), static_cast<int>(i));
    collider->setCollisionShape(built->no_contact_shape_);
    collider->setWorldTransform(ToBullet(X_WB_by_link.at(model.links[links[i]].name)));
    collider->setCollisionFlags(collider->getCollisionFlags() | btCollisionObject::CF_NO_CONTACT_RESPONSE);
    world->addCollisionObject(collider.get(), /*collisionFilterGroup=*/0, /*collisionFilterMask=*/0);
    multibody->getLink(static_cast<int>(i)).m_collider = collider.get();
    built->colliders_.push_back(std::move(collider));
  }
  if (!fixed) {
    if (auto v = VelocityOf(model, model.links[root], model.name + "::" + model.links[root].name)) {
      multibody->setBaseVel(
          ToBullet(v->v_W + v->w_W.cross(X_WBase.translation() - (X_WM * model.links[root].X_ML).translation())));
      multibody->setBaseOmega(ToBullet(v->w_W));
    }
  }
  built->multibodies_.push_back(std::move(multibody));
}

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
