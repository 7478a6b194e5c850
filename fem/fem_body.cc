#include "fem/fem_body.h"

#include <Eigen/SparseCholesky>

#include <array>
#include <cmath>
#include <string>
#include <utility>

namespace hydro {
namespace fem {

FemBody::FemBody(std::string name, std::vector<Vector3> rest_positions, std::vector<Tet> tets, const Material& material,
                 MassModel mass_model)
    : model_(std::move(name), std::move(rest_positions), std::move(tets), material, mass_model), state_(model_) {}

namespace {

// Throws "<where>the state has <size> <what>; the model has <expected>".
void CheckStateSize(const std::string& where, const char* what, size_t size, size_t expected) {
  if (size != expected)
    throw InvalidInput(where + "the state has " + std::to_string(size) + " " + what + "; the model has " +
                       std::to_string(expected));
}

// Throws "<where><what> <i> (vertex i/3) is <value>, not finite" for the first such entry of x
// (value: nan, inf or -inf).
void CheckStateFinite(const std::string& where, const char* what, const Eigen::VectorXd& x) {
  for (int i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) {
      const char* value = std::isnan(x[i]) ? "nan" : x[i] > 0 ? "inf" : "-inf";
      throw InvalidInput(where + what + " " + std::to_string(i) + " (vertex " + std::to_string(i / 3) + ") is " +
                         value + ", not finite");
    }
}

}  // namespace

void FemBody::SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const std::string where = "deformable '" + name() + "': SetState: ";
  const size_t num_dofs = 3 * static_cast<size_t>(num_vertices());
  CheckStateSize(where, "position entries", q.size(), num_dofs);
  CheckStateSize(where, "velocity entries", v.size(), num_dofs);
  CheckStateFinite(where, "position entry", q);
  CheckStateFinite(where, "velocity entry", v);
  state_.q = q;
  state_.v = v;
}

void FemBody::SetState(const FemState& state) {
  const std::string where = "deformable '" + name() + "': SetState: ";
  const size_t num_dofs = 3 * static_cast<size_t>(num_vertices());
  CheckStateSize(where, "position entries", state.q.size(), num_dofs);
  CheckStateSize(where, "velocity entries", state.v.size(), num_dofs);
  CheckStateSize(where, "fixed-DoF flags", state.fixed.size(), num_dofs);
  CheckStateSize(where, "tet rotations", state.rotations.size(), num_tets());
  CheckStateFinite(where, "position entry", state.q);
  CheckStateFinite(where, "velocity entry", state.v);
  for (int e = 0; e < num_tets(); ++e)
    if (!state.rotations[e].allFinite())
      throw InvalidInput(where + "the rotation of tet " + std::to_string(e) + " is not finite");
  // The step matrix's pattern and numbering are those of the free DoFs.
  if (state.fixed != state_.fixed) step_assembly_valid_ = false;
  state_ = state;
}

void FemBody::SetRigidState(const RigidTransform& X_WB, const Vector3& v_WB, const Vector3& w_WB) {
  CheckPose(X_WB, "deformable pose");
  state_.SetRigid(model_, X_WB, v_WB, w_WB);
}

void FemBody::FixVertex(int vertex) {
  if (vertex < 0 || vertex >= num_vertices())
    throw InvalidInput("deformable '" + name() + "': no vertex " + std::to_string(vertex) + " to fix");
  state_.FixVertex(vertex);
  step_assembly_valid_ = false;
}

Eigen::Matrix<double, 12, 12> FemBody::ElementStiffnessAddingForce(int e, bool linear, Eigen::VectorXd* f) const {
  const Tet& t = model_.tets()[e];
  const Matrix3 R = linear ? Matrix3::Identity() : state_.rotations[e];
  const Matrix12& K0e = model_.rest_stiffness(e);
  // f_e = −R̂·K0e·(R̂ᵀ x_e − X_e) (002 §V-B; R = I for the linear model).
  Vector12 x = Gather(state_.q, t);
  for (int a = 0; a < 4; ++a) x.segment<3>(3 * a) = R.transpose() * x.segment<3>(3 * a);
  Vector12 fe = -K0e * (x - model_.RestCoordinates(e));
  for (int a = 0; a < 4; ++a) f->segment<3>(3 * t[a]) += R * fe.segment<3>(3 * a);
  return linear ? K0e : RotateElementMatrix(K0e, R);
}

void FemBody::AssembleStiffnessAndForce(bool linear, std::vector<Eigen::Triplet<double>>* K, Eigen::VectorXd* f) const {
  f->setZero(state_.q.size());
  for (int e = 0; e < num_tets(); ++e) {
    const Tet& t = model_.tets()[e];
    const Matrix12 Ke = ElementStiffnessAddingForce(e, linear, f);
    if (!K) continue;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) K->emplace_back(3 * t[a] + i, 3 * t[b] + j, Ke(3 * a + i, 3 * b + j));
  }
}

