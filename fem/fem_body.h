#pragma once
// A deformable body of linear tetrahedra (002 §V): vertex positions q and velocities v (3 per
// vertex, in world), lumped or consistent mass, a linear or lagged-corotational elastic model,
// Rayleigh damping, and the θ-method step of 002 eq. 1 solved with one sparse Cholesky
// factorization per step (the rotation is lagged, so the step is linear and its matrix PSD).
// It owns an immutable FemModel (rest mesh, material, element data) and a FemState (q, v,
// rotations, fixed DoFs), and steps the state.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <memory>
#include <string>
#include <vector>

#include "fem/contact_problem.h"
#include "fem/element_assembly.h"
#include "fem/fem_model.h"
#include "fem/fem_state.h"
#include "fem/free_motion.h"
#include "fem/material.h"
#include "fem/neo_hookean_step.h"

namespace hydro {
namespace fem {
struct DeformableContactPoint;
struct ContactSolveReport;
struct RigidParticipant;
struct VertexAttachment;
}  // namespace fem
}  // namespace hydro

#include "hydro/volume_mesh.h"

namespace hydro {
namespace fem {

class FemBody {
 public:
  // Validates everything (throws InvalidInput "deformable '<name>': …" naming the element or
  // vertex): the mesh (finite coordinates, no degenerate or inverted tets) and the material.
  // Vertices no tet uses are dropped; warnings() says how many.
  FemBody(std::string name, std::vector<Vector3> rest_positions, std::vector<Tet> tets, const Material& material,
          MassModel mass_model = MassModel::kLumped);

  const FemModel& model() const { return model_; }
  const FemState& state() const { return state_; }

  const std::string& name() const { return model_.name(); }
  int num_vertices() const { return model_.num_vertices(); }
  int num_tets() const { return model_.num_tets(); }
  const std::vector<Tet>& tets() const { return model_.tets(); }
  const std::vector<Vector3>& rest_positions() const { return model_.rest_positions(); }
  const std::vector<std::string>& warnings() const { return model_.warnings(); }
  const Material& material() const { return model_.material(); }

  // State, 3 entries per vertex (world frame).
  const Eigen::VectorXd& q() const { return state_.q; }
  const Eigen::VectorXd& v() const { return state_.v; }
  Vector3 position(int vertex) const { return state_.position(vertex); }
  Vector3 velocity(int vertex) const { return state_.velocity(vertex); }
  // Positions and velocities only (rotations and fixed DoFs kept). Throws InvalidInput as the
  // overload below does: a size other than the model's, or the first value that is not finite.
  void SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // The whole state (q, v, rotations, fixed DoFs), as state() gave it for this body or another
  // of the same model: the two bodies then step alike, bit for bit. Throws InvalidInput naming
  // what does not fit (a size other than the model's, or the first value that is not finite),
  // with the state unchanged.
  void SetState(const FemState& state);
  // Moves the whole body rigidly: q = X_WB·rest, v = v + ω × (q − origin of B).
  void SetRigidState(const RigidTransform& X_WB, const Vector3& v_WB, const Vector3& w_WB);

  // Welds a vertex to its current position (zero velocity).
  void FixVertex(int vertex);
  bool is_fixed(int vertex) const { return state_.fixed[3 * vertex]; }

