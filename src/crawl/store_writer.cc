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

size_t StoreWriter::PageBytes(const PageRecord& page) {
  size_t bytes = sizeof(PageRecord) + page.url.size() + page.anchor.size() + page.error.size() +
                 page.explanation.size() + page.title.size() + page.request_head.size() +
                 page.response_head.size() + page.body.size();
  for (const LinkRecord& l : page.links) {
    bytes += sizeof(LinkRecord) + l.to_url.size() + l.anchor.size() + l.context.size() +
             l.explanation.size();
  }
  for (const FrontierRecord& r : page.admitted) {
    bytes += sizeof(FrontierRecord) + r.url.size() + r.anchor.size() + r.explanation.size();
  }
  return bytes;
}

void StoreWriter::AddPage(PageRecord page) {
  const size_t bytes = PageBytes(page);
  Op op;
  op.page = std::move(page);
  Push(std::move(op), bytes);
}

void StoreWriter::Post(std::function<void(CrawlStore*)> fn) {
  Op op;
  op.fn = std::move(fn);
  Push(std::move(op), 0);
}

double StoreWriter::blocked_seconds() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::chrono::duration<double>(blocked_).count();
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

void StoreWriter::Push(Op op, size_t bytes) {
  std::unique_lock<std::mutex> lock(mu_);
  // The first operation always fits (a page over max_bytes must not wait
  // forever).
  auto room = [&] {
    return queue_.empty() ||
           (queue_.size() < max_queued_ && queued_bytes_ + bytes <= max_bytes_);
  };
  if (!room()) {
    const auto start = std::chrono::steady_clock::now();
    pusher_waiting_ = true;  // a full queue is a batch, whatever its count
    has_work_.notify_one();
    has_room_.wait(lock, room);
    pusher_waiting_ = false;
    blocked_ += std::chrono::steady_clock::now() - start;
  }
  queued_bytes_ += bytes;
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
      if (queue_.size() < wake_batch_ && !stopping_ && !pusher_waiting_) {
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
                           [this] { return queue_.size() >= wake_batch_ || stopping_ || pusher_waiting_; });
      }
      if (queue_.empty()) {
        if (stopping_) return;
        continue;
      }
      batch.swap(queue_);
      queued_bytes_ = 0;
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
