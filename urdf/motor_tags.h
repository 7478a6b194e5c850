#pragma once
// hydro:motor, a joint driven over time: Bullet's btMultiBodyJointMotor with position keyframes.
// Written the same way in a URDF and an SDF <joint> (attributes, <hydro:target> children); the
// reference is urdf/TAGS.md.
#include <tinyxml2.h>

#include <optional>

#include "urdf/model.h"
#include "urdf/xml_context.h"

namespace hydro {
namespace urdf {

// Reads the <hydro:motor> children of `joint_element` into joint->motor, once the joint's type
// is known. Errors (file:line): a motor on a fixed, floating or planar joint, a second motor,
// max_force missing or not positive, kp or kd negative, no <hydro:target>, a target time or
// position missing or not a number, target times not strictly increasing.
void ReadJointMotors(const XmlContext& ctx, const tinyxml2::XMLElement* joint_element, Joint* joint);

}  // namespace urdf
}  // namespace hydro
