#pragma once
// A bounding volume hierarchy of axis-aligned boxes over the elements (tets or triangles) of a
// mesh, built once in the mesh's own frame (001 §5.0.2, 004 §VII). Queries take the relative pose
// of the other geometry, so nothing is rebuilt when bodies move: a pair query costs O(m log n).
#include <functional>
#include <vector>

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

  explicit Bvh(const VolumeMesh& mesh);
  explicit Bvh(const TriangleSurfaceMesh& mesh);
  // Over arbitrary element boxes (lower/upper corners), e.g. for tests.
  Bvh(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper);

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  const Aabb& root_box() const { return nodes_[0].box; }

  // Calls visit(element_a, element_b) for every pair whose element boxes overlap, where this BVH's
  // elements live in frame A, `other`'s in frame B, and X_AB is B's pose in A. Boxes are
  // compared as oriented boxes (separating axis test), so rotations do not inflate them.
  void Collide(const Bvh& other, const RigidTransform& X_AB,
               const std::function<void(int, int)>& visit) const;
  // Calls visit(element) for every element whose box meets the slab lower ≤ n·p ≤ upper, with
  // n a unit vector in this BVH's frame (use ±infinity for one-sided tests).
  void CollideSlab(const Vector3& n, double lower, double upper,
                   const std::function<void(int)>& visit) const;

 private:
  struct Node {
    Aabb box;
    int left{-1}, right{-1};     // children (internal nodes)
    int first{0}, count{0};      // range in element_order_ (leaves: count > 0)
  };
  void Build(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper);
  int BuildNode(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
                const std::vector<Vector3>& centroid, int first, int count);

  std::vector<Node> nodes_;
  std::vector<int> element_order_;
  std::vector<Aabb> element_boxes_;  // by element index; leaves test their elements one by one
};

// Separating axis test between box a (in frame A) and box b (in frame B posed at X_AB).
bool BoxesOverlap(const Aabb& a, const Aabb& b, const RigidTransform& X_AB);

}  // namespace hydro
