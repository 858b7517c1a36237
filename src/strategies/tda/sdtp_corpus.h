// SdtpCorpus: the training text of SDTP's word vectors (seed 002 §4.1.2,
// "根据抓取的主题页面抽取出新的领域名词"), gathered from crawled pages: one
// line a page (its tokens in reading order, space-separated, the input of
// WordVectors::Train) plus, per word, the eq.-8 weight it got in topical
// and in all pages (TermStats, for eq. 10's weight(w)).
//
// Thread-safe: Add() may be called from many threads (one mutex).
#ifndef TOPICRAWL_STRATEGIES_TDA_SDTP_CORPUS_H_
#define TOPICRAWL_STRATEGIES_TDA_SDTP_CORPUS_H_

#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/status.h"
#include "strategies/tda/sdtp_scorer.h"

namespace topicrawl {

class SdtpCorpus {
 public:
  // Creates (truncates) `path`.
  static StatusOr<std::unique_ptr<SdtpCorpus>> Create(const std::string& path);

  // Appends one page; `topical`: the page counts as on-topic (e.g. its
  // StaticSim reached the topic's beta, or a training label says so);
  // `site`: the page's site (its host), for TermStats::topical_sites ("":
  // every such page is one site).
  void Add(const WeightedTokens& page, bool topical, std::string_view site = "");
  // Flushes the file (call before training on it).
  Status Flush();

  const std::string& path() const { return path_; }
  size_t pages() const;
  size_t topical_pages() const;
  // A copy of the statistics (training runs while Add() continues).
  StringMap<TermStats> Stats() const;

 private:
  SdtpCorpus() = default;
  std::string path_;
  mutable std::mutex mu_;
  std::ofstream out_;            // guarded by mu_
  StringMap<TermStats> stats_;   // guarded by mu_
  StringMap<uint32_t> site_ids_;  // guarded by mu_
  size_t pages_ = 0;
  size_t topical_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_SDTP_CORPUS_H_
