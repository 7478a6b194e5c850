#pragma once
// The near-rigid regime of SAP (Castro et al. 2022, used by 002 §VI) for the contact problem
// (fem/contact_problem.h): a contact stiffer than the time step can resolve is softened to the
// stiffness
//
//   k_max = 4π²/(β²·δt²·w),   β = 1,
//
// w the Delassus estimate of the point (the inverse effective mass it sees, trace(J A⁻¹ Jᵀ)/3, in
// 1/kg), so that its compliance never falls below β²/(4π²)·w. The velocity it aims at, −φ0/δt,
// is unchanged; what changes is that the stiffest contacts settle over about a step instead of
// within it, which keeps Newton's matrix well conditioned (stone blocks of 20 GPa with a 200 GPa
// contact field would otherwise be 10⁸ stiffer than their mass at 40 ms). Internal to hydro_fem;
// tested in tests/fem/near_rigid_softening_test.cc.
#include <vector>

#include "fem/contact_problem.h"
#include "fem/contact_problem_assembly.h"
#include "fem/contact_problem_layout.h"

namespace hydro {
namespace fem {
namespace internal {

// k_max (N/m) for time step δt (s) and Delassus estimate w (1/kg); +∞ where w = 0 (a point that
// no block's motion moves).
double CalcNearRigidStiffnessLimit(double dt, double delassus_estimate);

// w = trace(J·A⁻¹·Jᵀ)/3 of the contacts, rows 0 … num_contacts − 1 of `rows`: A⁻¹ over each
// group's unknowns (zero between blocks, diag(A)⁻¹ for a large block kept whole), then per point.
std::vector<double> CalcDelassusEstimates(const ContactProblemLayout& layout, const GroupedJacobian& rows,
                                          int num_contacts);

// Each contact's stiffness, min(k, k_max); `num_softened` counts those that k_max lowered.
std::vector<double> SoftenNearRigidContacts(double dt, const std::vector<ContactConstraint>& contacts,
                                            const std::vector<double>& delassus_estimates, int* num_softened);

}  // namespace internal
}  // namespace fem
}  // namespace hydro
