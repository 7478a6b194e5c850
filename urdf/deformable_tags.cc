#include "urdf/deformable_tags.h"

#include "hydro/vtk_volume_mesh.h"
#include "urdf/mesh_files.h"

namespace hydro {
namespace urdf {

using tinyxml2::XMLElement;

namespace {

// Material checks shared by both forms (002 §V-B needs 0 < E, −1 < ν < 0.5, ρ > 0), then the mesh.
bool Validate(const XmlContext& ctx, const XMLElement* element, const ReadOptions& options, double mass_kg,
              Deformable* body) {
  bool ok = true;
  if (!(body->youngs_modulus_Pa > 0)) {
    ctx.Error(element, "deformable '" + body->name + "': Young's modulus must be positive (got " +
                           std::to_string(body->youngs_modulus_Pa) + ")");
    ok = false;
  }
  if (!(body->poisson_ratio > -1 && body->poisson_ratio < 0.5)) {
    ctx.Error(element, "deformable '" + body->name + "': Poisson's ratio must be in (-1, 0.5) (got " +
                           std::to_string(body->poisson_ratio) + ")");
    ok = false;
  }
  if (body->mesh_path.empty()) {
    ctx.Error(element, "deformable '" + body->name + "': no tet mesh (a .vtk file) given");
    return false;
  }
  if (!IsVtkFile(body->mesh_path)) {
    ctx.Error(element, "deformable '" + body->name + "': the mesh " + body->mesh_path +
                           " is not a tet mesh; give a legacy VTK (.vtk) file");
    return false;
  }
  if (!ok || !options.load_deformable_meshes) return ok;
  try {
    VtkReadReport report;
    const VolumeMeshWithExtent mesh = ReadVtkVolumeMesh(body->mesh_path, &report);
    for (const std::string& warning : report.warnings)
      ctx.Warning(element, "deformable '" + body->name + "': " + warning);
    body->num_vertices = mesh.mesh->num_vertices();
    body->num_tets = mesh.mesh->num_tets();
    if (mass_kg > 0) body->mass_density_kg_per_m3 = mass_kg / mesh.mesh->CalcTotalVolume();
  } catch (const InvalidInput& e) {
    ctx.Error(element, "deformable '" + body->name + "': " + e.what());
    return false;
  }
  if (!(body->mass_density_kg_per_m3 > 0)) {
    ctx.Error(element, "deformable '" + body->name + "': mass density must be positive");
    return false;
  }
  return true;
}

void ReadTriangleFan(const XmlContext& ctx, const XMLElement* element, Deformable* body) {
  if (auto flag = ctx.Bool(element, TagValue(element), "hydro:triangle_fan_contact"))
    body->triangle_fan_contact = *flag;
}

}  // namespace

std::optional<Deformable> ReadUrdfDeformable(const XmlContext& ctx, const XMLElement* element,
                                             const ReadOptions& options) {
  Deformable body;
  body.where = ctx.Where(element);
  const char* name = ctx.RequiredName(element, "<deformable>");
  if (!name) return std::nullopt;
  body.name = name;
  double mass = 0;
  bool has_material = false;
  std::string mesh_uri;
  const XMLElement* mesh_element = element;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag == "inertial") {
      if (const XMLElement* m = child->FirstChildElement("mass"))
        if (auto value = ctx.Number(m, m->Attribute("value"), "deformable mass", Check::kPositive)) mass = *value;
    } else if (tag == "neohookean") {
      const auto mu = ctx.Number(child, child->Attribute("mu"), "neohookean mu", Check::kPositive);
      const auto lambda = ctx.Number(child, child->Attribute("lambda"), "neohookean lambda", Check::kNonNegative);
      if (child->Attribute("damping"))
        if (auto d = ctx.Number(child, child->Attribute("damping"), "neohookean damping", Check::kNonNegative))
          body.stiffness_damping = *d;
      if (mu && lambda) {
        // E = μ(3λ + 2μ)/(λ + μ), ν = λ/(2(λ + μ)).
        body.youngs_modulus_Pa = *mu * (3 * *lambda + 2 * *mu) / (*lambda + *mu);
        body.poisson_ratio = *lambda / (2 * (*lambda + *mu));
        has_material = true;
      }
    } else if (tag == "simulation_mesh" || (tag == "visual" && mesh_uri.empty())) {
      const char* file = child->Attribute("filename");
      if (!file)
        ctx.Error(child, "<" + tag + "> needs a filename");
      else {
        mesh_uri = file;
        mesh_element = child;
      }
    } else if (tag == "origin") {
      const auto xyz =
          child->Attribute("xyz") ? ctx.Vector(child, child->Attribute("xyz"), "origin xyz") : Vector3::Zero();
      const auto rpy =
          child->Attribute("rpy") ? ctx.Vector(child, child->Attribute("rpy"), "origin rpy") : Vector3::Zero();
      if (xyz && rpy) body.X_WD = PoseFromXyzRpy(*xyz, *rpy);
    } else if (tag == "friction") {
      if (auto mu = ctx.Number(child, TagValue(child), "deformable friction", Check::kNonNegative)) body.friction = *mu;
    } else if (tag == "hydro:triangle_fan_contact") {
      ReadTriangleFan(ctx, child, &body);
    } else if (tag == "mass_spring") {
      ctx.Error(child,
                "deformable '" + body.name + "': mass-spring cloth is not supported; use <neohookean> with a tet mesh");
    } else if (tag == "collision_margin" || tag == "repulsion_stiffness" || tag == "gui_mesh" ||
               tag == "cache_barycenter") {
      ctx.Warning(child, "<deformable> tag <" + tag + "> is read but not used");
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <deformable> ignored");
    }
  }
  if (!has_material) {
    ctx.Error(element, "deformable '" + body.name + "': needs <neohookean mu=… lambda=…/>");
    return std::nullopt;
  }
  if (mass <= 0) {
    ctx.Error(element, "deformable '" + body.name + "': needs <inertial><mass value=…/></inertial>");
    return std::nullopt;
  }
  if (!mesh_uri.empty()) {
    std::string error, note;
    const auto path = ResolveUri(mesh_uri, ctx.file(), options.search, &error, &note);
    if (!path) {
      ctx.Error(mesh_element, "deformable '" + body.name + "': missing mesh " + mesh_uri + ": " + error);
      return std::nullopt;
    }
    if (!note.empty()) ctx.Warning(mesh_element, note);
    body.mesh_path = *path;
  }
  if (!Validate(ctx, element, options, mass, &body)) return std::nullopt;
  return body;
}

