// A model's joint tree as one Featherstone multibody (PyBullet's default): its base, links, joint
// limits, motors and colliders.
#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointLimitConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <map>

#include "adapters/bullet_conversions.h"
#include "hydro/check.h"
#include "urdf/bullet_builder_internal.h"

namespace hydro {
namespace urdf {

using bullet::ToBullet;

namespace internal {

// One model's multibody while it is built, step by step; each step reports what stops it through
// the builder and returns false.
class MultibodyBuild {
 public:
  MultibodyBuild(Builder* builder, const Model& model, const std::vector<int>& order,
                 const std::vector<int>& parent_joint, bool sdf)
      : b_(*builder),
        model_(model),
        order_(order),
        parent_joint_(parent_joint),
        sdf_(sdf),
        X_WM_(builder->ModelPose(model)),
        root_(order[0]) {}

  // The base: the root link, welded when it is URDF's "world" or jointed to SDF's "world" (then a
  // massless world frame is the base and every link hangs from it); the links in parent-first order.
  bool PlanBaseAndLinks() {
    // SDF joints name "world" when no link has that name (URDF's "world" is a link, the root).
    bool world_joint = false;
    if (!model_.FindLink("world"))
      for (const Joint& joint : model_.joints) world_joint |= joint.parent == "world";
    int num_roots = 0;
    for (int l : order_)
      num_roots += parent_joint_[l] < 0 || (world_joint && model_.joints[parent_joint_[l]].parent == "world");
    // (CheckJointTree lets SDF models have several roots; a multibody has one base.)
    if (num_roots > 1 && !world_joint) {
      b_.Error(model_.where, "model '" + model_.name + "': more than one root link; joint them or use separate models");
      return false;
    }
    base_is_world_ = world_joint;
    X_WBase_ = X_WM_;
    if (!base_is_world_) {
      const Link& base = model_.links[root_];
      b_.Inertia(base, sdf_, &base_mass_, &base_moments_, &X_LBbase_);
      X_WBase_ = X_WM_ * base.X_ML * X_LBbase_;
      if (!model_.fixed_base && !base.has_inertial && !(base_mass_ > 0))
        b_.DefaultMass(model_, base, &base_mass_, &base_moments_);
    }
    // PyBullet's rule: a base of mass 0 is fixed (kuka_iiwa/model.urdf, cartpole.urdf).
    fixed_ = base_is_world_ || model_.fixed_base || !(base_mass_ > 0);
    for (int l : order_)
      if (base_is_world_ || l != root_) links_.push_back(l);
    // AddModel split the model at its floating joints.
    for (int l : links_)
      HYDRO_DEMAND(model_.joints[parent_joint_[l]].type != JointType::kFloating,
                   "joint '" + model_.joints[parent_joint_[l]].name + "' is floating inside a multibody");
    return true;
  }

  // The btMultiBody with each link's mass, inertia and joint, added to the world.
  bool SetUpLinks() {
    multibody_ = std::make_unique<btMultiBody>(static_cast<int>(links_.size()), base_mass_, base_moments_, fixed_,
                                               /*canSleep=*/true);
    multibody_->setBaseWorldTransform(ToBullet(X_WBase_));
    multibody_->setHasSelfCollision(model_.self_collide);
    // btMultiBody damps every body by default (0.04); files carry their own joint damping instead,
    // and a free body must keep its momentum as a rigid body does.
    multibody_->setLinearDamping(0);
    multibody_->setAngularDamping(0);
    const std::string base_name = base_is_world_ ? "world" : model_.links[root_].name;
    index_[base_name] = -1;
    X_WB_by_link_[base_name] = X_WBase_;
    // The mass carried beyond each link. A massless link may move on its joint when links beyond it
    // carry mass (humanoid.urdf makes a shoulder of three revolute joints through massless links):
    // Featherstone's articulated inertia on the joint is then that of the links beyond, as in PyBullet.
    std::map<std::string, double> mass_beyond;
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const Link& link = model_.links[*it];
      mass_beyond[link.name] += link.has_inertial ? link.inertial.mass_kg : (sdf_ ? 1.0 : 0.0);
      if (parent_joint_[*it] >= 0) mass_beyond[model_.joints[parent_joint_[*it]].parent] += mass_beyond[link.name];
    }
    X_LB_.resize(links_.size());
    for (size_t i = 0; i < links_.size(); ++i) {
      const Link& link = model_.links[links_[i]];
      const Joint& joint = model_.joints[parent_joint_[links_[i]]];
      double mass;
      btVector3 moments;
      b_.Inertia(link, sdf_, &mass, &moments, &X_LB_[i]);
      if (!(mass > 0) && !link.has_inertial && joint.type != JointType::kFixed)
        b_.DefaultMass(model_, link, &mass, &moments);
      // A welded link may be massless, and a moving one when mass lies beyond it.
      if (!(mass > 0) && joint.type != JointType::kFixed && !(mass_beyond[link.name] > 0)) {
        b_.Error(link.where, "link '" + model_.name + "::" + link.name + "' moves on joint '" + joint.name +
                                 "' but has no mass; give it an <inertial>");
        return false;
      }
      SetUpJoint(static_cast<int>(i), link, joint, mass, moments);
    }
    multibody_->finalizeMultiDof();
    b_.world->addMultiBody(multibody_.get());
    return true;
  }

