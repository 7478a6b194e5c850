#include "adapters/shape_geometry.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btConvexTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "adapters/bullet_conversions.h"
#include "adapters/convex_hull.h"
#include "hydro/make_meshes.h"

namespace hydro {
namespace bullet {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Rotation taking the generators' z axis onto Bullet's up axis (0 = x, 1 = y, 2 = z).
RigidTransform AxisFrame(int up_axis) {
  RigidTransform X = RigidTransform::Identity();
  if (up_axis == 0) X.linear() = Eigen::AngleAxisd(M_PI / 2, Vector3::UnitY()).toRotationMatrix();
  if (up_axis == 1) X.linear() = Eigen::AngleAxisd(-M_PI / 2, Vector3::UnitX()).toRotationMatrix();
  return X;
}

// Vertices and triangles of a striding mesh, scaled, with degenerate triangles dropped.
void ReadStridingMesh(const btStridingMeshInterface& mesh, const btVector3& scaling, std::vector<Vector3>* vertices,
                      std::vector<Triangle>* triangles) {
  for (int part = 0; part < mesh.getNumSubParts(); ++part) {
    const unsigned char* vertex_base;
    int num_vertices, vertex_stride, index_stride, num_faces;
    PHY_ScalarType vertex_type, index_type;
    const unsigned char* index_base;
    mesh.getLockedReadOnlyVertexIndexBase(&vertex_base, num_vertices, vertex_type, vertex_stride, &index_base,
                                          index_stride, num_faces, index_type, part);
    const int offset = static_cast<int>(vertices->size());
    for (int v = 0; v < num_vertices; ++v) {
      const unsigned char* at = vertex_base + v * vertex_stride;
      Vector3 p;
      for (int k = 0; k < 3; ++k)
        p[k] =
            vertex_type == PHY_DOUBLE ? reinterpret_cast<const double*>(at)[k] : reinterpret_cast<const float*>(at)[k];
      vertices->push_back(p.cwiseProduct(ToEigen(scaling)));
    }
    for (int f = 0; f < num_faces; ++f) {
      const unsigned char* at = index_base + f * index_stride;
      Triangle t;
      for (int k = 0; k < 3; ++k) {
        if (index_type == PHY_SHORT)
          t[k] = reinterpret_cast<const unsigned short*>(at)[k];
        else if (index_type == PHY_UCHAR)
          t[k] = at[k];
        else
          t[k] = reinterpret_cast<const int*>(at)[k];
        t[k] += offset;
      }
      const Vector3& a = (*vertices)[t[0]];
      const Vector3 cross = ((*vertices)[t[1]] - a).cross((*vertices)[t[2]] - a);
      if (cross.norm() > 1e-12 * ((*vertices)[t[1]] - a).squaredNorm() && cross.norm() > 0) triangles->push_back(t);
    }
    mesh.unLockReadOnlyVertexBase(part);
  }
  if (triangles->empty()) throw InvalidInput("triangle mesh shape has no non-degenerate triangles");
}

// Without a hint, an eighth of the smallest dimension resolves the field across it; but a thin
// plate or a long rod would then get millions of tets (a 2 m × 2 m × 2 cm box: 31 M), so the hint
// is at least a sixteenth of the largest dimension.
double DefaultHint(double smallest_dimension, double largest_dimension) {
  return std::max(smallest_dimension / 8, largest_dimension / 16);
}

// A shape whose field its mesh represents exactly at any resolution (a box's medial-axis mesh, a
// hull's gauge prisms) needs the mesh only for its patches' solver points: a quarter of the
// smallest dimension keeps a wedge patch's response to the stiffness the solver uses (the box's
// case below says why), with the same bound by the largest.
double ExactFieldDefaultHint(double smallest_dimension, double largest_dimension) {
  return std::max(smallest_dimension / 4, largest_dimension / 16);
}

double HintOrDefault(double smallest_dimension, double largest_dimension, const btHydroelasticProperties* properties) {
  if (properties && properties->m_resolutionHint > 0) return properties->m_resolutionHint;
  return DefaultHint(smallest_dimension, largest_dimension);
}

// The volume mesh `make(hint)` at the user's hint if one is given; otherwise at `default_hint`,
// coarsened by half again until it has at most kMaxDefaultTets (a flat cone's hull, whose
// triangles are each subdivided by the hint, needs it).
template <typename Make>
VolumeMeshWithExtent MakeBoundedVolume(const Make& make, double default_hint,
                                       const btHydroelasticProperties* properties) {
  if (properties && properties->m_resolutionHint > 0) return make(properties->m_resolutionHint);
  double hint = default_hint;
  VolumeMeshWithExtent volume = make(hint);
  while (volume.mesh->num_tets() > kMaxDefaultTets) volume = make(hint *= 1.5);
  return volume;
}

// A rigid hull's surface with each triangle split into k² triangles, k = ⌈its longest edge/hint⌉,
// at the user's hint, or at `default_hint` coarsened by half again until it has at most
// kMaxDefaultTets triangles. Against a compliant half-space every rigid triangle is one polygon,
// and one solver point: a cube's hull has two triangles a face, whose points lie on its diagonal,
// and resting on them a crate rocked about it, growing 30-fold every 0.5 s at 60 Hz until it
// tumbled after 4 s (as the box's grid, MakeBoxSurfaceMesh, keeps it from). Neighbours with
// different k meet at T-junctions, harmless here: a rigid surface's triangles are clipped one by one.
TriangleSurfaceMesh MakeSubdividedHull(const TriangleSurfaceMesh& hull, double default_hint,
                                       const btHydroelasticProperties* properties) {
  auto splits = [&hull](double hint, int f) {
    const Triangle& t = hull.triangle(f);
    const Vector3 &a = hull.vertex(t[0]), &b = hull.vertex(t[1]), &c = hull.vertex(t[2]);
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    return std::max(1, static_cast<int>(std::ceil(longest / hint - 1e-9)));
  };
  auto count = [&](double hint) {
    double n = 0;
    for (int f = 0; f < hull.num_triangles(); ++f) n += std::pow(splits(hint, f), 2);
    return n;
  };
  const bool user_hint = properties && properties->m_resolutionHint > 0;
  double hint = user_hint ? properties->m_resolutionHint : default_hint;
  while (!user_hint && count(hint) > kMaxDefaultTets) hint *= 1.5;
  std::vector<Vector3> vertices;
  std::vector<Triangle> triangles;
  for (int f = 0; f < hull.num_triangles(); ++f) {
    const Triangle& t = hull.triangle(f);
    const Vector3 &a = hull.vertex(t[0]), &b = hull.vertex(t[1]), &c = hull.vertex(t[2]);
    const int k = splits(hint, f);
    // Lattice point (i, j) = a + (i/k)·(b − a) + (j/k)·(c − a), i + j ≤ k, row by row.
    const int first = static_cast<int>(vertices.size());
    auto index = [first, k](int i, int j) { return first + i * (k + 1) - i * (i - 1) / 2 + j; };
    for (int i = 0; i <= k; ++i)
      for (int j = 0; i + j <= k; ++j)
        vertices.push_back(a + (static_cast<double>(i) / k) * (b - a) + (static_cast<double>(j) / k) * (c - a));
    for (int i = 0; i < k; ++i)
      for (int j = 0; i + j < k; ++j) {
        triangles.push_back({index(i, j), index(i + 1, j), index(i, j + 1)});
        if (i + j + 2 <= k) triangles.push_back({index(i + 1, j), index(i + 1, j + 1), index(i, j + 1)});
      }
  }
  return TriangleSurfaceMesh(std::move(vertices), std::move(triangles));
}

}  // namespace

ShapeFingerprintValues ShapeFingerprint(const btCollisionShape& shape) {
  ShapeFingerprintValues fp{};
  size_t n = 0;
  auto push = [&fp, &n](double v) {
    if (n < fp.size()) fp[n++] = v;
  };
  auto add = [&push](const btVector3& v) {
    push(v.x());
    push(v.y());
    push(v.z());
  };
  push(shape.getShapeType());
  add(shape.getLocalScaling());
  push(shape.getMargin());
  switch (shape.getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
      push(static_cast<const btSphereShape&>(shape).getRadius());
      break;
    case BOX_SHAPE_PROXYTYPE:
      add(static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin());
      break;
    case CYLINDER_SHAPE_PROXYTYPE: {
      const auto& c = static_cast<const btCylinderShape&>(shape);
      add(c.getHalfExtentsWithMargin());
      push(c.getUpAxis());
      break;
    }
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& c = static_cast<const btCapsuleShape&>(shape);
      push(c.getRadius());
      push(c.getHalfHeight());
      push(c.getUpAxis());
      break;
    }
    case CONE_SHAPE_PROXYTYPE: {
      const auto& c = static_cast<const btConeShape&>(shape);
      push(c.getRadius());
      push(c.getHeight());
      push(c.getConeUpIndex());
      break;
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      const auto& hull = static_cast<const btConvexHullShape&>(shape);
      const int count = hull.getNumPoints();
      push(count);
      push(static_cast<double>(reinterpret_cast<std::uintptr_t>(hull.getUnscaledPoints())));
      if (count > 0) {
        add(hull.getUnscaledPoints()[0]);
        add(hull.getUnscaledPoints()[count - 1]);
      }
      break;
    }
    case STATIC_PLANE_PROXYTYPE: {
      const auto& plane = static_cast<const btStaticPlaneShape&>(shape);
      add(plane.getPlaneNormal());
      push(plane.getPlaneConstant());
      break;
    }
    default: {
      // Meshes and anything else: the bounds at the identity pose.
      btVector3 lo, hi;
      shape.getAabb(btTransform::getIdentity(), lo, hi);
      add(lo);
      add(hi);
    }
  }
  return fp;
}

