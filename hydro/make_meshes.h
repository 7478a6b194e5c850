#pragma once
// All geometry generators in one include.
#include "hydro/hydroelastic_geometry.h"
#include "hydro/make_box_mesh.h"
#include "hydro/make_convex_mesh.h"
#include "hydro/make_cylinder_mesh.h"
#include "hydro/make_sphere_mesh.h"
#include "hydro/make_surface_mesh.h"
#include "hydro/mesh_builder.h"
#include "hydro/vtk_volume_mesh.h"
