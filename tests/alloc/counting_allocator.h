#pragma once
// Counts heap allocations: the allocation tests' binary replaces the global allocation functions
// (tests/alloc/counting_allocator.cc). With HYDRO_TRACE_ALLOCATIONS set, each allocation counted
// prints its call stack (raw addresses: `addr2line -f -C -e allocation_tests` names them).

namespace hydro {
namespace test {

// Counting starts from zero; the count stops at StopCountingAllocations(), which returns it.
void StartCountingAllocations();
long StopCountingAllocations();

}  // namespace test
}  // namespace hydro
