#include "hydro/vtk_volume_mesh.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "hydro/compact_vertices.h"

namespace hydro {
namespace {

// Whitespace-separated tokens with the line each came from.
class Tokens {
 public:
  Tokens(const std::string& text, std::string name) : name_(std::move(name)) {
    int line = 1;
    size_t i = 0;
    while (i < text.size()) {
      if (text[i] == '\n') {
        ++line;
        ++i;
      } else if (std::isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
      } else {
        size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
        tokens_.push_back({text.substr(i, j - i), line});
        i = j;
      }
    }
    last_line_ = tokens_.empty() ? 1 : tokens_.back().line;
  }
  bool done() const { return next_ >= tokens_.size(); }
  // The line of the next token (of the last one at the end of the file).
  int line() const { return done() ? last_line_ : tokens_[next_].line; }
  // The line of the token just read.
  int previous_line() const { return next_ == 0 ? 1 : tokens_[next_ - 1].line; }
  [[noreturn]] void Fail(const std::string& message, int line = -1) const {
    std::ostringstream msg;
    msg << name_ << ":" << (line < 0 ? this->line() : line) << ": " << message;
    throw InvalidInput(msg.str());
  }
  std::string Word(const char* what) {
    if (done()) Fail(std::string("unexpected end of file, expected ") + what);
    return tokens_[next_++].text;
  }
  long Integer(const char* what) {
    const int at = line();
    const std::string w = Word(what);
    char* end = nullptr;
    const long value = std::strtol(w.c_str(), &end, 10);
    if (w.empty() || *end != '\0') Fail(std::string("expected ") + what + ", got '" + w + "'", at);
    return value;
  }
  double Real(const char* what) {
    const int at = line();
    const std::string w = Word(what);
    char* end = nullptr;
    const double value = std::strtod(w.c_str(), &end);
    if (w.empty() || *end != '\0') Fail(std::string("expected ") + what + ", got '" + w + "'", at);
    if (!std::isfinite(value)) Fail(std::string(what) + " is not finite ('" + w + "')", at);
    return value;
  }
  // Skips to the next token equal (case-insensitively) to one of `keywords`; returns it, or "".
  std::string SkipTo(std::initializer_list<const char*> keywords) {
    while (!done()) {
      std::string upper = tokens_[next_].text;
      std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
      for (const char* k : keywords)
        if (upper == k) {
          ++next_;
          return upper;
        }
      ++next_;
    }
    return "";
  }

 private:
  struct Token {
    std::string text;
    int line;
  };
  std::string name_;
  std::vector<Token> tokens_;
  size_t next_{0};
  int last_line_{1};
};

std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

}  // namespace

double DistanceToTriangle(const Vector3& p, const Vector3& a, const Vector3& b, const Vector3& c) {
  // Closest point by the Voronoi regions of the triangle's vertices, edges and face.
  const Vector3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return ap.norm();
  const Vector3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return bp.norm();
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + d1 / (d1 - d3) * ab)).norm();
  const Vector3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return cp.norm();
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + d2 / (d2 - d6) * ac)).norm();
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return (p - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b))).norm();
  const double denom = 1.0 / (va + vb + vc);
  return (p - (a + ab * (vb * denom) + ac * (vc * denom))).norm();
}

std::vector<double> CalcDistanceExtent(const VolumeMesh& mesh) {
  std::map<std::array<int, 3>, int> count;
  for (const Tet& t : mesh.tets())
    for (int i = 0; i < 4; ++i) {
      std::array<int, 3> f = {t[(i + 1) % 4], t[(i + 2) % 4], t[(i + 3) % 4]};
      std::sort(f.begin(), f.end());
      ++count[f];
    }
  std::vector<std::array<int, 3>> boundary;
  std::vector<bool> on_boundary(mesh.num_vertices(), false);
  for (const auto& [f, n] : count) {
    if (n != 1) continue;
    boundary.push_back(f);
    for (int v : f) on_boundary[v] = true;
  }
  std::vector<double> distance(mesh.num_vertices(), 0.0);
  double deepest = 0;
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    if (on_boundary[v]) continue;
    double d = std::numeric_limits<double>::infinity();
    for (const auto& f : boundary)
      d = std::min(d, DistanceToTriangle(mesh.vertex(v), mesh.vertex(f[0]), mesh.vertex(f[1]), mesh.vertex(f[2])));
    distance[v] = d;
    deepest = std::max(deepest, d);
  }
  if (deepest > 0)
    for (double& d : distance) d /= deepest;
  return distance;
}

