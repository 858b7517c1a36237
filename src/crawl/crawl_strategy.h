// CrawlStrategy: what makes a crawl "focused". A strategy bundles
//   * how pages and their outlinks are judged (Assess, on the parse pool),
//   * which outlinks are admitted to the frontier (PageAssessment::admit),
//   * how the frontier picks the next URL (its LinkSelector),
//   * what it learns from stored pages (OnPageStored, on the crawl thread).
// One .cc per strategy in its family (strategies/<family>/);
// strategies/strategy_registry.cc is the explicit list of names.
#ifndef TOPICRAWL_CRAWL_CRAWL_STRATEGY_H_
#define TOPICRAWL_CRAWL_CRAWL_STRATEGY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/crawl_task.h"
#include "core/status.h"
#include "crawl/strategy_factory.h"
#include "frontier/frontier.h"

namespace topicrawl {

class Frontier;
class LinkSelector;

// The verdict on one page and its outlinks. `links` is index-aligned with
// ParsedPage::links.
struct PageAssessment {
  double relevance = 0.0;    // R(P) in [0,1]; stored in pages.relevance
  std::string explanation;   // compact JSON: terms that contributed
  struct Link {
    double score = 0.0;      // priority in the frontier (higher = sooner)
    bool admit = true;       // false: recorded in links, never queued
    std::string explanation; // compact JSON: the parts of the score
  };
  std::vector<Link> links;
};

// Everything a strategy may need at construction. Pointers outlive the
// strategy.
struct StrategyContext {
  std::string topic_file;   // may be empty (then strategies that need a topic fail)
  std::string out_dir;      // crawl directory, for diagnostics files
  uint64_t rng_seed = 1;
  // CrawlConfig::dedup_ignore_scheme: how the crawl computes a URL's UrlId
  // (crawl/dedup.h). Strategies that key anything by UrlId use the same.
  bool dedup_ignore_scheme = true;
};

class CrawlStrategy {
 public:
  virtual ~CrawlStrategy() = default;
  virtual std::string_view Name() const = 0;

  // The frontier's selector for this strategy. Called once, before seeding
  // (and before RestoreState). An error (e.g. a selector name the selector
  // registry does not know) stops the crawl before any fetch.
  virtual StatusOr<std::unique_ptr<LinkSelector>> MakeSelector() = 0;

  // Judges a fetched page and scores its outlinks. Runs on parse-pool
  // threads concurrently with other Assess calls: must be thread-safe.
  virtual void Assess(const CrawlTask& task, const ParsedPage& page,
                      PageAssessment* out) = 0;

  // Score of a seed URL in the frontier (seeds have no parent page).
  virtual double SeedScore() const { return 1.0; }

  // The relevance threshold beta of the topic (R(P) >= beta counts as a
  // relevant page, LP); negative when the strategy has no topic.
  virtual double Beta() const { return -1.0; }

  // Seed 001: a link found again while still queued keeps the higher of its
  // old and new score and moves in the queue (FrontierOptions::
  // keep_max_on_duplicate). Default: the first score stays.
  // True for strategies that mean "always the best queued link" (best-first
  // and its kin): the frontier's focus gate (CrawlConfig::focus_tolerance)
  // then keeps parallel fetching in best-first order. Sampling strategies
  // (Wang-Landau, annealing) pick worse links on purpose and leave it off.
  virtual bool FocusGated() const { return false; }
  virtual bool KeepMaxOnDuplicate() const { return false; }

  // The link contexts Assess() and OnPageStored() read. The crawler asks
  // the parser for these only (plus the text context when the links table is
  // stored). Default: both.
  virtual LinkContextNeeds NeededLinkContexts() const { return {}; }

  // Crawl thread, after the page, its links and its admitted outlinks are
  // stored and queued. Strategies that learn online (re-scoring queued links,
  // PageRank, Q-learning) do it here. Default: nothing.
  virtual void OnPageStored(const CrawlTask& /*task*/, PageId /*id*/,
                            const ParsedPage& /*page*/,
                            const PageAssessment& /*assessment*/,
                            Frontier* /*frontier*/) {}

  // Crawl thread, when the frontier has run dry (nothing queued, in flight or
  // being parsed): links to queue before the crawl ends. The crawler applies
  // its scope rules (depth, filters) and dedup, and stores the admitted ones
  // as frontier rows. Default: none, the crawl ends.
  virtual std::vector<LinkCandidate> Refill() { return {}; }

  // Crawl thread, once, when the crawl stops, after the crawl store is
  // closed (a strategy may open out_dir/crawl.db itself): flush diagnostics
  // to out_dir.
  virtual Status Finish() { return Status::Ok(); }

  // ---- Learned state (crawl --resume, incremental rounds) -------------------
  // What the strategy has learned and the crawl store does not hold
  // (document frequencies, the Wang-Landau density of states, the PageRank
  // graph, Shark-search carries, annealing temperature and host memory,
  // RNG positions...), so that a resumed crawl goes on as the uninterrupted
  // one would have. The crawler persists it in the crawl directory
  // (crawl/strategy_state.h: DIR/state/strategy.bin, atomic, at periodic
  // checkpoints and at the end) and restores it on resume.
  //
  // SaveState: a blob, versioned per section and in a canonical order
  // (crawl/state_blob.h), so save -> restore -> save gives the same bytes.
  // Called on the crawl thread while parse-pool threads may be in Assess():
  // lock what Assess writes. Default: empty (nothing learned).
  virtual Status SaveState(std::string* blob) const {
    blob->clear();
    return Status::Ok();
  }
  // Restores SaveState's blob into a strategy just built with the same
  // context, after MakeSelector() and before the first page. An empty blob
  // means nothing was saved: keep the fresh state. A blob of another
  // version or layout, or damaged, is an error that names the problem.
  // Default: only the empty blob is accepted.
  virtual Status RestoreState(std::string_view blob) {
    if (blob.empty()) return Status::Ok();
    return Status::Error("strategy '" + std::string(Name()) + "' keeps no state, but " +
                         std::to_string(blob.size()) + " bytes of state were saved");
  }
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CRAWL_STRATEGY_H_
