#include "hydro/mesh_builder.h"

#include <algorithm>

#include "hydro/hydroelastic_geometry.h"

namespace hydro {

CompliantMesh MakeCompliantMesh(const VolumeMeshWithExtent& mesh, double modulus_Pa, double stiffening_k) {
  return CompliantMesh(PressureField(mesh.mesh, PressuresFromExtent(mesh.extent, modulus_Pa, stiffening_k)));
}

namespace internal {

const int kPermutations[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

int MeshBuilder::Vertex(const LatticeKey& key, const Vector3& p, double e) {
  const auto [it, inserted] = index_.emplace(key, static_cast<int>(positions_.size()));
  if (inserted) {
    positions_.push_back(p);
    extent_.push_back(e);
  }
  return it->second;
}

void MeshBuilder::AddTet(int a, int b, int c, int d) {
  if (a == b || a == c || a == d || b == c || b == d || c == d) return;
  const Vector3 &pa = positions_[a], &pb = positions_[b], &pc = positions_[c], &pd = positions_[d];
  double longest = 0;
  for (const Vector3* e : {&pb, &pc, &pd}) longest = std::max(longest, (*e - pa).norm());
  longest = std::max({longest, (pc - pb).norm(), (pd - pb).norm(), (pd - pc).norm()});
  const double volume = SignedTetVolume(pa, pb, pc, pd);
  if (std::abs(volume) <= 1e-12 * longest * longest * longest) return;
  if (volume > 0) {
    tets_.push_back({a, b, c, d});
  } else {
    tets_.push_back({a, c, b, d});
  }
}

void MeshBuilder::AddPrism(std::array<int, 3> bottom, std::array<int, 3> top) {
  // Sort the three columns by bottom index: v0 < v1 < v2.
  std::array<int, 3> order = {0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int i, int j) { return bottom[i] < bottom[j]; });
  const int v0 = bottom[order[0]], v1 = bottom[order[1]], v2 = bottom[order[2]];
  const int t0 = top[order[0]], t1 = top[order[1]], t2 = top[order[2]];
  AddTet(v0, v1, v2, t2);
  AddTet(v0, v1, t1, t2);
  AddTet(v0, t0, t1, t2);
}

void MeshBuilder::AddHex(const std::array<int, 8>& c) {
  for (const auto& perm : kPermutations) {
    int corner = 0;
    std::array<int, 4> v;
    v[0] = c[corner];
    for (int s = 0; s < 3; ++s) {
      corner |= 1 << perm[s];
      v[s + 1] = c[corner];
    }
    AddTet(v[0], v[1], v[2], v[3]);
  }
}

VolumeMeshWithExtent MeshBuilder::Build() {
  // Drop vertices no tet uses (a collapsed lattice can leave some) so every vertex is meshed.
  std::vector<int> remap(positions_.size(), -1);
  std::vector<Vector3> vertices;
  std::vector<double> extent;
  for (Tet& t : tets_) {
    for (int& v : t) {
      if (remap[v] < 0) {
        remap[v] = static_cast<int>(vertices.size());
        vertices.push_back(positions_[v]);
        extent.push_back(extent_[v]);
      }
      v = remap[v];
    }
  }
  VolumeMeshWithExtent result;
  result.mesh = std::make_shared<VolumeMesh>(std::move(vertices), std::move(tets_));
  result.extent = std::move(extent);
  return result;
}

}  // namespace internal
}  // namespace hydro
