// SDFormat 1.6–1.9 (http://sdformat.org/spec): worlds, models (static, nested one level,
// <include>), links, frames and poses with relative_to, joints, and the contact and deformable
// tags of Drake and this project.
#include <filesystem>
#include <functional>
#include <map>
#include <set>

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

constexpr int kMaxIncludeDepth = 8;

const char* Text(const XMLElement* element) { return element ? element->GetText() : nullptr; }

// <pose relative_to=… degrees=… rotation_format=…>x y z r p y</pose> (or x y z qx qy qz qw).
struct PoseSpec {
  RigidTransform X{RigidTransform::Identity()};
  std::string relative_to;  // empty: the element's default frame
};

PoseSpec ReadPose(const XmlContext& ctx, const XMLElement* parent) {
  PoseSpec pose;
  const XMLElement* element = parent->FirstChildElement("pose");
  if (!element) return pose;
  if (const char* frame = element->Attribute("relative_to")) pose.relative_to = frame;
  const char* text = element->GetText();
  if (!text) return pose;  // an empty pose is the identity
  const std::string format =
      element->Attribute("rotation_format") ? element->Attribute("rotation_format") : "euler_rpy";
  if (format == "quat_xyzw") {
    const auto v = ctx.Numbers(element, text, 7, "pose");
    if (!v) return pose;
    Eigen::Quaterniond q((*v)[6], (*v)[3], (*v)[4], (*v)[5]);
    if (!(q.norm() > 1e-12)) {
      ctx.Error(element, "pose: zero quaternion");
      return pose;
    }
    pose.X.linear() = q.normalized().toRotationMatrix();
    pose.X.translation() = Vector3((*v)[0], (*v)[1], (*v)[2]);
    return pose;
  }
  if (format != "euler_rpy") {
    ctx.Error(element, "pose: unknown rotation_format '" + format + "' (euler_rpy or quat_xyzw)");
    return pose;
  }
  const auto v = ctx.Numbers(element, text, 6, "pose");
  if (!v) return pose;
  Vector3 rpy((*v)[3], (*v)[4], (*v)[5]);
  if (element->BoolAttribute("degrees", false)) rpy *= M_PI / 180;
  pose.X = PoseFromXyzRpy(Vector3((*v)[0], (*v)[1], (*v)[2]), rpy);
  return pose;
}

std::optional<double> ChildNumber(const XmlContext& ctx, const XMLElement* parent, const char* name,
                                  const std::string& what, Check check, bool required) {
  const XMLElement* element = parent->FirstChildElement(name);
  if (!element) {
    if (required) ctx.Error(parent, what + ": missing <" + name + ">");
    return std::nullopt;
  }
  return ctx.Number(element, element->GetText(), what, check);
}

