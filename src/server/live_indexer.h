// LiveIndexer: keeps DIR/search/ (search/search_index.h) up to date while a
// crawl runs, on its own low-priority thread (nice +10). It tails crawl.db
// through a WAL reader, re-reads the page text from the WARC files (the
// crawl thread never sees it) and commits in small batches.
#ifndef TOPICRAWL_SERVER_LIVE_INDEXER_H_
#define TOPICRAWL_SERVER_LIVE_INDEXER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "core/status.h"

namespace topicrawl {

class LiveIndexer {
 public:
  explicit LiveIndexer(std::string crawl_dir,
                       std::chrono::milliseconds interval = std::chrono::milliseconds(1000));
  ~LiveIndexer();  // Stop()
  void Start();
  // Ends the current batch after the page being indexed (committing what
  // was done) and joins the thread: a finished crawl does not wait for an
  // indexer that fell behind (`topicrawl index DIR` catches up).
  void Stop();
  int64_t indexed() const { return indexed_.load(); }
  Status last_error() const;

 private:
  void Loop();
  const std::string dir_;
  const std::chrono::milliseconds interval_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  std::atomic<bool> stop_now_{false};
  Status error_;           // guarded by mu_
  std::atomic<int64_t> indexed_{0};
};

}  // namespace topicrawl

#endif  // TOPICRAWL_SERVER_LIVE_INDEXER_H_