Eigen::SparseMatrix<double> FemBody::StepMatrix(double dt, double theta) const {
  const Material& material = model_.material();
  const bool linear = material.model != MaterialModel::kCorotational;
  std::vector<Eigen::Triplet<double>> K_triplets, M_triplets;
  Eigen::VectorXd f;
  AssembleStiffnessAndForce(linear, &K_triplets, &f);
  model_.AssembleMass(&M_triplets);
  const double alpha = material.mass_damping_1_per_s, beta = material.stiffness_damping_s;
  std::vector<Eigen::Triplet<double>> A_triplets;
  for (const auto& t : M_triplets) A_triplets.emplace_back(t.row(), t.col(), (1 + alpha * theta * dt) * t.value());
  for (const auto& t : K_triplets)
    A_triplets.emplace_back(t.row(), t.col(), theta * dt * (theta * dt + beta) * t.value());
  std::vector<int> index;
  const int num_free = state_.IndexFreeDofs(&index);
  return MakeFreeDofMatrix(A_triplets, index, num_free);
}

FreeMotion FemBody::CalcFreeMotion(double dt, const Vector3& gravity, double theta) {
  const Material& material = model_.material();
  if (material.model == MaterialModel::kNeoHookean) {
    if (theta != 1)
      throw InvalidInput("deformable '" + name() + "': the Neo-Hookean model steps with backward Euler (θ = 1)");
    return NeoHookeanFreeMotion(dt, gravity);
  }
  FreeMotion out;
  auto start = StepClock::now();
  const bool linear = material.model == MaterialModel::kLinear;
  const Eigen::VectorXd& q = state_.q;
  const Eigen::VectorXd& v = state_.v;
  // The rotations are held fixed through the step (one linear solve, PSD matrix, 002 §V-B), taken
  // where the start-of-step velocity carries each tet over the step: the purely lagged rotation
  // (from q alone) trails a spinning body by ω·δt and turned 40 ms steps of a free tumbling block
  // into a 6% volume error with energy growth; predicted, the error is second order in δt.
  if (!linear) state_.UpdateRotations(model_, q + theta * dt * v);
  const int n = state_.num_dofs();
  const std::vector<int>& index = out.index;
  out.num_free = state_.IndexFreeDofs(&out.index);
  const int num_free = out.num_free;
  if (!step_assembly_valid_) {
    step_assembly_ = ElementAssembly(model_.tets(), index, num_free);
    std::vector<Eigen::Triplet<double>> M_triplets;
    model_.AssembleMass(&M_triplets);
    mass_matrix_.resize(n, n);
    mass_matrix_.setFromTriplets(M_triplets.begin(), M_triplets.end());
    step_assembly_valid_ = true;
  }
  // A = (1 + αθδt)·M + θδt(θδt + β)·K over the free DoFs (002 eq. 11), straight into its pattern.
  const double alpha = material.mass_damping_1_per_s, beta = material.stiffness_damping_s;
  const double mass_scale = 1 + alpha * theta * dt, stiffness_scale = theta * dt * (theta * dt + beta);
  out.A = step_assembly_.zero_pattern();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(n), Kv = Eigen::VectorXd::Zero(n);
  for (int e = 0; e < num_tets(); ++e) {
    const Tet& t = model_.tets()[e];
    const Matrix12 Ke = ElementStiffnessAddingForce(e, linear, &f);
    const Vector12 Kv_e = Ke * Gather(v, t);
    for (int a = 0; a < 4; ++a) Kv.segment<3>(3 * t[a]) += Kv_e.segment<3>(3 * a);
    step_assembly_.Add(e, Ke, stiffness_scale, &out.A);
  }
  if (model_.mass_model() == MassModel::kLumped) {
    for (int i = 0; i < n; ++i)
      if (index[i] >= 0) step_assembly_.AddDiagonal(index[i], mass_scale * model_.lumped_mass(i / 3), &out.A);
  } else {
    for (int e = 0; e < num_tets(); ++e) step_assembly_.Add(e, model_.ConsistentElementMass(e), mass_scale, &out.A);
  }
  // Right side: δt[f(q) + M g − D v − θδt K v], D = αM + βK.
  Eigen::VectorXd g(n);
  for (int i = 0; i < n / 3; ++i) g.segment<3>(3 * i) = gravity;
  const Eigen::VectorXd rhs = dt * (f + mass_matrix_ * (g - alpha * v) - (beta + theta * dt) * Kv);
  Eigen::VectorXd b(num_free);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) b[index[i]] = rhs[i];
  timings_.assembly_s = SecondsSince(start);
  start = StepClock::now();
  std::shared_ptr<const StepFactorization> solver = step_factorization_.Factor(out.A);
  if (solver == nullptr) throw InvalidInput("deformable '" + name() + "': the step matrix could not be factored");
  timings_.factorization_s = SecondsSince(start);
  start = StepClock::now();
  const Eigen::VectorXd dv = solver->solve(b);
  timings_.solve_s = SecondsSince(start);
  out.factorization = std::move(solver);
  out.v_star.resize(n);
  for (int i = 0; i < n; ++i) out.v_star[i] = index[i] >= 0 ? v[i] + dv[index[i]] : 0.0;
  return out;
}

