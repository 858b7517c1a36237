// SdtpCorpus: the training text of SDTP's word vectors (seed 002 §4.1.2,
// "根据抓取的主题页面抽取出新的领域名词"), gathered from crawled pages: one
// line a page (its tokens in reading order, space-separated, the input of
// WordVectors::Train) plus, per word, the eq.-8 weight it got in topical
// and in all pages (TermStats, for eq. 10's weight(w)).
//
// Thread-safe: Add() may be called from many threads (one mutex).
#ifndef TOPICRAWL_STRATEGIES_TDA_SDTP_CORPUS_H_
#define TOPICRAWL_STRATEGIES_TDA_SDTP_CORPUS_H_

#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "strategies/tda/sdtp_scorer.h"

namespace topicrawl {

// What a crawl's saved state holds of the corpus: enough to continue it
// after a restart (the file's first `bytes` are the `pages` lines counted).
struct SdtpCorpusSnapshot {
  uint64_t bytes = 0;
  uint64_t pages = 0;
  uint64_t topical = 0;
  StringMap<TermStats> stats;
  std::vector<std::string> sites;  // topical sites by id
};

class SdtpCorpus {
 public:
  // A corpus at `path`. The file is not touched until the first Add()
  // (which starts it empty) or Resume().
  static StatusOr<std::unique_ptr<SdtpCorpus>> Create(const std::string& path);

  // Continues the corpus a snapshot describes: the file is cut back to the
  // snapshot's bytes (lines written after it belong to pages the restarted
  // crawl fetches again or lost with a kill -9) and appended to. Error: the
  // file is shorter than the snapshot (then nothing changes).
  Status Resume(SdtpCorpusSnapshot snapshot);
  // Flushes the file and returns the corpus as it is now.
  SdtpCorpusSnapshot Snapshot() const;

  // Writes a uniform sample of at most `max_pages` of the corpus's lines
  // (reservoir sampling with `seed`, in file order) to `out`; returns the
  // lines written. Reads the file as flushed so far.
  StatusOr<size_t> WriteSample(const std::string& out, size_t max_pages, uint64_t seed) const;

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
  // Opens the file (truncating it) on the first write. mu_ held.
  bool OpenLocked();

  std::string path_;
  mutable std::mutex mu_;
  mutable std::ofstream out_;    // guarded by mu_
  bool opened_ = false;          // guarded by mu_
  uint64_t bytes_ = 0;           // guarded by mu_: written to out_
  StringMap<TermStats> stats_;   // guarded by mu_
  StringMap<uint32_t> site_ids_;  // guarded by mu_
  size_t pages_ = 0;
  size_t topical_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_SDTP_CORPUS_H_