bool ReadGeometry(const XmlContext& ctx, const XMLElement* parent, const ReadOptions& options, Geometry* geometry) {
  const XMLElement* shape = GeometryShape(ctx, parent);
  if (!shape) return false;
  const std::string type = shape->Name();
  if (type == "box") {
    geometry->type = GeometryType::kBox;
    const XMLElement* size = shape->FirstChildElement("size");
    const auto v = size ? ctx.PositiveVector(size, size->GetText(), "box size", "edge") : std::nullopt;
    if (!size) ctx.Error(shape, "box: missing <size>");
    if (!v) return false;
    geometry->size = *v;
  } else if (type == "sphere") {
    geometry->type = GeometryType::kSphere;
    const auto r = ChildNumber(ctx, shape, "radius", "sphere radius", Check::kPositive, true);
    if (!r) return false;
    geometry->radius = *r;
  } else if (type == "cylinder" || type == "capsule") {
    geometry->type = type == "cylinder" ? GeometryType::kCylinder : GeometryType::kCapsule;
    const auto r = ChildNumber(ctx, shape, "radius", type + " radius", Check::kPositive, true);
    const auto l = ChildNumber(ctx, shape, "length", type + " length", Check::kPositive, true);
    if (!r || !l) return false;
    geometry->radius = *r;
    geometry->length = *l;
  } else if (type == "ellipsoid") {
    geometry->type = GeometryType::kEllipsoid;
    const XMLElement* radii = shape->FirstChildElement("radii");
    if (!radii) {
      ctx.Error(shape, "ellipsoid: missing <radii>");
      return false;
    }
    const auto v = ctx.PositiveVector(radii, radii->GetText(), "ellipsoid radii", "radius");
    if (!v) return false;
    geometry->size = *v;
  } else if (type == "plane") {
    geometry->type = GeometryType::kPlane;
    if (const XMLElement* normal = shape->FirstChildElement("normal")) {
      const auto n = ctx.UnitVector(normal, normal->GetText(), "plane normal");
      if (!n) return false;
      geometry->normal = *n;
    }
  } else if (type == "mesh") {
    geometry->type = GeometryType::kMesh;
    const XMLElement* uri = shape->FirstChildElement("uri");
    if (!uri || !uri->GetText()) {
      ctx.Error(shape, "<mesh> needs a <uri>");
      return false;
    }
    geometry->mesh_uri = uri->GetText();
    const XMLElement* scale = shape->FirstChildElement("scale");
    return FinishMesh(ctx, shape, scale, scale ? scale->GetText() : nullptr, uri, options, geometry);
  } else {
    ctx.Error(shape, "unknown geometry <" + type + "> (box, sphere, cylinder, capsule, ellipsoid, plane or mesh)");
    return false;
  }
  return true;
}

// A link's elements as read, before frames are resolved.
struct LinkSpec {
  const XMLElement* element;
  Link link;
  PoseSpec pose;
  std::vector<PoseSpec> collision_poses, visual_poses;
  const XMLElement* deformable_properties{nullptr};
};

struct JointSpec {
  const XMLElement* element;
  Joint joint;
  PoseSpec pose;
  Vector3 axis{Vector3::UnitZ()};
  std::string axis_expressed_in;  // empty: the joint frame
};

struct FrameSpec {
  const XMLElement* element;
  std::string attached_to;
  PoseSpec pose;
};

// Everything of one <model> element (nested models flattened into it with "inner::" names).
struct ModelSpec {
  Model model;
  PoseSpec pose;
  std::vector<LinkSpec> links;
  std::vector<JointSpec> joints;
  std::map<std::string, FrameSpec> frames;
  std::map<std::string, RigidTransform> resolved;  // X_MF of frames resolved so far
};

// X_MF for a frame of the model: "__model__", a link, a <frame>, or a joint (in its child link).
std::optional<RigidTransform> ResolveFrame(const XmlContext& ctx, ModelSpec* spec, const std::string& name,
                                           const XMLElement* where, std::set<std::string>* visiting) {
  if (name.empty() || name == "__model__") return RigidTransform::Identity();
  if (const auto found = spec->resolved.find(name); found != spec->resolved.end()) return found->second;
  if (!visiting->insert(name).second) {
    ctx.Error(where, "pose: the frames of '" + name + "' refer to each other in a cycle");
    return std::nullopt;
  }
  std::optional<RigidTransform> result;
  auto relative = [&](const PoseSpec& pose, const std::string& default_frame) -> std::optional<RigidTransform> {
    const auto base =
        ResolveFrame(ctx, spec, pose.relative_to.empty() ? default_frame : pose.relative_to, where, visiting);
    if (!base) return std::nullopt;
    return *base * pose.X;
  };
  for (const LinkSpec& link : spec->links)
    if (link.link.name == name) result = relative(link.pose, "__model__");
  if (!result) {
    if (const auto frame = spec->frames.find(name); frame != spec->frames.end()) {
      result = relative(frame->second.pose, frame->second.attached_to);
    } else {
      for (const JointSpec& joint : spec->joints)
        if (joint.joint.name == name) result = relative(joint.pose, joint.joint.child);
      if (!result) {
        bool known = false;
        for (const LinkSpec& link : spec->links) known |= link.link.name == name;
        for (const JointSpec& joint : spec->joints) known |= joint.joint.name == name;
        if (!known) ctx.Error(where, "pose: relative_to names an unknown frame '" + name + "'");
      }
    }
  }
  visiting->erase(name);
  if (result) spec->resolved[name] = *result;
  return result;
}

