#pragma once
// The vectors one solve of the contact problem (fem/contact_problem.h) works in, sized once when
// the problem is built so that no Newton iteration allocates (the factorization keeps its own:
// fem/reordered_ldlt.h). Written by the objective
// (fem/contact_problem_objective.h) and the Newton iteration (fem/contact_problem_newton.h).
// Internal to hydro_fem.
#include <Eigen/Core>

#include <vector>

#include "hydro/math.h"

namespace hydro {
namespace fem {
namespace internal {

struct ContactProblemWorkspace {
  void Resize(int num_unknowns, int num_contacts, int num_springs, int num_targets) {
    for (Eigen::VectorXd* v : {&difference, &momentum, &gradient, &negative_gradient, &step, &A_step})
      v->resize(num_unknowns);
    contact_velocity.resize(num_contacts), contact_velocity_change.resize(num_contacts);
    spring_velocity.resize(num_springs), spring_velocity_change.resize(num_springs);
    target_speed.resize(num_targets), target_speed_change.resize(num_targets);
    normal_impulse.resize(num_contacts);
  }

  // Per unknown.
  Eigen::VectorXd difference;         // x − u*
  Eigen::VectorXd momentum;           // A(x − u*), N·s
  Eigen::VectorXd gradient;           // of the objective, N·s
  Eigen::VectorXd negative_gradient;  // Newton's right-hand side
  Eigen::VectorXd step;               // Newton's step d
  Eigen::VectorXd A_step;             // A·d
  // Per group of constraints naming the same unknowns (GroupedJacobian::Gather sizes them at
  // first use): x, and the step d, at the group's unknowns.
  std::vector<Eigen::VectorXd> local, step_local;
  // The line search's: every constraint's velocity (and target's speed) at u and its change
  // along d, per contact, spring and velocity target.
  std::vector<Vector3> contact_velocity, contact_velocity_change;
  std::vector<Vector3> spring_velocity, spring_velocity_change;
  std::vector<double> target_speed, target_speed_change;
  // Per contact: γn at the latest solution, for the next lagged γn.
  std::vector<double> normal_impulse;
};

}  // namespace internal
}  // namespace fem
}  // namespace hydro
