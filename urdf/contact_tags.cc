#include "urdf/contact_tags.h"

#include <cstring>

#include "hydro/contact_material.h"

namespace hydro {
namespace urdf {

using tinyxml2::XMLElement;

namespace {

bool Is(const XMLElement* element, const char* name) { return std::strcmp(element->Name(), name) == 0; }

void Set(const XmlContext& ctx, const XMLElement* element, const std::string& what, Check check,
         std::optional<double>* value) {
  if (auto number = ctx.Number(element, TagValue(element), what, check)) *value = *number;
}

}  // namespace

void ReadProximityProperties(const XmlContext& ctx, const XMLElement* element, ContactProperties* contact) {
  bool compliant = false, rigid = false;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string name = child->Name();
    if (name == "drake:compliant_hydroelastic")
      compliant = true;
    else if (name == "drake:rigid_hydroelastic")
      rigid = true;
    else if (name == "drake:hydroelastic_modulus")
      Set(ctx, child, name, Check::kPositive, &contact->hydroelastic_modulus_Pa);
    else if (name == "drake:mesh_resolution_hint")
      Set(ctx, child, name, Check::kPositive, &contact->mesh_resolution_hint_m);
    else if (name == "drake:hydroelastic_margin")
      Set(ctx, child, name, Check::kNonNegative, &contact->hydroelastic_margin_m);
    else if (name == "drake:hunt_crossley_dissipation")
      Set(ctx, child, name, Check::kNonNegative, &contact->hunt_crossley_dissipation_s_per_m);
    else if (name == "drake:relaxation_time")
      Set(ctx, child, name, Check::kNonNegative, &contact->relaxation_time_s);
    else if (name == "drake:point_contact_stiffness")
      Set(ctx, child, name, Check::kPositive, &contact->point_contact_stiffness_N_per_m);
    else if (name == "drake:mu_static")
      Set(ctx, child, name, Check::kNonNegative, &contact->mu_static);
    else if (name == "drake:mu_dynamic")
      Set(ctx, child, name, Check::kNonNegative, &contact->mu_dynamic);
    else if (name == "hydro:slab_thickness")
      Set(ctx, child, name, Check::kPositive, &contact->slab_thickness_m);
    else
      ctx.Warning(child, "unknown tag <" + name + "> in <drake:proximity_properties> ignored");
  }
  if (compliant && rigid) {
    ctx.Error(element, "both <drake:compliant_hydroelastic> and <drake:rigid_hydroelastic> given; choose one");
  } else if (compliant) {
    contact->compliance = Compliance::kCompliant;
  } else if (rigid) {
    contact->compliance = Compliance::kRigid;
  }
  if (contact->mu_static && contact->mu_dynamic && *contact->mu_static < *contact->mu_dynamic) {
    ctx.Error(element, "drake:mu_static (" + std::to_string(*contact->mu_static) +
                           ") must not be less than drake:mu_dynamic (" + std::to_string(*contact->mu_dynamic) + ")");
  }
  // One coefficient given: both are that value (Drake's Coulomb friction needs both).
  if (contact->mu_static && !contact->mu_dynamic) contact->mu_dynamic = contact->mu_static;
  if (contact->mu_dynamic && !contact->mu_static) contact->mu_static = contact->mu_dynamic;
}

void ReadDrakeCompliance(const XmlContext& ctx, const XMLElement* element, ContactProperties* contact) {
  contact->has_drake_compliance = true;
  contact->youngs_modulus_Pa = ContactMaterial::kDefaultModulus;
  contact->dissipation_s_per_m = ContactMaterial::kDefaultDissipation;
  contact->static_friction = contact->dynamic_friction = ContactMaterial::kDefaultFriction;
  std::optional<double> modulus, dissipation, mu_s, mu_d;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string name = child->Name();
    if (name == "youngs_modulus")
      Set(ctx, child, "drake_compliance/youngs_modulus", Check::kPositive, &modulus);
    else if (name == "dissipation")
      Set(ctx, child, "drake_compliance/dissipation", Check::kNonNegative, &dissipation);
    else if (name == "static_friction")
      Set(ctx, child, "drake_compliance/static_friction", Check::kNonNegative, &mu_s);
    else if (name == "dynamic_friction")
      Set(ctx, child, "drake_compliance/dynamic_friction", Check::kNonNegative, &mu_d);
    else
      ctx.Warning(child, "unknown tag <" + name + "> in <drake_compliance> ignored");
  }
  if (modulus) contact->youngs_modulus_Pa = *modulus;
  if (dissipation) contact->dissipation_s_per_m = *dissipation;
  const bool has_s = element->FirstChildElement("static_friction") != nullptr;
  const bool has_d = element->FirstChildElement("dynamic_friction") != nullptr;
  if (has_s != has_d) {
    ctx.Error(element, "drake_compliance: static_friction and dynamic_friction must be given as a pair or not at all");
  } else if (mu_s && mu_d) {
    if (*mu_s < *mu_d) {
      ctx.Error(element, "drake_compliance: static_friction (" + std::to_string(*mu_s) +
                             ") must not be less than dynamic_friction (" + std::to_string(*mu_d) + ")");
    } else {
      contact->static_friction = *mu_s;
      contact->dynamic_friction = *mu_d;
    }
  }
}