std::optional<RigidTransform> Resolve(const XmlContext& ctx, ModelSpec* spec, const std::string& name,
                                      const XMLElement* where) {
  std::set<std::string> visiting;
  return ResolveFrame(ctx, spec, name, where, &visiting);
}

void ReadInertial(const XmlContext& ctx, const XMLElement* element, Link* link) {
  link->has_inertial = true;
  link->inertial.X_LI = ReadPose(ctx, element).X;
  if (auto mass = ChildNumber(ctx, element, "mass", "link '" + link->name + "' mass", Check::kNonNegative, false))
    link->inertial.mass_kg = *mass;
  else if (!element->FirstChildElement("mass"))
    link->inertial.mass_kg = 1;  // SDFormat's default
  if (const XMLElement* inertia = element->FirstChildElement("inertia")) {
    const char* names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    double v[6] = {1, 0, 0, 1, 0, 1};  // SDFormat's defaults
    for (int i = 0; i < 6; ++i)
      if (auto value = ChildNumber(ctx, inertia, names[i], std::string("inertia ") + names[i], Check::kAny, false))
        v[i] = *value;
    SetInertia(ctx, inertia, v, link);
  } else {
    link->inertial.I_I = Matrix3::Identity();
  }
}

void ReadLink(const XmlContext& ctx, const XMLElement* element, const ReadOptions& options, const std::string& prefix,
              ModelSpec* spec) {
  LinkSpec spec_link;
  spec_link.element = element;
  Link& link = spec_link.link;
  link.where = ctx.Where(element);
  const char* name = ctx.RequiredName(element, "<link>");
  if (!name) return;
  link.name = prefix + name;
  spec_link.pose = ReadPose(ctx, element);
  if (!spec_link.pose.relative_to.empty() && !prefix.empty())
    spec_link.pose.relative_to = prefix + spec_link.pose.relative_to;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag == "pose") continue;
    if (tag == "inertial") {
      ReadInertial(ctx, child, &link);
    } else if (tag == "collision") {
      Collision collision;
      collision.where = ctx.Where(child);
      const char* collision_name = ctx.RequiredName(child, "<collision>");
      if (!collision_name) continue;
      collision.name = collision_name;
      const PoseSpec pose = ReadPose(ctx, child);
      if (!ReadGeometry(ctx, child, options, &collision.geometry)) continue;
      for (const XMLElement* t = child->FirstChildElement(); t; t = t->NextSiblingElement()) {
        const std::string child_tag = t->Name();
        if (child_tag == "pose" || child_tag == "geometry") continue;
        if (child_tag == "surface") {
          // SDF's own friction: <surface><friction><ode><mu>.
          if (const XMLElement* mu = t->FirstChildElement("friction"))
            if ((mu = mu->FirstChildElement("ode")) && (mu = mu->FirstChildElement("mu")))
              if (auto v = ctx.Number(mu, mu->GetText(), "surface friction mu", Check::kNonNegative))
                collision.contact.lateral_friction = *v;
          continue;
        }
        if (child_tag == "laser_retro" || child_tag == "max_contacts") continue;
        if (!ReadCollisionContactTag(ctx, t, &collision.contact))
          ctx.Warning(t, "unknown tag <" + child_tag + "> in <collision> ignored");
      }
      link.collisions.push_back(collision);
      spec_link.collision_poses.push_back(pose);
    } else if (tag == "visual") {
      Visual visual;
      visual.name = child->Attribute("name") ? child->Attribute("name") : link.name + "_visual";
      const PoseSpec pose = ReadPose(ctx, child);
      if (ReadGeometry(ctx, child, options, &visual.geometry)) {
        link.visuals.push_back(visual);
        spec_link.visual_poses.push_back(pose);
      }
    } else if (tag == "drake:deformable_properties") {
      spec_link.deformable_properties = child;
    } else if (tag == "hydro:initial_velocity") {
      link.initial_velocity = ReadInitialVelocity(ctx, child);
    } else if (tag == "gravity" || tag == "self_collide" || tag == "kinematic" || tag == "must_be_base_link" ||
               tag == "sensor" || tag == "light" || tag == "velocity_decay" || tag == "enable_wind" ||
               tag == "audio_sink" || tag == "audio_source" || tag == "battery" || tag == "projector" ||
               tag == "particle_emitter") {
      continue;  // SDFormat elements without a role here
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <link> ignored");
    }
  }
  spec->links.push_back(spec_link);
}