double MarginOutsideGeometry(const btCollisionShape& shape) {
  switch (shape.getShapeType()) {
    case CONVEX_HULL_SHAPE_PROXYTYPE:
    case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
    case CONE_SHAPE_PROXYTYPE:
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:  // btConvexConcaveCollisionAlgorithm gives each triangle this margin
    case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE:
      return std::max<double>(shape.getMargin(), 0.0);
    default:
      return 0;
  }
}

std::string ShapeTypeName(int shape_type) {
  switch (shape_type) {
    case BOX_SHAPE_PROXYTYPE:
      return "btBoxShape";
    case SPHERE_SHAPE_PROXYTYPE:
      return "btSphereShape";
    case CAPSULE_SHAPE_PROXYTYPE:
      return "btCapsuleShape";
    case CYLINDER_SHAPE_PROXYTYPE:
      return "btCylinderShape";
    case CONE_SHAPE_PROXYTYPE:
      return "btConeShape";
    case CONVEX_HULL_SHAPE_PROXYTYPE:
      return "btConvexHullShape";
    case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
      return "btConvexTriangleMeshShape";
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:
      return "btBvhTriangleMeshShape";
    case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE:
      return "btScaledBvhTriangleMeshShape";
    case STATIC_PLANE_PROXYTYPE:
      return "btStaticPlaneShape";
    case COMPOUND_SHAPE_PROXYTYPE:
      return "btCompoundShape";
    case MULTI_SPHERE_SHAPE_PROXYTYPE:
      return "btMultiSphereShape";
    case TERRAIN_SHAPE_PROXYTYPE:
      return "btHeightfieldTerrainShape";
    case GIMPACT_SHAPE_PROXYTYPE:
      return "btGImpactMeshShape";
    case SOFTBODY_SHAPE_PROXYTYPE:
      return "btSoftBodyCollisionShape";
    case EMPTY_SHAPE_PROXYTYPE:
      return "btEmptyShape";
    default:
      return "shape type " + std::to_string(shape_type);
  }
}

