#include "urdf/bullet_builder.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <BulletDynamics/ConstraintSolver/btFixedConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>
#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointLimitConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <Eigen/Eigenvalues>

#include <BulletWorldImporter/btMultiBodyWorldImporter.h>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_registry.h"
#include "hydro/make_meshes.h"
#include "urdf/mesh_files.h"
#include "urdf/model_tree.h"

namespace hydro {
namespace urdf {

using bullet::ToBullet;
using bullet::ToEigen;

namespace {

// PyBullet's URDF importer (convertURDFToCollisionShape in Bullet's
// examples/Importers/ImportURDFDemo/BulletUrdfImporter.cpp, which its SDF loader uses too) sets the
// collision margin gUrdfDefaultCollisionMargin = 0.001 m on every shape it makes of a <box>,
// <sphere>, <cylinder>, <capsule>, <plane> and of a mesh on a moving link (its hull), and on a
// link's compound; a static mesh keeps Bullet's 0. This builder does the same (ellipsoids, which
// it makes hulls of, included). Bullet's default is 0.04 m (for a box or a cylinder, a tenth of
// its smallest half extent if less), and what a margin does depends on the shape:
// - a hull collides as its points' hull grown outwards by it: a 0.2 m mesh crate rested at 0.14 m
//   on a plane with 0.04 m, at 0.101 m with 0.001 m, as in PyBullet;
// - a box and a cylinder keep their size, but where Bullet collides them by GJK (against a mesh, a
//   hull, a capsule, a cylinder; not a plane or another box) their edges and corners are rounded
//   by it: with 0.04 m a 1 m box on a mesh stood 16.6 mm low on an edge and 29.3 mm low on a
//   corner, with 0.001 m 0.41 and 0.73 mm;
// - a sphere's and a capsule's margin is their radius, whatever is set; a plane's is not used.
// A hull tagged for patch contact gets no margin at all: its patch is of the points' hull, and
// Bullet's own contact, which stands in where shapes overlap with no patch between them, then
// meets the same surface. (The plugin discounts the margins when it judges that overlap, so a
// hull with a margin works too, as one read from a .bullet file does; before it did, a tagged
// hull within its margin of the ground hung there on Bullet's points, 4 cm or 1 mm up, and never
// got its patch.)
constexpr btScalar kCollisionMargin = 0.001;

// A convex hull shape of `points` (in the shape's frame), with PyBullet's margin.
btConvexHullShape* MakeHullShape(const std::vector<Vector3>& points) {
  auto* hull = new btConvexHullShape();
  for (const Vector3& p : points) hull->addPoint(ToBullet(p), false);
  hull->setMargin(kCollisionMargin);
  hull->recalcLocalAabb();
  return hull;
}

}  // namespace

namespace internal {

// Everything the builder needs while it runs.
struct Builder {
  const Scene& scene;
  btMultiBodyDynamicsWorld* world;
  const BuildOptions& options;
  Diagnostics* diagnostics;
  BuiltScene* built;

  void Error(const SourceLocation& where, const std::string& message) const {
    diagnostics->Error(where.file, where.line, message);
  }
  void Warning(const SourceLocation& where, const std::string& message) const {
    diagnostics->Warning(where.file, where.line, message);
  }

  // PyBullet's default for a link that must move but has no <inertial>: 1 kg, unit moments.
  void DefaultMass(const Model& model, const Link& link, double* mass, btVector3* moments) const {
    Warning(link.where, "link '" + model.name + "::" + link.name +
                            "' moves but has no <inertial>; using 1 kg and unit moments of inertia, as PyBullet does");
    *mass = 1;
    *moments = btVector3(1, 1, 1);
  }

  btCollisionShape* Keep(btCollisionShape* shape) {
    built->shapes_.emplace_back(shape);
    return shape;
  }