void ReadJoint(const XmlContext& ctx, const XMLElement* element, const std::string& prefix, ModelSpec* spec) {
  JointSpec js;
  js.element = element;
  Joint& joint = js.joint;
  joint.where = ctx.Where(element);
  const char* name = ctx.RequiredName(element, "<joint>");
  if (!name) return;
  joint.name = prefix + name;
  const char* type = element->Attribute("type");
  const auto joint_type = ParseJointType(type);
  if (!joint_type) {
    ctx.Error(element, "joint '" + joint.name + "': unsupported type '" + std::string(type ? type : "") +
                           "' (fixed, revolute, continuous, prismatic, floating, planar or ball)");
    return;
  }
  joint.type = *joint_type;
  const char* parent = Text(element->FirstChildElement("parent"));
  const char* child = Text(element->FirstChildElement("child"));
  if (!parent || !child) {
    ctx.Error(element, "joint '" + joint.name + "': needs <parent> and <child>");
    return;
  }
  auto scoped = [&](const std::string& link) { return link == "world" || prefix.empty() ? link : prefix + link; };
  joint.parent = scoped(parent);
  joint.child = scoped(child);
  js.pose = ReadPose(ctx, element);
  if (!js.pose.relative_to.empty() && !prefix.empty()) js.pose.relative_to = prefix + js.pose.relative_to;
  // A fixed or ball joint has no axis to use; Bullet ignores it, even a zero one.
  const bool uses_axis = joint.type != JointType::kFixed && joint.type != JointType::kSpherical;
  if (const XMLElement* axis = element->FirstChildElement("axis"); axis && uses_axis) {
    if (const XMLElement* xyz = axis->FirstChildElement("xyz")) {
      if (auto v = ctx.Vector(xyz, xyz->GetText(), "joint '" + joint.name + "' axis")) {
        if (!(v->norm() > 1e-12))
          ctx.Error(xyz, "joint '" + joint.name + "': the axis is zero");
        else
          js.axis = v->normalized();
      }
      if (const char* frame = xyz->Attribute("expressed_in")) js.axis_expressed_in = frame;
    }
    if (const XMLElement* use_parent = axis->FirstChildElement("use_parent_model_frame"))
      if (auto flag = ctx.Bool(use_parent, use_parent->GetText(), "use_parent_model_frame"); flag && *flag)
        js.axis_expressed_in = "__model__";
    if (const XMLElement* limit = axis->FirstChildElement("limit")) {
      auto read = [&](const char* tag, double* value) {
        if (auto v = ChildNumber(ctx, limit, tag, "joint '" + joint.name + "' limit " + tag, Check::kAny, false))
          *value = *v;
      };
      read("lower", &joint.lower);
      read("upper", &joint.upper);
      read("effort", &joint.effort);
      read("velocity", &joint.velocity);
      // SDFormat writes "no limit" as ±1e16 and negative effort/velocity.
      if (joint.effort < 0) joint.effort = std::numeric_limits<double>::infinity();
      if (joint.velocity < 0) joint.velocity = std::numeric_limits<double>::infinity();
      // Bullet's convention: lower > upper means no limit.
      if (joint.lower > joint.upper) {
        joint.lower = -std::numeric_limits<double>::infinity();
        joint.upper = std::numeric_limits<double>::infinity();
      }
    }
    if (const XMLElement* dynamics = axis->FirstChildElement("dynamics")) {
      if (auto v =
              ChildNumber(ctx, dynamics, "damping", "joint '" + joint.name + "' damping", Check::kNonNegative, false))
        joint.damping = *v;
      if (auto v =
              ChildNumber(ctx, dynamics, "friction", "joint '" + joint.name + "' friction", Check::kNonNegative, false))
        joint.friction = *v;
    }
  }
  if (joint.type == JointType::kContinuous) {
    joint.lower = -std::numeric_limits<double>::infinity();
    joint.upper = std::numeric_limits<double>::infinity();
  }
  ReadJointMotors(ctx, element, &joint);
  spec->joints.push_back(js);
}

