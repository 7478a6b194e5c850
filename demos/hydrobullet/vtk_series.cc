#include "demos/hydrobullet/vtk_series.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "adapters/bullet_conversions.h"
#include "hydro/contact_surface.h"
#include "plugin/btHydroelasticContactQuery.h"

namespace hydro {
namespace cli {

namespace {

struct PolyData {
  std::vector<Vector3> points;
  std::vector<double> point_values;  // one per point (may be empty)
  std::vector<std::vector<int>> polygons;
  std::vector<int> cell_values;
};

void WritePolyData(std::ofstream& out, const PolyData& data, const char* point_name, const char* cell_name) {
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "<PolyData><Piece NumberOfPoints=\"" << data.points.size() << "\" NumberOfPolys=\"" << data.polygons.size()
      << "\">\n<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  char buffer[96];
  for (const Vector3& p : data.points) {
    std::snprintf(buffer, sizeof(buffer), "%.9g %.9g %.9g\n", p.x(), p.y(), p.z());
    out << buffer;
  }
  out << "</DataArray></Points>\n<Polys><DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  for (const auto& polygon : data.polygons) {
    for (int v : polygon) out << v << ' ';
    out << '\n';
  }
  out << "</DataArray><DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  size_t offset = 0;
  for (const auto& polygon : data.polygons) out << (offset += polygon.size()) << '\n';
  out << "</DataArray></Polys>\n";
  if (point_name) {
    out << "<PointData Scalars=\"" << point_name << "\"><DataArray type=\"Float64\" Name=\"" << point_name
        << "\" format=\"ascii\">\n";
    for (double v : data.point_values) {
      std::snprintf(buffer, sizeof(buffer), "%.9g\n", v);
      out << buffer;
    }
    out << "</DataArray></PointData>\n";
  }
  out << "<CellData Scalars=\"" << cell_name << "\"><DataArray type=\"Int32\" Name=\"" << cell_name
      << "\" format=\"ascii\">\n";
  for (int v : data.cell_values) out << v << '\n';
  out << "</DataArray></CellData>\n</Piece></PolyData>\n</VTKFile>\n";
}

}  // namespace

bool VtkSeries::WriteFrame(const Simulation& simulation, double t, std::string* error) {
  const int frame = static_cast<int>(contact_files_.size());
  char name[64];
  // Contact polygons.
  PolyData contacts;
  if (simulation.plugin) {
    int pair = 0;
    for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(simulation.dispatcher.get(), 1.0)) {
      const ContactSurface& surface = *patch.m_surface;
      const int base = static_cast<int>(contacts.points.size());
      for (size_t v = 0; v < surface.vertices().size(); ++v) {
        contacts.points.push_back(surface.vertices()[v]);
        contacts.point_values.push_back(surface.pressures()[v]);
      }
      for (const ContactPolygon& polygon : surface.polygons()) {
        std::vector<int> indices;
        for (int i = 0; i < polygon.num_vertices; ++i) indices.push_back(base + polygon.first_vertex + i);
        contacts.polygons.push_back(indices);
        contacts.cell_values.push_back(pair);
      }
      ++pair;
    }
  }
  std::snprintf(name, sizeof(name), "contact_%05d.vtp", frame);
  {
    std::ofstream out(directory_ + "/" + name);
    WritePolyData(out, contacts, "pressure", "pair");
    if (!out) {
      *error = "cannot write " + directory_ + "/" + name;
      return false;
    }
  }
  contact_files_.emplace_back(t, name);
  // Bodies. Static ones do not move, so they are written once (Bullet's kitchens/1.sdf: 25 MB of
  // static meshes a frame made logging 98 % of the run); the .pvd keeps showing that one file.
  const bool first_frame = frame == 0;
  PolyData moving, fixed;
  const auto& built = simulation.built->bodies();
  for (size_t b = 0; b < built.size(); ++b) {
    if (!built[b].collider) continue;
    const bool is_static = built[b].collider->isStaticObject();
    if (is_static && !first_frame) continue;
    PolyData& bodies = is_static ? fixed : moving;
    const RigidTransform X_WS = bullet::ToRigidTransform(built[b].collider->getWorldTransform());
    for (const auto& [mesh, X_SG] : surfaces_.Of(built[b].collider->getCollisionShape())) {
      const RigidTransform X_WG = X_WS * X_SG;
      const int base = static_cast<int>(bodies.points.size());
      for (const Vector3& p : mesh.vertices()) bodies.points.push_back(X_WG * p);
      for (const Triangle& triangle : mesh.triangles()) {
        bodies.polygons.push_back({base + triangle[0], base + triangle[1], base + triangle[2]});
        bodies.cell_values.push_back(static_cast<int>(b));
      }
    }
  }
  auto write = [&](const PolyData& bodies, const std::string& file) {
    std::ofstream out(directory_ + "/" + file);
    WritePolyData(out, bodies, nullptr, "body");
    if (!out) *error = "cannot write " + directory_ + "/" + file;
    return static_cast<bool>(out);
  };
  if (first_frame) {
    if (!write(fixed, "bodies_static.vtp")) return false;
    static_file_time_ = t;
  }
  std::snprintf(name, sizeof(name), "bodies_%05d.vtp", frame);
  if (!write(moving, name)) return false;
  body_files_.emplace_back(t, name);
  if (simulation.deformables.empty()) return true;
  // Deformed tets with their strain (VTK_TETRA = 10).
  std::snprintf(name, sizeof(name), "deformables_%05d.vtu", frame);
  std::ofstream out(directory_ + "/" + name);
  int num_points = 0, num_cells = 0;
  for (const auto& d : simulation.deformables) num_points += d->num_vertices(), num_cells += d->num_tets();
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "<UnstructuredGrid><Piece NumberOfPoints=\"" << num_points << "\" NumberOfCells=\"" << num_cells << "\">\n"
      << "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  char buffer[96];
  for (const auto& d : simulation.deformables)
    for (int v = 0; v < d->num_vertices(); ++v) {
      const Vector3 p = d->position(v);
      std::snprintf(buffer, sizeof(buffer), "%.9g %.9g %.9g\n", p.x(), p.y(), p.z());
      out << buffer;
    }
  out << "</DataArray></Points>\n<Cells><DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  int base = 0;
  for (const auto& d : simulation.deformables) {
    for (const Tet& tet : d->tets())
      out << base + tet[0] << ' ' << base + tet[1] << ' ' << base + tet[2] << ' ' << base + tet[3] << '\n';
    base += d->num_vertices();
  }
  out << "</DataArray><DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (int c = 1; c <= num_cells; ++c) out << 4 * c << '\n';
  out << "</DataArray><DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
  for (int c = 0; c < num_cells; ++c) out << "10\n";
  out << "</DataArray></Cells>\n<CellData Scalars=\"strain\"><DataArray type=\"Float64\" Name=\"strain\" "
         "format=\"ascii\">\n";
  for (const auto& d : simulation.deformables)
    for (double strain : d->CalcElementStrains()) {
      std::snprintf(buffer, sizeof(buffer), "%.6g\n", strain);
      out << buffer;
    }
  out << "</DataArray></CellData>\n</Piece></UnstructuredGrid>\n</VTKFile>\n";
  if (!out) {
    *error = "cannot write " + directory_ + "/" + name;
    return false;
  }
  deformable_files_.emplace_back(t, name);
  return true;
}

