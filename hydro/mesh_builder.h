#pragma once
// Shared machinery for the mesh generators: vertices keyed by integer lattice coordinates (so that
// pieces built separately share vertices exactly), and tets added with their orientation fixed and
// zero-volume tets (from collapsed lattice cells) dropped.
#include <array>
#include <map>
#include <memory>
#include <vector>

#include "hydro/pressure_field.h"
#include "hydro/volume_mesh.h"

namespace hydro {

class CompliantMesh;

// A volume mesh with an extent field e per vertex: 0 on the boundary, 1 at the deepest points
// (004 §VI-A). p0 = E·e (or M(e)·e, 001 eq. 5.4) turns it into a pressure field.
struct VolumeMeshWithExtent {
  std::shared_ptr<const VolumeMesh> mesh;
  std::vector<double> extent;
};

// The compliant geometry for a mesh with extent and a hydroelastic modulus E (Pa):
// p0 = E·e/(1 − k·e) with the nonlinear stiffening k of 001 eq. 5.4 (k = 0: linear).
CompliantMesh MakeCompliantMesh(const VolumeMeshWithExtent& mesh, double modulus_Pa, double stiffening_k = 0.0);

namespace internal {

using LatticeKey = std::array<int, 4>;

class MeshBuilder {
 public:
  // The vertex for `key`, created at p with extent e on first use.
  int Vertex(const LatticeKey& key, const Vector3& p, double e);
  // Adds the tet, swapping two vertices if it is negatively oriented; drops it when its volume is
  // below 1e-12 of its longest edge cubed (a lattice cell that collapsed onto a lower dimension).
  void AddTet(int a, int b, int c, int d);
  // Splits the triangular prism (bottom a, b, c; top a2, b2, c2, with a→a2 etc.) into three tets so
  // that every quad side is cut along the diagonal from its lower-index bottom vertex, which makes
  // neighbouring prisms agree whatever order they are built in.
  void AddPrism(std::array<int, 3> bottom, std::array<int, 3> top);
  // Splits the hexahedron with corners c[i] (i = x + 2y + 4z in its local axes) into the six Kuhn
  // tets around its (0,0,0)–(1,1,1) diagonal; hexes whose local axes follow the same global
  // directions then agree on their shared faces.
  void AddHex(const std::array<int, 8>& c);
  // Splits every tet whose four vertices lie on the boundary (extent 0) at its centroid c, with
  // extent extent_at(c) there: such a tet would carry no pressure at all (Drake's medial-axis
  // meshes have an interior vertex in every tet; a generator whose lattice misses it in places, a
  // thin cylinder's rim, calls this). Faces are kept, so the mesh stays conforming.
  template <typename ExtentAt>
  void SplitBoundaryOnlyTets(const ExtentAt& extent_at) {
    const std::vector<Tet> tets = std::move(tets_);
    tets_.clear();
    for (const Tet& t : tets) {
      const bool boundary_only = extent_[t[0]] == 0 && extent_[t[1]] == 0 && extent_[t[2]] == 0 && extent_[t[3]] == 0;
      const Vector3 c = 0.25 * (positions_[t[0]] + positions_[t[1]] + positions_[t[2]] + positions_[t[3]]);
      const double e = boundary_only ? extent_at(c) : 0.0;
      if (!(e > 0)) {
        tets_.push_back(t);
        continue;
      }
      const int centroid = static_cast<int>(positions_.size());
      positions_.push_back(c);
      extent_.push_back(e);
      AddTet(t[0], t[1], t[2], centroid);
      AddTet(t[0], t[1], t[3], centroid);
      AddTet(t[0], t[2], t[3], centroid);
      AddTet(t[1], t[2], t[3], centroid);
    }
  }
  VolumeMeshWithExtent Build();

  const Vector3& position(int v) const { return positions_[v]; }

 private:
  std::map<LatticeKey, int> index_;
  std::vector<Vector3> positions_;
  std::vector<double> extent_;
  std::vector<Tet> tets_;
};

// The six permutations of three axes, for Kuhn (Freudenthal) simplices.
extern const int kPermutations[6][3];

}  // namespace internal
}  // namespace hydro
