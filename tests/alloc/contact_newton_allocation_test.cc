// No heap allocation in a Newton iteration of the FEM contact problem (fem/contact_problem_newton.h)
// once its first iteration has recorded Newton's matrix's pattern and analysed it: assembly,
// factorization, solve and line search all work in kept buffers. Counted by this binary's
// replaced allocation functions (tests/alloc/counting_allocator.h).
#include <gtest/gtest.h>

#include "fem/contact_problem_newton.h"
#include "tests/alloc/counting_allocator.h"
#include "tests/fem/contact_problem_test_blocks.h"

namespace hydro {
namespace fem {
namespace internal {
namespace {

TEST(ContactNewtonAllocationTest, NewtonIterationsAfterTheFirstAllocateNothing) {
  for (int reuse_from : {0, 1 << 30}) {  // refinement rounds reusing the matrix, and refactoring
    test::PressedBody p;
    ContactNewton newton(p.layout, &p.objective, &p.work, reuse_from);
    Eigen::VectorXd u = p.layout.u_star;
    ASSERT_FALSE(newton.Minimize(1, false, &u));  // records, analyses, factors once
    ASSERT_EQ(newton.factorizations(), 1);

    hydro::test::StartCountingAllocations();
    const bool converged = newton.Minimize(100, false, &u);
    for (double& gamma_n : p.objective.lagged_normal_impulses()) gamma_n *= 1.01;
    const bool refined = newton.Minimize(100, true, &u);
    const long allocations = hydro::test::StopCountingAllocations();

    ASSERT_TRUE(converged && refined);
    EXPECT_GT(newton.iterations(), 3) << "few iterations counted";
    EXPECT_GT(newton.factorizations(), 2);
    EXPECT_EQ(allocations, 0) << "over " << newton.iterations() - 1 << " iterations and " << newton.factorizations() - 1
                              << " factorizations";
  }
}

}  // namespace
}  // namespace internal
}  // namespace fem
}  // namespace hydro
