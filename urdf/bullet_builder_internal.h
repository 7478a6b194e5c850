#pragma once
// The builder's working state, shared by the files that build a scene's parts: its shapes
// (bullet_builder_shapes.cc), rigid bodies and joints (bullet_builder.cc) and multibodies
// (bullet_builder_multibody.cc); what it builds is a BuiltScene (built_scene.cc). Internal to
// hydro_urdf. A failure is reported to the diagnostics, whose error count is its one record.
#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hydro/mesh_builder.h"
#include "urdf/bullet_builder.h"

namespace hydro {
namespace urdf {
namespace internal {

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

// Everything the builder needs while it runs.
struct Builder {
  const Scene& scene;
  btMultiBodyDynamicsWorld* world;
  const BuildOptions& options;
  Diagnostics* diagnostics;
  BuiltScene* built;
  int errors_before;  // the diagnostics' error count when the build began

  void Error(const SourceLocation& where, const std::string& message) const {
    diagnostics->Error(where.file, where.line, message);
  }
  void Warning(const SourceLocation& where, const std::string& message) const {
    diagnostics->Warning(where.file, where.line, message);
  }
  // True once this build has reported an error.
  bool Failed() const { return diagnostics->num_errors() > errors_before; }

  // PyBullet's default for a link that must move but has no <inertial>: 1 kg, unit moments.
  void DefaultMass(const Model& model, const Link& link, double* mass, btVector3* moments) const;
  // The built scene owns the shape from now on.
  btCollisionShape* Keep(btCollisionShape* shape);
  // The Bullet shape of one collision geometry (in its own frame G), tagged from its properties.
  btCollisionShape* MakeShape(const Collision& collision, bool dynamic);
  btCollisionShape* MakeMeshShape(const Collision& collision, bool dynamic,
                                  std::shared_ptr<const VolumeMeshWithExtent>* volume);
  // The link's collision shape in the Bullet body frame B (X_LB), or null without collisions.
  btCollisionShape* LinkShape(const Link& link, const RigidTransform& X_LB, bool dynamic);
  // Mass, principal moments and the principal inertia frame B in the link (X_LB).
  void Inertia(const Link& link, bool sdf_defaults, double* mass, btVector3* moments, RigidTransform* X_LB) const;
  // Bullet's friction, restitution and contact stiffness from the link's first collision.
  void SetContactProperties(const Link& link, btCollisionObject* object) const;
  std::optional<InitialVelocity> VelocityOf(const Model& model, const Link& link, const std::string& name) const;
  RigidTransform ModelPose(const Model& model) const;  // --set pose, or the file's
  void AddRigidBody(const Model& model, const Link& link, bool is_static, bool sdf_defaults);
  void AddModel(const Model& model, bool sdf);
  void AddMultibody(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint, bool sdf);
  void AddConstrainedBodies(const Model& model, const std::vector<int>& order, const std::vector<int>& parent_joint,
                            bool sdf);
};

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
