#include "fem/deformable_contact.h"

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "hydro/contact_surface_calculator.h"
#include "hydro/depth_bound.h"
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

CompliantMesh MakeDeformedGeometry(const FemBody& body, const DeformableContactModel& model) {
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

namespace {

// Barycentric weights of p in tet t of the body's current shape.
std::array<double, 4> Barycentric(const FemBody& body, int t, const Vector3& p) {
  const Tet& tet = body.tets()[t];
  Matrix3 D;
  for (int i = 0; i < 3; ++i) D.col(i) = body.position(tet[i + 1]) - body.position(tet[0]);
  const Vector3 w = D.inverse() * (p - body.position(tet[0]));
  return {1 - w.sum(), w[0], w[1], w[2]};
}

// min and max of n·p over the vertices of tet t of the body's current shape.
std::pair<double, double> ExtentAlong(const FemBody& body, int t, const Vector3& n) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int v : body.tets()[t]) {
    const double s = n.dot(body.position(v));
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  return {lo, hi};
}

// BoundDepthByOverlap: hydro/depth_bound.h.

// The core's point approximation (000 §IV) of the surface, or of its centroid fan.
std::vector<ContactPoint> PointsOf(const ContactSurface& surface, PointQuadrature quadrature) {
  std::vector<ContactPoint> points;
  MakeContactPoints(surface, &points, quadrature);
  return points;
}

std::vector<DeformableContactPoint> ToPoints(const FemBody& body, const ContactSurface& surface, double friction,
                                             PointQuadrature quadrature, bool bound_by_plane) {
  const std::vector<ContactPoint> points = PointsOf(surface, quadrature);
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
    if (bound_by_plane) {
      // B is a rigid face in the polygon's plane: A clears it once its lowest vertex is above.
      BoundDepthByOverlap(c.nhat_W.dot(c.p_WC) - ExtentAlong(body, c.tet, c.nhat_W).first, &c.phi0_m);
    }
    c.friction = friction;
    out.push_back(c);
  }
  return out;
}

}  // namespace

namespace {

// The points of the deformed body A against any geometry B the core pairs with a compliant mesh.
// A rigid B's face lies in each polygon's plane, which bounds the depth (BoundDepthByOverlap).
template <typename Other>
std::vector<DeformableContactPoint> FindContactsWith(const FemBody& body, const CompliantMesh& deformed,
                                                     const Other& other, const RigidTransform& X_WO, double friction,
                                                     PointQuadrature quadrature, bool other_is_rigid) {
  ContactSurface surface;
  CalcContactSurface(deformed, RigidTransform::Identity(), other, X_WO, &surface);
  return ToPoints(body, surface, friction, quadrature, other_is_rigid);
}

}  // namespace

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const RigidHalfSpace& half_space, const RigidTransform& X_WH,
                                                 double friction, PointQuadrature quadrature) {
  return FindContactsWith(body, deformed, half_space, X_WH, friction, quadrature, true);
}

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const RigidMesh& rigid, const RigidTransform& X_WR, double friction,
                                                 PointQuadrature quadrature) {
  return FindContactsWith(body, deformed, rigid, X_WR, friction, quadrature, true);
}

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const CompliantMesh& other, const RigidTransform& X_WO,
                                                 double friction, PointQuadrature quadrature) {
  return FindContactsWith(body, deformed, other, X_WO, friction, quadrature, false);
}

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const CompliantHalfSpace& other, const RigidTransform& X_WO,
                                                 double friction, PointQuadrature quadrature) {
  return FindContactsWith(body, deformed, other, X_WO, friction, quadrature, false);
}

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const DeformableContactModel& model,
                                                 const RigidHalfSpace& half_space, const RigidTransform& X_WH,
                                                 double friction) {
  return FindContacts(body, MakeDeformedGeometry(body, model), half_space, X_WH, friction, model.quadrature);
}

