#include "plugin/pair_contact.h"

#include <BulletCollision/CollisionShapes/btConvexInternalShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>

#include <algorithm>
#include <limits>

#include "adapters/bullet_conversions.h"
#include "hydro/check.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/contact_surface_util.h"
#include "hydro/depth_bound.h"

namespace hydro {
namespace bullet {
namespace {

using Kind = ShapeGeometry::Kind;

// Whether the pair's surface is found in closed form (hydro/compliant_box.h): a compliant box
// against a compliant or rigid box, no trees.
bool MeetInClosedForm(const ShapeGeometry& a, const ShapeGeometry& b) {
  return (a.compliant_box && (b.compliant_box || b.rigid_box)) || (b.compliant_box && a.rigid_box);
}

// Whether the core computes a surface between compliant geometry `c` and `o`.
bool HasSurface(const ShapeGeometry& c, const ShapeGeometry& o) {
  if (c.kind == Kind::kCompliantMesh)
    return o.kind == Kind::kCompliantMesh || o.kind == Kind::kCompliantHalfSpace || o.kind == Kind::kRigidMesh ||
           o.kind == Kind::kRigidHalfSpace;
  if (c.kind == Kind::kCompliantHalfSpace) return o.kind == Kind::kRigidMesh || o.kind == Kind::kCompliantMesh;
  return false;
}

// Whether compliant mesh `mesh` (posed at X_WC) reaches into rigid box `box` (posed at X_WO)
// through one face only: its bounding box, posed in the box's frame O, crosses that face's plane
// and lies strictly within the other five. Then the box's boundary inside the mesh is that face's
// alone, and the surface (the rigid boundary inside the compliant volume, 001 §5.0.2) is the one
// of the half-space below the face, whose pose X_WH (z out of the face) is written: the same
// region and pressures, cut into polygons by the tets alone instead of by the tets and the face's
// triangles. A body resting on a ground box, away from its edges, is this case.
bool ReachesThroughOneFace(const CompliantMesh& mesh, const RigidTransform& X_WC, const RigidBox& box,
                           const RigidTransform& X_WO, RigidTransform* X_WH) {
  const RigidTransform X_OC = X_WO.inverse(Eigen::Isometry) * X_WC;
  const Aabb& root = mesh.bvh().root_box();
  const Vector3 center_O = X_OC * root.center;
  const Vector3 half_O = X_OC.linear().cwiseAbs() * root.half_size;
  const Vector3 lo = center_O - half_O, hi = center_O + half_O;
  const Vector3& h = box.half_size();
  int axis = -1;
  double sign = 0;
  for (int k = 0; k < 3; ++k) {
    const bool upper = hi[k] >= h[k], lower = lo[k] <= -h[k];
    if (!upper && !lower) continue;
    if (axis >= 0 || (upper && lower)) return false;
    axis = k;
    sign = upper ? 1 : -1;
  }
  if (axis < 0) return false;  // within the box: its boundary is out of the mesh's reach
  // The face's frame: z = sign·e_axis, x = the next axis, y = z × x; origin at the face's centre.
  RigidTransform X_OH = RigidTransform::Identity();
  const Vector3 z = sign * Vector3::Unit(axis), x = Vector3::Unit((axis + 1) % 3);
  X_OH.linear().col(0) = x;
  X_OH.linear().col(1) = z.cross(x);
  X_OH.linear().col(2) = z;
  X_OH.translation() = sign * h[axis] * Vector3::Unit(axis);
  *X_WH = X_WO * X_OH;
  return true;
}

// The surface with the compliant geometry `c` first (the core's argument order), for a pair that
// HasSurface.
void CompliantFirst(const ShapeGeometry& c, const RigidTransform& X_WC, const ShapeGeometry& o,
                    const RigidTransform& X_WO, ContactSurface* surface) {
  if (c.kind == Kind::kCompliantMesh) {
    const CompliantMesh& mesh = *c.compliant_mesh;
    switch (o.kind) {
      case Kind::kCompliantMesh:
        if (c.compliant_box && o.compliant_box)
          CalcContactSurface(*c.compliant_box, X_WC, *o.compliant_box, X_WO, surface);
        else
          CalcContactSurface(mesh, X_WC, *o.compliant_mesh, X_WO, surface);
        return;
      case Kind::kCompliantHalfSpace:
        CalcContactSurface(mesh, X_WC, *o.compliant_half_space, X_WO, surface);
        return;
      case Kind::kRigidMesh: {
        RigidTransform X_WH;
        if (c.compliant_box && o.rigid_box)
          CalcContactSurface(*c.compliant_box, X_WC, *o.rigid_box, X_WO, surface);
        else if (o.rigid_box && ReachesThroughOneFace(mesh, X_WC, *o.rigid_box, X_WO, &X_WH))
          CalcContactSurface(mesh, X_WC, RigidHalfSpace{}, X_WH, surface);
        else
          CalcContactSurface(mesh, X_WC, *o.rigid_mesh, X_WO, surface);
        return;
      }
      default:
        HYDRO_ASSERT(o.kind == Kind::kRigidHalfSpace);
        CalcContactSurface(mesh, X_WC, RigidHalfSpace{}, X_WO, surface);
        return;
    }
  }
  HYDRO_ASSERT(c.kind == Kind::kCompliantHalfSpace);
  if (o.kind == Kind::kRigidMesh) {
    CalcContactSurface(*c.compliant_half_space, X_WC, *o.rigid_mesh, X_WO, surface);
  } else {
    CalcContactSurface(*o.compliant_mesh, X_WO, *c.compliant_half_space, X_WC, surface);
    surface->SwapAB();
  }
}

}  // namespace

PairSurfaceOutcome CalcPairSurface(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                                   const RigidTransform& X_WSb, ContactSurface* surface) {
  surface->Clear();
  const ShapeGeometry* compliant = a.is_compliant() ? &a : b.is_compliant() ? &b : nullptr;
  const ShapeGeometry* other = compliant == &a ? &b : &a;
  if (!compliant || !HasSurface(*compliant, *other)) return PairSurfaceOutcome::kNoPressureField;
  const RigidTransform X_WA = X_WSa * a.X_SG;
  const RigidTransform X_WB = X_WSb * b.X_SG;
  try {
    // A pair apart skips its BVH query; boxes meet in closed form, at less than the test costs
    // (BasicDemo's fall: 1.3 % more instructions with the axes tried on its boxes, +0.01 %
    // without). The core validates the poses it is given; the test reads them first (a few dozen
    // flops, twice for a pair that is not apart).
    if (!MeetInClosedForm(a, b)) {
      CheckPose(X_WA, "pose of geometry a (X_WSa·X_SG)");
      CheckPose(X_WB, "pose of geometry b (X_WSb·X_SG)");
      if (AreApart(a, X_WSa, b, X_WSb)) return PairSurfaceOutcome::kComputed;
    }
    if (compliant == &a) {
      CompliantFirst(a, X_WA, b, X_WB, surface);
    } else {
      CompliantFirst(b, X_WB, a, X_WA, surface);
      surface->SwapAB();
    }
  } catch (const InvalidInput&) {  // CheckPose
    surface->Clear();
    return PairSurfaceOutcome::kInvalidPose;
  }
  return PairSurfaceOutcome::kComputed;
}

PointQuadrature PairPointQuadrature(const ShapeGeometry& a, const ShapeGeometry& b, int max_patch_points) {
  const bool tets = a.kind == Kind::kCompliantMesh || b.kind == Kind::kCompliantMesh;
  if (!tets || MeetInClosedForm(a, b)) return PointQuadrature::kPolygonCentroid;
  return max_patch_points > 0 ? PointQuadrature::kScaledTriangleFan : PointQuadrature::kTriangleFan;
}

bool SplitsInPieces(const ShapeGeometry& a, const ShapeGeometry& b) {
  if (MeetInClosedForm(a, b)) return false;  // 36 region pairs, no trees
  auto nodes = [](const ShapeGeometry& g) {
    if (g.kind == ShapeGeometry::Kind::kCompliantMesh) return g.compliant_mesh->bvh().num_nodes();
    if (g.kind == ShapeGeometry::Kind::kRigidMesh) return g.rigid_mesh->bvh().num_nodes();
    return -1;  // a half-space or nothing: no tree to split
  };
  const int nodes_a = nodes(a), nodes_b = nodes(b);
  return nodes_a >= 0 && nodes_b >= 0 && internal::SplitsInPieces(nodes_a, nodes_b);
}

namespace {

// The lowest n·p over the geometry g posed at X_WG (its frame G): its bounding box `box`'s
// support, raised to its convex hull's where it has one (ShapeGeometry::support). A caller asking
// along many nearby directions keeps `hint` from one to the next (ConvexSupport::MaxAlong).
double LowestAlong(const ShapeGeometry& g, const Aabb& box, const RigidTransform& X_WG, const Vector3& n_W,
                   int* hint = nullptr) {
  const Vector3 n_G = X_WG.linear().transpose() * n_W;
  const double low = n_W.dot(X_WG * box.center) - n_G.cwiseAbs().dot(box.half_size);
  if (!g.support) return low;
  return std::max(low, g.support->MinAlong(n_G, hint) + n_W.dot(X_WG.translation()));
}

// The highest n·p over the geometry, as LowestAlong.
double HighestAlong(const ShapeGeometry& g, const Aabb& box, const RigidTransform& X_WG, const Vector3& n_W,
                    int* hint = nullptr) {
  return -LowestAlong(g, box, X_WG, -n_W, hint);
}

// The geometry's bounding box in its frame G, or false for a half-space (z ≤ 0 in G).
bool BoundingBox(const ShapeGeometry& g, Aabb* box) {
  switch (g.kind) {
    case Kind::kCompliantMesh:
      *box = g.compliant_mesh->bvh().root_box();
      return true;
    case Kind::kRigidMesh:
      *box = g.rigid_mesh->bvh().root_box();
      return true;
    default:
      return false;
  }
}

}  // namespace

double CalcExtentRadius(const ShapeGeometry& g) {
  Aabb box;
  if (!BoundingBox(g, &box)) return std::numeric_limits<double>::infinity();
  // The farthest corner from the shape frame's origin: |c + R·(±h)| ≤ |c| + |h| in G, moved by X_SG.
  return (g.X_SG * box.center).norm() + box.half_size.norm();
}

bool CalcGapAlongCentres(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                         const RigidTransform& X_WSb, Vector3* dhat_W, double* gap_m) {
  const RigidTransform X_WA = X_WSa * a.X_SG;
  const RigidTransform X_WB = X_WSb * b.X_SG;
  Aabb box_A, box_B;
  const bool bounded_A = BoundingBox(a, &box_A), bounded_B = BoundingBox(b, &box_B);
  if (!bounded_A && !bounded_B) return false;
  Vector3 d;
  if (bounded_A && bounded_B)
    d = X_WA * box_A.center - X_WB * box_B.center;
  else if (bounded_A)
    d = X_WB.linear().col(2);  // b is a half-space: its outward normal, toward a
  else
    d = -X_WA.linear().col(2);  // a is a half-space: against its outward normal
  if (!(d.norm() > 0)) return false;
  d.normalize();
  // a's lowest and b's highest reach along d̂; a half-space's is its face.
  const double low_A = bounded_A ? LowestAlong(a, box_A, X_WA, d) : d.dot(X_WA.translation());
  const double high_B = bounded_B ? HighestAlong(b, box_B, X_WB, d) : d.dot(X_WB.translation());
  *dhat_W = d;
  *gap_m = low_A - high_B;
  return true;
}

int CalcGapsAlongAxes(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                      const RigidTransform& X_WSb, Vector3 dhat_W[7], double gap_m[7]) {
  int n = 0;
  if (!CalcGapAlongCentres(a, X_WSa, b, X_WSb, &dhat_W[0], &gap_m[0])) return 0;
  ++n;
  const RigidTransform X_WA = X_WSa * a.X_SG;
  const RigidTransform X_WB = X_WSb * b.X_SG;
  Aabb box_A, box_B;
  const bool bounded_A = BoundingBox(a, &box_A), bounded_B = BoundingBox(b, &box_B);
  // [low, high] of a geometry along d: its support; for a half-space (−∞, face] or
  // [face, +∞) along its own normal, and the whole line along any other axis (it reaches out
  // without end along its face).
  auto extent = [](const ShapeGeometry& g, bool bounded, const Aabb& box, const RigidTransform& X_WG,
                   const Vector3& d) {
    if (bounded) return std::make_pair(LowestAlong(g, box, X_WG, d), HighestAlong(g, box, X_WG, d));
    const double inf = std::numeric_limits<double>::infinity();
    const Vector3 normal = X_WG.linear().col(2);  // out of the half-space z ≤ 0
    const double face = d.dot(X_WG.translation());
    const double along = d.dot(normal);
    if (along >= 1 - 1e-12) return std::make_pair(-inf, face);
    if (along <= -1 + 1e-12) return std::make_pair(face, inf);
    return std::make_pair(-inf, inf);
  };
  for (int side = 0; side < 2; ++side) {
    const RigidTransform& X_WG = side == 0 ? X_WA : X_WB;
    const bool bounded = side == 0 ? bounded_A : bounded_B;
    for (int k = 0; k < 3; ++k) {
      if (!bounded && k < 2) continue;  // a half-space offers its normal only
      const Vector3 d = X_WG.linear().col(k);
      const auto [low_A, high_A] = extent(a, bounded_A, box_A, X_WA, d);
      const auto [low_B, high_B] = extent(b, bounded_B, box_B, X_WB, d);
      // Along d̂ from b toward a: the side a lies on when they are apart along it.
      const bool a_above = low_A - high_B >= low_B - high_A;
      dhat_W[n] = a_above ? d : Vector3(-d);
      gap_m[n] = a_above ? low_A - high_B : low_B - high_A;
      ++n;
    }
  }
  return n;
}

// A half-space's radius is infinite; one side is bounded (HasSurface).
double GapRoundOff(const ShapeGeometry& a, const ShapeGeometry& b) {
  double size = 0;
  for (const ShapeGeometry* g : {&a, &b})
    if (!g->is_half_space()) size += CalcExtentRadius(*g);
  return 1e-9 * size;
}

namespace {

// A bounded geometry as a Bullet convex shape in its own frame G, so that Bullet's GJK
// (btGjkEpaSolver2::Distance) can look for a direction that separates two of them: its hull's
// vertices (ShapeGeometry::support), or its bounding box's corners where it has no hull.
class SupportShape : public btConvexInternalShape {
 public:
  SupportShape(const ShapeGeometry& g, const Aabb& box) : geometry_(g), box_(box) {
    m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
    setMargin(0);
  }
  btVector3 localGetSupportingVertexWithoutMargin(const btVector3& d) const override {
    const Vector3 d_G(d.x(), d.y(), d.z());
    if (geometry_.support) return ToBullet(geometry_.support->SupportVertex(d_G, &hint_));
    const Vector3 corner = (d_G.array() >= 0).select(box_.half_size, -box_.half_size);
    return ToBullet(Vector3(box_.center + corner));
  }
  void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* d, btVector3* vertices,
                                                         int count) const override {
    for (int i = 0; i < count; ++i) vertices[i] = localGetSupportingVertexWithoutMargin(d[i]);
  }
  void getAabb(const btTransform& X, btVector3& lower, btVector3& upper) const override {
    getAabbSlow(X, lower, upper);
  }
  void calculateLocalInertia(btScalar, btVector3& inertia) const override { inertia.setZero(); }
  const char* getName() const override { return "HydroSupport"; }