void FemBody::CommitStep(double dt, const FreeMotion& free_motion, const Eigen::VectorXd& v_free) {
  const int n = state_.num_dofs();
  if (v_free.size() != free_motion.num_free || static_cast<int>(free_motion.index.size()) != n)
    throw InvalidInput("deformable '" + name() + "': the step's velocities do not match its free motion");
  Eigen::VectorXd v_new = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < n; ++i)
    if (free_motion.index[i] >= 0) v_new[i] = v_free[free_motion.index[i]];
  if (!v_new.allFinite()) throw InvalidInput("deformable '" + name() + "': the step produced non-finite velocities");
  state_.q += dt * v_new;
  state_.v = v_new;
}

void FemBody::Step(double dt, const Vector3& gravity, double theta) {
  if (!(dt > 0) || !std::isfinite(dt)) throw InvalidInput("deformable '" + name() + "': the step must be positive");
  if (!(theta >= 0.5 && theta <= 1)) throw InvalidInput("deformable '" + name() + "': θ must be in [0.5, 1]");
  if (model_.material().model == MaterialModel::kNeoHookean) {
    if (theta != 1)
      throw InvalidInput("deformable '" + name() + "': the Neo-Hookean model steps with backward Euler (θ = 1)");
    const FreeMotion free_motion = NeoHookeanFreeMotion(dt, gravity);
    state_.q += dt * free_motion.v_star;
    state_.v = free_motion.v_star;
    return;
  }
  const FreeMotion free_motion = CalcFreeMotion(dt, gravity, theta);
  state_.q += dt * ((1 - theta) * state_.v + theta * free_motion.v_star);
  state_.v = free_motion.v_star;
}

FreeMotion FemBody::NeoHookeanFreeMotion(double dt, const Vector3& gravity) {
  return CalcNeoHookeanFreeMotion(model_, state_, dt, gravity, &step_factorization_, &neo_hookean_workspace_, &timings_,
                                  &newton_report_);
}

void FemBody::SolveLinearStatics(const Vector3& gravity, const std::vector<std::pair<int, double>>& prescribed,
                                 const Eigen::VectorXd* vertex_forces) {
  const int n = state_.num_dofs();
  const std::vector<Vector3>& rest = model_.rest_positions();
  std::vector<Eigen::Triplet<double>> K_triplets, M_triplets;
  Eigen::VectorXd f_unused;
  for (int i = 0; i < n / 3; ++i) state_.q.segment<3>(3 * i) = rest[i];
  AssembleStiffnessAndForce(/*linear=*/true, &K_triplets, &f_unused);
  model_.AssembleMass(&M_triplets);
  Eigen::SparseMatrix<double> K(n, n), M(n, n);
  K.setFromTriplets(K_triplets.begin(), K_triplets.end());
  M.setFromTriplets(M_triplets.begin(), M_triplets.end());
  Eigen::VectorXd g(n);
  for (int i = 0; i < n / 3; ++i) g.segment<3>(3 * i) = gravity;
  Eigen::VectorXd f = M * g;
  if (vertex_forces) f += *vertex_forces;
  // Prescribed displacements u_d (fixed vertices: 0) move to the right side: K_ff u_f = f_f − K_fd u_d.
  Eigen::VectorXd u = Eigen::VectorXd::Zero(n);
  std::vector<bool> known(state_.fixed);
  for (const auto& [dof, value] : prescribed) {
    if (dof < 0 || dof >= n) throw InvalidInput("deformable '" + name() + "': no DOF " + std::to_string(dof));
    known[dof] = true;
    u[dof] = value;
  }
  f -= K * u;
  std::vector<int> index(n, -1);
  int num_free = 0;
  for (int i = 0; i < n; ++i)
    if (!known[i]) index[i] = num_free++;
  const Eigen::SparseMatrix<double> K_ff = MakeFreeDofMatrix(K_triplets, index, num_free);
  Eigen::VectorXd b(num_free);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) b[index[i]] = f[i];
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(K_ff);
  if (solver.info() != Eigen::Success)
    throw InvalidInput("deformable '" + name() + "': the static problem is singular (fix enough vertices)");
  const Eigen::VectorXd u_free = solver.solve(b);
  for (int i = 0; i < n; ++i)
    if (index[i] >= 0) u[i] = u_free[index[i]];
  for (int i = 0; i < n / 3; ++i) state_.q.segment<3>(3 * i) = rest[i] + u.segment<3>(3 * i);
  state_.v.setZero();
}

