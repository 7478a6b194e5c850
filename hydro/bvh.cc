#include "hydro/bvh.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "hydro/check.h"
#include "hydro/surface_mesh.h"
#include "hydro/volume_mesh.h"

namespace hydro {
namespace {

Aabb BoxOf(const Vector3& lower, const Vector3& upper) {
  Aabb box;
  box.center = 0.5 * (lower + upper);
  box.half_size = 0.5 * (upper - lower);
  return box;
}

template <typename Mesh, int N>
void ElementBoxes(const Mesh& mesh, const std::vector<std::array<int, N>>& elements, std::vector<Vector3>* lower,
                  std::vector<Vector3>* upper) {
  lower->resize(elements.size());
  upper->resize(elements.size());
  for (size_t e = 0; e < elements.size(); ++e) {
    Vector3 lo = mesh.vertex(elements[e][0]), hi = lo;
    for (int i = 1; i < N; ++i) {
      lo = lo.cwiseMin(mesh.vertex(elements[e][i]));
      hi = hi.cwiseMax(mesh.vertex(elements[e][i]));
    }
    (*lower)[e] = lo;
    (*upper)[e] = hi;
  }
}

}  // namespace

Bvh::Bvh(const VolumeMesh& mesh, const std::vector<std::array<double, 2>>* value_ranges) {
  std::vector<Vector3> lower, upper;
  ElementBoxes<VolumeMesh, 4>(mesh, mesh.tets(), &lower, &upper);
  Build(lower, upper, value_ranges);
}

Bvh::Bvh(const TriangleSurfaceMesh& mesh) {
  std::vector<Vector3> lower, upper;
  ElementBoxes<TriangleSurfaceMesh, 3>(mesh, mesh.triangles(), &lower, &upper);
  Build(lower, upper);
}

Bvh::Bvh(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
         const std::vector<std::array<double, 2>>* value_ranges) {
  Build(lower, upper, value_ranges);
}

void Bvh::Build(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
                const std::vector<std::array<double, 2>>* value_ranges) {
  if (lower.empty() || lower.size() != upper.size()) throw InvalidInput("Bvh: no elements");
  if (value_ranges && value_ranges->size() != lower.size())
    throw InvalidInput("Bvh: one value range per element expected");
  std::vector<Vector3> centroid(lower.size());
  element_order_.resize(lower.size());
  for (size_t e = 0; e < lower.size(); ++e) {
    centroid[e] = 0.5 * (lower[e] + upper[e]);
    element_order_[e] = static_cast<int>(e);
  }
  nodes_.reserve(2 * lower.size() / kMaxLeafElements + 2);
  height_ = 0;
  BuildNode(lower, upper, centroid, value_ranges, 0, static_cast<int>(lower.size()), 1);
  HYDRO_DEMAND(height_ <= kMaxHeight, "a median split of " + std::to_string(lower.size()) + " elements is " +
                                          std::to_string(height_) + " deep");
  element_boxes_.resize(lower.size());
  if (value_ranges) element_ranges_.resize(lower.size());
  for (size_t i = 0; i < lower.size(); ++i) {
    const int e = element_order_[i];
    element_boxes_[i] = BoxOf(lower[e], upper[e]);
    if (value_ranges) element_ranges_[i] = (*value_ranges)[e];
  }
}

int Bvh::BuildNode(const std::vector<Vector3>& lower, const std::vector<Vector3>& upper,
                   const std::vector<Vector3>& centroid, const std::vector<std::array<double, 2>>* value_ranges,
                   int first, int count, int depth) {
  height_ = std::max(height_, depth);
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Vector3 lo = lower[element_order_[first]], hi = upper[element_order_[first]];
  Vector3 clo = centroid[element_order_[first]], chi = clo;
  for (int i = first + 1; i < first + count; ++i) {
    const int e = element_order_[i];
    lo = lo.cwiseMin(lower[e]);
    hi = hi.cwiseMax(upper[e]);
    clo = clo.cwiseMin(centroid[e]);
    chi = chi.cwiseMax(centroid[e]);
  }
  nodes_[index].box = BoxOf(lo, hi);
  if (value_ranges) {
    const std::vector<std::array<double, 2>>& ranges = *value_ranges;
    double vmin = ranges[element_order_[first]][0], vmax = ranges[element_order_[first]][1];
    for (int i = first + 1; i < first + count; ++i) {
      vmin = std::min(vmin, ranges[element_order_[i]][0]);
      vmax = std::max(vmax, ranges[element_order_[i]][1]);
    }
    nodes_[index].value_min = vmin;
    nodes_[index].value_max = vmax;
  }
  if (count <= kMaxLeafElements) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  int axis;
  (chi - clo).maxCoeff(&axis);
  const int half = count / 2;
  std::nth_element(element_order_.begin() + first, element_order_.begin() + first + half,
                   element_order_.begin() + first + count,
                   [&](int a, int b) { return centroid[a][axis] < centroid[b][axis]; });
  const int left = BuildNode(lower, upper, centroid, value_ranges, first, half, depth + 1);
  const int right = BuildNode(lower, upper, centroid, value_ranges, first + half, count - half, depth + 1);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

namespace {

// X_AB with |R_AB| precomputed: every box test of one query shares them.
struct RelativePose {
  explicit RelativePose(const RigidTransform& X_AB)
      : R(X_AB.linear()), absR(X_AB.linear().cwiseAbs()), p_AoBo_A(X_AB.translation()) {}
  Matrix3 R, absR;
  Vector3 p_AoBo_A;
};

// b's box seen in A: its centre and the half sizes of the A-aligned box around it.
struct BoxInA {
  BoxInA() : center(Vector3::Zero()), half_size(Vector3::Zero()) {}
  BoxInA(const Aabb& b, const RelativePose& X) : center(X.R * b.center + X.p_AoBo_A), half_size(X.absR * b.half_size) {}
  Vector3 center, half_size;
};

// Forced inline where the compiler has the attribute (GCC, Clang); a plain inline elsewhere.
#if defined(__GNUC__)
#define HYDRO_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HYDRO_ALWAYS_INLINE inline
#endif

// The six face axes of the separating axis test: a's three (from b's A-aligned hull) and b's.
// Inlined: a pair query makes 70 of these tests for each polygon it keeps (two spheres at R/8).
HYDRO_ALWAYS_INLINE bool MayOverlap(const Aabb& a, const Aabb& b, const BoxInA& b_in_A, const RelativePose& X) {
  const Vector3 t = b_in_A.center - a.center;
  for (int i = 0; i < 3; ++i)
    if (std::abs(t[i]) > a.half_size[i] + b_in_A.half_size[i]) return false;
  for (int j = 0; j < 3; ++j) {
    const double t_j = X.R(0, j) * t[0] + X.R(1, j) * t[1] + X.R(2, j) * t[2];
    const double r_a = X.absR(0, j) * a.half_size[0] + X.absR(1, j) * a.half_size[1] + X.absR(2, j) * a.half_size[2];
    if (std::abs(t_j) > r_a + b.half_size[j]) return false;
  }
  return true;
}

}  // namespace

bool BoxesMayOverlap(const Aabb& a, const Aabb& b, const RigidTransform& X_AB) {
  const RelativePose X(X_AB);
  return MayOverlap(a, b, BoxInA(b, X), X);
}

bool BoxesOverlap(const Aabb& a, const Aabb& b, const RigidTransform& X_AB) {
  // Separating axis theorem for two oriented boxes (15 axes), in frame A.
  const Matrix3& R = X_AB.linear();
  const Vector3 t = X_AB * b.center - a.center;
  Matrix3 absR = R.cwiseAbs();
  absR.array() += 1e-12;  // guards near-parallel edge pairs
  const Vector3& ea = a.half_size;
  const Vector3& eb = b.half_size;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(t[i]) > ea[i] + absR.row(i).dot(eb)) return false;
  }
  for (int j = 0; j < 3; ++j) {
    if (std::abs(t.dot(R.col(j))) > absR.col(j).dot(ea) + eb[j]) return false;
  }
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double ra = ea[i1] * absR(i2, j) + ea[i2] * absR(i1, j);
      const double rb = eb[j1] * absR(i, j2) + eb[j2] * absR(i, j1);
      const double dist = std::abs(t[i2] * R(i1, j) - t[i1] * R(i2, j));
      if (dist > ra + rb) return false;
    }
  }
  return true;
}

