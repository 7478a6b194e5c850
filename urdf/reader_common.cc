// Pieces the URDF and SDF readers share.
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "urdf/mesh_files.h"
#include "urdf/readers_internal.h"

namespace hydro {
namespace urdf {
namespace internal {

using tinyxml2::XMLElement;

bool ResolveMesh(const XmlContext& ctx, const XMLElement* element, const ReadOptions& options, Geometry* geometry) {
  std::string error, note;
  const auto path = ResolveUri(geometry->mesh_uri, ctx.file(), options.search, &error, &note);
  if (!path) {
    ctx.Error(element, "missing mesh '" + geometry->mesh_uri + "': " + error);
    return false;
  }
  if (!note.empty()) ctx.Warning(element, note);
  if (!IsSurfaceMeshFile(*path) && !IsVtkFile(*path)) {
    ctx.Error(element, "mesh '" + geometry->mesh_uri + "': unsupported format (use .obj, .stl or .vtk)");
    return false;
  }
  geometry->mesh_path = *path;
  return true;
}

bool FinishMesh(const XmlContext& ctx, const XMLElement* mesh, const XMLElement* scale_element, const char* scale_text,
                const XMLElement* uri_element, const ReadOptions& options, Geometry* geometry) {
  if (scale_text) {
    // PyBullet reads the first three numbers of a scale; racecar_differential.urdf writes four.
    std::string text = scale_text;
    std::istringstream tokens(text);
    std::vector<std::string> words{std::istream_iterator<std::string>(tokens), std::istream_iterator<std::string>()};
    if (words.size() > 3) {
      ctx.Warning(scale_element, "mesh scale: " + std::to_string(words.size()) +
                                     " numbers given; the first three are used, as PyBullet does");
      text = words[0] + " " + words[1] + " " + words[2];
    }
    const auto s = ctx.Vector(scale_element, text.c_str(), "mesh scale");
    if (!s) return false;
    if (!(s->cwiseAbs().minCoeff() > 0)) {
      ctx.Error(scale_element, "mesh scale: every factor must be non-zero");
      return false;
    }
    geometry->scale = *s;
  }
  geometry->declare_convex = mesh->FirstChildElement("drake:declare_convex") != nullptr;
  return ResolveMesh(ctx, uri_element, options, geometry);
}

const XMLElement* GeometryShape(const XmlContext& ctx, const XMLElement* parent) {
  const XMLElement* element = parent->FirstChildElement("geometry");
  if (!element) {
    ctx.Error(parent, std::string("<") + parent->Name() + "> needs a <geometry>");
    return nullptr;
  }
  const XMLElement* shape = element->FirstChildElement();
  if (!shape) {
    ctx.Error(element, "<geometry> is empty");
    return nullptr;
  }
  if (shape->NextSiblingElement())
    ctx.Warning(shape->NextSiblingElement(), "<geometry> holds more than one shape; only the first is used");
  return shape;
}

std::optional<JointType> ParseJointType(const char* type) {
  const std::string name = type ? type : "";
  if (name == "fixed") return JointType::kFixed;
  if (name == "revolute") return JointType::kRevolute;
  if (name == "continuous") return JointType::kContinuous;
  if (name == "prismatic") return JointType::kPrismatic;
  if (name == "floating") return JointType::kFloating;
  if (name == "planar") return JointType::kPlanar;
  if (name == "spherical" || name == "ball") return JointType::kSpherical;
  return std::nullopt;
}

void SetInertia(const XmlContext& ctx, const XMLElement* element, const double v[6], Link* link) {
  Matrix3& I = link->inertial.I_I;
  I << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5];
  const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(I);
  if (eigen.eigenvalues().minCoeff() < -1e-12 * std::max(1.0, eigen.eigenvalues().cwiseAbs().maxCoeff()))
    ctx.Error(element, "link '" + link->name + "': the inertia matrix is not positive semi-definite");
}

}  // namespace internal
}  // namespace urdf
}  // namespace hydro
