#ifndef TOPICRAWL_CRAWL_STORE_WRITER_H_
#define TOPICRAWL_CRAWL_STORE_WRITER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "core/status.h"
#include "store/crawl_store.h"

namespace topicrawl {

// Owns the CrawlStore during the crawl loop and runs every store call on its
// own thread, in submission order. Why: the crawl thread also drives all
// transfers, and SQLite rows (~100 links a page), WARC gzip and the payload
// SHA-1 cost ~1 ms of CPU a page there (perf, dev web, bfs), which saturated
// it and starved the fetch queue (3-13 of 64 in flight). The store keeps its
// one-thread contract: it is only touched by this thread between Start() and
// Stop(). Pages still queued at a kill -9 were never committed, so their URLs
// are simply fetched again on resume (their frontier rows are still state 0).
class StoreWriter {
 public:
  // At most `max_queued` operations, and at most `max_bytes` of pages (bodies,
  // heads, links, admitted rows: PageBytes) beyond the first, wait; AddPage()
  // and Post() block beyond that, which bounds memory and pushes back on the
  // crawl thread. The thread wakes for a batch: when kWakeBatch operations
  // (at most max_queued) wait, when a caller waits for room, or kMaxWait
  // after it last looked, so an operation is taken within ~kMaxWait of the
  // writer's last batch.
  StoreWriter(CrawlStore* store, size_t max_queued, size_t max_bytes = SIZE_MAX)
      : store_(store),
        max_queued_(max_queued > 0 ? max_queued : 1),
        max_bytes_(max_bytes),
        wake_batch_(max_queued < kWakeBatch ? (max_queued > 0 ? max_queued : 1) : kWakeBatch) {}
  static constexpr size_t kWakeBatch = 64;
  static constexpr std::chrono::milliseconds kMaxWait{20};
  // What a queued page holds in memory (an estimate: its strings' sizes).
  static size_t PageBytes(const PageRecord& page);
  ~StoreWriter() { Stop(); }
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  void Start();

  // Queues AddPage(page). Its id is the store's next id (ids follow call order).
  void AddPage(PageRecord page);
  // Queues an operation whose status is ignored (events, meta).
  void Post(std::function<void(CrawlStore*)> fn);
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  Status error() const;
  // Operations queued and not yet started (the summary's "flushing N rows").
  size_t queued() const;
  // Seconds the calling (crawl) thread spent blocked on a full queue.
  double blocked_seconds() const;
  // Runs every queued operation and joins the thread; the store belongs to
  // the caller again.
  void Stop();

 private:
  struct Op {
    std::optional<PageRecord> page;
    std::function<void(CrawlStore*)> fn;
  };

  void Push(Op op, size_t bytes);
  void Loop();

  CrawlStore* const store_;
  const size_t max_queued_;
  const size_t max_bytes_;
  const size_t wake_batch_;
  mutable std::mutex mu_;
  std::condition_variable has_work_;
  std::condition_variable has_room_;
  std::deque<Op> queue_;  // guarded by mu_
  size_t queued_bytes_ = 0;  // guarded by mu_; PageBytes of queue_'s pages
  std::chrono::steady_clock::duration blocked_{};  // guarded by mu_
  bool pusher_waiting_ = false;  // guarded by mu_: a Push() waits for room
  bool stopping_ = false;  // guarded by mu_
  Status error_;           // guarded by mu_; the first AddPage error
  std::atomic<bool> failed_{false};
  std::thread thread_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_STORE_WRITER_H_
