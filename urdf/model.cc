#include "urdf/model.h"

namespace hydro {
namespace urdf {

const char* GeometryTypeName(GeometryType type) {
  switch (type) {
    case GeometryType::kBox:
      return "box";
    case GeometryType::kSphere:
      return "sphere";
    case GeometryType::kCylinder:
      return "cylinder";
    case GeometryType::kCapsule:
      return "capsule";
    case GeometryType::kEllipsoid:
      return "ellipsoid";
    case GeometryType::kPlane:
      return "plane";
    case GeometryType::kMesh:
      return "mesh";
  }
  return "?";
}

const char* ComplianceName(Compliance compliance) {
  switch (compliance) {
    case Compliance::kNone:
      return "none";
    case Compliance::kCompliant:
      return "compliant";
    case Compliance::kRigid:
      return "rigid";
  }
  return "?";
}

const char* JointTypeName(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return "fixed";
    case JointType::kRevolute:
      return "revolute";
    case JointType::kContinuous:
      return "continuous";
    case JointType::kPrismatic:
      return "prismatic";
    case JointType::kFloating:
      return "floating";
    case JointType::kPlanar:
      return "planar";
    case JointType::kSpherical:
      return "spherical";
  }
  return "?";
}

namespace {

// The index k of the segment [t_k, t_k+1] that holds t, or −1 outside the keyframes' span.
int SegmentAt(const std::vector<JointMotorKeyframe>& keyframes, double t_s) {
  if (keyframes.size() < 2 || !(t_s >= keyframes.front().time_s) || t_s >= keyframes.back().time_s) return -1;
  int k = 0;
  while (k + 2 < static_cast<int>(keyframes.size()) && t_s >= keyframes[k + 1].time_s) ++k;
  return k;
}

}  // namespace

double JointMotor::PositionAt(double t_s) const {
  if (keyframes.empty()) return 0;
  const int k = SegmentAt(keyframes, t_s);
  if (k < 0) return t_s < keyframes.front().time_s ? keyframes.front().position : keyframes.back().position;
  const JointMotorKeyframe& a = keyframes[k];
  const JointMotorKeyframe& b = keyframes[k + 1];
  return a.position + (b.position - a.position) * (t_s - a.time_s) / (b.time_s - a.time_s);
}

double JointMotor::VelocityAt(double t_s) const {
  const int k = SegmentAt(keyframes, t_s);
  if (k < 0) return 0;
  const JointMotorKeyframe& a = keyframes[k];
  const JointMotorKeyframe& b = keyframes[k + 1];
  return (b.position - a.position) / (b.time_s - a.time_s);
}

const Link* Model::FindLink(const std::string& link_name) const {
  for (const Link& link : links)
    if (link.name == link_name) return &link;
  return nullptr;
}

}  // namespace urdf
}  // namespace hydro
