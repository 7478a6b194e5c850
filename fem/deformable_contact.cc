#include "fem/deformable_contact.h"

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>

#include "hydro/contact_surface_calculator.h"
#include "hydro/mesh_builder.h"
#include "hydro/point_approximation.h"
#include "hydro/vtk_volume_mesh.h"

namespace hydro {
namespace fem {

DeformableContactModel MakeDeformableContactModel(const FemBody& body, double modulus_factor) {
  const VolumeMesh rest(body.rest_positions(), body.tets());
  DeformableContactModel model;
  model.extent = CalcDistanceExtent(rest);
  model.hydroelastic_modulus_Pa = modulus_factor * body.material().youngs_modulus_Pa;
  return model;
}

namespace {

// The body's deformed mesh as compliant geometry (the pressure carried per vertex).
CompliantMesh DeformedCompliantMesh(const FemBody& body, const DeformableContactModel& model) {
  std::vector<Vector3> positions(body.num_vertices());
  for (int v = 0; v < body.num_vertices(); ++v) positions[v] = body.position(v);
  VolumeMeshWithExtent deformed;
  try {
    deformed.mesh = std::make_shared<VolumeMesh>(positions, body.tets());
  } catch (const InvalidInput& e) {
    throw InvalidInput("deformable '" + body.name() + "': its deformed mesh has no contact geometry: " + e.what());
  }
  deformed.extent = model.extent;
  return MakeCompliantMesh(deformed, model.hydroelastic_modulus_Pa);
}

// Barycentric weights of p in tet t of the body's current shape.
std::array<double, 4> Barycentric(const FemBody& body, int t, const Vector3& p) {
  const Tet& tet = body.tets()[t];
  Matrix3 D;
  for (int i = 0; i < 3; ++i) D.col(i) = body.position(tet[i + 1]) - body.position(tet[0]);
  const Vector3 w = D.inverse() * (p - body.position(tet[0]));
  return {1 - w.sum(), w[0], w[1], w[2]};
}

std::vector<DeformableContactPoint> ToPoints(const FemBody& body, const ContactSurface& surface, double friction) {
  std::vector<ContactPoint> points;
  MakeContactPoints(surface, &points);
  std::vector<DeformableContactPoint> out;
  out.reserve(points.size());
  for (const ContactPoint& p : points) {
    DeformableContactPoint c;
    c.tet = p.element_A;
    c.weights = Barycentric(body, c.tet, p.p_WC);
    c.p_WC = p.p_WC;
    c.nhat_W = p.nhat_BA_W;
    c.stiffness_N_per_m = p.stiffness_N_per_m;
    c.phi0_m = p.phi0_m;
    c.friction = friction;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const DeformableContactModel& model,
                                                 const RigidHalfSpace& half_space, const RigidTransform& X_WH,
                                                 double friction) {
  const CompliantMesh mesh = DeformedCompliantMesh(body, model);
  ContactSurface surface;
  ComputeContactSurface(mesh, RigidTransform::Identity(), half_space, X_WH, &surface);
  return ToPoints(body, surface, friction);
}

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const DeformableContactModel& model,
                                                 const RigidMesh& rigid, const RigidTransform& X_WR, double friction) {
  const CompliantMesh mesh = DeformedCompliantMesh(body, model);
  ContactSurface surface;
  ComputeContactSurface(mesh, RigidTransform::Identity(), rigid, X_WR, &surface);
  return ToPoints(body, surface, friction);
}

ContactSolveReport FemBody::StepWithContacts(double dt, const Vector3& gravity,
                                             const std::vector<DeformableContactPoint>& points) {
  if (material_.model == MaterialModel::kNeoHookean)
    throw InvalidInput("deformable '" + name_ + "': contact steps need the linear or corotational model for now");
  Eigen::SparseMatrix<double> A;
  Eigen::VectorXd v_star;
  std::vector<int> index;
  FreeMotion(dt, gravity, 1.0, &A, &v_star, &index);
  const int n = static_cast<int>(q_.size());
  const int num_free = A.rows();
  constexpr double kStictionSpeed = 1e-4;  // m/s: friction reaches μ·γn within this slip
  // u: the free DoFs of v⁺; the contact velocity of point i is Σa w_a·v_a.
  Eigen::VectorXd u(num_free), u_star(num_free);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) u_star[index[i]] = v_star[i];
  u = u_star;
  auto contact_velocity = [&](const DeformableContactPoint& p, const Eigen::VectorXd& x) {
    Vector3 vc = Vector3::Zero();
    const Tet& t = tets_[p.tet];
    for (int a = 0; a < 4; ++a)
      for (int k = 0; k < 3; ++k) {
        const int dof = index[3 * t[a] + k];
        if (dof >= 0) vc[k] += p.weights[a] * x[dof];
      }
    return vc;
  };
  // The impulse on the body at point i for contact velocity vc, and (optionally) its derivative
  // −∂γ/∂vc (PSD) for Newton's matrix. γn from the implicit compliant law; friction regularized.
  auto impulse = [&](const DeformableContactPoint& p, const Vector3& vc, double gamma_n_lagged, Matrix3* H) {
    const Vector3& nh = p.nhat_W;
    const double vn = nh.dot(vc);
    const double y = -p.phi0_m - dt * vn;
    const double gamma_n = y > 0 ? dt * p.stiffness_N_per_m * y : 0.0;
    const Vector3 vt = vc - vn * nh;
    const double s = std::sqrt(vt.squaredNorm() + kStictionSpeed * kStictionSpeed);
    const Vector3 gamma = gamma_n * nh - p.friction * gamma_n_lagged * vt / s;
    if (H) {
      *H = Matrix3::Zero();
      if (y > 0) *H = (dt * dt * p.stiffness_N_per_m) * nh * nh.transpose();
      const Matrix3 P = Matrix3::Identity() - nh * nh.transpose();
      *H += p.friction * gamma_n_lagged / s * (P - vt * vt.transpose() / (s * s));
    }
    return std::make_pair(gamma, gamma_n);
  };
  auto scatter = [&](const DeformableContactPoint& p, const Vector3& value, Eigen::VectorXd* x) {
    const Tet& t = tets_[p.tet];
    for (int a = 0; a < 4; ++a)
      for (int k = 0; k < 3; ++k) {
        const int dof = index[3 * t[a] + k];
        if (dof >= 0) (*x)[dof] += p.weights[a] * value[k];
      }
  };
  std::vector<double> gamma_n(points.size(), 0.0);
  for (size_t i = 0; i < points.size(); ++i) gamma_n[i] = impulse(points[i], contact_velocity(points[i], u), 0, nullptr).second;
  // Objective for fixed lagged γn: ½‖u − u*‖²_A + Σ [k/2·y₊² + μ·γn·(s − ε)].
  auto objective = [&](const Eigen::VectorXd& x) {
    const Eigen::VectorXd d = x - u_star;
    double E = 0.5 * d.dot(A * d);
    for (size_t i = 0; i < points.size(); ++i) {
      const DeformableContactPoint& p = points[i];
      const Vector3 vc = contact_velocity(p, x);
      const double vn = p.nhat_W.dot(vc);
      const double y = std::max(0.0, -p.phi0_m - dt * vn);
      const Vector3 vt = vc - vn * p.nhat_W;
      E += 0.5 * p.stiffness_N_per_m * y * y +
           p.friction * gamma_n[i] * (std::sqrt(vt.squaredNorm() + kStictionSpeed * kStictionSpeed) - kStictionSpeed);
    }
    return E;
  };
  ContactSolveReport report;
  for (report.iterations = 1; report.iterations <= 100; ++report.iterations) {
    Eigen::VectorXd gradient = A * (u - u_star);
    std::vector<Eigen::Triplet<double>> H_triplets;
    for (int k = 0; k < A.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it; ++it) H_triplets.emplace_back(it.row(), it.col(), it.value());
    for (size_t i = 0; i < points.size(); ++i) {
      const DeformableContactPoint& p = points[i];
      Matrix3 H;
      const auto [gamma, gn] = impulse(p, contact_velocity(p, u), gamma_n[i], &H);
      (void)gn;
      scatter(p, -gamma, &gradient);
      const Tet& t = tets_[p.tet];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
              const int row = index[3 * t[a] + r], col = index[3 * t[b] + c];
              if (row >= 0 && col >= 0) H_triplets.emplace_back(row, col, p.weights[a] * p.weights[b] * H(r, c));
            }
    }
    report.residual = gradient.cwiseAbs().maxCoeff();
    Eigen::SparseMatrix<double> H(num_free, num_free);
    H.setFromTriplets(H_triplets.begin(), H_triplets.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(H);
    const Eigen::VectorXd step = solver.solve(-gradient);
    const double E0 = objective(u);
    double alpha = 1;
    for (int k = 0; k < 30 && !(objective(u + alpha * step) <= E0 + 1e-4 * alpha * gradient.dot(step)); ++k) alpha *= 0.5;
    u += alpha * step;
    double change = 0, largest = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const double updated = impulse(points[i], contact_velocity(points[i], u), 0, nullptr).second;
      change = std::max(change, std::abs(updated - gamma_n[i]));
      largest = std::max(largest, updated);
      gamma_n[i] = updated;
    }
    if (alpha * step.cwiseAbs().maxCoeff() <= 1e-9 + 1e-9 * u.cwiseAbs().maxCoeff() && change <= 1e-9 * (1 + largest)) {
      report.converged = true;
      break;
    }
  }
  report.iterations = std::min(report.iterations, 100);
  // Final momentum residual and the impulse the points applied.
  Eigen::VectorXd residual = A * (u - u_star);
  for (size_t i = 0; i < points.size(); ++i) {
    const auto [gamma, gn] = impulse(points[i], contact_velocity(points[i], u), gamma_n[i], nullptr);
    (void)gn;
    scatter(points[i], -gamma, &residual);
    report.impulse_on_body_W += gamma;
  }
  report.residual = points.empty() ? 0.0 : residual.cwiseAbs().maxCoeff();
  Eigen::VectorXd v_new = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) v_new[i] = u[index[i]];
  q_ += dt * v_new;
  v_ = v_new;
  return report;
}

}  // namespace fem
}  // namespace hydro
