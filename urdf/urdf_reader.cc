// URDF (ROS robot descriptions, http://wiki.ros.org/urdf/XML) with PyBullet's and Drake's
// extensions: capsules, <contact>, <deformable>, <drake:proximity_properties>, <drake_compliance>,
// and this project's hydro:motor in <joint>.

#include <filesystem>
#include <limits>

#include "urdf/contact_tags.h"
#include "urdf/deformable_tags.h"
#include "urdf/mesh_files.h"
#include "urdf/model_tree.h"
#include "urdf/motor_tags.h"
#include "urdf/readers_internal.h"

namespace hydro {
namespace urdf {
namespace internal {

using tinyxml2::XMLElement;

namespace {

// <origin xyz rpy/>; absent: identity.
RigidTransform ReadOrigin(const XmlContext& ctx, const XMLElement* parent) {
  const XMLElement* origin = parent->FirstChildElement("origin");
  if (!origin) return RigidTransform::Identity();
  Vector3 xyz = Vector3::Zero(), rpy = Vector3::Zero();
  if (const char* text = origin->Attribute("xyz"))
    if (auto v = ctx.Vector(origin, text, "origin xyz")) xyz = *v;
  if (const char* text = origin->Attribute("rpy"))
    if (auto v = ctx.Vector(origin, text, "origin rpy")) rpy = *v;
  return PoseFromXyzRpy(xyz, rpy);
}

bool ReadGeometry(const XmlContext& ctx, const XMLElement* parent, const ReadOptions& options, Geometry* geometry) {
  const XMLElement* shape = GeometryShape(ctx, parent);
  if (!shape) return false;
  const std::string type = shape->Name();
  auto positive = [&](const char* attribute, const std::string& what) {
    return ctx.Number(shape, shape->Attribute(attribute), what, Check::kPositive);
  };
  if (type == "box") {
    geometry->type = GeometryType::kBox;
    const auto size = ctx.PositiveVector(shape, shape->Attribute("size"), "box size", "edge");
    if (!size) return false;
    geometry->size = *size;
  } else if (type == "sphere") {
    geometry->type = GeometryType::kSphere;
    const auto radius = positive("radius", "sphere radius");
    if (!radius) return false;
    geometry->radius = *radius;
  } else if (type == "cylinder" || type == "capsule") {
    geometry->type = type == "cylinder" ? GeometryType::kCylinder : GeometryType::kCapsule;
    const auto radius = positive("radius", type + " radius");
    const auto length = positive("length", type + " length");
    if (!radius || !length) return false;
    geometry->radius = *radius;
    geometry->length = *length;
  } else if (type == "plane") {
    // PyBullet's <plane normal="…"/>: the half-space below a plane through the origin.
    geometry->type = GeometryType::kPlane;
    if (const char* text = shape->Attribute("normal")) {
      const auto n = ctx.UnitVector(shape, text, "plane normal");
      if (!n) return false;
      geometry->normal = *n;
    }
  } else if (type == "mesh") {
    geometry->type = GeometryType::kMesh;
    const char* filename = shape->Attribute("filename");
    if (!filename || !*filename) {
      ctx.Error(shape, "<mesh> needs a filename");
      return false;
    }
    geometry->mesh_uri = filename;
    return FinishMesh(ctx, shape, shape, shape->Attribute("scale"), shape, options, geometry);
  } else if (type == "cdf") {
    ctx.Error(shape, "PyBullet's <cdf> (a signed-distance-field shape) is not supported; use a <mesh>");
    return false;
  } else {
    ctx.Error(shape, "unknown geometry <" + type + "> (box, sphere, cylinder, capsule, plane or mesh)");
    return false;
  }
  return true;
}

void ReadInertial(const XmlContext& ctx, const XMLElement* element, Link* link) {
  link->has_inertial = true;
  link->inertial.X_LI = ReadOrigin(ctx, element);
  if (const XMLElement* mass = element->FirstChildElement("mass")) {
    if (auto m = ctx.Number(mass, mass->Attribute("value"), "link '" + link->name + "' mass", Check::kNonNegative))
      link->inertial.mass_kg = *m;
  } else {
    ctx.Error(element, "link '" + link->name + "': <inertial> needs a <mass>");
  }
  if (const XMLElement* inertia = element->FirstChildElement("inertia")) {
    const char* names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    double values[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 6; ++i) {
      const char* text = inertia->Attribute(names[i]);
      if (!text) continue;  // omitted products are zero
      if (auto v = ctx.Number(inertia, text, std::string("inertia ") + names[i])) values[i] = *v;
    }
    SetInertia(ctx, inertia, values, link);
  }
}

void ReadJoint(const XmlContext& ctx, const XMLElement* element, Model* model) {
  Joint joint;
  joint.where = ctx.Where(element);
  const char* name = ctx.RequiredName(element, "<joint>");
  if (!name) return;
  const char* type = element->Attribute("type");
  joint.name = name;
  const auto joint_type = ParseJointType(type);
  if (!joint_type) {
    ctx.Error(element, "joint '" + joint.name + "': unknown type '" + std::string(type ? type : "") +
                           "' (fixed, revolute, continuous, prismatic, floating, planar or spherical)");
    return;
  }
  joint.type = *joint_type;
  const XMLElement* parent = element->FirstChildElement("parent");
  const XMLElement* child = element->FirstChildElement("child");
  if (!parent || !parent->Attribute("link") || !child || !child->Attribute("link")) {
    ctx.Error(element, "joint '" + joint.name + "': needs <parent link=…/> and <child link=…/>");
    return;
  }
  joint.parent = parent->Attribute("link");
  joint.child = child->Attribute("link");
  joint.X_PJ = ReadOrigin(ctx, element);
  // A fixed joint has no axis to use: Bullet ignores it, even a zero one (nao.urdf).
  const XMLElement* axis = joint.type == JointType::kFixed ? nullptr : element->FirstChildElement("axis");
  if (axis) {
    if (auto xyz = ctx.Vector(axis, axis->Attribute("xyz"), "joint '" + joint.name + "' axis")) {
      if (!(xyz->norm() > 1e-12))
        ctx.Error(axis, "joint '" + joint.name + "': the axis is zero");
      else
        joint.axis_J = xyz->normalized();
    }
  }
  const XMLElement* limit = element->FirstChildElement("limit");
  if (limit) {
    auto read = [&](const char* attribute, double* value) {
      if (const char* text = limit->Attribute(attribute))
        if (auto v = ctx.Number(limit, text, "joint '" + joint.name + "' limit " + attribute)) *value = *v;
    };
    read("lower", &joint.lower);
    read("upper", &joint.upper);
    read("effort", &joint.effort);
    read("velocity", &joint.velocity);
    // Bullet's convention (its URDF importer and btMultiBody limits): lower > upper means no limit.
    if (joint.lower > joint.upper) {
      joint.lower = -std::numeric_limits<double>::infinity();
      joint.upper = std::numeric_limits<double>::infinity();
    }
  } else if (joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic) {
    ctx.Error(element, "joint '" + joint.name + "': a " + JointTypeName(joint.type) + " joint needs a <limit>");
  }
  if (joint.type == JointType::kContinuous) {
    joint.lower = -std::numeric_limits<double>::infinity();
    joint.upper = std::numeric_limits<double>::infinity();
  }
  if (const XMLElement* dynamics = element->FirstChildElement("dynamics")) {
    if (const char* text = dynamics->Attribute("damping"))
      if (auto v = ctx.Number(dynamics, text, "joint '" + joint.name + "' damping", Check::kNonNegative))
        joint.damping = *v;
    if (const char* text = dynamics->Attribute("friction"))
      if (auto v = ctx.Number(dynamics, text, "joint '" + joint.name + "' friction", Check::kNonNegative))
        joint.friction = *v;
  }
  ReadJointMotors(ctx, element, &joint);
  model->joints.push_back(joint);
}

void ReadLink(const XmlContext& ctx, const XMLElement* element, const ReadOptions& options, Model* model) {
  Link link;
  link.where = ctx.Where(element);
  const char* name = ctx.RequiredName(element, "<link>");
  if (!name) return;
  link.name = name;
  ContactProperties link_contact;  // PyBullet's <contact> applies to every collision of the link
  bool has_link_contact = false;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag == "inertial") {
      ReadInertial(ctx, child, &link);
    } else if (tag == "collision") {
      Collision collision;
      collision.where = ctx.Where(child);
      collision.name = child->Attribute("name") ? child->Attribute("name")
                                                : link.name + "_collision_" + std::to_string(link.collisions.size());
      collision.X_LG = ReadOrigin(ctx, child);
      if (!ReadGeometry(ctx, child, options, &collision.geometry)) continue;
      for (const XMLElement* tag_element = child->FirstChildElement(); tag_element;
           tag_element = tag_element->NextSiblingElement()) {
        const std::string child_tag = tag_element->Name();
        if (child_tag == "origin" || child_tag == "geometry") continue;
        if (!ReadCollisionContactTag(ctx, tag_element, &collision.contact))
          ctx.Warning(tag_element, "unknown tag <" + child_tag + "> in <collision> ignored");
      }
      link.collisions.push_back(collision);
    } else if (tag == "visual") {
      Visual visual;
      visual.name = child->Attribute("name") ? child->Attribute("name") : link.name + "_visual";
      visual.X_LG = ReadOrigin(ctx, child);
      if (ReadGeometry(ctx, child, options, &visual.geometry)) link.visuals.push_back(visual);
    } else if (tag == "contact") {
      ReadPyBulletContact(ctx, child, &link_contact);
      has_link_contact = true;
    } else if (tag == "hydro:initial_velocity") {
      link.initial_velocity = ReadInitialVelocity(ctx, child);
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <link> ignored");
    }
  }
  if (has_link_contact) {
    for (Collision& collision : link.collisions) {
      ContactProperties& c = collision.contact;
      c.lateral_friction = link_contact.lateral_friction;
      c.rolling_friction = link_contact.rolling_friction;
      c.spinning_friction = link_contact.spinning_friction;
      c.restitution = link_contact.restitution;
      c.contact_stiffness_N_per_m = link_contact.contact_stiffness_N_per_m;
      c.contact_damping_N_s_per_m = link_contact.contact_damping_N_s_per_m;
      c.friction_anchor = link_contact.friction_anchor;
    }
  }
  model->links.push_back(link);
}

}  // namespace

std::optional<Scene> ReadUrdfDocument(const XMLElement* robot, const XmlContext& ctx, const ReadOptions& options) {
  const int errors_before = ctx.diagnostics()->num_errors();
  Scene scene;
  scene.file = ctx.file();
  Model model;
  model.where = ctx.Where(robot);
  const char* name = robot->Attribute("name");
  if (name && *name) {
    model.name = name;
  } else {
    // PyBullet loads a nameless robot (humanoid.urdf); the file's name stands in.
    model.name = std::filesystem::path(ctx.file()).stem().string();
    if (model.name.empty()) model.name = "robot";
    ctx.Warning(robot, "<robot> has no name; calling it '" + model.name + "'");
  }
  bool has_other_body = false;
  for (const XMLElement* child = robot->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag == "link")
      ReadLink(ctx, child, options, &model);
    else if (tag == "joint")
      ReadJoint(ctx, child, &model);
    else if (tag == "deformable") {
      has_other_body = true;
      if (auto body = ReadUrdfDeformable(ctx, child, options)) scene.deformables.push_back(*body);
    } else if (tag == "reduced_deformable") {
      ctx.Error(child,
                "PyBullet's <reduced_deformable> (a reduced-order deformable body) is not supported; "
                "give the body as a <deformable> with a tet mesh");
      has_other_body = true;
    } else if (tag == "hydro:initial_velocity") {
      model.initial_velocity = ReadInitialVelocity(ctx, child);
    } else if (tag == "material" || tag == "transmission" || tag == "gazebo" || tag == "ros2_control") {
      continue;  // appearance and controller markup: not physics
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <robot> ignored");
    }
  }
  if (model.links.empty() && scene.deformables.empty() && !has_other_body)
    ctx.Error(robot, "robot '" + model.name + "' has no links");
  if (ctx.diagnostics()->num_errors() > errors_before) return std::nullopt;
  if (!model.links.empty()) {
    std::vector<int> order, parent_joint;
    if (!CheckJointTree(model, /*allow_world_parent=*/false, ctx.diagnostics(), &order, &parent_joint))
      return std::nullopt;
    // Link frames at the zero configuration: X_ML = X_MP·X_PJ.
    for (int l : order) {
      if (parent_joint[l] < 0) continue;
      const Joint& joint = model.joints[parent_joint[l]];
      model.links[l].X_ML = model.FindLink(joint.parent)->X_ML * joint.X_PJ;
    }
    // A root link named "world" (the ROS convention) welds the robot to the world.
    model.fixed_base = model.links[order[0]].name == "world";
    scene.models.push_back(model);
  }
  return scene;
}

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