 private:
  const ShapeGeometry& geometry_;
  Aabb box_;
  mutable int hint_{-1};  // the vertex GJK's last query found: its directions turn little
};

// Whether the geometries are apart along one of CalcGapsAlongAxes's axes, by more than `round_off`;
// the line between their centres (or a half-space's normal) in *centres_axis.
bool ApartAlongAxes(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                    const RigidTransform& X_WSb, double round_off, Vector3* centres_axis) {
  Vector3 axes[7];
  double gaps[7];
  const int n = CalcGapsAlongAxes(a, X_WSa, b, X_WSb, axes, gaps);
  if (n > 0) *centres_axis = axes[0];
  for (int k = 0; k < n; ++k)
    if (gaps[k] > round_off) return true;
  return false;
}

}  // namespace

bool AreApart(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
              const RigidTransform& X_WSb) {
  Vector3 centres_axis = Vector3::UnitX();
  const double round_off = GapRoundOff(a, b);
  if (ApartAlongAxes(a, X_WSa, b, X_WSb, round_off, &centres_axis)) return true;
  Aabb box_A, box_B;
  if (!BoundingBox(a, &box_A) || !BoundingBox(b, &box_B)) return false;  // a half-space: its normal was an axis
  const RigidTransform X_WA = X_WSa * a.X_SG;
  const RigidTransform X_WB = X_WSb * b.X_SG;
  const SupportShape shape_A(a, box_A), shape_B(b, box_B);
  // GJK works in a's frame: its first guess, the line between the centres, goes there, and the
  // direction it finds (from b's closest point to a's) comes back from there. (A support that
  // climbs from a hint can pick another of two tied vertices on a flat face when GJK recomputes
  // its closest points; the check below catches any direction that does not separate.)
  btGjkEpaSolver2::sResults found;
  if (!btGjkEpaSolver2::Distance(&shape_A, ToBullet(X_WA), &shape_B, ToBullet(X_WB),
                                 ToBullet(Vector3(X_WA.linear().transpose() * centres_axis)), found) ||
      !(found.distance > 0))
    return false;
  const Vector3 d_W = X_WA.linear() * ToEigen(found.normal);
  if (!(d_W.norm() > 0)) return false;
  const Vector3 dhat_W = d_W.normalized();
  return LowestAlong(a, box_A, X_WA, dhat_W) - HighestAlong(b, box_B, X_WB, dhat_W) > round_off;
}

double SpeculativeOverlapLimit(const ShapeGeometry& a, const ShapeGeometry& b) {
  double limit = std::numeric_limits<double>::infinity();
  for (const ShapeGeometry* g : {&a, &b}) {
    if (g->kind == Kind::kCompliantMesh)
      limit = std::min(limit, 0.5 * g->compliant_mesh->bvh().root_box().half_size.minCoeff());
    else if (g->kind == Kind::kCompliantHalfSpace)
      limit = std::min(limit, 0.5 * g->compliant_half_space->slab_thickness());
  }
  return limit;
}

double CalcOverlapBound(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                        const RigidTransform& X_WSb) {
  Vector3 axes[7];
  double gaps[7];
  const int n = CalcGapsAlongAxes(a, X_WSa, b, X_WSb, axes, gaps);
  if (n == 0) return std::numeric_limits<double>::infinity();  // two half-spaces
  double widest = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k) widest = std::max(widest, gaps[k]);
  return std::max(0.0, -widest);
}