  // Joint limits, damping and motors.
  void AddLimitsAndMotors() {
    constrained_.assign(links_.size(), false);
    for (size_t i = 0; i < links_.size(); ++i) {
      const Joint& joint = model_.joints[parent_joint_[links_[i]]];
      const int link_index = static_cast<int>(i);
      if ((joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic) && std::isfinite(joint.lower) &&
          std::isfinite(joint.upper)) {
        auto* limit = new btMultiBodyJointLimitConstraint(multibody_.get(), link_index, joint.lower, joint.upper);
        b_.world->addMultiBodyConstraint(limit);
        b_.built->multibody_constraints_.emplace_back(limit);
        constrained_[i] = true;
      }
      if (joint.damping > 0)
        b_.built->dampings_.push_back({multibody_.get(), link_index, joint.damping, multibody_->getLink(i).m_dofCount});
      if (joint.motor) {
        // The impulse bound and targets are set before each step (ApplyJointMotors).
        auto* motor = new btMultiBodyJointMotor(multibody_.get(), link_index, 0, 0, 0);
        b_.world->addMultiBodyConstraint(motor);
        b_.built->multibody_constraints_.emplace_back(motor);
        b_.built->motors_.push_back({motor, *joint.motor});
        constrained_[i] = true;
        multibody_->setCanSleep(false);  // a driven multibody must not fall asleep between keyframes
      }
    }
  }

  // Each link's collider, and one that takes part in islands only for a limited or driven link
  // with no collider near it.
  void AddColliders() {
    if (!base_is_world_) AddCollider(model_.links[root_], -1, X_LBbase_);
    for (size_t i = 0; i < links_.size(); ++i) AddCollider(model_.links[links_[i]], static_cast<int>(i), X_LB_[i]);
    // Bullet 3.24 solves a multibody constraint (joint limit, motor) only within the simulation
    // island of its link's collider, or failing that its parent's
    // (btMultiBodyJointLimitConstraint/btMultiBodyJointMotor::getIslandIdA/B): with neither, its
    // island is -1, which btSimulationIslandManager::processIslands never hands to the solver, and
    // the limit or motor would be silently ignored. Such a link gets a collider that takes part in
    // islands (btMultiBodyDynamicsWorld::calculateSimulationIslands joins it to the multibody's other
    // colliders) but in no contact: an empty shape in collision filter group 0 with mask 0, which the
    // broadphase pairs with nothing, and no contact response besides. It is not the link's
    // BuiltBody::collider, which stays null: the link still has no collision geometry.
    for (size_t i = 0; i < links_.size(); ++i) {
      const int parent = multibody_->getParent(static_cast<int>(i));
      const btMultiBodyLinkCollider* parent_collider =
          parent < 0 ? multibody_->getBaseCollider() : multibody_->getLink(parent).m_collider;
      if (!constrained_[i] || multibody_->getLink(static_cast<int>(i)).m_collider || parent_collider) continue;
      if (!b_.built->no_contact_shape_) b_.built->no_contact_shape_ = b_.Keep(new btEmptyShape());
      auto collider = std::make_unique<btMultiBodyLinkCollider>(multibody_.get(), static_cast<int>(i));
      collider->setCollisionShape(b_.built->no_contact_shape_);
      collider->setWorldTransform(ToBullet(X_WB_by_link_.at(model_.links[links_[i]].name)));
      collider->setCollisionFlags(collider->getCollisionFlags() | btCollisionObject::CF_NO_CONTACT_RESPONSE);
      b_.world->addCollisionObject(collider.get(), /*collisionFilterGroup=*/0, /*collisionFilterMask=*/0);
      multibody_->getLink(static_cast<int>(i)).m_collider = collider.get();
      b_.built->colliders_.push_back(std::move(collider));
    }
  }

  // The base's initial velocity, and the multibody handed to the built scene.
  void Finish() {
    if (!fixed_) {
      const Link& root = model_.links[root_];
      if (auto v = b_.VelocityOf(model_, root, model_.name + "::" + root.name)) {
        multibody_->setBaseVel(
            ToBullet(v->v_W + v->w_W.cross(X_WBase_.translation() - (X_WM_ * root.X_ML).translation())));
        multibody_->setBaseOmega(ToBullet(v->w_W));
      }
    }
    b_.built->multibodies_.push_back(std::move(multibody_));
  }