void Bvh::Collide(const Bvh& other, const RigidTransform& X_AB, FunctionRef<void(int, int)> visit,
                  bool cull_by_value_range) const {
  CollideFrom({0, 0}, other, X_AB, visit, cull_by_value_range);
}

void Bvh::CollideFrom(const NodePair& start, const Bvh& other, const RigidTransform& X_AB,
                      FunctionRef<void(int, int)> visit, bool cull_by_value_range) const {
  const bool cull = cull_by_value_range && !element_ranges_.empty() && !other.element_ranges_.empty();
  // Iterative simultaneous descent; the stack is local so concurrent queries are safe. A pop
  // pushes two pairs one level deeper in one tree, so it never holds more than the two heights + 1.
  const RelativePose X(X_AB);
  std::array<NodePair, 2 * kMaxHeight + 1> stack;
  int top = 0;
  stack[top++] = start;
  // b's node box carried into A, kept while the descent stays in one b node (it descends a's
  // tree under a b node for several pops in a row).
  int ib_in_A = -1;
  BoxInA nb_in_A;
  // The same for the elements of the b leaf last met at a leaf pair: the descent meets one b leaf
  // with several a leaves in a row.
  int leaf_b_in_A = -1;
  std::array<BoxInA, kMaxLeafElements> elements_b_in_A;
  while (top > 0) {
    const auto [ia, ib] = stack[--top];
    const Node& na = nodes_[ia];
    const Node& nb = other.nodes_[ib];
    if (cull && (na.value_max < nb.value_min || nb.value_max < na.value_min)) continue;
    if (ib != ib_in_A) nb_in_A = BoxInA(nb.box, X), ib_in_A = ib;
    if (!MayOverlap(na.box, nb.box, nb_in_A, X)) continue;
    const bool a_leaf = na.count > 0, b_leaf = nb.count > 0;
    if (a_leaf && b_leaf) {
      if (ib != leaf_b_in_A) {
        for (int j = 0; j < nb.count; ++j) elements_b_in_A[j] = BoxInA(other.element_boxes_[nb.first + j], X);
        leaf_b_in_A = ib;
      }
      // i and j are places in the two trees' leaf orders.
      for (int j = nb.first; j < nb.first + nb.count; ++j) {
        const Aabb& box_b = other.element_boxes_[j];
        const BoxInA& box_b_in_A = elements_b_in_A[j - nb.first];
        for (int i = na.first; i < na.first + na.count; ++i) {
          if (cull && (element_ranges_[i][1] < other.element_ranges_[j][0] ||
                       other.element_ranges_[j][1] < element_ranges_[i][0]))
            continue;
          if (!MayOverlap(element_boxes_[i], box_b, box_b_in_A, X)) continue;
          visit(element_order_[i], other.element_order_[j]);
        }
      }
    } else if (b_leaf || (!a_leaf && na.box.half_size.maxCoeff() >= nb.box.half_size.maxCoeff())) {
      HYDRO_ASSERT(top + 2 <= static_cast<int>(stack.size()));
      stack[top++] = {na.left, ib};
      stack[top++] = {na.right, ib};
    } else {
      HYDRO_ASSERT(top + 2 <= static_cast<int>(stack.size()));
      stack[top++] = {ia, nb.left};
      stack[top++] = {ia, nb.right};
    }
  }
}

