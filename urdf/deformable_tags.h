#pragma once
// Deformable bodies in model files: PyBullet's URDF <deformable> and Drake's SDF
// <drake:deformable_properties>, read and validated (the FEM module builds them).
#include <tinyxml2.h>

#include "urdf/model.h"
#include "urdf/model_files.h"
#include "urdf/xml_context.h"

namespace hydro {
namespace urdf {

// PyBullet's <deformable name=…> (a child of <robot>): <inertial><mass/>, <neohookean mu lambda
// damping/>, <simulation_mesh filename/> or <visual filename/> (a .vtk tet mesh), optional
// <origin/>, <friction value/>. E and ν come from the Lamé parameters; the density from the mass
// and mesh volume.
std::optional<Deformable> ReadUrdfDeformable(const XmlContext& ctx, const tinyxml2::XMLElement* element,
                                             const ReadOptions& options);

// Drake's <drake:deformable_properties> in an SDF <link>: drake:youngs_modulus,
// drake:poissons_ratio, drake:mass_density, drake:mass_damping, drake:stiffness_damping; the mesh
// is the link's collision (or visual) mesh, a .vtk file. Both forms take hydro:triangle_fan_contact
// (true or false).
std::optional<Deformable> ReadSdfDeformable(const XmlContext& ctx, const tinyxml2::XMLElement* properties,
                                            const std::string& name, const std::string& mesh_path,
                                            const RigidTransform& X_WD, const ReadOptions& options);

}  // namespace urdf
}  // namespace hydro
