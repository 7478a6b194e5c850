#pragma once
// Small problems for the contact problem's unit tests (fem/contact_problem_*.h): a chain of DoFs
// whose weight is a tridiagonal positive definite matrix, and a rigid body pressed onto such a
// chain by three frictional contacts, a weld and a velocity target, built up to its objective.
#include <Eigen/SparseCore>

#include <memory>
#include <vector>

#include "fem/contact_problem.h"
#include "fem/contact_problem_assembly.h"
#include "fem/contact_problem_layout.h"
#include "fem/contact_problem_objective.h"
#include "fem/contact_problem_workspace.h"
#include "fem/deformable_contact.h"

namespace hydro {
namespace fem {
namespace test {

// n DoFs weighted by A = tridiag(−1, 4 + i/n, −1) (kg), free motion u*ᵢ = 0.1·(i + 1)·(−1)ⁱ m/s;
// with the factorization of A when `factored`, so that the block may be reduced.
inline ContactProblemBlock MakeChainBlock(int n, bool factored) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 4.0 + static_cast<double>(i) / n);
    if (i + 1 < n) entries.emplace_back(i + 1, i, -1.0), entries.emplace_back(i, i + 1, -1.0);
  }
  ContactProblemBlock block;
  block.A.resize(n, n);
  block.A.setFromTriplets(entries.begin(), entries.end());
  block.A.makeCompressed();
  block.u_star.resize(n);
  for (int i = 0; i < n; ++i) block.u_star[i] = 0.1 * (i + 1) * (i % 2 == 0 ? 1 : -1);
  if (factored) block.factorization = std::make_shared<StepFactorization>(block.A);
  return block;
}

// A term naming DoFs first … first + 2 of `block` with the 3×3 matrix J.
inline VelocityTerm MakeTerm(int block, int first_dof, const Matrix3& J = Matrix3::Identity()) {
  return VelocityTerm{block, first_dof, J};
}

// Block 0, a 1 kg rigid body moving down at 0.5 m/s and sideways at 0.1 m/s, presses on block 1,
// a factored 12-DoF chain (free motion ≤ 12 mm/s), at three points (side A the body, B the
// chain's DoFs 0–8; k = 10⁴ N/m, φ0 = −1 mm, μ = 0.5), is welded to the chain's DoFs 9–11
// (k = 100 N/m, 1 mm gap) and has a velocity target on its x velocity (c = 5 N·s/(m/s), bound
// 1 N·s). δt = 10 ms. The objective is frictional, its lagged γn that of the free motion.
struct PressedBody {
  PressedBody() {
    work.Resize(layout.num_unknowns, 3, 1, 1);
    objective.CalcNormalImpulses(layout.u_star, &objective.lagged_normal_impulses());
    objective.set_friction_scale(1);
  }
  PressedBody(const PressedBody&) = delete;
  PressedBody& operator=(const PressedBody&) = delete;

  // The chain, its free motion slowed 100× so that every point is pressed.
  static ContactProblemBlock MakeSlowChain() {
    ContactProblemBlock chain = MakeChainBlock(12, true);
    chain.u_star *= 0.01;
    return chain;
  }
  static std::vector<ContactConstraint> MakeContacts() {
    std::vector<ContactConstraint> contacts(3);
    for (int i = 0; i < 3; ++i) {
      ContactConstraint& c = contacts[i];
      AppendRigidTerms(0, Vector3(0.05 * (i - 1), 0.02 * i, -0.05), +1, &c.terms);
      c.terms.push_back(MakeTerm(1, 3 * i, -Matrix3::Identity()));
      c.stiffness_N_per_m = 1e4, c.phi0_m = -1e-3, c.friction = 0.5;
    }
    return contacts;
  }
  static std::vector<SpringConstraint> MakeSprings() {
    std::vector<SpringConstraint> springs(1);
    AppendRigidTerms(0, Vector3(0, 0, 0.1), +1, &springs[0].terms);
    springs[0].terms.push_back(MakeTerm(1, 9, -Matrix3::Identity()));
    springs[0].p_BcAc_W_start = Vector3(1e-3, 0, 0), springs[0].stiffness_N_per_m = 100;
    return springs;
  }
  static std::vector<VelocityTargetConstraint> MakeTargets() {
    std::vector<VelocityTargetConstraint> targets(1);
    targets[0].block = 0, targets[0].J_s = Eigen::RowVectorXd::Unit(6, 0);
    targets[0].stiffness = 5, targets[0].max_impulse = 1;
    return targets;
  }
  internal::GroupedJacobian MakeRows() const {
    internal::GroupedJacobian rows;
    for (const ContactConstraint& c : contacts) rows.Add(c.terms, layout.blocks);
    for (const SpringConstraint& s : springs) rows.Add(s.terms, layout.blocks);
    return rows;
  }

  const double dt = 0.01;
  std::vector<ContactProblemBlock> blocks{
      MakeRigidBlock(1, 0.01 * Matrix3::Identity(), Vector3(0.1, 0, -0.5), Vector3(0, 0.2, 0)), MakeSlowChain()};
  std::vector<ContactConstraint> contacts = MakeContacts();
  std::vector<SpringConstraint> springs = MakeSprings();
  std::vector<VelocityTargetConstraint> targets = MakeTargets();
  internal::ContactProblemLayout layout = internal::MakeContactProblemLayout(blocks, contacts, springs, targets);
  internal::GroupedJacobian rows = MakeRows();
  std::vector<double> stiffness{1e4, 1e4, 1e4};  // per contact (none near rigid)
  internal::ContactProblemWorkspace work;
  internal::ContactObjective objective{dt, 1e-4, contacts, springs, targets, layout, &rows, stiffness, &work};
};

}  // namespace test
}  // namespace fem
}  // namespace hydro
