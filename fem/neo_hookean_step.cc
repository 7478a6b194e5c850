#include "fem/neo_hookean_step.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "fem/neo_hookean.h"

namespace hydro {
namespace fem {

namespace {

// Ψ(x) and optionally its gradient; each element's Hessian block (projected to PSD) is handed to
// add_hessian(e, H_e) if `hessian` is set.
template <typename AddElementHessian>
double CalcEnergy(const FemModel& model, const Eigen::VectorXd& x, Eigen::VectorXd* gradient, bool hessian,
                  AddElementHessian add_hessian) {
  const LameParameters lame = ToLame(model.material().youngs_modulus_Pa, model.material().poisson_ratio);
  if (gradient) gradient->setZero(x.size());
  double energy = 0;
  for (int e = 0; e < model.num_tets(); ++e) {
    const Tet& t = model.tets()[e];
    const double volume = model.volume(e);
    const Matrix3 F = model.CalcDeformationGradient(x, e);
    const double psi = NeoHookeanEnergyDensity(F, lame);
    if (!std::isfinite(psi)) return psi;
    energy += volume * psi;
    if (!gradient) continue;
    // vec(F) = G·x_e: ∂F_ij/∂x_{a,k} = δ_ik·(∇N_a)_j.
    const std::array<Vector3, 4>& g = model.shape_gradients(e);
    Eigen::Matrix<double, 9, 12> G = Eigen::Matrix<double, 9, 12>::Zero();
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) G(i + 3 * j, 3 * a + i) = g[a][j];
    const Matrix3 P = NeoHookeanStress(F, lame);
    const Vector12 grad_e = volume * G.transpose() * Eigen::Map<const Eigen::Matrix<double, 9, 1>>(P.data());
    for (int a = 0; a < 4; ++a) gradient->segment<3>(3 * t[a]) += grad_e.segment<3>(3 * a);
    if (!hessian) continue;
    Matrix12 H = volume * G.transpose() * NeoHookeanStressDerivative(F, lame) * G;
    // Projected to PSD element by element, so Newton's matrix stays positive definite.
    const Eigen::SelfAdjointEigenSolver<Matrix12> eigen(0.5 * (H + H.transpose()));
    H = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() * eigen.eigenvectors().transpose();
    add_hessian(e, H);
  }
  return energy;
}

// Makes the workspace's pattern for the free DoFs `index` (num_free of them), M's block in it.
void MakePattern(const FemModel& model, const std::vector<int>& index, int num_free, NeoHookeanWorkspace* workspace) {
  workspace->free_index = index;
  workspace->assembly = ElementAssembly(model.tets(), index, num_free);
  workspace->mass = workspace->assembly.zero_pattern();
  if (model.mass_model() == MassModel::kLumped) {
    for (size_t i = 0; i < index.size(); ++i)
      if (index[i] >= 0) workspace->assembly.AddDiagonal(index[i], model.lumped_mass(i / 3), &workspace->mass);
  } else {
    for (int e = 0; e < model.num_tets(); ++e)
      workspace->assembly.Add(e, model.ConsistentElementMass(e), 1.0, &workspace->mass);
  }
  ++workspace->num_patterns;
}

}  // namespace

double CalcNeoHookeanEnergy(const FemModel& model, const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                            std::vector<Eigen::Triplet<double>>* hessian) {
  return CalcEnergy(model, x, gradient, hessian != nullptr, [&](int e, const Matrix12& H) {
    const Tet& t = model.tets()[e];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) hessian->emplace_back(3 * t[a] + i, 3 * t[b] + j, H(3 * a + i, 3 * b + j));
  });
}

double CalcNeoHookeanEnergy(const FemModel& model, const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                            const ElementAssembly& assembly, double hessian_scale,
                            Eigen::SparseMatrix<double>* hessian) {
  Eigen::VectorXd unused;  // the Hessian comes with the gradient
  return CalcEnergy(model, x, gradient ? gradient : &unused, /*hessian=*/true,
                    [&](int e, const Matrix12& H) { assembly.Add(e, H, hessian_scale, hessian); });
}