void LimitRecoveryDepth(double limit_m, std::vector<ContactPoint>* points) {
  if (!(limit_m < std::numeric_limits<double>::infinity())) return;
  for (ContactPoint& point : *points) {
    if (point.phi0_m >= -limit_m) continue;
    point.phi0_m = -limit_m;
    point.fn0_N = point.stiffness_N_per_m * limit_m;
  }
}

void BoundPointDepths(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                      const RigidTransform& X_WSb, std::vector<ContactPoint>* points) {
  const bool half_space_A = a.kind == Kind::kCompliantHalfSpace, half_space_B = b.kind == Kind::kCompliantHalfSpace;
  if (half_space_A && half_space_B) return;
  const RigidTransform X_WA = X_WSa * a.X_SG;
  const RigidTransform X_WB = X_WSb * b.X_SG;
  // The whole bodies' overlap along each point's normal bounds its depth: their extents
  // (LowestAlong, HighestAlong: exact for boxes, and for convex meshes to within their hull's
  // widening), or the rigid side's face, which lies in the polygon's plane. (The overlap of the polygon's own two
  // elements would bound it more tightly, but a surface computed at the end-of-step poses of a
  // body arriving fast lies many elements deep.) The point keeps k = A·g (hydro/depth_bound.h).
  //
  // Against a half-space (z ≤ 0 in its frame, outward normal ν̂), a body D deep below its face
  // leaves it after moving D/(n̂·ν̂) along n̂ away from it, and never when n̂ runs along the face.
  // The side walls of a box sunk into a compliant slab make polygons whose normals lean 5–10°
  // off the face (the box's field, steep across its wall, meets the slab's, gentle along ν̂): their
  // −p0/g lay centimetres deep where the box was microns in, they pushed on the walls with the
  // preload of that depth, and a 0.2 m box resting on a 1 m slab at 1e8 Pa, 60 Hz, rocked out of
  // its place at 1.5 m/s.
  const ShapeGeometry& bounded = half_space_A ? b : a;
  const RigidTransform& X_W_bounded = half_space_A ? X_WB : X_WA;
  const RigidTransform& X_W_half = half_space_A ? X_WA : X_WB;
  Aabb box;
  const bool has_extent = (half_space_A || half_space_B) && BoundingBox(bounded, &box);
  const Vector3 nu_W = X_W_half.linear().col(2);
  const double depth_below_face =
      has_extent ? nu_W.dot(X_W_half.translation()) - LowestAlong(bounded, box, X_W_bounded, nu_W) : 0.0;
  // Otherwise each side's reach along n̂: a compliant mesh's extent, a rigid side's face (the
  // point's plane). Points of one rigid face share its normal: the extents are found once for them.
  const bool mesh_A = a.kind == Kind::kCompliantMesh, mesh_B = b.kind == Kind::kCompliantMesh;
  Vector3 last_normal = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  double lowest_A = 0, highest_B = 0;  // along last_normal, for a compliant mesh side
  int hint_A = -1, hint_B = -1;        // the vertices found last: a patch's normals are near each other
  for (ContactPoint& point : *points) {
    const Vector3& n = point.nhat_BA_W;  // A lies on its +n side
    if (half_space_A || half_space_B) {
      if (!has_extent) continue;
      // Moving A along +n̂ takes the bounded body out of B's face (or A's face off the bounded B).
      const double leaving = half_space_B ? n.dot(nu_W) : -n.dot(nu_W);
      if (!(leaving > 0)) continue;
      BoundDepthByOverlap(std::max(depth_below_face, 0.0) / leaving, &point.phi0_m);
    } else {
      if ((mesh_A || mesh_B) && !(n == last_normal)) {
        last_normal = n;
        if (mesh_A) lowest_A = LowestAlong(a, a.compliant_mesh->bvh().root_box(), X_WA, n, &hint_A);
        if (mesh_B) highest_B = HighestAlong(b, b.compliant_mesh->bvh().root_box(), X_WB, n, &hint_B);
      }
      const double plane = n.dot(point.p_WC);
      BoundDepthByOverlap((mesh_B ? highest_B : plane) - (mesh_A ? lowest_A : plane), &point.phi0_m);
    }
    point.fn0_N = point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);  // its force at φ0 now
  }
}

}  // namespace bullet
}  // namespace hydro
