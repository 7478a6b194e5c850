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

namespace {

// Velocity Jacobian of one contact point: vc = Σ blocks[k].second · u[blocks[k].first … +2].
using JacobianBlocks = std::vector<std::pair<int, Matrix3>>;

Matrix3 Cross(const Vector3& r) {
  Matrix3 m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

}  // namespace

ContactSolveReport FemBody::StepWithContacts(double dt, const Vector3& gravity,
                                             const std::vector<DeformableContactPoint>& points,
                                             std::vector<RigidParticipant>* rigid,
                                             const std::vector<VertexAttachment>* attachments) {
  if (material_.model == MaterialModel::kNeoHookean)
    throw InvalidInput("deformable '" + name_ + "': contact steps need the linear or corotational model for now");
  const int num_rigid = rigid ? static_cast<int>(rigid->size()) : 0;
  for (const DeformableContactPoint& p : points)
    if (p.rigid >= num_rigid) throw InvalidInput("deformable '" + name_ + "': a contact names a missing rigid body");
  const std::vector<VertexAttachment> no_attachments;
  const std::vector<VertexAttachment>& welds = attachments ? *attachments : no_attachments;
  for (const VertexAttachment& a : welds)
    if (a.rigid < 0 || a.rigid >= num_rigid || a.vertex < 0 || a.vertex >= num_vertices() || !(a.stiffness_N_per_m > 0))
      throw InvalidInput("deformable '" + name_ + "': an attachment names a missing vertex or body, or has no stiffness");
  Eigen::SparseMatrix<double> A_fem;
  Eigen::VectorXd v_star;
  std::vector<int> index;
  FreeMotion(dt, gravity, 1.0, &A_fem, &v_star, &index);
  const int n = static_cast<int>(q_.size());
  const int num_fem = A_fem.rows();
  const int num_unknowns = num_fem + 6 * num_rigid;
  // The objective's quadratic part: blockdiag(A, m·I, I_W) per rigid body.
  std::vector<Eigen::Triplet<double>> A_triplets;
  for (int k = 0; k < A_fem.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A_fem, k); it; ++it)
      A_triplets.emplace_back(it.row(), it.col(), it.value());
  Eigen::VectorXd u_star(num_unknowns);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) u_star[index[i]] = v_star[i];
  for (int r = 0; r < num_rigid; ++r) {
    const RigidParticipant& body = (*rigid)[r];
    const int base = num_fem + 6 * r;
    for (int k = 0; k < 3; ++k) A_triplets.emplace_back(base + k, base + k, body.mass_kg);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A_triplets.emplace_back(base + 3 + i, base + 3 + j, body.inertia_W(i, j));
    u_star.segment<3>(base) = body.v_star;
    u_star.segment<3>(base + 3) = body.w_star;
  }
  Eigen::SparseMatrix<double> A(num_unknowns, num_unknowns);
  A.setFromTriplets(A_triplets.begin(), A_triplets.end());
  // Each point's relative velocity vc = v_deformable(point) − v_rigid(point):
  // Σ w_a·v_a − v_B − ω_B × r = Σ w_a·v_a − v_B + [r]×·ω_B.
  std::vector<JacobianBlocks> jacobians(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const DeformableContactPoint& p = points[i];
    const Tet& t = tets_[p.tet];
    for (int a = 0; a < 4; ++a)
      if (index[3 * t[a]] >= 0) jacobians[i].emplace_back(index[3 * t[a]], p.weights[a] * Matrix3::Identity());
    if (p.rigid >= 0) {
      const int base = num_fem + 6 * p.rigid;
      jacobians[i].emplace_back(base, -Matrix3::Identity());
      jacobians[i].emplace_back(base + 3, Cross(p.p_WC - (*rigid)[p.rigid].p_WBcm));
    }
  }
  // Attachment gaps e = (x_a + δt·v_a) − (p_WQ + δt·(v_B + ω_B × r)) = e0 + Σ blocks·u.
  std::vector<JacobianBlocks> weld_jacobians(welds.size());
  std::vector<Vector3> weld_offsets(welds.size());
  for (size_t k = 0; k < welds.size(); ++k) {
    const VertexAttachment& a = welds[k];
    weld_offsets[k] = q_.segment<3>(3 * a.vertex) - a.p_WQ;
    if (index[3 * a.vertex] >= 0) weld_jacobians[k].emplace_back(index[3 * a.vertex], dt * Matrix3::Identity());
    const int base = num_fem + 6 * a.rigid;
    weld_jacobians[k].emplace_back(base, -dt * Matrix3::Identity());
    weld_jacobians[k].emplace_back(base + 3, dt * Cross(a.p_WQ - (*rigid)[a.rigid].p_WBcm));
  }
  auto weld_gap = [&](size_t k, const Eigen::VectorXd& x) {
    Vector3 e = weld_offsets[k];
    for (const auto& [dof, block] : weld_jacobians[k]) e += block * x.segment<3>(dof);
    return e;
  };
  auto contact_velocity = [&](size_t i, const Eigen::VectorXd& x) {
    Vector3 vc = Vector3::Zero();
    for (const auto& [dof, block] : jacobians[i]) vc += block * x.segment<3>(dof);
    return vc;
  };
  constexpr double kStictionSpeed = 1e-4;  // m/s: friction reaches μ·γn within this slip
  // The impulse on the deformable at point i for contact velocity vc, and (optionally) −∂γ/∂vc,
  // PSD, for Newton's matrix: γn from the implicit compliant law, friction regularized.
  // Friction starts once the frictionless problem has converged: its normal impulses are then a
  // good lagged γn (from the free motion they can be far too large, and Newton stalled on them).
  double friction_scale = 0;
  auto impulse = [&](const DeformableContactPoint& p, const Vector3& vc, double gamma_n_lagged, Matrix3* H) {
    const double mu = friction_scale * p.friction;
    const Vector3& nh = p.nhat_W;
    const double vn = nh.dot(vc);
    const double y = -p.phi0_m - dt * vn;
    const double gamma_n = y > 0 ? dt * p.stiffness_N_per_m * y : 0.0;
    const Vector3 vt = vc - vn * nh;
    const double s = std::sqrt(vt.squaredNorm() + kStictionSpeed * kStictionSpeed);
    const Vector3 gamma = gamma_n * nh - mu * gamma_n_lagged * vt / s;
    if (H) {
      *H = Matrix3::Zero();
      if (y > 0) *H = (dt * dt * p.stiffness_N_per_m) * nh * nh.transpose();
      const Matrix3 P = Matrix3::Identity() - nh * nh.transpose();
      *H += mu * gamma_n_lagged / s * (P - vt * vt.transpose() / (s * s));
    }
    return std::make_pair(gamma, gamma_n);
  };
  Eigen::VectorXd u = u_star;
  std::vector<double> gamma_n(points.size(), 0.0);
  for (size_t i = 0; i < points.size(); ++i) gamma_n[i] = impulse(points[i], contact_velocity(i, u), 0, nullptr).second;
  // Objective for fixed lagged γn: ½‖u − u*‖²_A + Σ [k/2·y₊² + μ·γn·(s − ε)].
  auto objective = [&](const Eigen::VectorXd& x) {
    const Eigen::VectorXd d = x - u_star;
    double E = 0.5 * d.dot(A * d);
    for (size_t i = 0; i < points.size(); ++i) {
      const DeformableContactPoint& p = points[i];
      const Vector3 vc = contact_velocity(i, x);
      const double vn = p.nhat_W.dot(vc);
      const double y = std::max(0.0, -p.phi0_m - dt * vn);
      const Vector3 vt = vc - vn * p.nhat_W;
      E += 0.5 * p.stiffness_N_per_m * y * y + friction_scale * p.friction * gamma_n[i] *
                                                   (std::sqrt(vt.squaredNorm() + kStictionSpeed * kStictionSpeed) - kStictionSpeed);
    }
    for (size_t k = 0; k < welds.size(); ++k) E += 0.5 * welds[k].stiffness_N_per_m * weld_gap(k, x).squaredNorm();
    return E;
  };
  // gradient = A(u − u*) − Σ Jᵢᵀγᵢ.
  auto gradient_of = [&](const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>* H_triplets) {
    Eigen::VectorXd gradient = A * (x - u_star);
    for (size_t k = 0; k < welds.size(); ++k) {
      const Vector3 e = weld_gap(k, x);
      const double stiffness = welds[k].stiffness_N_per_m;
      for (const auto& [dof, block] : weld_jacobians[k]) gradient.segment<3>(dof) += stiffness * block.transpose() * e;
      if (!H_triplets) continue;
      for (const auto& [row_dof, row_block] : weld_jacobians[k])
        for (const auto& [col_dof, col_block] : weld_jacobians[k]) {
          const Matrix3 entry = stiffness * row_block.transpose() * col_block;
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) H_triplets->emplace_back(row_dof + r, col_dof + c, entry(r, c));
        }
    }
    for (size_t i = 0; i < points.size(); ++i) {
      Matrix3 H;
      const Vector3 gamma = impulse(points[i], contact_velocity(i, x), gamma_n[i], H_triplets ? &H : nullptr).first;
      for (const auto& [dof, block] : jacobians[i]) gradient.segment<3>(dof) -= block.transpose() * gamma;
      if (!H_triplets) continue;
      for (const auto& [row_dof, row_block] : jacobians[i])
        for (const auto& [col_dof, col_block] : jacobians[i]) {
          const Matrix3 entry = row_block.transpose() * H * col_block;
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) H_triplets->emplace_back(row_dof + r, col_dof + c, entry(r, c));
        }
    }
    return gradient;
  };
  ContactSolveReport report;
  for (report.iterations = 1; report.iterations <= 100; ++report.iterations) {
    std::vector<Eigen::Triplet<double>> H_triplets = A_triplets;
    const Eigen::VectorXd gradient = gradient_of(u, &H_triplets);
    Eigen::SparseMatrix<double> H(num_unknowns, num_unknowns);
    H.setFromTriplets(H_triplets.begin(), H_triplets.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(H);
    const Eigen::VectorXd step = solver.solve(-gradient);
    const double E0 = objective(u);
    double alpha = 1;
    for (int k = 0; k < 30 && !(objective(u + alpha * step) <= E0 + 1e-4 * alpha * gradient.dot(step)); ++k) alpha *= 0.5;
    u += alpha * step;
    double change = 0, largest = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const double updated = impulse(points[i], contact_velocity(i, u), 0, nullptr).second;
      change = std::max(change, std::abs(updated - gamma_n[i]));
      largest = std::max(largest, updated);
      gamma_n[i] = updated;
    }
    if (alpha * step.cwiseAbs().maxCoeff() <= 1e-9 + 1e-9 * u.cwiseAbs().maxCoeff() && change <= 1e-9 * (1 + largest)) {
      if (friction_scale == 1) {
        report.converged = true;
        break;
      }
      friction_scale = 1;
    }
  }
  report.iterations = std::min(report.iterations, 100);
  // The momentum residual with the final impulses, and what went where.
  report.residual = points.empty() && welds.empty() ? 0.0 : gradient_of(u, nullptr).cwiseAbs().maxCoeff();
  for (int r = 0; r < num_rigid; ++r) {
    RigidParticipant& body = (*rigid)[r];
    body.v = u.segment<3>(num_fem + 6 * r);
    body.w = u.segment<3>(num_fem + 6 * r + 3);
    body.impulse_W.setZero();
    body.angular_impulse_W.setZero();
  }
  for (size_t k = 0; k < welds.size(); ++k) {
    // The weld pulls the body toward the vertex with k·e over the step (and the vertex back).
    const Vector3 pull = dt * welds[k].stiffness_N_per_m * weld_gap(k, u);
    RigidParticipant& body = (*rigid)[welds[k].rigid];
    body.impulse_W += pull;
    body.angular_impulse_W += (welds[k].p_WQ - body.p_WBcm).cross(pull);
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const Vector3 gamma = impulse(points[i], contact_velocity(i, u), gamma_n[i], nullptr).first;
    report.impulse_on_body_W += gamma;
    if (points[i].rigid >= 0) {
      RigidParticipant& body = (*rigid)[points[i].rigid];
      body.impulse_W -= gamma;
      body.angular_impulse_W -= (points[i].p_WC - body.p_WBcm).cross(gamma);
    }
  }
  Eigen::VectorXd v_new = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) v_new[i] = u[index[i]];
  q_ += dt * v_new;
  v_ = v_new;
  return report;
}

}  // namespace fem
}  // namespace hydro