  // One θ-method step of length dt under gravity (002 eq. 1 and 11, θ_vq = θ):
  //   [(1 + αθδt)M + θδt(θδt + β)K] Δv = δt[f(q) + M g − D v − θδt K v],
  //   v⁺ = v + Δv,  q⁺ = q + δt((1 − θ)v + θv⁺).
  void Step(double dt, const Vector3& gravity, double theta = 1.0);
  const StepTimings& last_step_timings() const { return timings_; }
  // A backward Euler step (linear or corotational model) with contact points against static rigid
  // geometry: v⁺ minimizes ½‖v⁺ − v*‖²_A + Σ ℓ_i, v* the contact-free step, ℓ_i each point's
  // implicit compliant law (impulse δt·k·(−φ0 − δt·vn)₊ along the normal) and regularized
  // Coulomb friction (μ·γn, stiction speed 1e-4 m/s) — a convex problem in v⁺ for fixed γn, solved
  // by Newton's method with γn updated every iteration, until the step is below 1e-9 m/s.
  // Points whose `rigid` index names an entry of `rigid` touch that moving body, whose velocities
  // join the unknowns (its inertia weighting them in the objective).
  // Attachments weld vertices to participants with implicit springs in the same problem.
  ContactSolveReport StepWithContacts(double dt, const Vector3& gravity,
                                      const std::vector<DeformableContactPoint>& points,
                                      std::vector<RigidParticipant>* rigid = nullptr,
                                      const std::vector<VertexAttachment>* attachments = nullptr);
  // The free-DOF matrix of the linear step, (1 + αθδt)M + θδt(θδt + β)K at the current rotations
  // (002 eq. 11): what Step factors; for benchmarks and the contact solve.
  Eigen::SparseMatrix<double> StepMatrix(double dt, double theta = 1.0) const;
  // The two halves of a backward Euler step with contact: the contact-free motion (corotational:
  // updates the rotations; Neo-Hookean: Newton's solve, with A its matrix at the solution), then
  // the step's end velocities of the free DoFs, from the contact problem: v = v⁺ there (0 at
  // fixed DoFs), q += δt·v.
  FreeMotion CalcFreeMotion(double dt, const Vector3& gravity, double theta = 1.0);
  void CommitStep(double dt, const FreeMotion& free_motion, const Eigen::VectorXd& v_free);
  // Newton iterations of the last Neo-Hookean step, and whether it met its tolerance.
  int last_newton_iterations() const { return newton_report_.iterations; }
  bool last_step_converged() const { return newton_report_.converged; }

  // Static equilibrium of the linear model (small strain) under gravity and vertex forces, with
  // fixed vertices where they are and `prescribed` displacements (dof index, value) besides:
  // K·u = f. Sets q = rest + u, v = 0.
  void SolveLinearStatics(const Vector3& gravity, const std::vector<std::pair<int, double>>& prescribed = {},
                          const Eigen::VectorXd* vertex_forces = nullptr);

  double CalcKineticEnergy() const;
  double CalcElasticEnergy() const;  // with the current rotations (corotational) or none (linear)
  double CalcMass() const;
  Vector3 CalcCenterOfMass() const;
  Vector3 CalcMeanVelocity() const;  // mass-weighted
  double CalcVolume() const;         // of the deformed mesh
  // Per tet, ‖sym(RᵀF) − I‖_F: the size of the small strain with the element's rotation removed
  // (for pictures).
  std::vector<double> CalcElementStrains() const;

 private:
  // The Neo-Hookean free motion (fem/neo_hookean_step.h) of the current state, with this body's
  // factorization, timings and Newton report.
  FreeMotion NeoHookeanFreeMotion(double dt, const Vector3& gravity);
  // Triplets of K (rotated element stiffnesses) and the internal force f(q), over free DOFs.
  void AssembleStiffnessAndForce(bool linear, std::vector<Eigen::Triplet<double>>* K, Eigen::VectorXd* f) const;
  // Element e's stiffness (R̂·K0e·R̂ᵀ; K0e for the linear model), its internal force added to f.
  Eigen::Matrix<double, 12, 12> ElementStiffnessAddingForce(int e, bool linear, Eigen::VectorXd* f) const;

  FemModel model_;
  FemState state_;
  StepTimings timings_;
  // The step matrix keeps its pattern from step to step: its assembly slots found and its
  // factorization analysed once (until a vertex is fixed).
  ElementAssembly step_assembly_;
  bool step_assembly_valid_{false};
  Eigen::SparseMatrix<double> mass_matrix_;  // over every DoF, with the assembly
  ReusedFactorization step_factorization_;
  NeoHookeanWorkspace neo_hookean_workspace_;  // Newton's matrix's pattern, for the Neo-Hookean model
  NewtonReport newton_report_;
};

// A box [0, size] meshed as nx × ny × nz cubes of six tets each (a conforming Kuhn split).
void MakeTetGrid(const Vector3& size, int nx, int ny, int nz, std::vector<Vector3>* vertices, std::vector<Tet>* tets);

}  // namespace fem
}  // namespace hydro