VolumeMeshWithExtent ReadVtkVolumeMeshFromString(const std::string& text, const std::string& name,
                                                 VtkReadReport* report) {
  VtkReadReport local_report;
  VtkReadReport& rep = report ? *report : local_report;
  Tokens in(text, name);
  if (in.done()) in.Fail("empty file");
  // VTK writes "# vtk DataFile Version x.y"; Bullet's reader (and files made for it, such as its
  // data/reduced_cube) also accept the header without the space.
  if (text.rfind("# vtk DataFile", 0) != 0 && text.rfind("#vtk DataFile", 0) != 0)
    in.Fail("not a legacy VTK file (first line must start with '# vtk DataFile')", 1);
  if (in.SkipTo({"ASCII", "BINARY"}) != "ASCII")
    in.Fail("only ASCII legacy VTK files are supported", in.previous_line());
  if (in.SkipTo({"DATASET"}).empty()) in.Fail("no DATASET section");
  const int dataset_line = in.line();
  const std::string dataset = Upper(in.Word("dataset type"));
  if (dataset != "UNSTRUCTURED_GRID")
    in.Fail("DATASET " + dataset + " is not supported; expected UNSTRUCTURED_GRID", dataset_line);

  if (in.SkipTo({"POINTS"}).empty()) in.Fail("no POINTS section");
  const long num_points = in.Integer("number of points");
  if (num_points <= 0) in.Fail("POINTS count must be positive");
  // Every point takes at least three one-character numbers and separators: a count beyond that
  // is a corrupt header, not a reason to allocate.
  if (static_cast<unsigned long>(num_points) > text.size() / 6 + 1)
    in.Fail("POINTS count " + std::to_string(num_points) + " is more than the file can hold");
  in.Word("point data type");
  std::vector<Vector3> points(num_points);
  for (long i = 0; i < num_points; ++i)
    for (int k = 0; k < 3; ++k) points[i][k] = in.Real("a point coordinate");

  if (in.SkipTo({"CELLS"}).empty()) in.Fail("no CELLS section");
  const int cells_line = in.previous_line();
  const long num_cells = in.Integer("number of cells");
  in.Integer("CELLS list size");
  if (num_cells <= 0) in.Fail("CELLS count must be positive");
  if (static_cast<unsigned long>(num_cells) > text.size() / 4 + 1)
    in.Fail("CELLS count " + std::to_string(num_cells) + " is more than the file can hold");
  struct Cell {
    std::vector<long> v;
    int line;
  };
  std::vector<Cell> cells(num_cells);
  for (long c = 0; c < num_cells; ++c) {
    cells[c].line = in.line();
    const long n = in.Integer("a cell's vertex count");
    if (n <= 0 || n > 64)
      in.Fail("cell " + std::to_string(c) + " has " + std::to_string(n) + " vertices", cells[c].line);
    for (long i = 0; i < n; ++i) {
      const int at = in.line();
      const long v = in.Integer("a vertex index");
      if (v < 0 || v >= num_points)
        in.Fail("cell " + std::to_string(c) + " refers to vertex " + std::to_string(v) + " but there are " +
                    std::to_string(num_points) + " points",
                at);
      cells[c].v.push_back(v);
    }
  }
  std::vector<long> types(num_cells, -1);
  std::vector<int> type_lines(num_cells, 0);
  if (in.SkipTo({"CELL_TYPES"}) == "CELL_TYPES") {
    const long n = in.Integer("number of cell types");
    const bool all_four = std::all_of(cells.begin(), cells.end(), [](const auto& cell) { return cell.v.size() == 4; });
    if (n != num_cells && all_four) {
      // Bullet's reader ignores CELL_TYPES, and files written for it may get it wrong
      // (Bullet's data/reduced_cube/cube_mesh.vtk writes "CELL_TYPES 10" and no list).
      rep.warnings.push_back(name + ":" + std::to_string(in.previous_line()) + ": CELL_TYPES lists " +
                             std::to_string(n) + " types for " + std::to_string(num_cells) +
                             " cells; every cell has four vertices and is read as a tetrahedron, as Bullet does");
    } else {
      if (n != num_cells)
        in.Fail("CELL_TYPES lists " + std::to_string(n) + " types for " + std::to_string(num_cells) + " cells",
                in.previous_line());
      for (long c = 0; c < num_cells; ++c) {
        type_lines[c] = in.line();
        types[c] = in.Integer("a cell type");
      }
    }
  }
  std::vector<Tet> tets;
  std::vector<int> tet_lines;
  for (long c = 0; c < num_cells; ++c) {
    const long type = types[c] < 0 ? (cells[c].v.size() == 4 ? 10 : -1) : types[c];
    // VTK cell types: 1 vertex, 2 poly-vertex, 3 line, 4 poly-line, 5 triangle, 6 strip,
    // 7 polygon, 8 pixel, 9 quad; 10 tetrahedron; 11 and up are other 3D cells.
    if (type >= 1 && type <= 9) {
      ++rep.ignored_lower_dimensional_cells;
      continue;
    }
    const int line = types[c] < 0 ? cells[c].line : type_lines[c];
    if (type != 10)
      in.Fail(
          "cell " + std::to_string(c) + " has type " + std::to_string(type) + "; only tetrahedra (10) are supported",
          line);
    if (cells[c].v.size() != 4)
      in.Fail("tetrahedron " + std::to_string(c) + " has " + std::to_string(cells[c].v.size()) + " vertices",
              cells[c].line);
    Tet t = {static_cast<int>(cells[c].v[0]), static_cast<int>(cells[c].v[1]), static_cast<int>(cells[c].v[2]),
             static_cast<int>(cells[c].v[3])};
    if (SignedTetVolume(points[t[0]], points[t[1]], points[t[2]], points[t[3]]) < 0) {
      std::swap(t[1], t[2]);
      ++rep.reoriented_tets;
    }
    tets.push_back(t);
    tet_lines.push_back(cells[c].line);
  }
  if (tets.empty()) in.Fail("the file has no tetrahedra", cells_line);
  // Keep only the vertices tets use (Gmsh lists its geometry's points too).
  std::vector<Vector3> vertices = std::move(points);
  rep.dropped_unreferenced_vertices = CompactVertices(&vertices, &tets);
  if (rep.dropped_unreferenced_vertices > 0)
    rep.warnings.push_back(name + ": dropped " + std::to_string(rep.dropped_unreferenced_vertices) +
                           " vertices that no tetrahedron uses");
  // Degenerate tets are reported with the line that lists them.
  for (size_t i = 0; i < tets.size(); ++i) {
    const Tet& t = tets[i];
    double longest = 0;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) longest = std::max(longest, (vertices[t[a]] - vertices[t[b]]).norm());
    if (!(SignedTetVolume(vertices[t[0]], vertices[t[1]], vertices[t[2]], vertices[t[3]]) >
          1e-12 * longest * longest * longest))
      in.Fail("tetrahedron is degenerate (zero volume)", tet_lines[i]);
  }
  VolumeMeshWithExtent result;
  result.mesh = std::make_shared<VolumeMesh>(std::move(vertices), std::move(tets));
  result.extent = CalcDistanceExtent(*result.mesh);
  return result;
}

VolumeMeshWithExtent ReadVtkVolumeMesh(const std::string& path, VtkReadReport* report) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InvalidInput(path + ":0: cannot open the file");
  std::ostringstream text;
  text << file.rdbuf();
  return ReadVtkVolumeMeshFromString(text.str(), path, report);
}

}  // namespace hydro
