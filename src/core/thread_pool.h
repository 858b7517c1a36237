// A fixed pool of worker threads running submitted closures in FIFO order.
// Used for parse/score work so the fetch event loop never blocks on CPU work.
#ifndef TOPICRAWL_CORE_THREAD_POOL_H_
#define TOPICRAWL_CORE_THREAD_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace topicrawl {

// Thread-safe. The destructor drains queued work, then joins the workers.
class ThreadPool {
 public:
  // `name` (at most 15 bytes used) names the worker threads for ps, perf and
  // ThreadCpuSeconds(); empty: unnamed.
  explicit ThreadPool(size_t threads, const std::string& name = "");
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Submit(std::function<void()> work);
  // Number of submitted closures not yet finished.
  size_t Pending() const;
  // Blocks until every submitted closure has finished.
  void WaitIdle();

 private:
  void WorkerLoop();

  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<std::function<void()>> queue_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_THREAD_POOL_H_
