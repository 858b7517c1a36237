#include "server/live_indexer.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "search/search_index.h"

namespace topicrawl {

LiveIndexer::LiveIndexer(std::string crawl_dir, std::chrono::milliseconds interval)
    : dir_(std::move(crawl_dir)), interval_(interval) {}

LiveIndexer::~LiveIndexer() { Stop(); }

void LiveIndexer::Start() {
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "tr-index");
    // Linux: nice applies per thread. The crawl threads come first.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    Loop();
  });
}

void LiveIndexer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  stop_now_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status LiveIndexer::last_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

void LiveIndexer::Loop() {
  for (;;) {
    bool stopping;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, interval_, [this] { return stopping_; });
      stopping = stopping_;
    }
    if (stopping) return;
    IndexOptions options;
    options.batch = 200;
    // Small bites; a stop ends the current one after the page at hand. On a
    // starved machine the indexer (nice +10) can fall behind the crawl;
    // `topicrawl index DIR` finishes the job (indexing is incremental).
    options.max_docs = 500;
    options.stop = [this] { return stop_now_.load(); };
    auto r = IndexNewPages(dir_, options);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (r.ok()) {
        indexed_ += r->indexed;
      } else {
        error_ = r.status();
      }
    }
  }
}

}  // namespace topicrawl
