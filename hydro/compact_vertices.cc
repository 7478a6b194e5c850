#include "hydro/compact_vertices.h"

#include <string>
#include <utility>

namespace hydro {

int CompactVertices(std::vector<Vector3>* vertices, std::vector<Tet>* tets) {
  const int num_vertices = static_cast<int>(vertices->size());
  // Every index is checked before any is renumbered, so a refused mesh is left as it was given.
  for (size_t t = 0; t < tets->size(); ++t)
    for (int v : (*tets)[t])
      if (v < 0 || v >= num_vertices)
        throw InvalidInput("tet " + std::to_string(t) + " refers to vertex " + std::to_string(v) + " but there are " +
                           std::to_string(num_vertices) + " vertices");
  // Kept vertices keep their order: a mesh that uses every vertex keeps its numbering, so a FEM
  // body's vertex i is the file's or the generator's vertex i.
  std::vector<int> new_index(num_vertices, -1);
  for (const Tet& t : *tets)
    for (int v : t) new_index[v] = 0;
  std::vector<Vector3> kept;
  for (int v = 0; v < num_vertices; ++v)
    if (new_index[v] == 0) {
      new_index[v] = static_cast<int>(kept.size());
      kept.push_back((*vertices)[v]);
    }
  for (Tet& t : *tets)
    for (int& v : t) v = new_index[v];
  const int dropped = num_vertices - static_cast<int>(kept.size());
  *vertices = std::move(kept);
  return dropped;
}

}  // namespace hydro