std::optional<Scene> ReadInclude(const XmlContext& ctx, const XMLElement* include, const ReadOptions& options,
                                 int depth, std::string* included_name) {
  const char* uri = Text(include->FirstChildElement("uri"));
  if (!uri) {
    ctx.Error(include, "<include> needs a <uri>");
    return std::nullopt;
  }
  if (depth >= kMaxIncludeDepth) {
    ctx.Error(include, std::string("<include> of ") + uri + ": includes nested too deeply (a cycle?)");
    return std::nullopt;
  }
  std::string error, note;
  auto path = ResolveUri(uri, ctx.file(), options.search, &error, &note);
  if (!path) {
    ctx.Error(include, std::string("<include> ") + uri + ": " + error);
    return std::nullopt;
  }
  if (!note.empty()) ctx.Warning(include, note);
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(*path, ec)) {
    // A model directory: model.config names the SDF file, else model.sdf.
    std::string file = "model.sdf";
    tinyxml2::XMLDocument config;
    const fs::path config_path = fs::path(*path) / "model.config";
    if (fs::is_regular_file(config_path, ec) && LoadXml(config_path.string(), &config, ctx.diagnostics())) {
      if (const XMLElement* model = config.FirstChildElement("model"))
        if (const char* sdf = Text(model->FirstChildElement("sdf"))) file = sdf;
    }
    path = (fs::path(*path) / file).string();
  }
  tinyxml2::XMLDocument document;
  if (!LoadXml(*path, &document, ctx.diagnostics())) return std::nullopt;
  const XmlContext included(*path, ctx.diagnostics());
  std::optional<Scene> scene;
  if (const XMLElement* robot = document.FirstChildElement("robot")) {
    // A URDF robot placed in an SDF world, as sdformat and Gazebo allow.
    scene = ReadUrdfDocument(robot, included, options);
  } else if (const XMLElement* sdf = document.FirstChildElement("sdf")) {
    scene = ReadSdfDocument(sdf, included, options, depth + 1);
  } else {
    ctx.Error(include, std::string("<include> ") + uri + ": " + *path + " is neither SDFormat nor URDF");
    return std::nullopt;
  }
  if (!scene) return std::nullopt;
  if (scene->models.size() != 1) {
    ctx.Error(include, std::string("<include> ") + uri + ": expected one model in " + *path);
    return std::nullopt;
  }
  *included_name = scene->models[0].name;
  return scene;
}

std::optional<Model> ReadModel(const XmlContext& ctx, const XMLElement* element, const ReadOptions& options, int depth,
                               Scene* scene);

