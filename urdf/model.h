#pragma once
// What a URDF or SDF file describes, independent of Bullet: models of links and joints with
// their collision geometry, compliance and inertia, plus deformable bodies and world settings.
// The parsers fill it; the builder (bullet_builder.h) turns it into Bullet objects. Poses are
// rigid transforms in SI units, named in monogram notation (X_ML: link L in model M).
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "hydro/contact_material.h"
#include "hydro/math.h"

namespace hydro {
namespace urdf {

// Where something was written, for messages.
struct SourceLocation {
  std::string file;
  int line{0};
  std::string ToString() const { return file + ":" + std::to_string(line); }
};

enum class GeometryType { kBox, kSphere, kCylinder, kCapsule, kEllipsoid, kPlane, kMesh };
const char* GeometryTypeName(GeometryType type);

struct Geometry {
  GeometryType type{GeometryType::kBox};
  Vector3 size{Vector3::Zero()};     // box: full edge lengths; ellipsoid: the three radii
  double radius{0};                  // sphere, cylinder, capsule
  double length{0};                  // cylinder, capsule: along the local z axis (capsule: between cap centres)
  Vector3 normal{Vector3::UnitZ()};  // plane
  std::string mesh_uri;              // as written
  std::string mesh_path;             // resolved file
  Vector3 scale{Vector3::Ones()};    // mesh
  bool declare_convex{false};        // drake:declare_convex under <mesh>
};

enum class Compliance { kNone, kCompliant, kRigid };
// (A compliant shape that names no E gets hydro::kDefaultHydroelasticModulus, hydro/contact_material.h.)
// Slab of a compliant plane that names none (m).
constexpr double kDefaultSlabThickness = 0.1;
const char* ComplianceName(Compliance compliance);  // "none", "compliant", "rigid"

// Every contact property a file can carry for one collision geometry, from all tag families.
// Unset optionals were not written.
struct ContactProperties {
  // Drake's <drake:proximity_properties>.
  Compliance compliance{Compliance::kNone};
  std::optional<double> hydroelastic_modulus_Pa;
  std::optional<double> mesh_resolution_hint_m;
  std::optional<double> hydroelastic_margin_m;
  std::optional<double> hunt_crossley_dissipation_s_per_m;
  std::optional<double> relaxation_time_s;
  std::optional<double> point_contact_stiffness_N_per_m;
  std::optional<double> mu_static;
  std::optional<double> mu_dynamic;
  // The older <drake_compliance> block (003), after its defaulting rules.
  bool has_drake_compliance{false};
  double youngs_modulus_Pa{0};
  double dissipation_s_per_m{0};
  double static_friction{0};
  double dynamic_friction{0};
  // PyBullet's <contact> (per link in URDF; applied to the link's collisions).
  std::optional<double> lateral_friction;
  std::optional<double> rolling_friction;
  std::optional<double> spinning_friction;
  std::optional<double> restitution;
  std::optional<double> contact_stiffness_N_per_m;
  std::optional<double> contact_damping_N_s_per_m;
  bool friction_anchor{false};
  // hydro: tags.
  std::optional<double> slab_thickness_m;  // a compliant plane's slab
};

struct Collision {
  std::string name;
  RigidTransform X_LG{RigidTransform::Identity()};  // geometry G in its link L
  Geometry geometry;
  ContactProperties contact;
  SourceLocation where;
};

struct Visual {
  std::string name;
  RigidTransform X_LG{RigidTransform::Identity()};
  Geometry geometry;
};

struct Inertial {
  double mass_kg{0};
  RigidTransform X_LI{RigidTransform::Identity()};  // inertia frame I (origin at the centre of mass)
  Matrix3 I_I{Matrix3::Zero()};                     // rotational inertia about Io, in I
};

// A spatial velocity given by hydro:initial_velocity (or --set NAME.velocity): v then ω, world.
struct InitialVelocity {
  Vector3 v_W{Vector3::Zero()};
  Vector3 w_W{Vector3::Zero()};
};

struct Link {
  std::string name;
  RigidTransform X_ML{RigidTransform::Identity()};  // link in its model at the initial configuration
  Inertial inertial;
  bool has_inertial{false};
  std::vector<Collision> collisions;
  std::vector<Visual> visuals;
  std::optional<InitialVelocity> initial_velocity;
  SourceLocation where;
};

// kSpherical: PyBullet's URDF "spherical" and SDF's "ball", three rotations about the joint origin.
enum class JointType { kFixed, kRevolute, kContinuous, kPrismatic, kFloating, kPlanar, kSpherical };
const char* JointTypeName(JointType type);

// One keyframe of a joint motor: the joint position q (m or rad) at time t (s).
struct JointMotorKeyframe {
  double time_s{0};
  double position{0};
};

// hydro:motor in a <joint>: Bullet's btMultiBodyJointMotor driven through position keyframes,
// linearly interpolated in time and held before the first and after the last. Each step from t the
// motor aims at the joint velocity kp·(q(t) − q)/δt + q̇ + kd·(q̇(t) − q̇), q̇(t) the keyframes'
// slope, with at most max_force·δt of impulse (Bullet's setPositionTarget, setVelocityTarget).
struct JointMotor {
  double max_force{0};                        // N (prismatic) or N·m (revolute), > 0
  double kp{1};                               // Bullet's position gain (dimensionless), ≥ 0
  double kd{1};                               // Bullet's velocity gain (dimensionless), ≥ 0
  std::vector<JointMotorKeyframe> keyframes;  // at least one, times strictly increasing
  SourceLocation where;