FreeMotion CalcNeoHookeanFreeMotion(const FemModel& model, const FemState& state, double dt, const Vector3& gravity,
                                    ReusedFactorization* factorization, NeoHookeanWorkspace* workspace,
                                    StepTimings* timings, NewtonReport* report) {
  auto start = StepClock::now();
  const Material& material = model.material();
  const Eigen::VectorXd& q = state.q;
  const Eigen::VectorXd& v = state.v;
  const int n = state.num_dofs();
  std::vector<Eigen::Triplet<double>> M_triplets, H0_triplets;
  model.AssembleMass(&M_triplets);
  Eigen::SparseMatrix<double> M(n, n);
  M.setFromTriplets(M_triplets.begin(), M_triplets.end());
  // Rayleigh damping with the stiffness at the start of the step: D = αM + β·H(q).
  Eigen::VectorXd unused;
  CalcNeoHookeanEnergy(model, q, &unused, &H0_triplets);
  Eigen::SparseMatrix<double> H0(n, n);
  H0.setFromTriplets(H0_triplets.begin(), H0_triplets.end());
  const Eigen::SparseMatrix<double> D = material.mass_damping_1_per_s * M + material.stiffness_damping_s * H0;
  Eigen::VectorXd g(n);
  for (int i = 0; i < n / 3; ++i) g.segment<3>(3 * i) = gravity;
  const Eigen::VectorXd Mg = M * g;
  FreeMotion out;
  const std::vector<int>& index = out.index;
  out.num_free = state.IndexFreeDofs(&out.index);
  const int num_free = out.num_free;
  if (workspace->free_index != index) MakePattern(model, index, num_free, workspace);
  const ElementAssembly& assembly = workspace->assembly;
  // Where each entry of D lands in Newton's matrix (D's pattern is the mesh's, over every DoF).
  std::vector<int>& damping_slots = workspace->damping_slots;
  damping_slots.clear();
  for (int k = 0; k < D.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(D, k); it; ++it)
      damping_slots.push_back(assembly.Slot(index[it.row()], index[it.col()]));
  // Newton's matrix M + δt²·H + δt·D over the free DoFs, refilled in place each iteration, its
  // terms added entry by entry in that order (the order the triplets it was once made from had).
  out.A = workspace->mass;
  double* const A_values = out.A.valuePtr();
  const double* const M_values = workspace->mass.valuePtr();
  const double* const D_values = D.valuePtr();
  auto potential = [&](const Eigen::VectorXd& v_new, Eigen::VectorXd* gradient, bool hessian) {
    const Eigen::VectorXd dv = v_new - v;
    Eigen::VectorXd psi_gradient;
    const Eigen::VectorXd x = q + dt * v_new;
    double psi;
    if (hessian) {
      std::copy(M_values, M_values + out.A.nonZeros(), A_values);
      psi = CalcNeoHookeanEnergy(model, x, &psi_gradient, assembly, dt * dt, &out.A);
      for (size_t k = 0; k < damping_slots.size(); ++k)
        if (damping_slots[k] >= 0) A_values[damping_slots[k]] += dt * D_values[k];
    } else {
      psi = CalcNeoHookeanEnergy(model, x, gradient ? &psi_gradient : nullptr, nullptr);
    }
    const Eigen::VectorXd Dv = D * v_new;
    if (gradient) *gradient = M * dv + dt * psi_gradient - dt * Mg + dt * Dv;
    return 0.5 * dv.dot(M * dv) + psi - dt * v_new.dot(Mg) + 0.5 * dt * v_new.dot(Dv);
  };
  Eigen::VectorXd v_new = v;
  for (int i = 0; i < n; ++i)
    if (state.fixed[i]) v_new[i] = 0;
  report->converged = false;
  *timings = StepTimings();
  const double v_scale = std::max(1e-3, v.cwiseAbs().maxCoeff() + dt * gravity.norm());
  for (report->iterations = 1; report->iterations <= 50; ++report->iterations) {
    Eigen::VectorXd gradient;
    const double E0 = potential(v_new, &gradient, /*hessian=*/true);  // Newton's matrix into out.A
    Eigen::VectorXd b(num_free);
    for (int i = 0; i < n; ++i)
      if (index[i] >= 0) b[index[i]] = -gradient[i];
    timings->assembly_s += SecondsSince(start);
    start = StepClock::now();
    out.factorization.reset();  // so that the reused factorization is free to be refactored
    out.factorization = factorization->Factor(out.A);
    if (out.factorization == nullptr)
      throw InvalidInput("deformable '" + model.name() + "': the Neo-Hookean step matrix could not be factored");
    timings->factorization_s += SecondsSince(start);
    start = StepClock::now();
    const Eigen::VectorXd step_free = out.factorization->solve(b);
    timings->solve_s += SecondsSince(start);
    start = StepClock::now();
    Eigen::VectorXd step = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < n; ++i)
      if (index[i] >= 0) step[i] = step_free[index[i]];
    // Backtracking (Armijo) on the potential; inverted elements give +infinity and are refused.
    double alpha = 1;
    const double slope = gradient.dot(step);
    for (int k = 0; k < 30 && !(potential(v_new + alpha * step, nullptr, false) <= E0 + 1e-4 * alpha * slope); ++k)
      alpha *= 0.5;
    v_new += alpha * step;
    if (alpha * step.cwiseAbs().maxCoeff() <= 1e-10 * v_scale) {
      report->converged = true;
      break;
    }
  }
  report->iterations = std::min(report->iterations, 50);
  // The contact problem's block is the momentum balance linearized about this solution: A, the
  // Newton matrix of the last iteration (its step was below 1e-10 of the velocities), so that
  // ½‖v − v*‖²_A is the incremental potential to second order around its minimum v*.
  out.v_star = v_new;
  return out;
}

}  // namespace fem
}  // namespace hydro