  // The Bullet shape of one collision geometry (in its own frame G), tagged from its properties.
  btCollisionShape* MakeShape(const Collision& collision, bool dynamic) {
    const Geometry& g = collision.geometry;
    const ContactProperties& c = collision.contact;
    btCollisionShape* shape = nullptr;
    std::shared_ptr<const VolumeMeshWithExtent> volume;
    try {
      switch (g.type) {
        case GeometryType::kBox:
          shape = Keep(new btBoxShape(ToBullet(0.5 * g.size)));
          break;
        case GeometryType::kSphere:
          shape = Keep(new btSphereShape(g.radius));
          break;
        case GeometryType::kCylinder:
          shape = Keep(new btCylinderShapeZ(btVector3(g.radius, g.radius, 0.5 * g.length)));
          break;
        case GeometryType::kCapsule:
          shape = Keep(new btCapsuleShapeZ(g.radius, g.length));
          break;
        case GeometryType::kEllipsoid: {
          // A hull through a fine ellipsoid surface: Bullet has no ellipsoid, and the plugin's
          // convex-hull field is exact for it.
          const TriangleSurfaceMesh surface = MakeEllipsoidSurfaceMesh(g.size, g.size.minCoeff() / 6);
          shape = Keep(MakeHullShape(surface.vertices()));
          break;
        }
        case GeometryType::kPlane:
          if (dynamic) {
            Error(collision.where, "collision '" + collision.name + "': a plane can only belong to a static link");
            return nullptr;
          }
          shape = Keep(new btStaticPlaneShape(ToBullet(g.normal), 0));
          break;
        case GeometryType::kMesh:
          shape = MakeMeshShape(collision, dynamic, &volume);
          break;
      }
    } catch (const InvalidInput& e) {
      Error(collision.where, "collision '" + collision.name + "': " + e.what());
      return nullptr;
    }
    if (!shape) return nullptr;
    // PyBullet's margin (see kCollisionMargin); hulls got it in MakeHullShape, a static mesh keeps 0.
    if (g.type != GeometryType::kMesh && g.type != GeometryType::kEllipsoid) shape->setMargin(kCollisionMargin);
    if (!options.patch_contact) return shape;
    if (c.compliance != Compliance::kNone) {
      if (shape->getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE) {  // no margin: see kCollisionMargin
        auto* hull = static_cast<btConvexHullShape*>(shape);
        hull->setMargin(0);
        hull->recalcLocalAabb();
      }
      btHydroelasticProperties properties = HydroelasticProperties(c);
      properties.m_volumeMesh = volume;
      hydro::bullet::ShapeRegistry::Instance().SetHydroelastic(shape, properties);
      built->tagged_.push_back(shape);
    } else if (c.has_drake_compliance) {
      btPointContactMaterial material;
      material.m_youngsModulus = c.youngs_modulus_Pa;
      material.m_dissipation = c.dissipation_s_per_m;
      hydro::bullet::ShapeRegistry::Instance().SetPointMaterial(shape, material);
      built->tagged_.push_back(shape);
    }
    return shape;
  }

