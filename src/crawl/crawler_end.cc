// Why the crawl loop ends (Crawler::Impl::Finished) and the summary of a
// crawl that ended before its page budget (ReportEnd).
#include <cstdio>
#include <string>

#include "crawl/crawler_impl.h"

namespace topicrawl {

bool Crawler::Impl::Finished() {
  if (error_.ok() && writer_->failed()) error_ = writer_->error();
  if (!error_.ok()) {
    end_reason_ = "storing failed: " + error_.message();
    return true;
  }
  if ((stop_ && stop_->load()) || (monitor_ && monitor_->stop_requested())) {
    interrupted_ = true;
    end_reason_ = "interrupted (a signal or a stop request)";
    return true;
  }
  if (config_.max_pages > 0 && stats_.pages_ok >= config_.max_pages) return true;
  if (frontier_->Queued() != 0 || fetcher_->InFlight() != 0 || parsing_ != 0) return false;
  if (cluster_) {
    if (!cluster_->Over()) return false;
    interrupted_ = cluster_->StopRequested();
    end_reason_ = interrupted_ ? "the cluster was stopped" : "the cluster's crawl is over";
    return true;
  }
  if (RefillFromStrategy()) return false;
  end_reason_ = "no link left to fetch: the frontier is empty (" +
                std::to_string(stats_.links_seen) + " links seen, " +
                std::to_string(stats_.links_queued) + " queued)";
  if (std::string held = strategy_.learner->EndNote(); !held.empty()) end_reason_ += "; " + held;
  return true;
}

void Crawler::Impl::ReportEnd() {
  if (end_reason_.empty()) return;  // the page budget was spent
  const std::string budget =
      config_.max_pages > 0 ? "of --max-pages " + std::to_string(config_.max_pages) : "no page limit";
  const std::string line = "crawl ended after " + std::to_string(stats_.pages_ok) + " pages (" +
                           budget + "): " + end_reason_;
  std::fprintf(stderr, "%s\n", line.c_str());
  store_->AddEvent("ended", line);
}

}  // namespace topicrawl