// Flattens a nested model (or an included one) into `spec`: links and joints named "inner::…",
// poses carried by the nested model's pose in the outer model.
void AddNested(const Model& inner, const RigidTransform& X_MI, ModelSpec* spec) {
  const std::string prefix = inner.name + "::";
  for (Link link : inner.links) {
    LinkSpec ls;
    ls.element = nullptr;
    ls.pose.X = X_MI * link.X_ML;
    link.name = prefix + link.name;
    ls.link = link;
    ls.collision_poses.resize(link.collisions.size());
    ls.visual_poses.resize(link.visuals.size());
    for (size_t c = 0; c < link.collisions.size(); ++c) ls.collision_poses[c].X = link.collisions[c].X_LG;
    for (size_t v = 0; v < link.visuals.size(); ++v) ls.visual_poses[v].X = link.visuals[v].X_LG;
    spec->links.push_back(ls);
  }
  for (Joint joint : inner.joints) {
    JointSpec js;
    js.element = nullptr;
    // Already resolved: the joint frame in the child, recovered from X_PJ and the link poses.
    const Link* parent = inner.FindLink(joint.parent);  // null for "world"
    const Link* child = inner.FindLink(joint.child);
    const RigidTransform X_IP = parent ? parent->X_ML : RigidTransform::Identity();
    js.pose.X = child->X_ML.inverse() * X_IP * joint.X_PJ;
    joint.name = prefix + joint.name;
    if (parent) joint.parent = prefix + joint.parent;
    joint.child = prefix + joint.child;
    js.pose.relative_to = joint.child;
    js.axis = joint.axis_J;
    js.joint = joint;
    spec->joints.push_back(js);
  }
}

