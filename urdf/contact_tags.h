#pragma once
// The contact tags a URDF or SDF collision (or URDF link) can carry, read into ContactProperties.
// Every tag accepts the URDF attribute form <tag value="…"/> and the SDF text form <tag>…</tag>;
// the reference of every tag is urdf/TAGS.md.
#include <tinyxml2.h>

#include "urdf/model.h"
#include "urdf/xml_context.h"

namespace hydro {
namespace urdf {

// Drake's <drake:proximity_properties> (plus hydro:slab_thickness inside it).
void ReadProximityProperties(const XmlContext& ctx, const tinyxml2::XMLElement* element, ContactProperties* contact);

// The <drake_compliance> block of 003: omitted values take the defaults (E = 1e8 Pa, d = 0.32 s/m,
// μ = 0.5); friction is given as a pair or not at all, static ≥ dynamic.
void ReadDrakeCompliance(const XmlContext& ctx, const tinyxml2::XMLElement* element, ContactProperties* contact);

// PyBullet's <contact> (lateral_friction, rolling_friction, spinning_friction, restitution,
// stiffness and damping as a pair, friction_anchor).
void ReadPyBulletContact(const XmlContext& ctx, const tinyxml2::XMLElement* element, ContactProperties* contact);

// Reads every contact tag that is a direct child of a <collision> element; returns true for the
// children it consumed (so the caller can warn about the rest).
bool ReadCollisionContactTag(const XmlContext& ctx, const tinyxml2::XMLElement* child, ContactProperties* contact);

// hydro:initial_velocity "vx vy vz wx wy wz" (world frame).
std::optional<InitialVelocity> ReadInitialVelocity(const XmlContext& ctx, const tinyxml2::XMLElement* element);

}  // namespace urdf
}  // namespace hydro
