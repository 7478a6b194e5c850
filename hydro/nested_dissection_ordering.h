#pragma once
// The fill-reducing ordering of the patch problem's sparse Newton matrix (hydro/patch_problem.h),
// applied to the graph of its blocks (hydro/block_sparse_cholesky.h): METIS's nested dissection
// (Karypis & Kumar, METIS_NodeND) through Eigen's MetisSupport, in place of the approximate minimum
// degree (AMD) Eigen's SimplicialLDLT uses by default. A pile's matrix is the graph of its
// bodies' contacts, a 3-D lattice, where nested dissection is the ordering of least fill; METIS is
// Debian's libmetis-dev, a library we would otherwise write (README, Dependencies). Newton's
// matrix of the 1,015-box pyramid at rest (6,090 unknowns, 272,412 non-zeros), AMD against nested
// dissection, when the patch problem factorized with SimplicialLDLT: L's non-zeros 1,016,817
// against 768,129, its factorization's flops 3.9e8 against 1.9e8 (CHOLMOD's analysis), a
// factorization 175–246 ms against 81–85 ms, a solve with the factor 1.6 ms against 1.2 ms, the
// analysis of the pattern 10–13 ms against 12–15 ms.
#include <iostream>  // Eigen 3.4's MetisSupport writes to std::cerr without including it

#include <Eigen/MetisSupport>

namespace hydro {

using NestedDissectionOrdering = Eigen::MetisOrdering<int>;

}  // namespace hydro