void ReadPyBulletContact(const XmlContext& ctx, const XMLElement* element, ContactProperties* contact) {
  std::optional<double> stiffness, damping;
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string name = child->Name();
    const std::string what = "contact/" + name;
    if (name == "lateral_friction")
      Set(ctx, child, what, Check::kNonNegative, &contact->lateral_friction);
    else if (name == "rolling_friction")
      Set(ctx, child, what, Check::kNonNegative, &contact->rolling_friction);
    else if (name == "spinning_friction")
      Set(ctx, child, what, Check::kNonNegative, &contact->spinning_friction);
    else if (name == "restitution")
      Set(ctx, child, what, Check::kNonNegative, &contact->restitution);
    else if (name == "stiffness" || name == "contact_stiffness")
      Set(ctx, child, what, Check::kPositive, &stiffness);
    else if (name == "damping" || name == "contact_damping")
      Set(ctx, child, what, Check::kNonNegative, &damping);
    else if (name == "friction_anchor")
      contact->friction_anchor = true;
    else if (name == "inertia_scaling" || name == "contact_cfm" || name == "contact_erp")
      ctx.Warning(child, "PyBullet <contact> tag <" + name + "> is not supported and is ignored");
    else
      ctx.Warning(child, "unknown tag <" + name + "> in <contact> ignored");
  }
  if (stiffness.has_value() != damping.has_value()) {
    ctx.Error(element, "contact: stiffness and damping must be given together (Bullet uses them as a pair)");
  } else if (stiffness) {
    contact->contact_stiffness_N_per_m = stiffness;
    contact->contact_damping_N_s_per_m = damping;
  }
}

bool ReadCollisionContactTag(const XmlContext& ctx, const XMLElement* child, ContactProperties* contact) {
  if (Is(child, "drake:proximity_properties")) {
    ReadProximityProperties(ctx, child, contact);
    return true;
  }
  if (Is(child, "drake_compliance")) {
    ReadDrakeCompliance(ctx, child, contact);
    return true;
  }
  if (Is(child, "hydro:slab_thickness")) {
    Set(ctx, child, "hydro:slab_thickness", Check::kPositive, &contact->slab_thickness_m);
    return true;
  }
  return false;
}

std::optional<InitialVelocity> ReadInitialVelocity(const XmlContext& ctx, const XMLElement* element) {
  const auto values = ctx.Numbers(element, TagValue(element), 6, "hydro:initial_velocity");
  if (!values) return std::nullopt;
  InitialVelocity velocity;
  velocity.v_W = Vector3((*values)[0], (*values)[1], (*values)[2]);
  velocity.w_W = Vector3((*values)[3], (*values)[4], (*values)[5]);
  return velocity;
}

}  // namespace urdf
}  // namespace hydro
