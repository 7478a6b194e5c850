#pragma once
// A bounding volume hierarchy of axis-aligned boxes over the elements (tets or triangles) of a
// mesh, built once in the mesh's own frame (001 §5.0.2, 004 §VII). Queries take the relative pose
// of the other geometry, so nothing is rebuilt when bodies move: a pair query costs O(m log n).
#include <array>
#include <limits>
#include <utility>
#include <vector>

#include "hydro/function_ref.h"
#include "hydro/math.h"

namespace hydro {

class TriangleSurfaceMesh;
class VolumeMesh;

struct Aabb {
  Vector3 center{Vector3::Zero()};
  Vector3 half_size{Vector3::Constant(-1)};  // negative: empty
};

class Bvh {
 public:
  // Leaf boxes hold up to kMaxLeafElements elements; the tree is split at the median of the
  // longest axis of the element centroids.
  static constexpr int kMaxLeafElements = 4;

  // `value_ranges`, when given, holds a [min, max] interval of some scalar per tet (the pressure
  // range); every node then stores the union of its tets' intervals, and Collide() can skip
  // node pairs whose intervals are disjoint.
  explicit Bvh(const VolumeMesh& mesh, const std::vector<std::array<double, 2>>* value_ranges = nullptr);
  explicit Bvh(const TriangleSurfaceMesh& mesh);
  // Over arbitrary element boxes (lower/upper corners), e.g. for tests.
  Bvh(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
      const std::vector<std::array<double, 2>>* value_ranges = nullptr);

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  // The most nodes on a path from the root to a leaf (a median split halves every node: about
  // log2 of the elements). Queries keep their traversal stacks on the call stack, sized by it.
  int height() const { return height_; }
  static constexpr int kMaxHeight = 48;
  const Aabb& root_box() const { return nodes_[0].box; }

  // Calls visit(element_a, element_b) for every pair whose element boxes overlap, where this BVH's
  // elements live in frame A, `other`'s in frame B, and X_AB is B's pose in A. Boxes are
  // compared as oriented boxes on their six face axes (BoxesMayOverlap), so rotations do not
  // inflate them; a few pairs separated only along an edge-edge axis may be visited too. With
  // `cull_by_value_range`, node and element pairs whose value ranges are disjoint are skipped too
  // (two pressure fields can only be equal where their ranges overlap).
  void Collide(const Bvh& other, const RigidTransform& X_AB, FunctionRef<void(int, int)> visit,
               bool cull_by_value_range = false) const;
  // Collide in pieces that can run side by side: splits the descent into at most `max_pieces`
  // (≤ kMaxPieces) node pairs, written to `pieces`, whose count is returned. Collide is exactly
  // CollideFrom(pieces[0]), CollideFrom(pieces[1]), … in that order. The pair whose boxes are
  // largest is split first, so that the pieces are of about equal work; pairs that cannot meet are
  // dropped on the way.
  using NodePair = std::pair<int, int>;
  static constexpr int kMaxPieces = 64;
  int SplitCollide(const Bvh& other, const RigidTransform& X_AB, bool cull_by_value_range, int max_pieces,
                   NodePair* pieces) const;
  void CollideFrom(const NodePair& start, const Bvh& other, const RigidTransform& X_AB,
                   FunctionRef<void(int, int)> visit, bool cull_by_value_range = false) const;
  // Calls visit(element) for every element whose box meets the slab lower ≤ n·p ≤ upper, with
  // n a unit vector in this BVH's frame (use ±infinity for one-sided tests).
  void CollideSlab(const Vector3& n, double lower, double upper, FunctionRef<void(int)> visit) const;

 private:
  struct Node {
    Aabb box;
    double value_min{-std::numeric_limits<double>::infinity()};
    double value_max{std::numeric_limits<double>::infinity()};
    int left{-1}, right{-1};  // children (internal nodes)
    int first{0}, count{0};   // range in element_order_ (leaves: count > 0)
  };
  void Build(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
             const std::vector<std::array<double, 2>>* value_ranges = nullptr);
  int BuildNode(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
                const std::vector<Vector3>& centroid, const std::vector<std::array<double, 2>>* value_ranges, int first,
                int count, int depth);

  std::vector<Node> nodes_;
  int height_{0};
  // The elements in leaf order: a leaf's are element_order_[first … first + count − 1]. Their boxes
  // and value ranges are stored in the same order, so a leaf reads its elements' data in one run
  // instead of gathering it by element index.
  std::vector<int> element_order_;
  std::vector<Aabb> element_boxes_;
  std::vector<std::array<double, 2>> element_ranges_;  // empty unless built with value ranges
};

// Separating axis test between box a (in frame A) and box b (in frame B posed at X_AB).
bool BoxesOverlap(const Aabb& a, const Aabb& b, const RigidTransform& X_AB);
// The same with only the six face axes: may report overlap for boxes separated along an
// edge-edge axis, never the reverse. Cheaper; used to prune internal nodes.
bool BoxesMayOverlap(const Aabb& a, const Aabb& b, const RigidTransform& X_AB);

}  // namespace hydro
