#include "fem/near_rigid_softening.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hydro {
namespace fem {
namespace internal {

double CalcNearRigidStiffnessLimit(double dt, double delassus_estimate) {
  const double w = delassus_estimate;
  return w > 0 ? 4 * M_PI * M_PI / (dt * dt * w) : std::numeric_limits<double>::infinity();
}

std::vector<double> CalcDelassusEstimates(const ContactProblemLayout& layout, const GroupedJacobian& rows,
                                          int num_contacts) {
  std::vector<Eigen::MatrixXd> group_inverse(rows.num_groups());
  for (int g = 0; g < rows.num_groups(); ++g) group_inverse[g] = CalcInverseOverUnknowns(layout, rows.unknowns(g));
  std::vector<double> w(num_contacts);
  for (int row = 0; row < num_contacts; ++row) w[row] = rows.CongruenceTrace(row, group_inverse[rows.group(row)]) / 3;
  return w;
}

std::vector<double> SoftenNearRigidContacts(double dt, const std::vector<ContactConstraint>& contacts,
                                            const std::vector<double>& delassus_estimates, int* num_softened) {
  std::vector<double> stiffness(contacts.size());
  *num_softened = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const double k_max = CalcNearRigidStiffnessLimit(dt, delassus_estimates[i]);
    stiffness[i] = std::min(contacts[i].stiffness_N_per_m, k_max);
    if (stiffness[i] < contacts[i].stiffness_N_per_m) ++*num_softened;
  }
  return stiffness;
}

}  // namespace internal
}  // namespace fem
}  // namespace hydro