std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const DeformableContactModel& model,
                                                 const RigidMesh& rigid, const RigidTransform& X_WR, double friction) {
  return FindContacts(body, MakeDeformedGeometry(body, model), rigid, X_WR, friction, model.quadrature);
}

std::vector<DeformablePairContactPoint> FindContacts(const FemBody& A, const CompliantMesh& deformed_A,
                                                     const FemBody& B, const CompliantMesh& deformed_B, double friction,
                                                     PointQuadrature quadrature) {
  ContactSurface surface;
  CalcContactSurface(deformed_A, RigidTransform::Identity(), deformed_B, RigidTransform::Identity(), &surface);
  const std::vector<ContactPoint> points = PointsOf(surface, quadrature);
  std::vector<DeformablePairContactPoint> out;
  out.reserve(points.size());
  for (const ContactPoint& p : points) {
    DeformablePairContactPoint c;
    c.tet_A = p.element_A;
    c.tet_B = p.element_B;
    c.weights_A = Barycentric(A, c.tet_A, p.p_WC);
    c.weights_B = Barycentric(B, c.tet_B, p.p_WC);
    c.p_WC = p.p_WC;
    c.nhat_W = p.nhat_BA_W;
    c.stiffness_N_per_m = p.stiffness_N_per_m;
    c.phi0_m = p.phi0_m;
    BoundDepthByOverlap(ExtentAlong(B, c.tet_B, c.nhat_W).second - ExtentAlong(A, c.tet_A, c.nhat_W).first, &c.phi0_m);
    c.friction = friction;
    out.push_back(c);
  }
  return out;
}

void AppendDeformableTerms(const FemBody& body, const FreeMotion& free_motion, int block, int tet,
                           const std::array<double, 4>& weights, double sign, std::vector<VelocityTerm>* terms) {
  const Tet& t = body.tets()[tet];
  for (int a = 0; a < 4; ++a) {
    const int dof = free_motion.index[3 * t[a]];
    if (dof < 0) continue;
    terms->push_back({block, dof, sign * weights[a] * Matrix3::Identity()});
  }
}

void AppendVertexTerms(const FreeMotion& free_motion, int block, int vertex, double sign,
                       std::vector<VelocityTerm>* terms) {
  const int dof = free_motion.index[3 * vertex];
  if (dof >= 0) terms->push_back({block, dof, sign * Matrix3::Identity()});
}

void AppendRigidTerms(int block, const Vector3& r_W, double sign, std::vector<VelocityTerm>* terms) {
  terms->push_back({block, 0, sign * Matrix3::Identity()});
  terms->push_back({block, 3, -sign * CrossMatrix(r_W)});
}

ContactProblemBlock MakeFemBlock(const FreeMotion& free_motion, const Eigen::VectorXd* start) {
  ContactProblemBlock block;
  block.A = free_motion.A;
  block.factorization = free_motion.factorization;
  block.u_star.resize(free_motion.num_free);
  if (start) block.u_guess.resize(free_motion.num_free);
  for (size_t i = 0; i < free_motion.index.size(); ++i) {
    const int free = free_motion.index[i];
    if (free < 0) continue;
    block.u_star[free] = free_motion.v_star[i];
    if (start) block.u_guess[free] = (*start)[i];
  }
  return block;
}

ContactProblemBlock MakeRigidBlock(double mass_kg, const Matrix3& inertia_W, const Vector3& v_star,
                                   const Vector3& w_star) {
  Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
  A.topLeftCorner<3, 3>() = mass_kg * Matrix3::Identity();
  A.bottomRightCorner<3, 3>() = inertia_W;
  ContactProblemBlock block;
  block.A = A.sparseView();
  block.u_star.resize(6);
  block.u_star << v_star, w_star;
  return block;
}

