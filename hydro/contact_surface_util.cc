#include "hydro/contact_surface_util.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "hydro/parallel_for.h"

namespace hydro {
namespace internal {

void ClipPolygonByTet(const std::array<Vector3, 4>& inward_normals, const std::array<double, 4>& offsets,
                      const Vector3& n_poly, int skip_face, double tolerance, ClipPolygon* poly) {
  // Each clip writes into the other buffer, so no polygon is copied back until the end.
  ClipPolygon scratch;
  ClipPolygon* current = poly;
  ClipPolygon* other = &scratch;
  std::array<double, ClipPolygon::kCapacity> s;
  for (int f = 0; f < 4 && current->n >= 3; ++f) {
    if (f == skip_face) continue;
    switch (SignedDistancesToPlane(*current, inward_normals[f], offsets[f], tolerance, s.data())) {
      case PlaneSide::kInPlane:
        if (inward_normals[f].dot(n_poly) <= 0) current->n = 0;
        break;
      case PlaneSide::kInside:
        break;
      case PlaneSide::kOutside:
        current->n = 0;
        break;
      case PlaneSide::kCrossing:
        ClipBySignedDistances(*current, s.data(), other);
        std::swap(current, other);
        break;
    }
  }
  if (current != poly) {
    poly->n = current->n;
    std::copy_n(current->p.begin(), current->n, poly->p.begin());
  }
}

namespace {

// Pieces per query: enough to even out their sizes.
constexpr int kPiecesPerThread = 8;
constexpr int kPartPolygons = 256;

}  // namespace

void CollideInPieces(const Bvh& a, const Bvh& b, const RigidTransform& X_AB, bool cull_by_value_range,
                     FunctionRef<void(int, int, ContactSurface*, CarriedElements*)> clip, ContactSurface* surface) {
  const int threads = ContactThreads();
  if (threads <= 1 || !SplitsInPieces(a.num_nodes(), b.num_nodes())) {
    CarriedElements carried;
    a.Collide(
        b, X_AB, [&](int element_a, int element_b) { clip(element_a, element_b, surface, &carried); },
        cull_by_value_range);
    return;
  }
  const int max_pieces = std::min(kPiecesPerThread * threads, Bvh::kMaxPieces);
  std::array<Bvh::NodePair, Bvh::kMaxPieces> pending;
  const int num_pending = a.SplitCollide(b, X_AB, cull_by_value_range, max_pieces, pending.data());
  // The calling thread's parts: as many as a query may have pieces, made at once, each with room
  // for a piece of a large patch. Parts differ from step to step in what they hold; made or grown
  // as needed they allocated 7 times in 60 steps of the float build's allocation test (14 in all,
  // against its bound of 12). A lambda names a thread_local as the running thread's own, so the
  // tasks get the caller's parts by pointer.
  thread_local std::vector<ContactSurface> caller_parts;
  while (static_cast<int>(caller_parts.size()) < max_pieces) {
    caller_parts.emplace_back();
    caller_parts.back().Reserve(kPartPolygons, 6 * kPartPolygons);
  }
  ContactSurface* const parts = caller_parts.data();
  ParallelFor(num_pending, [&](int k) {
    ContactSurface* part = &parts[k];
    part->Clear();
    CarriedElements carried;
    a.CollideFrom(
        pending[k], b, X_AB, [&](int element_a, int element_b) { clip(element_a, element_b, part, &carried); },
        cull_by_value_range);
  });
  for (int k = 0; k < num_pending; ++k) surface->Append(parts[k]);
}

}  // namespace internal
}  // namespace hydro