std::optional<Model> ReadModel(const XmlContext& ctx, const XMLElement* element, const ReadOptions& options, int depth,
                               Scene* scene) {
  const int errors_before = ctx.diagnostics()->num_errors();
  ModelSpec spec;
  Model& model = spec.model;
  model.where = ctx.Where(element);
  const char* name = ctx.RequiredName(element, "<model>");
  if (!name) return std::nullopt;
  model.name = name;
  model.sdf_rules = true;
  spec.pose = ReadPose(ctx, element);
  if (const XMLElement* is_static = element->FirstChildElement("static"))
    if (auto flag = ctx.Bool(is_static, is_static->GetText(), "static")) model.is_static = *flag;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag == "link") {
      ReadLink(ctx, child, options, "", &spec);
    } else if (tag == "joint") {
      ReadJoint(ctx, child, "", &spec);
    } else if (tag == "frame") {
      const char* frame_name = ctx.RequiredName(child, "<frame>");
      if (!frame_name) continue;
      FrameSpec frame;
      frame.element = child;
      frame.attached_to = child->Attribute("attached_to") ? child->Attribute("attached_to") : "__model__";
      frame.pose = ReadPose(ctx, child);
      if (frame.pose.relative_to.empty()) frame.pose.relative_to = frame.attached_to;
      spec.frames[frame_name] = frame;
    } else if (tag == "model" || tag == "include") {
      if (depth > 0) {
        ctx.Error(child, "model '" + model.name + "': models nested more than one level deep are not supported");
        continue;
      }
      std::optional<Model> inner;
      RigidTransform X_MI = RigidTransform::Identity();
      if (tag == "model") {
        Scene ignored;
        inner = ReadModel(ctx, child, options, depth + 1, &ignored);
        if (inner) X_MI = inner->X_WM;  // read relative to this model
      } else {
        std::string included_name;
        auto included = ReadInclude(ctx, child, options, depth, &included_name);
        if (!included) continue;
        inner = included->models[0];
        if (const char* new_name = Text(child->FirstChildElement("name"))) inner->name = new_name;
        X_MI = child->FirstChildElement("pose") ? ReadPose(ctx, child).X : inner->X_WM;
      }
      if (inner) AddNested(*inner, X_MI, &spec);
    } else if (tag == "static" || tag == "pose") {
      continue;
    } else if (tag == "hydro:initial_velocity") {
      model.initial_velocity = ReadInitialVelocity(ctx, child);
    } else if (tag == "self_collide") {
      if (auto flag = ctx.Bool(child, child->GetText(), "self_collide")) model.self_collide = *flag;
    } else if (tag == "allow_auto_disable" || tag == "enable_wind" || tag == "plugin" || tag == "gripper") {
      continue;
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <model> ignored");
    }
  }
  if (ctx.diagnostics()->num_errors() > errors_before) return std::nullopt;
  {
    // The joint tree first: a joint naming a missing link is that, not an unknown frame.
    Model tree = model;
    for (const LinkSpec& ls : spec.links) tree.links.push_back(ls.link);
    for (const JointSpec& js : spec.joints) tree.joints.push_back(js.joint);
    std::vector<int> order, parent_joint;
    if (!CheckJointTree(tree, /*allow_world_parent=*/true, ctx.diagnostics(), &order, &parent_joint))
      return std::nullopt;
  }
  // Frames: every link in the model frame, collisions and visuals in their links.
  for (LinkSpec& ls : spec.links) {
    const auto X_ML = Resolve(ctx, &spec, ls.link.name, ls.element);
    if (!X_ML) continue;
    ls.link.X_ML = *X_ML;
    for (size_t c = 0; c < ls.link.collisions.size(); ++c) {
      const PoseSpec& pose = ls.collision_poses[c];
      const auto X_MF = Resolve(ctx, &spec, pose.relative_to.empty() ? ls.link.name : pose.relative_to, ls.element);
      if (X_MF) ls.link.collisions[c].X_LG = X_ML->inverse() * *X_MF * pose.X;
    }
    for (size_t v = 0; v < ls.link.visuals.size(); ++v) {
      const PoseSpec& pose = ls.visual_poses[v];
      const auto X_MF = Resolve(ctx, &spec, pose.relative_to.empty() ? ls.link.name : pose.relative_to, ls.element);
      if (X_MF) ls.link.visuals[v].X_LG = X_ML->inverse() * *X_MF * pose.X;
    }
  }
  for (JointSpec& js : spec.joints) {
    Joint& joint = js.joint;
    const auto X_MJ = Resolve(ctx, &spec, joint.name, js.element);
    if (!X_MJ) continue;
    if (joint.parent == "world") {
      joint.X_PJ = *X_MJ;  // in the model frame; the builder adds X_WM
    } else {
      const auto X_MP = Resolve(ctx, &spec, joint.parent, js.element);
      if (!X_MP) continue;
      joint.X_PJ = X_MP->inverse() * *X_MJ;
    }
    const auto X_ME = Resolve(ctx, &spec, js.axis_expressed_in.empty() ? joint.name : js.axis_expressed_in, js.element);
    if (X_ME) joint.axis_J = (X_MJ->linear().transpose() * X_ME->linear() * js.axis).normalized();
  }
  if (ctx.diagnostics()->num_errors() > errors_before) return std::nullopt;
  // Links with deformable properties become deformable bodies.
  for (const LinkSpec& ls : spec.links) {
    if (ls.deformable_properties) {
      std::string mesh;
      RigidTransform X_LG = RigidTransform::Identity();
      const Collision* collision = nullptr;
      for (const Collision& c : ls.link.collisions)
        if (mesh.empty() && c.geometry.type == GeometryType::kMesh)
          mesh = c.geometry.mesh_path, X_LG = c.X_LG, collision = &c;
      for (const Visual& v : ls.link.visuals)
        if (mesh.empty() && v.geometry.type == GeometryType::kMesh) mesh = v.geometry.mesh_path, X_LG = v.X_LG;
      if (auto body = ReadSdfDeformable(ctx, ls.deformable_properties, model.name + "::" + ls.link.name, mesh,
                                        spec.pose.X * ls.link.X_ML * X_LG, options)) {
        // Friction as Drake gives a deformable's: on its collision, by the builder's priority for
        // rigid links (drake:mu_dynamic, then <drake_compliance>, then <surface>'s mu).
        if (collision) {
          const ContactProperties& c = collision->contact;
          if (c.mu_dynamic)
            body->friction = *c.mu_dynamic;
          else if (c.has_drake_compliance)
            body->friction = c.dynamic_friction;
          else if (c.lateral_friction)
            body->friction = *c.lateral_friction;
        }
        scene->deformables.push_back(*body);
      }
      continue;
    }
    model.links.push_back(ls.link);
  }
  for (const JointSpec& js : spec.joints) model.joints.push_back(js.joint);
  model.X_WM = spec.pose.X;
  if (!spec.pose.relative_to.empty() && spec.pose.relative_to != "world")
    ctx.Warning(element, "model '" + model.name + "': pose relative_to '" + spec.pose.relative_to +
                             "' is taken as the world frame");
  if (model.links.empty()) {
    if (scene->deformables.empty()) ctx.Error(element, "model '" + model.name + "' has no links");
    return ctx.diagnostics()->num_errors() > errors_before ? std::nullopt : std::optional<Model>(model);
  }
  for (const Joint& joint : model.joints)
    if (joint.parent == "world") model.fixed_base = true;
  return model;
}

}  // namespace

