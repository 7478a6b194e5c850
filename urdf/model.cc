#include "urdf/model.h"

namespace hydro {
namespace urdf {

const char* GeometryTypeName(GeometryType type) {
  switch (type) {
    case GeometryType::kBox: return "box";
    case GeometryType::kSphere: return "sphere";
    case GeometryType::kCylinder: return "cylinder";
    case GeometryType::kCapsule: return "capsule";
    case GeometryType::kEllipsoid: return "ellipsoid";
    case GeometryType::kPlane: return "plane";
    case GeometryType::kMesh: return "mesh";
  }
  return "?";
}

const char* ComplianceName(Compliance compliance) {
  switch (compliance) {
    case Compliance::kNone: return "none";
    case Compliance::kCompliant: return "compliant";
    case Compliance::kRigid: return "rigid";
  }
  return "?";
}

const char* JointTypeName(JointType type) {
  switch (type) {
    case JointType::kFixed: return "fixed";
    case JointType::kRevolute: return "revolute";
    case JointType::kContinuous: return "continuous";
    case JointType::kPrismatic: return "prismatic";
    case JointType::kFloating: return "floating";
    case JointType::kPlanar: return "planar";
  }
  return "?";
}

const Link* Model::FindLink(const std::string& link_name) const {
  for (const Link& link : links)
    if (link.name == link_name) return &link;
  return nullptr;
}

}  // namespace urdf
}  // namespace hydro