  btCollisionShape* MakeMeshShape(const Collision& collision, bool dynamic,
                                  std::shared_ptr<const VolumeMeshWithExtent>* volume) {
    const Geometry& g = collision.geometry;
    std::vector<Vector3> vertices;
    std::vector<std::array<int, 3>> triangles;
    if (IsVtkFile(g.mesh_path)) {
      auto mesh = std::make_shared<VolumeMeshWithExtent>(ReadVtkVolumeMesh(g.mesh_path));
      // Scale the tet mesh itself so the compliant volume matches the collision shape.
      std::vector<Vector3> scaled;
      for (const Vector3& p : mesh->mesh->vertices()) scaled.push_back(p.cwiseProduct(g.scale));
      mesh->mesh = std::make_shared<VolumeMesh>(scaled, mesh->mesh->tets());
      const TriangleSurfaceMesh boundary = ExtractBoundarySurface(*mesh->mesh);
      vertices = boundary.vertices();
      triangles = boundary.triangles();
      *volume = mesh;
      if (dynamic && !g.declare_convex) {
        Error(collision.where, "collision '" + collision.name +
                                   "': a tet mesh on a moving link must be declared convex (drake:declare_convex); "
                                   "non-convex compliant meshes are supported on static links");
        return nullptr;
      }
    } else {
      const SurfaceMeshData mesh = ReadSurfaceMesh(g.mesh_path);
      for (const Vector3& p : mesh.vertices) vertices.push_back(p.cwiseProduct(g.scale));
      triangles = mesh.triangles;
      // On a moving link Bullet collides with the mesh's convex hull (as PyBullet does), so the
      // hull is the compliant volume too; a static surface mesh has no volume to press.
      if (collision.contact.compliance == Compliance::kCompliant && !g.declare_convex && !dynamic) {
        Error(collision.where, "collision '" + collision.name + "': a compliant surface mesh (" + g.mesh_uri +
                                   ") on a static link has no volume; declare it convex (drake:declare_convex) or "
                                   "give a .vtk tet mesh");
        return nullptr;
      }
    }
    if (dynamic || g.declare_convex) {
      // Bullet moves only convex shapes; the plugin's hull field is exact for them.
      return Keep(MakeHullShape(vertices));
    }
    auto* interface = new btTriangleMesh();
    built->meshes_.emplace_back(interface);
    for (const auto& t : triangles)
      interface->addTriangle(ToBullet(vertices[t[0]]), ToBullet(vertices[t[1]]), ToBullet(vertices[t[2]]));
    return Keep(new btBvhTriangleMeshShape(interface, true));
  }

  // The link's collision shape in the Bullet body frame B (X_LB), or null without collisions.
  btCollisionShape* LinkShape(const Link& link, const RigidTransform& X_LB, bool dynamic, bool* ok) {
    if (link.collisions.empty()) return nullptr;
    std::vector<std::pair<btCollisionShape*, RigidTransform>> children;
    for (const Collision& collision : link.collisions) {
      btCollisionShape* shape = MakeShape(collision, dynamic);
      if (!shape) {
        *ok = false;
        continue;
      }
      children.emplace_back(shape, X_LB.inverse() * collision.X_LG);
    }
    if (!*ok) return nullptr;
    if (children.size() == 1 && children[0].second.isApprox(RigidTransform::Identity(), 1e-14))
      return children[0].first;
    auto* compound = new btCompoundShape();
    compound->setMargin(kCollisionMargin);  // PyBullet's: see kCollisionMargin
    for (const auto& [shape, X_BG] : children) compound->addChildShape(ToBullet(X_BG), shape);
    return Keep(compound);
  }