std::optional<Scene> ReadSdfDocument(const XMLElement* sdf, const XmlContext& ctx, const ReadOptions& options,
                                     int depth) {
  const int errors_before = ctx.diagnostics()->num_errors();
  Scene scene;
  scene.file = ctx.file();
  scene.is_sdf = true;
  const char* version = sdf->Attribute("version");
  if (!version) {
    ctx.Error(sdf, "<sdf> needs a version");
  } else {
    const std::string v = version;
    if (v != "1.6" && v != "1.7" && v != "1.8" && v != "1.9" && v != "1.10" && v != "1.11")
      ctx.Warning(sdf, "SDFormat version " + v + " is outside 1.6–1.9; reading it as 1.9");
  }
  auto add_model = [&](const XMLElement* element) {
    if (auto model = ReadModel(ctx, element, options, 0, &scene))
      if (!model->links.empty()) scene.models.push_back(*model);
  };
  auto add_include = [&](const XMLElement* include) {
    std::string included_name;
    auto included = ReadInclude(ctx, include, options, depth, &included_name);
    if (!included) return;
    Model model = included->models[0];
    if (const char* name = Text(include->FirstChildElement("name"))) model.name = name;
    if (include->FirstChildElement("pose")) model.X_WM = ReadPose(ctx, include).X;
    if (const XMLElement* is_static = include->FirstChildElement("static"))
      if (auto flag = ctx.Bool(is_static, is_static->GetText(), "static")) model.is_static = *flag;
    scene.models.push_back(model);
    for (const Deformable& d : included->deformables) scene.deformables.push_back(d);
  };
  for (const XMLElement* child = sdf->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag == "world") {
      scene.has_world = true;
      for (const XMLElement* w = child->FirstChildElement(); w; w = w->NextSiblingElement()) {
        const std::string wtag = w->Name();
        if (wtag == "model")
          add_model(w);
        else if (wtag == "include")
          add_include(w);
        else if (wtag == "gravity") {
          if (auto g = ctx.Vector(w, w->GetText(), "gravity")) scene.gravity_W = *g;
        } else if (wtag == "physics") {
          if (const XMLElement* step = w->FirstChildElement("max_step_size"))
            if (auto dt = ctx.Number(step, step->GetText(), "physics max_step_size", Check::kPositive))
              scene.step_size_s = *dt;
          if (const XMLElement* speed = w->FirstChildElement("hydro:stiction_speed"))
            if (auto eps = ctx.Number(speed, TagValue(speed), "hydro:stiction_speed", Check::kPositive))
              scene.stiction_speed_m_per_s = *eps;
        } else if (wtag == "light" || wtag == "scene" || wtag == "gui" || wtag == "plugin" || wtag == "atmosphere" ||
                   wtag == "spherical_coordinates" || wtag == "wind" || wtag == "magnetic_field" || wtag == "audio") {
          continue;
        } else {
          ctx.Warning(w, "unknown tag <" + wtag + "> in <world> ignored");
        }
      }
    } else if (tag == "model") {
      add_model(child);
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <sdf> ignored");
    }
  }
  if (ctx.diagnostics()->num_errors() > errors_before) return std::nullopt;
  if (scene.models.empty() && scene.deformables.empty()) {
    ctx.Error(sdf, "no models in the file");
    return std::nullopt;
  }
  return scene;
}

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
