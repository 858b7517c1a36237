#include "core/thread_pool.h"

#include <pthread.h>

namespace topicrawl {

ThreadPool::ThreadPool(size_t threads, const std::string& name) {
  if (threads == 0) threads = 1;
  for (size_t i = 0; i < threads; ++i) {
    workers_.emplace_back([this, name] {
      if (!name.empty()) pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
      WorkerLoop();
    });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::Submit(std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(work));
  }
  work_cv_.notify_one();
}

size_t ThreadPool::Pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size() + running_;
}

void ThreadPool::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      // Drain the queue before stopping so no submitted work is lost.
      if (queue_.empty()) return;
      work = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    work();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
      if (queue_.empty() && running_ == 0) idle_cv_.notify_all();
    }
  }
}

}  // namespace topicrawl