namespace {

// The support of a mesh geometry's convex hull (adapters/convex_hull.h), null for a half-space, an
// unsupported shape, or a mesh whose hull cannot be made (a flat one: its bounding box is as tight
// along its normal). Bullet finds the hull on a grid of 1/10216 of the points' extent along each
// axis, rounding each point and the hull's vertices to it: a point may lie up to two grid steps
// along each axis outside the hull of the exact vertices; the support is widened by 2.1.
std::shared_ptr<const ConvexSupport> MakeSupport(const ShapeGeometry& g) {
  const std::vector<Vector3>* points = nullptr;
  if (g.kind == ShapeGeometry::Kind::kCompliantMesh) points = &g.compliant_mesh->mesh().vertices();
  if (g.kind == ShapeGeometry::Kind::kRigidMesh) points = &g.rigid_mesh->mesh().vertices();
  if (!points) return nullptr;
  Vector3 lo = points->front(), hi = lo;
  for (const Vector3& p : *points) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  try {
    return std::make_shared<ConvexSupport>(MakeConvexHull(*points), 2.1 / 10216 * (hi - lo));
  } catch (const InvalidInput&) {
    return nullptr;
  }
}

}  // namespace

ShapeGeometry MakeShapeGeometry(const btCollisionShape& shape, const btHydroelasticProperties* properties) {
  const bool compliant = properties && properties->m_kind == btHydroelasticProperties::COMPLIANT;
  const std::string name = ShapeTypeName(shape.getShapeType());
  if (compliant) {
    CheckPositive(properties->m_hydroelasticModulus, name + ": hydroelastic modulus");
    CheckNonNegative(properties->m_huntCrossleyDissipation, name + ": Hunt-Crossley dissipation");
  }
  if (properties) CheckNonNegative(properties->m_resolutionHint, name + ": resolution hint");
  ShapeGeometry g;
  g.modulus_Pa = compliant ? properties->m_hydroelasticModulus : kInfinity;
  g.dissipation_s_per_m = properties ? properties->m_huntCrossleyDissipation : 0.0;
  const double k = compliant ? properties->m_stiffening : 0.0;

  // A closed shape: its volume mesh (compliant) or surface (rigid).
  auto finish_volume = [&](const VolumeMeshWithExtent& volume) {
    if (compliant) {
      g.kind = ShapeGeometry::Kind::kCompliantMesh;
      g.compliant_mesh = std::make_shared<CompliantMesh>(MakeCompliantMesh(volume, g.modulus_Pa, k));
    } else {
      g.kind = ShapeGeometry::Kind::kRigidMesh;
      g.rigid_mesh = std::make_shared<RigidMesh>(ExtractBoundarySurface(*volume.mesh));
    }
  };
  switch (shape.getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE: {
      const double r = static_cast<const btSphereShape&>(shape).getRadius();
      CheckPositive(r, name + ": radius");
      finish_volume(MakeBoundedVolume([&](double hint) { return MakeSphereVolumeMesh(r, hint); },
                                      DefaultHint(2 * r, 2 * r), properties));
      break;
    }
    case BOX_SHAPE_PROXYTYPE: {
      const Vector3 size = 2 * ToEigen(static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin());
      for (int i = 0; i < 3; ++i) CheckPositive(size[i], name + ": size");
      if (compliant) {
        // The box's field follows its medial axis at any resolution (hydro/make_box_mesh.h), so its
        // contact surfaces are exact on a coarse mesh; but where boxes meet in closed form each
        // polygon is one solver point at its centroid (plugin/pair_contact.h, PairPointQuadrature),
        // which misses the polygon's own share of the patch's resistance to rocking. Where a tilted
        // face presses a wedge (a box resting on others' corners, tilted by 1e-4 rad against µm of
        // overlap), the line where the faces cross sweeps across the polygons as the box rocks, and
        // the centroids move with it: the patch's moment then changes unlike the stiffness the
        // solver linearizes with. At two cells across the smallest side, a pyramid box's
        // quarter-face patch was two triangles, its moment–normal coupling 17 % off that stiffness
        // and not symmetric, and a 1,015-box pyramid at 60 Hz rocked apart after 45 steps; at four
        // cells across it is 5 % off and the pyramid comes to rest (pair_contact_test's wedge).
        // Putting each point at its polygon's centre of pressure instead makes the points' wrench
        // the exact integral (its derivative then symmetric, the same at any resolution), but at
        // two cells the solver's stiffness for rocking about the wedge's diagonal was then half the
        // true one and the pyramid flew apart in 3 steps: a big polygon's own second moment of area
        // is what a single point cannot carry, so the cure is smaller polygons. The price, measured
        // when the default went from two cells to four: BasicDemo's benchmark steps took 632 M
        // instructions instead of 388 M (stock Bullet: 137 M). Two compliant boxes meet in closed
        // form (hydro/compliant_box.h): the same surface, cut along both boxes' surface grids at
        // this hint, so their pieces are the grid's cells as these polygons are its triangles.
        double hint = 0;  // the one the mesh is made at
        finish_volume(MakeBoundedVolume(
            [&](double h) {
              hint = h;
              return MakeBoxVolumeMesh(size, h);
            },
            ExactFieldDefaultHint(size.minCoeff(), size.maxCoeff()), properties));
        if (k == 0) g.compliant_box = std::make_shared<CompliantBox>(size, g.modulus_Pa, hint, *g.compliant_mesh);
      } else {
        // The faces are flat, but against a compliant half-space every rigid triangle becomes one
        // solver point: a grid at the hint gives a face enough points to resist rocking.
        g.kind = ShapeGeometry::Kind::kRigidMesh;
        const double hint = HintOrDefault(size.minCoeff(), size.maxCoeff(), properties);
        g.rigid_mesh = std::make_shared<RigidMesh>(MakeBoxSurfaceMesh(size, hint));
        g.rigid_box = std::make_shared<RigidBox>(size, hint, g.rigid_mesh->mesh());
      }
      break;
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
      const auto& cylinder = static_cast<const btCylinderShape&>(shape);
      const int up = cylinder.getUpAxis();
      const double r = cylinder.getRadius();
      const double length = 2 * cylinder.getHalfExtentsWithMargin()[up];
      CheckPositive(r, name + ": radius");
      CheckPositive(length, name + ": length");
      finish_volume(MakeBoundedVolume([&](double hint) { return MakeCylinderVolumeMesh(r, length, hint); },
                                      DefaultHint(std::min(2 * r, length), std::max(2 * r, length)), properties));
      g.X_SG = AxisFrame(up);
      break;
    }
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& capsule = static_cast<const btCapsuleShape&>(shape);
      const double r = capsule.getRadius(), length = 2 * capsule.getHalfHeight();
      CheckPositive(r, name + ": radius");
      CheckPositive(length, name + ": cylinder length");
      finish_volume(MakeBoundedVolume([&](double hint) { return MakeCapsuleVolumeMesh(r, length, hint); },
                                      DefaultHint(2 * r, length + 2 * r), properties));
      g.X_SG = AxisFrame(capsule.getUpAxis());
      break;
    }
    case CONE_SHAPE_PROXYTYPE: {
      const auto& cone = static_cast<const btConeShape&>(shape);
      const double r = cone.getRadius(), h = cone.getHeight();
      CheckPositive(r, name + ": radius");
      CheckPositive(h, name + ": height");
      // The base circle as a polygon of edges about the hint long.
      auto hull_at = [&](double hint) {
        const int segments = std::max(8, static_cast<int>(std::ceil(2 * M_PI * r / hint)));
        std::vector<Vector3> points = {Vector3(0, 0, h / 2)};  // apex along +up, base at −h/2
        for (int i = 0; i < segments; ++i)
          points.emplace_back(r * std::cos(2 * M_PI * i / segments), r * std::sin(2 * M_PI * i / segments), -h / 2);
        return MakeConvexHull(points);
      };
      const double smallest = std::min(2 * r, h), largest = std::max(2 * r, h);
      if (compliant) {
        finish_volume(MakeBoundedVolume([&](double hint) { return MakeConvexVolumeMesh(hull_at(hint), hint); },
                                        DefaultHint(smallest, largest), properties));
      } else {
        g.kind = ShapeGeometry::Kind::kRigidMesh;
        g.rigid_mesh = std::make_shared<RigidMesh>(hull_at(HintOrDefault(smallest, largest, properties)));
      }
      g.X_SG = AxisFrame(cone.getConeUpIndex());
      break;
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE:
    case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE: {
      std::vector<Vector3> points;
      if (shape.getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE) {
        const auto& hull = static_cast<const btConvexHullShape&>(shape);
        for (int i = 0; i < hull.getNumPoints(); ++i)
          points.push_back(ToEigen(hull.getUnscaledPoints()[i] * hull.getLocalScaling()));
      } else {
        const auto& mesh_shape = static_cast<const btConvexTriangleMeshShape&>(shape);
        std::vector<Triangle> unused;
        ReadStridingMesh(*mesh_shape.getMeshInterface(), mesh_shape.getMeshInterface()->getScaling(), &points, &unused);
        for (Vector3& p : points) p = p.cwiseProduct(ToEigen(mesh_shape.getLocalScaling()));
      }
      const TriangleSurfaceMesh hull = MakeConvexHull(points);
      Vector3 lo = hull.vertex(0), hi = lo;
      for (const Vector3& p : hull.vertices()) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
      if (compliant) {
        // The gauge field is exact on any prism mesh, as the box's (a box-shaped hull at a quarter
        // of its side: 4,320 tets instead of 9,984 at an eighth, its wedge patch 0.6 % off the
        // solver's stiffness instead of 0.1 %; a 91-hull pyramid at 60 Hz rests as before, in 3.6 s
        // instead of 6.3 s for 3 s).
        finish_volume(MakeBoundedVolume([&](double hint) { return MakeConvexVolumeMesh(hull, hint); },
                                        ExactFieldDefaultHint((hi - lo).minCoeff(), (hi - lo).maxCoeff()), properties));
      } else {
        g.kind = ShapeGeometry::Kind::kRigidMesh;
        g.rigid_mesh = std::make_shared<RigidMesh>(
            MakeSubdividedHull(hull, DefaultHint((hi - lo).minCoeff(), (hi - lo).maxCoeff()), properties));
      }
      break;
    }
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:
    case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE: {
      if (compliant) {
        if (!properties->m_volumeMesh)
          throw InvalidInput(name +
                             ": a triangle mesh has no volume; give a tet mesh (m_volumeMesh) to make it compliant");
        finish_volume(*properties->m_volumeMesh);
        break;
      }
      const btBvhTriangleMeshShape* mesh_shape;
      btVector3 scaling(1, 1, 1);
      if (shape.getShapeType() == SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE) {
        const auto& scaled = static_cast<const btScaledBvhTriangleMeshShape&>(shape);
        mesh_shape = scaled.getChildShape();
        scaling = scaled.getLocalScaling();
      } else {
        mesh_shape = static_cast<const btBvhTriangleMeshShape*>(&shape);
      }
      std::vector<Vector3> vertices;
      std::vector<Triangle> triangles;
      ReadStridingMesh(*mesh_shape->getMeshInterface(), mesh_shape->getMeshInterface()->getScaling() * scaling,
                       &vertices, &triangles);
      g.kind = ShapeGeometry::Kind::kRigidMesh;
      g.rigid_mesh = std::make_shared<RigidMesh>(TriangleSurfaceMesh(std::move(vertices), std::move(triangles)));
      break;
    }
    case STATIC_PLANE_PROXYTYPE: {
      const auto& plane = static_cast<const btStaticPlaneShape&>(shape);
      const Vector3 n = ToEigen(plane.getPlaneNormal()).normalized();
      if (!n.allFinite()) throw InvalidInput(name + ": the plane normal is zero or not finite");
      g.X_SG.linear() = Eigen::Quaterniond::FromTwoVectors(Vector3::UnitZ(), n).toRotationMatrix();
      g.X_SG.translation() = plane.getPlaneConstant() * n;
      if (compliant) {
        if (!(properties->m_slabThickness > 0))
          throw InvalidInput(name + ": a compliant plane needs a positive slab thickness (m_slabThickness)");
        g.kind = ShapeGeometry::Kind::kCompliantHalfSpace;
        g.compliant_half_space = std::make_shared<CompliantHalfSpace>(g.modulus_Pa, properties->m_slabThickness);
      } else {
        g.kind = ShapeGeometry::Kind::kRigidHalfSpace;
      }
      break;
    }
    default:
      g.kind = ShapeGeometry::Kind::kUnsupported;
      g.error = name + " is not supported by hydroelastic contact; Bullet's own contact is used for it";
  }
  if (!g.compliant_box && !g.rigid_box) g.support = MakeSupport(g);
  return g;
}

}  // namespace bullet
}  // namespace hydro
