#pragma once
// Contact of a deformable body with rigid geometry through the core's polygons (002 §VI): the
// body carries a pressure field p = E_c·e on its deformed mesh, with the extent e (distance to the
// rest surface, normalized) fixed per vertex in the rest shape and so carried with the
// deformation. Each contact polygon becomes a compliant point (000 §IV) whose velocity is the
// barycentric combination of its tet's vertex velocities.
#include <array>
#include <vector>

#include "fem/fem_body.h"
#include "hydro/contact_surface.h"
#include "hydro/hydroelastic_geometry.h"
#include "hydro/point_approximation.h"

namespace hydro {
namespace fem {

struct DeformableContactModel {
  std::vector<double> extent;  // per vertex, from the rest shape
  // Modulus of the contact field. Stiff next to the material (default 10·E) so that the FEM, not
  // the contact layer, sets the deformation.
  double hydroelastic_modulus_Pa{0};
  // Points per contact polygon (000 §IV-C): one at each polygon's centroid, or one per triangle of
  // its centroid fan. A point carries no moment about itself, so a face meshed by few polygons
  // (a block of 12 tets) rests on a line of points and tips; the fan spreads the support over
  // each polygon, at three to six times the points.
  PointQuadrature quadrature{PointQuadrature::kPolygonCentroid};
};

DeformableContactModel MakeDeformableContactModel(const FemBody& body, double modulus_factor = 10.0);

struct DeformableContactPoint {
  int tet{-1};
  std::array<double, 4> weights{};  // barycentric weights of the point in its deformed tet
  Vector3 p_WC{Vector3::Zero()};
  Vector3 nhat_W{Vector3::UnitZ()};  // out of the rigid body into the deformable
  double stiffness_N_per_m{0};
  double phi0_m{0};  // signed distance at the start of the step (< 0: penetrating)
  double friction{0};
  int rigid{-1};  // index of the moving rigid body touched (StepWithContacts' list), -1: static
};

// A moving rigid body that takes part in a deformable's contact solve: its 6 velocities are
// unknowns of the same convex problem, weighted by its mass and inertia (two-way coupling).
struct RigidParticipant {
  double mass_kg{0};
  Matrix3 inertia_W{Matrix3::Identity()};  // about the centre of mass, world frame
  Vector3 p_WBcm{Vector3::Zero()};
  Vector3 v_star{Vector3::Zero()};  // its velocity after the step without these contacts
  Vector3 w_star{Vector3::Zero()};
  // Out: velocity with the contacts, and the total impulse the deformable applied (at p_WBcm,
  // with its moment).
  Vector3 v{Vector3::Zero()}, w{Vector3::Zero()};
  Vector3 impulse_W{Vector3::Zero()}, angular_impulse_W{Vector3::Zero()};
};

// The body's current (deformed) shape as compliant geometry in the world frame, with the model's
// field: made once per step and used against everything the body may touch.
CompliantMesh MakeDeformedGeometry(const FemBody& body, const DeformableContactModel& model);

// The contact points of the body's current shape with a rigid half-space {z ≤ 0 of frame H}
// posed at X_WH, or with a rigid surface mesh posed at X_WR.
std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const RigidHalfSpace& half_space, const RigidTransform& X_WH,
                                                 double friction,
                                                 PointQuadrature quadrature = PointQuadrature::kPolygonCentroid);
std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const RigidMesh& mesh, const RigidTransform& X_WR, double friction,
                                                 PointQuadrature quadrature = PointQuadrature::kPolygonCentroid);
// … or with a compliant rigid body's mesh or half-space (compliant–compliant, 004 App. X-B).
std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const CompliantMesh& other, const RigidTransform& X_WO,
                                                 double friction,
                                                 PointQuadrature quadrature = PointQuadrature::kPolygonCentroid);
std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const CompliantMesh& deformed,
                                                 const CompliantHalfSpace& other, const RigidTransform& X_WO,
                                                 double friction,
                                                 PointQuadrature quadrature = PointQuadrature::kPolygonCentroid);