 private:
  // Link `me`'s joint to its parent, in Bullet's terms.
  void SetUpJoint(int me, const Link& link, const Joint& joint, double mass, const btVector3& moments) {
    // B: this link's Bullet body frame; Bp: its parent's; P: the parent link's own frame.
    const RigidTransform X_WB = X_WM_ * link.X_ML * X_LB_[me];
    const RigidTransform& X_WBp = X_WB_by_link_.at(joint.parent);
    const RigidTransform X_WP = joint.parent == "world" ? X_WM_ : X_WM_ * model_.FindLink(joint.parent)->X_ML;
    const RigidTransform X_WJ = X_WP * joint.X_PJ;
    // Bullet's setup: rotation parent→this (maps parent-frame vectors into this frame), pivot
    // offsets, and the axis in this frame.
    const Matrix3 R_BBp = X_WB.linear().transpose() * X_WBp.linear();
    const btQuaternion rot_parent_to_this = ToBullet(RigidTransform(R_BBp)).getRotation();
    const btVector3 parent_com_to_pivot =
        ToBullet(X_WBp.linear().transpose() * (X_WJ.translation() - X_WBp.translation()));
    const btVector3 pivot_to_com = ToBullet(X_WB.linear().transpose() * (X_WB.translation() - X_WJ.translation()));
    const btVector3 axis = ToBullet(X_WB.linear().transpose() * X_WJ.linear() * joint.axis_J);
    const int parent = index_.at(joint.parent);
    switch (joint.type) {
      case JointType::kFixed:
        multibody_->setupFixed(me, mass, moments, parent, rot_parent_to_this, parent_com_to_pivot, pivot_to_com, true);
        break;
      case JointType::kRevolute:
      case JointType::kContinuous:
        multibody_->setupRevolute(me, mass, moments, parent, rot_parent_to_this, axis, parent_com_to_pivot,
                                  pivot_to_com, true);
        break;
      case JointType::kPrismatic:
        multibody_->setupPrismatic(me, mass, moments, parent, rot_parent_to_this, axis, parent_com_to_pivot,
                                   pivot_to_com, true);
        break;
      case JointType::kPlanar:
        multibody_->setupPlanar(me, mass, moments, parent, rot_parent_to_this, axis,
                                ToBullet(X_WBp.linear().transpose() * (X_WB.translation() - X_WBp.translation())),
                                true);
        break;
      case JointType::kSpherical:
        multibody_->setupSpherical(me, mass, moments, parent, rot_parent_to_this, parent_com_to_pivot, pivot_to_com,
                                   true);
        break;
      case JointType::kFloating:
        break;
    }
    index_[link.name] = me;
    X_WB_by_link_[link.name] = X_WB;
  }

  void AddCollider(const Link& link, int link_index, const RigidTransform& X_LB_link) {
    const std::string name = model_.name + "::" + link.name;
    btCollisionShape* shape = b_.LinkShape(link, X_LB_link, true);
    BuiltBody body;
    body.name = name;
    body.model = model_.name;
    body.multibody = multibody_.get();
    body.link_index = link_index;
    body.X_LB = X_LB_link;
    if (shape) {
      auto collider = std::make_unique<btMultiBodyLinkCollider>(multibody_.get(), link_index);
      collider->setCollisionShape(shape);
      collider->setWorldTransform(ToBullet(X_WB_by_link_.at(link.name)));
      b_.SetContactProperties(link, collider.get());
      const bool is_fixed_base = link_index == -1 && fixed_;
      b_.world->addCollisionObject(
          collider.get(), is_fixed_base ? int(btBroadphaseProxy::StaticFilter) : int(btBroadphaseProxy::DefaultFilter),
          is_fixed_base ? int(btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter)
                        : int(btBroadphaseProxy::AllFilter));
      if (link_index == -1)
        multibody_->setBaseCollider(collider.get());
      else
        multibody_->getLink(link_index).m_collider = collider.get();
      body.collider = collider.get();
      b_.built->colliders_.push_back(std::move(collider));
    }
    b_.built->bodies_.push_back(body);
  }

  Builder& b_;
  const Model& model_;
  const std::vector<int>& order_;
  const std::vector<int>& parent_joint_;
  const bool sdf_;
  const RigidTransform X_WM_;
  const int root_;  // model link index of the root
  bool base_is_world_{false}, fixed_{false};
  double base_mass_{0};
  btVector3 base_moments_{0, 0, 0};
  RigidTransform X_LBbase_{RigidTransform::Identity()}, X_WBase_{RigidTransform::Identity()};
  std::vector<int> links_;            // model link index of each multibody link
  std::vector<RigidTransform> X_LB_;  // each link's Bullet body frame B (centre of mass, principal axes) in it
  std::map<std::string, int> index_;  // link name → multibody link index (-1 base)
  std::map<std::string, RigidTransform> X_WB_by_link_;  // each link's B in W, by link name
  std::vector<bool> constrained_;                       // the link's joint has a limit or a motor
  std::unique_ptr<btMultiBody> multibody_;
};

void Builder::AddMultibody(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint,
                           bool sdf) {
  MultibodyBuild build(this, model, order, parent_joint, sdf);
  if (!build.PlanBaseAndLinks() || !build.SetUpLinks()) return;
  build.AddLimitsAndMotors();
  build.AddColliders();
  build.Finish();
}

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
