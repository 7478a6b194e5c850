#include "hydro/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
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
// worker still holds the job when ParallelFor returns.
class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
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
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &task;
      num_tasks_ = num_tasks;
      next_.store(0);
      helpers_ = helpers;
      reported_ = 0;
      errors_.assign(num_tasks, nullptr);
      ++generation_;
    }
    wake_.notify_all();
    RunTasks();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return reported_ == helpers_; });
    task_ = nullptr;
    for (const std::exception_ptr& error : errors_)
      if (error) std::rethrow_exception(error);
    return true;
  }

 private:
  void Work(int index) {
    long seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= helpers_) continue;  // not needed for this job
      }
      RunTasks();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++reported_;
      }
      done_.notify_one();
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
  std::mutex mutex_;  // guards the job's fields below and the workers' reports
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  FunctionRef<void(int)>* task_{nullptr};
  int num_tasks_{0}, helpers_{0}, reported_{0};
  std::atomic<int> next_{0};
  long generation_{0};
  bool stop_{false};
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
