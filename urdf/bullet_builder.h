#pragma once
// Turns a Scene (model.h) into Bullet objects in a btMultiBodyDynamicsWorld: a model of one
// link becomes a btRigidBody; a jointed model a btMultiBody (fixed base when welded to the world,
// floating otherwise) or, on request, rigid bodies with constraints. Collision shapes are tagged
// for patch contact from the file's compliance tags; friction, restitution and PyBullet contact
// stiffness go on the collision objects as Bullet uses them; hydro:motor joints get a
// btMultiBodyJointMotor (multibodies only).
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "urdf/diagnostics.h"
#include "urdf/model.h"

class btMultiBody;
class btCollisionShape;
class btTypedConstraint;
class btMultiBodyConstraint;
class btMultiBodyJointMotor;
class btStridingMeshInterface;
class btMultiBodyWorldImporter;
struct btHydroelasticProperties;

namespace hydro {
namespace urdf {
namespace internal {
struct Builder;
class MultibodyBuild;
}  // namespace internal

struct BuildOptions {
  bool multibody{true};      // jointed models as btMultiBody (else rigid bodies + constraints)
  bool patch_contact{true};  // tag shapes for the plugin (false: stock Bullet, tags ignored)
  // Initial pose and spatial velocity overrides by body name ("model::link", or "model" for its
  // root link), applied to free bodies.
  std::map<std::string, RigidTransform> poses;
  std::map<std::string, InitialVelocity> velocities;
};

// One link in the built world.
struct BuiltBody {
  std::string name;  // "model::link"
  std::string model;
  btCollisionObject* collider{nullptr};  // may be null for a link without collision geometry
  btRigidBody* rigid_body{nullptr};      // rigid-body links
  btMultiBody* multibody{nullptr};       // multibody links: link index (-1 base)
  int link_index{-1};
  RigidTransform X_LB{RigidTransform::Identity()};  // the Bullet body frame (inertia frame) in the link
  bool is_static{false};
};

class BuiltScene {
 public:
  ~BuiltScene();
  const std::vector<BuiltBody>& bodies() const { return bodies_; }
  // Pose of the link frame and spatial velocity of its origin, in world.
  RigidTransform LinkPose(const BuiltBody& body) const;
  void LinkVelocity(const BuiltBody& body, Vector3* v_W, Vector3* w_W) const;
  // The body named `name`, or null.
  const BuiltBody* Find(const std::string& name) const;
  // The body whose collider is `object`, or null.
  const BuiltBody* FindByCollider(const btCollisionObject* object) const;
  // Applies viscous joint damping (−d·q̇) to every multibody joint; call before each step.
  void ApplyJointDamping() const;
  // Sets every hydro:motor's targets for the step from t to t + dt — the keyframes' position at t
  // (gain kp) and slope (gain kd) — and its impulse bound max_force·dt; call before each step.
  void ApplyJointMotors(double t_s, double dt_s) const;

 private:
  friend std::unique_ptr<BuiltScene> BuildScene(const Scene&, btMultiBodyDynamicsWorld*, const BuildOptions&,
                                                Diagnostics*);
  friend struct internal::Builder;
  friend class internal::MultibodyBuild;
  friend std::unique_ptr<BuiltScene> LoadBulletWorldFile(const std::string&, btMultiBodyDynamicsWorld*,
                                                         const std::vector<struct ComplianceRule>&, bool, Diagnostics*);
  btMultiBodyDynamicsWorld* world_{nullptr};
  std::vector<BuiltBody> bodies_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btStridingMeshInterface>> meshes_;
  std::vector<const btCollisionShape*> tagged_;
  // The shape of the contact-free colliders that put constrained multibody links without
  // collision geometry in a simulation island (one shared btEmptyShape, owned by shapes_).
  btCollisionShape* no_contact_shape_{nullptr};
  std::vector<std::unique_ptr<btRigidBody>> rigid_bodies_;
  std::vector<std::unique_ptr<btMultiBody>> multibodies_;
  std::vector<std::unique_ptr<btCollisionObject>> colliders_;
  std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
  std::vector<std::unique_ptr<btMultiBodyConstraint>> multibody_constraints_;
  struct Damping {
    btMultiBody* multibody;
    int link;
    double damping;
    int dofs;
  };
  std::vector<Damping> dampings_;
  struct Motor {
    btMultiBodyJointMotor* motor;  // owned by multibody_constraints_
    JointMotor spec;
  };
  std::vector<Motor> motors_;
  // A .bullet file's objects (bullet_world_file.h): the importer owns them.
  std::unique_ptr<btMultiBodyWorldImporter> importer_;
};

// The hydroelastic properties a collision's tags give its shape (not its volume mesh).
btHydroelasticProperties HydroelasticProperties(const ContactProperties& contact);

// Builds everything or nothing: problems (unsupported combinations, meshes that fail to load)
// go to `diagnostics` with the file and line of what caused them, and the result is null.
std::unique_ptr<BuiltScene> BuildScene(const Scene& scene, btMultiBodyDynamicsWorld* world, const BuildOptions& options,
                                       Diagnostics* diagnostics);

}  // namespace urdf
}  // namespace hydro
