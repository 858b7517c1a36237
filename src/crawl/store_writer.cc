#include "crawl/store_writer.h"

#include <pthread.h>

#include <chrono>
#include <utility>

namespace topicrawl {

void StoreWriter::Start() {
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "tr-store");
    Loop();
  });
}

void StoreWriter::AddPage(PageRecord page) {
  Op op;
  op.page = std::move(page);
  Push(std::move(op));
}

void StoreWriter::Post(std::function<void(CrawlStore*)> fn) {
  Op op;
  op.fn = std::move(fn);
  Push(std::move(op));
}

Status StoreWriter::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

size_t StoreWriter::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

void StoreWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!thread_.joinable()) return;
    stopping_ = true;
  }
  has_work_.notify_one();
  thread_.join();
}

void StoreWriter::Push(Op op) {
  std::unique_lock<std::mutex> lock(mu_);
  has_room_.wait(lock, [this] { return queue_.size() < max_queued_; });
  queue_.push_back(std::move(op));
  // Why not on the first operation: the writer then woke for one or two
  // rows at a time (0.36 context switches per row at 10^6 pages, each a
  // futex wake here and a switch there); see Loop().
  if (queue_.size() == wake_batch_) has_work_.notify_one();
}

void StoreWriter::Loop() {
  std::deque<Op> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (queue_.size() < wake_batch_ && !stopping_) {
        if (queue_.empty()) {
          // Idle: commit an old batch so readers see recent pages.
          lock.unlock();
          Status committed = store_->CommitIfDue();
          lock.lock();
          if (!committed.ok() && !failed()) {  // e.g. disk full on commit
            error_ = committed;
            failed_.store(true, std::memory_order_release);
          }
        }
        // A batch, a stop, or kMaxWait: whatever is queued then is taken.
        has_work_.wait_for(lock, kMaxWait,
                           [this] { return queue_.size() >= wake_batch_ || stopping_; });
      }
      if (queue_.empty()) {
        if (stopping_) return;
        continue;
      }
      batch.swap(queue_);
    }
    has_room_.notify_all();
    for (Op& op : batch) {
      if (op.page) {
        if (failed()) continue;
        auto id = store_->AddPage(std::move(*op.page));
        if (!id.ok()) {
          std::lock_guard<std::mutex> lock(mu_);
          error_ = id.status();
          failed_.store(true, std::memory_order_release);
        }
      } else if (op.fn) {
        op.fn(store_);
      }
    }
    batch.clear();
  }
}

}  // namespace topicrawl