int Bvh::SplitCollide(const Bvh& other, const RigidTransform& X_AB, bool cull_by_value_range, int max_pieces,
                      NodePair* pieces) const {
  const bool cull = cull_by_value_range && !element_ranges_.empty() && !other.element_ranges_.empty();
  const RelativePose X(X_AB);
  max_pieces = std::clamp(max_pieces, 1, kMaxPieces);
  int n = 0;
  pieces[n++] = {0, 0};
  // A pair is replaced by the two pairs CollideFrom would push, in the order it finishes them (the
  // one pushed last first), so the pieces keep Collide's order.
  while (n < max_pieces) {
    int largest = -1;
    double size = -1;
    for (int k = 0; k < n; ++k) {
      const Node& na = nodes_[pieces[k].first];
      const Node& nb = other.nodes_[pieces[k].second];
      if (na.count > 0 && nb.count > 0) continue;  // two leaves: one piece
      const double s = na.box.half_size.maxCoeff() + nb.box.half_size.maxCoeff();
      if (s > size) size = s, largest = k;
    }
    if (largest < 0) break;
    const auto [ia, ib] = pieces[largest];
    const Node& na = nodes_[ia];
    const Node& nb = other.nodes_[ib];
    const bool meet = !(cull && (na.value_max < nb.value_min || nb.value_max < na.value_min)) &&
                      MayOverlap(na.box, nb.box, BoxInA(nb.box, X), X);
    if (!meet) {
      std::copy(pieces + largest + 1, pieces + n, pieces + largest);
      --n;
      if (n == 0) break;
      continue;
    }
    NodePair first, second;  // in Collide's order
    if (nb.count > 0 || (na.count == 0 && na.box.half_size.maxCoeff() >= nb.box.half_size.maxCoeff())) {
      first = {na.right, ib}, second = {na.left, ib};
    } else {
      first = {ia, nb.right}, second = {ia, nb.left};
    }
    std::copy_backward(pieces + largest + 1, pieces + n, pieces + n + 1);
    pieces[largest] = first;
    pieces[largest + 1] = second;
    ++n;
  }
  return n;
}

void Bvh::CollideSlab(const Vector3& n, double lower, double upper, FunctionRef<void(int)> visit) const {
  std::array<int, kMaxHeight + 1> stack;  // a pop pushes two nodes one level deeper
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    const double center = n.dot(node.box.center);
    const double radius = n.cwiseAbs().dot(node.box.half_size);
    if (center + radius < lower || center - radius > upper) continue;
    if (node.count > 0) {
      for (int i = node.first; i < node.first + node.count; ++i) {
        const Aabb& box = element_boxes_[i];
        const double c = n.dot(box.center), r = n.cwiseAbs().dot(box.half_size);
        if (c + r >= lower && c - r <= upper) visit(element_order_[i]);
      }
    } else {
      HYDRO_ASSERT(top + 2 <= static_cast<int>(stack.size()));
      stack[top++] = node.left;
      stack[top++] = node.right;
    }
  }
}

}  // namespace hydro
