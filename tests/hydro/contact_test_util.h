#pragma once
// Reference computations the contact tests compare against, kept independent of the code under
// test (no BVH, no tet clipping).
#include <functional>
#include <vector>

#include "hydro/contact_surface.h"
#include "hydro/point_approximation.h"
#include "hydro/polygon_clipping.h"
#include "hydro/surface_mesh.h"

namespace hydro {
namespace test {

struct Wrench {
  Vector3 force{Vector3::Zero()};
  Vector3 torque{Vector3::Zero()};  // about the world origin
};

// ∫ p n dA and ∫ r × p n dA on A over the surface, exact for linear pressure: each polygon is
// fanned from its first vertex and each triangle integrated with the edge-midpoint rule (exact for
// quadratics).
inline Wrench IntegrateStaticWrench(const ContactSurface& surface) {
  Wrench w;
  for (const ContactPolygon& poly : surface.polygons()) {
    const Vector3& a = surface.vertex(poly, 0);
    const double pa = surface.pressure(poly, 0);
    for (int i = 1; i + 1 < poly.num_vertices; ++i) {
      const Vector3& b = surface.vertex(poly, i);
      const Vector3& c = surface.vertex(poly, i + 1);
      const double pb = surface.pressure(poly, i), pc = surface.pressure(poly, i + 1);
      const double area = 0.5 * (b - a).cross(c - a).dot(poly.nhat_BA_W);
      const Vector3 q[3] = {0.5 * (a + b), 0.5 * (b + c), 0.5 * (c + a)};
      const double pq[3] = {0.5 * (pa + pb), 0.5 * (pb + pc), 0.5 * (pc + pa)};
      for (int k = 0; k < 3; ++k) {
        const Vector3 df = area / 3.0 * pq[k] * poly.nhat_BA_W;
        w.force += df;
        w.torque += q[k].cross(df);
      }
    }
  }
  return w;
}

// Volume of the part of a closed surface mesh (vertices given in frame H) below the plane z = 0,
// and its centroid, by the divergence theorem with the origin on the plane (the cap in the plane
// contributes nothing).
inline void VolumeBelowPlane(const TriangleSurfaceMesh& mesh, const RigidTransform& X_HM, double* volume,
                             Vector3* centroid_H) {
  *volume = 0;
  Vector3 moment = Vector3::Zero();
  for (const Triangle& t : mesh.triangles()) {
    ClipPolygon poly;
    for (int i = 0; i < 3; ++i) poly.Push(X_HM * mesh.vertex(t[i]));
    ClipPolygonByHalfSpace(-Vector3::UnitZ(), 0.0, 0.0, &poly);
    for (int i = 1; i + 1 < poly.n; ++i) {
      const double v = poly.p[0].dot(poly.p[i].cross(poly.p[i + 1])) / 6.0;
      *volume += v;
      moment += v * (poly.p[0] + poly.p[i] + poly.p[i + 1]) / 4.0;
    }
  }
  *centroid_H = moment / *volume;
}

using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

// The points' elastic wrench on A, [moment about p_WAo; force], from their forces fn0 along n̂.
inline Vector6 ElasticWrench(const std::vector<ContactPoint>& points, const Vector3& p_WAo) {
  Vector6 W = Vector6::Zero();
  for (const ContactPoint& p : points) {
    const Vector3 f = p.fn0_N * p.nhat_BA_W;
    W.head<3>() += (p.p_WC - p_WAo).cross(f);
    W.tail<3>() += f;
  }
  return W;
}

// The stiffness the solver linearizes with, K = Σ k·j·jᵀ, j = [r × n̂; n̂], r from p_WAo.
inline Matrix6 PointStiffness(const std::vector<ContactPoint>& points, const Vector3& p_WAo) {
  Matrix6 K = Matrix6::Zero();
  for (const ContactPoint& p : points) {
    Vector6 j;
    j << (p.p_WC - p_WAo).cross(p.nhat_BA_W), p.nhat_BA_W;
    K += p.stiffness_N_per_m * j * j.transpose();
  }
  return K;
}

// −∂W/∂q by central differences of step h, q = [rotation vector; translation] of A about its
// origin, W the elastic wrench of the points `points_at` gives for A at a pose (about its origin).
inline Matrix6 ElasticWrenchDerivative(const RigidTransform& X_WA0,
                                       const std::function<std::vector<ContactPoint>(const RigidTransform&)>& points_at,
                                       double h) {
  auto wrench = [&](const Vector6& q) {
    RigidTransform X_WA = X_WA0;
    const Vector3 theta = q.head<3>();
    if (theta.norm() > 0)
      X_WA.linear() = Eigen::AngleAxisd(theta.norm(), theta.normalized()).toRotationMatrix() * X_WA0.linear();
    X_WA.translation() += q.tail<3>();
    return ElasticWrench(points_at(X_WA), X_WA.translation());
  };
  Matrix6 D;
  for (int c = 0; c < 6; ++c) {
    Vector6 q = Vector6::Zero();
    q[c] = h;
    D.col(c) = -(wrench(q) - wrench(-q)) / (2 * h);
  }
  return D;
}

}  // namespace test
}  // namespace hydro