  double PositionAt(double t_s) const;  // the interpolated target q(t)
  double VelocityAt(double t_s) const;  // its slope on the segment that starts at or before t (0 outside)
};

struct Joint {
  std::string name;
  JointType type{JointType::kFixed};
  std::string parent, child;
  RigidTransform X_PJ{RigidTransform::Identity()};  // joint frame J in the parent link P
  Vector3 axis_J{Vector3::UnitX()};                 // unit, in J
  double lower{-std::numeric_limits<double>::infinity()};
  double upper{std::numeric_limits<double>::infinity()};
  double effort{std::numeric_limits<double>::infinity()};
  double velocity{std::numeric_limits<double>::infinity()};
  double damping{0};
  double friction{0};
  std::optional<JointMotor> motor;  // hydro:motor (revolute, continuous or prismatic joints)
  SourceLocation where;
};

struct Model {
  std::string name;
  bool is_static{false};   // SDF <static>: welded to the world
  bool fixed_base{false};  // URDF: root link welded (a "world" link or option)
  bool sdf_rules{false};   // read from SDFormat: joints may name "world", links default to 1 kg
  RigidTransform X_WM{RigidTransform::Identity()};
  std::vector<Link> links;
  std::vector<Joint> joints;
  std::optional<InitialVelocity> initial_velocity;  // every link of the model
  // Whether the model's links collide with each other. SDF <self_collide> (default false);
  // URDF: false, as PyBullet loads without URDF_USE_SELF_COLLISION. Bullet's data has robots
  // whose link meshes overlap at rest (racecar_differential.urdf: 580 N between chassis and diff).
  bool self_collide{false};
  SourceLocation where;

  const Link* FindLink(const std::string& link_name) const;
};

// PyBullet's <deformable> (URDF) or Drake's <drake:deformable_properties> (SDF), validated; the
// FEM module turns them into bodies.
struct Deformable {
  std::string name;
  std::string mesh_path;  // a legacy VTK tet mesh
  RigidTransform X_WD{RigidTransform::Identity()};
  double youngs_modulus_Pa{0};
  double poisson_ratio{0};
  double mass_density_kg_per_m3{0};
  double mass_damping{0};       // Rayleigh α (1/s)
  double stiffness_damping{0};  // Rayleigh β (s)
  // Coulomb μ against everything it touches (combined with the other side's), from the mesh
  // collision's friction tags (SDF) or PyBullet's <friction>; unset: btDeformableBodies' default.
  std::optional<double> friction;
  // hydro:triangle_fan_contact: a contact point per triangle of each polygon's centroid fan, for
  // coarse meshes whose flat faces would otherwise rest on a line of points and tip.
  bool triangle_fan_contact{false};
  int num_vertices{0};
  int num_tets{0};
  SourceLocation where;
};

struct Scene {
  std::string file;
  Vector3 gravity_W{0, 0, -9.81};
  double step_size_s{1e-3};
  // hydro:stiction_speed in SDF <physics>: ε of the deformables' regularized friction (m/s);
  // joints held by friction creep at about this speed. Unset: btDeformableBodies' default.
  std::optional<double> stiction_speed_m_per_s;
  bool has_world{false};  // an SDF <world> (else a single model or robot)
  bool is_sdf{false};     // SDFormat rules (joints may name "world", links default to 1 kg)
  std::vector<Model> models;
  std::vector<Deformable> deformables;
};

}  // namespace urdf
}  // namespace hydro