  // Mass, principal moments and the principal inertia frame B in the link (X_LB).
  void Inertia(const Link& link, bool sdf_defaults, double* mass, btVector3* moments, RigidTransform* X_LB) const {
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

  void SetContactProperties(const Link& link, btCollisionObject* object) const {
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

  std::optional<InitialVelocity> VelocityOf(const Model& model, const Link& link, const std::string& name) const {
    if (auto it = options.velocities.find(name); it != options.velocities.end()) return it->second;
    if (auto it = options.velocities.find(model.name); it != options.velocities.end()) return it->second;
    if (link.initial_velocity) return link.initial_velocity;
    return model.initial_velocity;
  }

  RigidTransform ModelPose(const Model& model) const {
    if (auto it = options.poses.find(model.name); it != options.poses.end()) return it->second;
    return model.X_WM;
  }

  void AddRigidBody(const Model& model, const Link& link, bool is_static, bool sdf_defaults, bool* ok) {
    double mass;
    btVector3 moments;
    RigidTransform X_LB;
    Inertia(link, sdf_defaults, &mass, &moments, &X_LB);
    if (!is_static && !link.has_inertial && !(mass > 0)) DefaultMass(model, link, &mass, &moments);
    // PyBullet's rule: a link of mass 0 is static (plane.urdf, table.urdf).
    if (!(mass > 0)) is_static = true;
    if (is_static) mass = 0, moments.setZero();
    btCollisionShape* shape = LinkShape(link, X_LB, !is_static, ok);
    if (!*ok) return;
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

  void AddModel(const Model& model, bool sdf, bool* ok);
  void AddMultibody(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint, bool sdf,
                    bool* ok);
  void AddConstrainedBodies(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint,
                            bool sdf, bool* ok);
};

void Builder::AddModel(const Model& model, bool sdf, bool* ok) {
  std::vector<int> order, parent_joint;
  if (!CheckJointTree(model, /*allow_world_parent=*/sdf, diagnostics, &order, &parent_joint)) {
    *ok = false;
    return;
  }
  if (model.is_static) {
    for (const Link& link : model.links) AddRigidBody(model, link, /*is_static=*/true, sdf, ok);
    return;
  }
  if (model.joints.empty()) {
    for (const Link& link : model.links) AddRigidBody(model, link, /*is_static=*/false, sdf, ok);
    return;
  }
  if (!options.multibody) {
    AddConstrainedBodies(model, order, parent_joint, sdf, ok);
    return;
  }
  // A floating joint leaves its child free: in a multibody the model splits there into trees,
  // each built on its own (the child's subtree gets a floating base).
  bool any_floating = false;
  for (const Joint& joint : model.joints) any_floating |= joint.type == JointType::kFloating;
  if (!any_floating) {
    AddMultibody(model, order, parent_joint, sdf, ok);
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
  for (int t = 0; t < num_trees && *ok; ++t) {
    Model part = model;
    part.links.clear();
    part.joints.clear();
    for (size_t l = 0; l < model.links.size(); ++l)
      if (tree[l] == t) part.links.push_back(model.links[l]);
    for (const Joint& joint : model.joints)
      if (joint.type != JointType::kFloating && part.FindLink(joint.child)) part.joints.push_back(joint);
    // Only the tree that holds the original root keeps a weld to the world.
    part.fixed_base = model.fixed_base && tree[order[0]] == t;
    AddModel(part, sdf, ok);
  }
}

void Builder::AddConstrainedBodies(const Model& model, const std::vector<int>& order,
                                   const std::vector<int>& parent_joint, bool sdf, bool* ok) {
  // Links: URDF's "world" root is the world itself.
  std::map<std::string, btRigidBody*> bodies;
  for (int l : order) {
    const Link& link = model.links[l];
    if (!sdf && link.name == "world" && parent_joint[l] < 0) continue;
    const size_t bodies_before = built->bodies_.size();
    AddRigidBody(model, link, false, sdf, ok);
    if (!*ok) return;
    // A static link with nothing to collide adds no body: its joints hold their children to the world.
    if (built->bodies_.size() > bodies_before) bodies[link.name] = built->bodies_.back().rigid_body;
  }
  for (int l : order) {
    if (parent_joint[l] < 0) continue;
    const Joint& joint = model.joints[parent_joint[l]];
    if (joint.motor) {
      Error(joint.motor->where, "joint '" + joint.name + "': hydro:motor drives multibody joints only (not --rigid)");
      *ok = false;
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

void Builder::AddMultibody(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint,
                           bool sdf, bool* ok) {
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
    *ok = false;
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
      *ok = false;
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
      *ok = false;
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
    btCollisionShape* shape = LinkShape(link, X_LB_link, true, ok);
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

BuiltScene::~BuiltScene() {
  if (!world_) return;
  for (auto& c : multibody_constraints_) world_->removeMultiBodyConstraint(c.get());
  for (auto& c : constraints_) world_->removeConstraint(c.get());
  for (auto& c : colliders_) world_->removeCollisionObject(c.get());
  for (auto& m : multibodies_) world_->removeMultiBody(m.get());
  for (auto& b : rigid_bodies_) world_->removeRigidBody(b.get());
  for (const btCollisionShape* shape : tagged_) hydroRemoveShape(shape);
  if (importer_) importer_->deleteAllData();  // removes what it added from the world, then frees it
}

RigidTransform BuiltScene::LinkPose(const BuiltBody& body) const {
  btTransform X_WB;
  if (body.rigid_body)
    X_WB = body.rigid_body->getWorldTransform();
  else if (body.collider)
    X_WB = body.collider->getWorldTransform();
  else if (body.link_index == -1)
    X_WB = body.multibody->getBaseWorldTransform();
  else {
    const btMultiBody* mb = body.multibody;
    X_WB.setOrigin(mb->localPosToWorld(body.link_index, btVector3(0, 0, 0)));
    X_WB.setBasis(mb->localFrameToWorld(body.link_index, btMatrix3x3::getIdentity()));
  }
  return bullet::ToRigidTransform(X_WB) * body.X_LB.inverse();
}

void BuiltScene::LinkVelocity(const BuiltBody& body, Vector3* v_W, Vector3* w_W) const {
  const Vector3 p_WL = LinkPose(body).translation();
  Vector3 p_WB, v_WB, w;
  if (body.rigid_body) {
    p_WB = ToEigen(body.rigid_body->getCenterOfMassPosition());
    v_WB = ToEigen(body.rigid_body->getLinearVelocity());
    w = ToEigen(body.rigid_body->getAngularVelocity());
  } else {
    // Featherstone velocities of every link's inertia frame, in that frame (index 0: the base).
    const btMultiBody* mb = body.multibody;
    std::vector<btVector3> omega(mb->getNumLinks() + 1), vel(mb->getNumLinks() + 1);
    mb->compTreeLinkVelocities(omega.data(), vel.data());
    const btMatrix3x3 R_WB = mb->localFrameToWorld(body.link_index, btMatrix3x3::getIdentity());
    p_WB = ToEigen(mb->localPosToWorld(body.link_index, btVector3(0, 0, 0)));
    v_WB = ToEigen(R_WB * vel[body.link_index + 1]);
    w = ToEigen(R_WB * omega[body.link_index + 1]);
  }
  *w_W = w;
  *v_W = v_WB + w.cross(p_WL - p_WB);
}

const BuiltBody* BuiltScene::Find(const std::string& name) const {
  for (const BuiltBody& body : bodies_)
    if (body.name == name) return &body;
  return nullptr;
}

const BuiltBody* BuiltScene::FindByCollider(const btCollisionObject* object) const {
  for (const BuiltBody& body : bodies_)
    if (body.collider == object) return &body;
  return nullptr;
}

void BuiltScene::ApplyJointDamping() const {
  for (const Damping& d : dampings_)
    for (int k = 0; k < d.dofs; ++k)
      d.multibody->addJointTorqueMultiDof(d.link, k, -d.damping * d.multibody->getJointVelMultiDof(d.link)[k]);
}

void BuiltScene::ApplyJointMotors(double t_s, double dt_s) const {
  for (const Motor& m : motors_) {
    m.motor->setMaxAppliedImpulse(m.spec.max_force * dt_s);
    m.motor->setPositionTarget(m.spec.PositionAt(t_s), m.spec.kp);
    m.motor->setVelocityTarget(m.spec.VelocityAt(t_s), m.spec.kd);
  }
}

std::unique_ptr<BuiltScene> BuildScene(const Scene& scene, btMultiBodyDynamicsWorld* world, const BuildOptions& options,
                                       Diagnostics* diagnostics) {
  auto built = std::unique_ptr<BuiltScene>(new BuiltScene);
  built->world_ = world;
  world->setGravity(ToBullet(scene.gravity_W));
  internal::Builder builder{scene, world, options, diagnostics, built.get()};
  bool ok = true;
  for (const Model& model : scene.models) {
    const size_t first_body = built->bodies_.size();
    builder.AddModel(model, model.sdf_rules, &ok);
    if (!ok) return nullptr;  // the destructor takes out what was added
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
