#pragma once
// The contact surfaces and bodies of a run as a VTK time series for ParaView: one PolyData file
// per frame for the contact polygons (point data "pressure" in Pa, cell data "pair") and one for
// the moving bodies' collision surfaces (cell data "body"; static bodies once, in
// bodies_static.vtp), and, when the scene has deformables, one
// UnstructuredGrid file of their deformed tets (cell data "strain"), indexed by a .pvd collection.
#include <map>
#include <string>
#include <vector>

#include "demos/hydrobullet/shape_surfaces.h"
#include "demos/hydrobullet/simulation.h"
#include "hydro/surface_mesh.h"

namespace hydro {
namespace cli {

class VtkSeries {
 public:
  explicit VtkSeries(std::string directory) : directory_(std::move(directory)) {}
  // Writes frame files for time t; false with *error on an I/O failure.
  bool WriteFrame(const Simulation& simulation, double t, std::string* error);
  // Writes series.pvd listing every frame written.
  bool Finish(std::string* error) const;

 private:
  std::string directory_;
  std::vector<std::pair<double, std::string>> contact_files_, body_files_, deformable_files_;
  double static_file_time_{0};
  ShapeSurfaces surfaces_;
};

}  // namespace cli
}  // namespace hydro
