#pragma once
// Both cores for contact surfaces: a small pool of std::threads (Debian's Bullet has no task
// scheduler) that runs the independent pieces of one query side by side. Each task writes its own
// output and the caller joins them in task order, so a result never depends on the number of
// threads or on which thread ran which task: it is bit for bit the one-thread result.
//
// One pool per process, shared by every world: a call made while another thread's call holds the
// pool runs its tasks on the calling thread (two worlds stepped on two threads already fill the
// cores). The pool's threads start at the first call that can use them and sleep between calls.
#include "hydro/function_ref.h"

namespace hydro {

// The most threads a call may use, the caller's included: at least 1 (everything on the caller).
// The default is the machine's hardware threads, at most kMaxContactThreads.
constexpr int kMaxContactThreads = 16;
void SetContactThreads(int num_threads);
int ContactThreads();

// Sets the contact threads for a scope and restores the previous count after it.
class ScopedContactThreads {
 public:
  explicit ScopedContactThreads(int num_threads) : saved_(ContactThreads()) { SetContactThreads(num_threads); }
  ~ScopedContactThreads() { SetContactThreads(saved_); }
  ScopedContactThreads(const ScopedContactThreads&) = delete;
  ScopedContactThreads& operator=(const ScopedContactThreads&) = delete;

 private:
  int saved_;
};

// Calls task(i) for i = 0 … num_tasks − 1, each once, on up to ContactThreads() threads, and
// returns when all have returned. Tasks must not write shared state. An exception thrown by a task
// is rethrown here (the first one, by task index) after all tasks have finished.
void ParallelFor(int num_tasks, FunctionRef<void(int)> task);

}  // namespace hydro