// The same, making the deformed geometry on the way.
std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const DeformableContactModel& model,
                                                 const RigidHalfSpace& half_space, const RigidTransform& X_WH,
                                                 double friction);
std::vector<DeformableContactPoint> FindContacts(const FemBody& body, const DeformableContactModel& model,
                                                 const RigidMesh& mesh, const RigidTransform& X_WR, double friction);

// A contact point between two deformables A and B (compliant–compliant, 004 App. X-B): its velocity
// is A's barycentric point velocity minus B's; nhat_W points out of B into A; the stiffness uses
// the two fields' gradients in series (000 eq. 23).
struct DeformablePairContactPoint {
  int tet_A{-1}, tet_B{-1};
  std::array<double, 4> weights_A{}, weights_B{};
  Vector3 p_WC{Vector3::Zero()};
  Vector3 nhat_W{Vector3::UnitZ()};
  double stiffness_N_per_m{0};
  double phi0_m{0};
  double friction{0};
};
std::vector<DeformablePairContactPoint> FindContacts(const FemBody& A, const CompliantMesh& deformed_A,
                                                     const FemBody& B, const CompliantMesh& deformed_B, double friction,
                                                     PointQuadrature quadrature = PointQuadrature::kPolygonCentroid);

// The velocity terms of the material point of `body` with barycentric `weights` in tet `tet`, for
// a contact problem in which the body is block `block` with free motion `free_motion`; sign +1
// for side A, -1 for side B. Fixed vertices contribute nothing.
void AppendDeformableTerms(const FemBody& body, const FreeMotion& free_motion, int block, int tet,
                           const std::array<double, 4>& weights, double sign, std::vector<VelocityTerm>* terms);
// The same for one vertex.
void AppendVertexTerms(const FreeMotion& free_motion, int block, int vertex, double sign,
                       std::vector<VelocityTerm>* terms);
// The velocity terms of a point at offset r_W from a rigid body's centre of mass, the body being a
// block of 6 unknowns (v, ω) in the world frame: v + ω × r, times sign.
void AppendRigidTerms(int block, const Vector3& r_W, double sign, std::vector<VelocityTerm>* terms);
// A deformable's block: its free DoFs weighted by the step matrix (with its factorization, for the
// Schur complement), the contact-free velocities as free motion, and, when `start` is given
// (velocities of every DoF), those of the free DoFs as Newton's starting point.
ContactProblemBlock MakeFemBlock(const FreeMotion& free_motion, const Eigen::VectorXd* start = nullptr);
// A rigid body's block: weight diag(m, m, m, I_W), free motion (v*, ω*).
ContactProblemBlock MakeRigidBlock(double mass_kg, const Matrix3& inertia_W, const Vector3& v_star,
                                   const Vector3& w_star);

// A vertex welded to a point Q of a moving rigid body (bubble-gripper style): an implicit spring
// of stiffness k between the vertex and Q at the end of the step, ½·k·|x⁺ − p_WQ⁺|², in the same
// convex problem. p_WQ is Q at the start of the step; `rigid` indexes the participants.
struct VertexAttachment {
  int vertex{-1};
  int rigid{-1};
  Vector3 p_WQ{Vector3::Zero()};
  double stiffness_N_per_m{0};
};

// What the contact solve did.
struct ContactSolveReport {
  int iterations{0};
  bool converged{false};
  double residual{0};                          // ‖A(v − v*) − Jᵀγ‖∞ over the free DoFs, N·s
  Vector3 impulse_on_body_W{Vector3::Zero()};  // Σ γ over the points, N·s
  int friction_rounds{0};                      // lagged-friction rounds (fem/contact_problem.h)
  int near_rigid_contacts{0};                  // points softened to what the step resolves
  int unknowns{0};    // of the contact problem, after reduction to participating DoFs (002 §VI)
  int total_dofs{0};  // of every block before reduction
  double schur_s{0}, newton_s{0};
};
ContactSolveReport ToReport(const ContactProblemResult& solution);

}  // namespace fem
}  // namespace hydro
