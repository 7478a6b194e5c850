#include "urdf/motor_tags.h"

#include <string>

namespace hydro {
namespace urdf {

using tinyxml2::XMLElement;

namespace {

std::optional<JointMotor> ReadJointMotor(const XmlContext& ctx, const XMLElement* element, const Joint& joint) {
  const std::string what = "joint '" + joint.name + "' hydro:motor";
  JointMotor motor;
  motor.where = ctx.Where(element);
  const int errors_before = ctx.diagnostics()->num_errors();
  if (joint.type != JointType::kRevolute && joint.type != JointType::kContinuous &&
      joint.type != JointType::kPrismatic) {
    ctx.Error(element, what + ": a motor drives a revolute, continuous or prismatic joint, not a " +
                           JointTypeName(joint.type) + " one");
    return std::nullopt;
  }
  for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a; a = a->Next()) {
    const std::string name = a->Name();
    if (name == "max_force") {
      if (auto v = ctx.Number(element, a->Value(), what + " max_force", Check::kPositive)) motor.max_force = *v;
    } else if (name == "kp") {
      if (auto v = ctx.Number(element, a->Value(), what + " kp", Check::kNonNegative)) motor.kp = *v;
    } else if (name == "kd") {
      if (auto v = ctx.Number(element, a->Value(), what + " kd", Check::kNonNegative)) motor.kd = *v;
    } else {
      ctx.Warning(element, "unknown attribute " + name + " of <hydro:motor> ignored");
    }
  }
  if (!element->Attribute("max_force")) ctx.Error(element, what + ": needs max_force (N or N·m)");
  for (const XMLElement* child = element->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string tag = child->Name();
    if (tag != "hydro:target") {
      ctx.Warning(child, "unknown tag <" + tag + "> in <hydro:motor> ignored");
      continue;
    }
    const auto t = ctx.Number(child, child->Attribute("t"), what + " target t");
    const auto q = ctx.Number(child, child->Attribute("position"), what + " target position");
    if (!t || !q) continue;
    if (!motor.keyframes.empty() && !(*t > motor.keyframes.back().time_s)) {
      ctx.Error(child, what + ": target times must increase (t = " + std::to_string(*t) +
                           " s after t = " + std::to_string(motor.keyframes.back().time_s) + " s)");
      continue;
    }
    motor.keyframes.push_back({*t, *q});
  }
  if (!element->FirstChildElement("hydro:target"))
    ctx.Error(element, what + ": needs at least one <hydro:target t=\"…\" position=\"…\"/>");
  if (ctx.diagnostics()->num_errors() > errors_before) return std::nullopt;
  return motor;
}

}  // namespace

void ReadJointMotors(const XmlContext& ctx, const XMLElement* joint_element, Joint* joint) {
  for (const XMLElement* element = joint_element->FirstChildElement("hydro:motor"); element;
       element = element->NextSiblingElement("hydro:motor")) {
    if (joint->motor) {
      ctx.Error(element, "joint '" + joint->name + "': more than one <hydro:motor>");
      return;
    }
    joint->motor = ReadJointMotor(ctx, element, *joint);
    if (!joint->motor) return;
  }
}

}  // namespace urdf
}  // namespace hydro
