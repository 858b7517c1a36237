// The close of a crawl (Crawler::Impl::Close), in order: the threads settle
// and the queued store operations land, the end is recorded, the strategy's
// state is saved, the store commits, the strategy finishes, and the
// fetcher, render, parse threads and the frontier are released. Each step
// says what it does on stderr: a 1 M-page crawl spends about 90 s here.
#include <chrono>
#include <cstdio>
#include <string>

#include "core/thread_cpu.h"
#include "crawl/crawler_impl.h"
#include "crawl/strategy_state.h"

namespace topicrawl {

Status Crawler::Impl::Close() {
  loop_end_ = clock_->Now();
  const std::string cpu = SettleThreads();
  RecordClose(cpu);
  Closing("writing strategy state");
  const Status saved = SaveStrategyState(strategy_, config_.out_dir);
  if (!interrupted_ && error_.ok() && saved.ok() && store_->schema_version() >= 3) {
    // The round is complete: `recrawl` may plan the next one
    // (crawl/rounds/round_runner.h, RoundFinishedKey).
    store_->SetMeta("round_finished." + std::to_string(round_.round()),
                    std::to_string(clock_->UnixMillis()));
  }
  const Status closed = CloseStore();
  const Status fin = FinishStrategy();
  ReleaseThreads();
  if (!saved.ok() && error_.ok() && closed.ok()) return saved;
  if (!error_.ok() || !closed.ok()) {
    // Disk full, I/O error: every write after the last commit is dropped
    // (SQLite rolls back; resume cuts the WARC tail), nothing is half-kept.
    const Status& cause = !error_.ok() ? error_ : closed;
    return Status::Error("storing the crawl failed, so it stopped: " + cause.message() +
                         ". The directory is resumable: free space (or fix the disk) and run "
                         "`topicrawl crawl --resume " + config_.out_dir + "`");
  }
  if (!fin.ok()) return fin;
  return closed;
}

void Crawler::Impl::Closing(const std::string& what) const {
  if (config_.progress_interval_ms <= 0) return;
  std::fprintf(stderr, "[%7.1fs] closing (+%.1fs): %s\n",
               std::chrono::duration<double>(clock_->Now() - started_).count(),
               std::chrono::duration<double>(clock_->Now() - loop_end_).count(), what.c_str());
}

// Parsed pages land; in-flight fetches are abandoned (they are re-fetched on
// resume: their frontier rows are still state 0).
std::string Crawler::Impl::SettleThreads() {
  if (parsing_ > 0) Closing("waiting for " + std::to_string(parsing_) + " pages being parsed");
  // A page parsed now may still go to the render pool, and a finished
  // render comes back through the parse pool: wait until both are idle.
  // Each render is time-boxed; samples are cut short.
  StopRenderSampling();
  do {
    if (render_) render_->WaitIdle();
    pool_->WaitIdle();
  } while (render_ && !render_->Idle());
  DrainProcessed();
  RecordAbandoned();
  // Where the CPU went (read while the threads still exist): the crawl
  // thread (fetching, frontier) is the process's own name.
  std::string cpu = FormatThreadCpu(ThreadCpuSecondsByName());
  if (monitor_) monitor_->SetWakeup(nullptr);  // the fetcher goes with this crawler
  Closing("flushing " + std::to_string(writer_->queued()) + " queued store operations");
  writer_->Stop();  // every queued page is in the store's batch now
  if (error_.ok() && writer_->failed()) error_ = writer_->error();
  return cpu;
}

// The final progress line, the CPU and store-queue figures, the close's
// events and meta, and why the crawl ended.
void Crawler::Impl::RecordClose(const std::string& cpu) {
  Progress(true);
  if (config_.progress_interval_ms > 0 && !cpu.empty()) {
    std::fprintf(stderr, "cpu by thread: %s\n", cpu.c_str());
    std::fprintf(stderr, "store queue: the crawl thread waited %.1f s for room\n",
                 writer_->blocked_seconds());
  }
  if (!cpu.empty()) store_->AddEvent("cpu", cpu);
  RecordTrapLinks();
  RecordRender();
  store_->SetMeta("finished_at", std::to_string(clock_->UnixMillis()));
  store_->AddEvent(interrupted_ ? "interrupted" : "finished",
                   "pages_ok=" + std::to_string(stats_.pages_ok));
  ReportEnd();
}

// The store closes before the strategy finishes: a strategy may write its
// own tables into crawl.db (jlse's LinkTable/ResultTable) through its own
// connection.
Status Crawler::Impl::CloseStore() {
  const int64_t merging = store_->pending_frontier_rows();  // 0 but for old schemas
  Closing(merging > 0 ? "committing the store: merging " + std::to_string(merging) +
                            " frontier rows, WAL checkpoint"
                      : std::string("committing the store, WAL checkpoint"));
  Status closed = store_->Close();
  if (cluster_ && closed.ok()) {
    Closing("handing off the last outlinks to the cluster");
    if (Status f = cluster_->FinalFlush(); !f.ok()) {
      std::fprintf(stderr, "warning: cluster: %s\n", f.message().c_str());
    }
  }
  return closed;
}

Status Crawler::Impl::FinishStrategy() {
  Closing("finishing the strategy");
  Status fin = strategy_.learner->Finish();
  // A stop during Finish() (a strategy's last training) ends it early: the
  // run counts as interrupted.
  if (stop_ && stop_->load() && !interrupted_) {
    interrupted_ = true;
    std::fprintf(stderr, "interrupted while finishing the strategy\n");
  }
  if (monitor_) ServeMonitor(clock_->Now(), true);  // readers now see every page
  return fin;
}

void Crawler::Impl::ReleaseThreads() {
  Closing("releasing the fetcher, render and parse threads");
  CloseRender();
  fetcher_.reset();
  pool_.reset();
  const Frontier::SpillCounts sc = frontier_->spill_counts();  // a copy: the frontier goes below
  stats_.links_spilled = static_cast<int64_t>(sc.links_spilled);
  if (sc.spills > 0) {
    std::fprintf(stderr,
                 "frontier spill: %llu segments (%llu links) written, %llu reloads "
                 "(%llu links)\n",
                 static_cast<unsigned long long>(sc.spills),
                 static_cast<unsigned long long>(sc.links_spilled),
                 static_cast<unsigned long long>(sc.reloads),
                 static_cast<unsigned long long>(sc.links_reloaded));
  }
  Closing("releasing the frontier (" + std::to_string(frontier_->Queued()) + " queued)");
  frontier_.reset();
  Closing("done");
}

}  // namespace topicrawl
