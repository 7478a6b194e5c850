// Replaces the global allocation functions (operator new, and malloc, through which Eigen and
// Bullet allocate) with ones that count while counting is on (tests/alloc/counting_allocator.h).
#include "tests/alloc/counting_allocator.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

#include <execinfo.h>
#include <unistd.h>

extern "C" void* __libc_malloc(size_t size);
extern "C" void* __libc_calloc(size_t count, size_t size);
extern "C" void* __libc_realloc(void* p, size_t size);
extern "C" void* __libc_memalign(size_t alignment, size_t size);
extern "C" void __libc_free(void* p);

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
thread_local bool t_tracing{false};
void Count() {
  if (!g_counting.load(std::memory_order_relaxed)) return;
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (t_tracing || !std::getenv("HYDRO_TRACE_ALLOCATIONS")) return;
  t_tracing = true;  // backtrace may allocate on its first call
  void* frames[16];
  backtrace_symbols_fd(frames, backtrace(frames, 16), 2);
  static const char kEnd[] = "----\n";
  if (write(2, kEnd, sizeof(kEnd) - 1) < 0) std::abort();
  t_tracing = false;
}
}  // namespace

extern "C" void* malloc(size_t size) {
  Count();
  return __libc_malloc(size);
}
extern "C" void* calloc(size_t count, size_t size) {
  Count();
  return __libc_calloc(count, size);
}
extern "C" void* realloc(void* p, size_t size) {
  Count();
  return __libc_realloc(p, size);
}
extern "C" void free(void* p) { __libc_free(p); }
extern "C" int posix_memalign(void** out, size_t alignment, size_t size) {
  Count();
  *out = __libc_memalign(alignment, size);
  return *out ? 0 : ENOMEM;
}
extern "C" void* aligned_alloc(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}

void* operator new(size_t size) {
  void* p = malloc(size ? size : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }

namespace hydro {
namespace test {

void StartCountingAllocations() {
  g_allocations = 0;
  g_counting = true;
}

long StopCountingAllocations() {
  g_counting = false;
  return g_allocations.load();
}

}  // namespace test
}  // namespace hydro