std::optional<Deformable> ReadSdfDeformable(const XmlContext& ctx, const XMLElement* properties,
                                            const std::string& name, const std::string& mesh_path,
                                            const RigidTransform& X_WD, const ReadOptions& options) {
  Deformable body;
  body.name = name;
  body.where = ctx.Where(properties);
  body.mesh_path = mesh_path;
  body.X_WD = X_WD;
  bool has_modulus = false, has_density = false;
  for (const XMLElement* child = properties->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    const char* text = TagValue(child);
    if (tag == "drake:youngs_modulus") {
      if (auto v = ctx.Number(child, text, tag, Check::kAny)) body.youngs_modulus_Pa = *v, has_modulus = true;
    } else if (tag == "drake:poissons_ratio") {
      if (auto v = ctx.Number(child, text, tag, Check::kAny)) body.poisson_ratio = *v;
    } else if (tag == "drake:mass_density") {
      if (auto v = ctx.Number(child, text, tag, Check::kPositive)) body.mass_density_kg_per_m3 = *v, has_density = true;
    } else if (tag == "drake:mass_damping") {
      if (auto v = ctx.Number(child, text, tag, Check::kNonNegative)) body.mass_damping = *v;
    } else if (tag == "drake:stiffness_damping") {
      if (auto v = ctx.Number(child, text, tag, Check::kNonNegative)) body.stiffness_damping = *v;
    } else if (tag == "hydro:triangle_fan_contact") {
      ReadTriangleFan(ctx, child, &body);
    } else if (tag == "drake:material_model") {
      const std::string model = text ? text : "";
      if (model != "linear_corotated" && model != "corotated" && model != "linear" && model != "neohookean")
        ctx.Error(child, "drake:material_model: unknown model '" + model +
                             "' (linear_corotated, corotated, linear or neohookean)");
    } else {
      ctx.Warning(child, "unknown tag <" + tag + "> in <drake:deformable_properties> ignored");
    }
  }
  if (!has_modulus) {
    ctx.Error(properties, "deformable '" + name + "': needs drake:youngs_modulus");
    return std::nullopt;
  }
  if (!has_density) body.mass_density_kg_per_m3 = 1000;  // Drake's default
  if (!Validate(ctx, properties, options, 0, &body)) return std::nullopt;
  return body;
}

}  // namespace urdf
}  // namespace hydro