double FemBody::CalcKineticEnergy() const {
  std::vector<Eigen::Triplet<double>> M_triplets;
  model_.AssembleMass(&M_triplets);
  const Eigen::VectorXd& v = state_.v;
  double energy = 0;
  for (const auto& t : M_triplets) energy += 0.5 * t.value() * v[t.row()] * v[t.col()];
  return energy;
}

double FemBody::CalcElasticEnergy() const {
  if (material().model == MaterialModel::kNeoHookean) return CalcNeoHookeanEnergy(model_, state_.q, nullptr, nullptr);
  const bool linear = material().model == MaterialModel::kLinear;
  double energy = 0;
  for (int e = 0; e < num_tets(); ++e) {
    const Matrix3 R = linear ? Matrix3::Identity() : CalcPolarRotation(model_.CalcDeformationGradient(state_.q, e));
    Vector12 x = Gather(state_.q, model_.tets()[e]);
    for (int a = 0; a < 4; ++a) x.segment<3>(3 * a) = R.transpose() * x.segment<3>(3 * a);
    const Vector12 u = x - model_.RestCoordinates(e);
    // Rigid motions carry no energy: K0e annihilates translations; the rotation is factored out.
    energy += 0.5 * u.dot(model_.rest_stiffness(e) * u);
  }
  return energy;
}

double FemBody::CalcMass() const { return model_.CalcMass(); }

Vector3 FemBody::CalcCenterOfMass() const {
  Vector3 c = Vector3::Zero();
  for (int i = 0; i < num_vertices(); ++i) c += model_.lumped_mass(i) * state_.q.segment<3>(3 * i);
  return c / CalcMass();
}

Vector3 FemBody::CalcMeanVelocity() const {
  Vector3 c = Vector3::Zero();
  for (int i = 0; i < num_vertices(); ++i) c += model_.lumped_mass(i) * state_.v.segment<3>(3 * i);
  return c / CalcMass();
}

std::vector<double> FemBody::CalcElementStrains() const {
  std::vector<double> strains(num_tets());
  for (int e = 0; e < num_tets(); ++e) {
    const Matrix3 F = model_.CalcDeformationGradient(state_.q, e);
    const Matrix3 RtF = CalcPolarRotation(F).transpose() * F;
    strains[e] = (0.5 * (RtF + RtF.transpose()) - Matrix3::Identity()).norm();
  }
  return strains;
}

double FemBody::CalcVolume() const {
  double volume = 0;
  for (const Tet& t : model_.tets()) {
    Matrix3 Ds;
    for (int i = 0; i < 3; ++i) Ds.col(i) = state_.q.segment<3>(3 * t[i + 1]) - state_.q.segment<3>(3 * t[0]);
    volume += Ds.determinant() / 6;
  }
  return volume;
}

void MakeTetGrid(const Vector3& size, int nx, int ny, int nz, std::vector<Vector3>* vertices, std::vector<Tet>* tets) {
  if (nx < 1 || ny < 1 || nz < 1) throw InvalidInput("MakeTetGrid: at least one cell along each axis");
  vertices->clear();
  tets->clear();
  auto id = [&](int i, int j, int k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) vertices->emplace_back(size.x() * i / nx, size.y() * j / ny, size.z() * k / nz);
  // Kuhn split: the six tets along the diagonal from corner 000 to 111, one per axis order.
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& order : orders) {
          std::array<int, 3> corner = {0, 0, 0};
          Tet t;
          t[0] = id(i, j, k);
          for (int s = 0; s < 3; ++s) {
            corner[order[s]] = 1;
            t[s + 1] = id(i + corner[0], j + corner[1], k + corner[2]);
          }
          const Vector3& a = (*vertices)[t[0]];
          if (((*vertices)[t[1]] - a).cross((*vertices)[t[2]] - a).dot((*vertices)[t[3]] - a) < 0)
            std::swap(t[1], t[2]);
          tets->push_back(t);
        }
}

}  // namespace fem
}  // namespace hydro
