#include "hydro/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace hydro {
namespace {

std::atomic<int> g_contact_threads{
    std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxContactThreads)};

// Workers wait for a new job generation, take task indices from a shared counter until none are
// left, and report back; the caller takes indices too, then waits for every worker's report, so no
// worker still holds the job when ParallelFor returns. Both sides spin a little before they sleep:
// a query's pieces take tens to hundreds of microseconds, and on this machine (a VM) a sleeping
// thread took about as long to wake, which cost most of the speed-up (a wall's brick-on-brick
// surface: 563 µs on one thread, 471 µs on two with sleeping workers).
constexpr auto kSpinTime = std::chrono::microseconds(500);

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true);
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  // False when another caller holds the pool.
  bool TryRun(int num_tasks, int num_threads, FunctionRef<void(int)>& task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    const int helpers = std::min(num_threads, num_tasks) - 1;
    while (static_cast<int>(workers_.size()) < helpers) {
      workers_.emplace_back([this, index = static_cast<int>(workers_.size())] { Work(index); });
    }
    // The job's fields are published by the release on job_, which carries the generation and the
    // number of workers it needs in one word: a worker decides from one load whether it takes part.
    task_ = &task;
    num_tasks_ = num_tasks;
    next_.store(0, std::memory_order_relaxed);
    reported_.store(0, std::memory_order_relaxed);
    errors_.assign(num_tasks, nullptr);
    const std::uint64_t generation = (job_.load(std::memory_order_relaxed) >> 8) + 1;
    job_.store((generation << 8) | static_cast<std::uint64_t>(helpers), std::memory_order_release);
    {
      std::lock_guard<std::mutex> lock(mutex_);  // a worker between its check and its wait
    }
    wake_.notify_all();
    RunTasks();
    SpinThenYield([&] { return reported_.load(std::memory_order_acquire) == helpers; });
    task_ = nullptr;
    for (const std::exception_ptr& error : errors_)
      if (error) std::rethrow_exception(error);
    return true;
  }

 private:
  template <typename Done>
  static void SpinThenYield(Done done) {
    const auto until = std::chrono::steady_clock::now() + kSpinTime;
    for (int spin = 0; !done(); ++spin) {
      if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) std::this_thread::yield();
    }
  }

  void Work(int index) {
    std::uint64_t seen = 0;
    for (;;) {
      // Spin for a while, then sleep until a new job or the end.
      const auto until = std::chrono::steady_clock::now() + kSpinTime;
      std::uint64_t job = job_.load(std::memory_order_acquire);
      for (int spin = 0; job == seen && !stop_.load(std::memory_order_relaxed); ++spin) {
        if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) {
          std::unique_lock<std::mutex> lock(mutex_);
          wake_.wait(lock, [&] { return stop_.load() || job_.load() != seen; });
        }
        job = job_.load(std::memory_order_acquire);
      }
      if (stop_.load()) return;
      seen = job;
      if (index >= static_cast<int>(job & 0xff)) continue;  // not needed for this job
      RunTasks();
      reported_.fetch_add(1, std::memory_order_release);
    }
  }

  void RunTasks() {
    for (int i = next_.fetch_add(1); i < num_tasks_; i = next_.fetch_add(1)) {
      try {
        (*task_)(i);
      } catch (...) {
        errors_[i] = std::current_exception();  // each index is taken once: no race
      }
    }
  }

  std::mutex busy_;   // held by the caller for a whole job
  std::mutex mutex_;  // for sleeping workers
  std::condition_variable wake_;
  std::vector<std::thread> workers_;
  FunctionRef<void(int)>* task_{nullptr};
  int num_tasks_{0};
  std::atomic<int> next_{0}, reported_{0};
  std::atomic<std::uint64_t> job_{0};  // generation << 8 | workers needed
  std::atomic<bool> stop_{false};
  std::vector<std::exception_ptr> errors_;
};

Pool& ThePool() {
  static Pool pool;
  return pool;
}

}  // namespace

void SetContactThreads(int num_threads) { g_contact_threads.store(std::clamp(num_threads, 1, kMaxContactThreads)); }

int ContactThreads() { return g_contact_threads.load(); }

void ParallelFor(int num_tasks, FunctionRef<void(int)> task) {
  if (num_tasks <= 0) return;
  const int threads = ContactThreads();
  if (threads > 1 && num_tasks > 1 && ThePool().TryRun(num_tasks, threads, task)) return;
  // One thread: the same tasks in order (an exception propagates after the remaining tasks run,
  // as on the pool).
  std::exception_ptr first;
  for (int i = 0; i < num_tasks; ++i) {
    try {
      task(i);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace hydro