bool VtkSeries::Finish(std::string* error) const {
  std::ofstream out(directory_ + "/series.pvd");
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n<Collection>\n";
  char buffer[160];
  for (size_t i = 0; i < contact_files_.size(); ++i) {
    std::snprintf(buffer, sizeof(buffer), "<DataSet timestep=\"%.9g\" part=\"0\" file=\"%s\"/>\n",
                  contact_files_[i].first, contact_files_[i].second.c_str());
    out << buffer;
    std::snprintf(buffer, sizeof(buffer), "<DataSet timestep=\"%.9g\" part=\"1\" file=\"%s\"/>\n", body_files_[i].first,
                  body_files_[i].second.c_str());
    out << buffer;
    if (i < deformable_files_.size()) {
      std::snprintf(buffer, sizeof(buffer), "<DataSet timestep=\"%.9g\" part=\"2\" file=\"%s\"/>\n",
                    deformable_files_[i].first, deformable_files_[i].second.c_str());
      out << buffer;
    }
  }
  if (!body_files_.empty()) {
    std::snprintf(buffer, sizeof(buffer), "<DataSet timestep=\"%.9g\" part=\"3\" file=\"bodies_static.vtp\"/>\n",
                  static_file_time_);
    out << buffer;
  }
  out << "</Collection>\n</VTKFile>\n";
  if (!out) {
    *error = "cannot write " + directory_ + "/series.pvd";
    return false;
  }
  return true;
}

}  // namespace cli
}  // namespace hydro