ContactSolveReport FemBody::StepWithContacts(double dt, const Vector3& gravity,
                                             const std::vector<DeformableContactPoint>& points,
                                             std::vector<RigidParticipant>* rigid,
                                             const std::vector<VertexAttachment>* attachments) {
  const int num_rigid = rigid ? static_cast<int>(rigid->size()) : 0;
  for (const DeformableContactPoint& p : points)
    if (p.rigid >= num_rigid || p.tet < 0 || p.tet >= num_tets())
      throw InvalidInput("deformable '" + name() + "': a contact names a missing tet or rigid body");
  const std::vector<VertexAttachment> no_attachments;
  const std::vector<VertexAttachment>& welds = attachments ? *attachments : no_attachments;
  for (const VertexAttachment& a : welds)
    if (a.rigid < 0 || a.rigid >= num_rigid || a.vertex < 0 || a.vertex >= num_vertices() || !(a.stiffness_N_per_m > 0))
      throw InvalidInput("deformable '" + name() +
                         "': an attachment names a missing vertex or body, or has no stiffness");
  const FreeMotion free_motion = CalcFreeMotion(dt, gravity);
  // Block 0 is this body (its free DoFs), blocks 1… the rigid participants.
  std::vector<ContactProblemBlock> blocks{MakeFemBlock(free_motion)};
  for (const RigidParticipant& body : rigid ? *rigid : std::vector<RigidParticipant>{})
    blocks.push_back(MakeRigidBlock(body.mass_kg, body.inertia_W, body.v_star, body.w_star));
  std::vector<ContactConstraint> contacts;
  for (const DeformableContactPoint& p : points) {
    ContactConstraint c;
    AppendDeformableTerms(*this, free_motion, 0, p.tet, p.weights, +1, &c.terms);
    if (p.rigid >= 0) AppendRigidTerms(1 + p.rigid, p.p_WC - (*rigid)[p.rigid].p_WBcm, -1, &c.terms);
    c.nhat_W = p.nhat_W;
    c.stiffness_N_per_m = p.stiffness_N_per_m;
    c.phi0_m = p.phi0_m;
    c.friction = p.friction;
    contacts.push_back(std::move(c));
  }
  std::vector<SpringConstraint> springs;
  for (const VertexAttachment& a : welds) {
    SpringConstraint s;
    AppendVertexTerms(free_motion, 0, a.vertex, +1, &s.terms);
    AppendRigidTerms(1 + a.rigid, a.p_WQ - (*rigid)[a.rigid].p_WBcm, -1, &s.terms);
    s.p_BcAc_W_start = position(a.vertex) - a.p_WQ;
    s.stiffness_N_per_m = a.stiffness_N_per_m;
    springs.push_back(std::move(s));
  }
  const ContactProblemResult solution = SolveContactProblem(dt, blocks, contacts, springs);
  ContactSolveReport report = ToReport(solution);
  for (const Vector3& gamma : solution.contact_impulse_W) report.impulse_on_body_W += gamma;
  for (int r = 0; r < num_rigid; ++r) {
    RigidParticipant& body = (*rigid)[r];
    body.v = solution.u[1 + r].head<3>();
    body.w = solution.u[1 + r].tail<3>();
    body.impulse_W = solution.impulse[1 + r].head<3>();
    body.angular_impulse_W = solution.impulse[1 + r].tail<3>();
  }
  CommitStep(dt, free_motion, solution.u[0]);
  return report;
}

ContactSolveReport ToReport(const ContactProblemResult& solution) {
  ContactSolveReport report;
  report.iterations = solution.iterations;
  report.converged = solution.converged;
  report.residual = solution.residual;
  report.friction_rounds = solution.friction_rounds;
  report.near_rigid_contacts = solution.near_rigid_contacts;
  report.unknowns = solution.unknowns;
  report.total_dofs = solution.total_dofs;
  report.schur_s = solution.schur_s;
  report.newton_s = solution.newton_s;
  return report;
}

}  // namespace fem
}  // namespace hydro
