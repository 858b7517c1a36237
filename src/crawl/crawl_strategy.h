// Strategy: what makes a crawl "focused", composed of one object per role
// (after ACHE's page classifier / link classifier / link selector / online
// learner):
//   * PageJudge: judges a fetched page and scores its outlinks, deciding
//     which are admitted to the frontier (parse pool, thread-safe);
//   * the LinkSelector: how the frontier picks the next URL;
//   * StrategyLearner: what it learns from stored pages (crawl thread), its
//     refills and diagnostics, and its saved state (Save / Restore);
//   * StrategyTraits: the facts the loop reads once (topic threshold, seed
//     score, focus gate, duplicate rule, link contexts to parse).
// One .cc per strategy in its family (strategies/<family>/);
// strategies/strategy_registry.cc is the explicit list of names.
#ifndef TOPICRAWL_CRAWL_CRAWL_STRATEGY_H_
#define TOPICRAWL_CRAWL_CRAWL_STRATEGY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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
  // CrawlConfig::deterministic: the crawl must not depend on timing, so
  // work a strategy would do in the background (training) is waited for.
  bool deterministic = false;
  // The crawl's stop flag (SIGINT/SIGTERM), may be null: long work of the
  // strategy (training) ends early when it is set.
  const std::atomic<bool>* stop = nullptr;
};

// What the crawl loop needs to know about a strategy, read once when the
// crawl is set up (plain data: no switch of the loop is a virtual call).
struct StrategyTraits {
  // The topic's relevance threshold beta: R(P) >= beta counts as a relevant
  // page (LP, the `relevant` counter). nullopt: the strategy has no topic.
  std::optional<double> beta;
  // Frontier score of a seed URL (seeds have no parent page).
  double seed_score = 1.0;
  // True for strategies that mean "always the best queued link" (best-first
  // and its kin): the frontier's focus gate (CrawlConfig::focus_tolerance)
  // then keeps parallel fetching in best-first order. Sampling strategies
  // (Wang-Landau, annealing) pick worse links on purpose and leave it off.
  bool focus_gated = false;
  // Seed 001: a link found again while still queued keeps the higher of its
  // old and new score and moves in the queue (FrontierOptions::
  // keep_max_on_duplicate). False: the first score stays.
  bool keep_max_on_duplicate = false;
  // The link contexts the judge and the learner read. The crawler asks the
  // parser for these only (plus the text context when the links table is
  // stored).
  LinkContextNeeds link_contexts;
};

// Role: judges a fetched page and scores its outlinks.
class PageJudge {
 public:
  virtual ~PageJudge() = default;
  // Runs on parse-pool threads concurrently with other Assess calls: must
  // be thread-safe. `out->links` ends index-aligned with page.links.
  virtual void Assess(const CrawlTask& task, const ParsedPage& page,
                      PageAssessment* out) = 0;
};

// Role: what a strategy learns while the crawl runs, and its learned state.
// Every method runs on the crawl thread. Defaults: learns nothing, refills
// nothing, keeps no state.
class StrategyLearner {
 public:
  virtual ~StrategyLearner() = default;

  // After the page, its links and its admitted outlinks are stored and
  // queued. Strategies that learn online (re-scoring queued links,
  // PageRank, Q-learning) do it here.
  virtual void OnPageStored(const CrawlTask& /*task*/, PageId /*id*/,
                            const ParsedPage& /*page*/,
                            const PageAssessment& /*assessment*/,
                            Frontier* /*frontier*/) {}

  // When the frontier has run dry (nothing queued, in flight or being
  // parsed): links to queue before the crawl ends. The crawler applies its
  // scope rules (depth, filters) and dedup, and stores the admitted ones as
  // frontier rows. Empty: the crawl ends.
  virtual std::vector<LinkCandidate> Refill() { return {}; }

  // When the crawl ends because nothing is left to fetch (Refill() gave
  // nothing): what the strategy chose not to follow, for the summary line
  // that says why the crawl ended (e.g. "jlse: 80 pages not expanded (strict
  // flow)"). Empty: nothing to say.
  virtual std::string EndNote() const { return {}; }

  // Once, when the crawl stops, after the crawl store is closed (a strategy
  // may open out_dir/crawl.db itself): flush diagnostics to out_dir.
  virtual Status Finish() { return Status::Ok(); }

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
  // Called while parse-pool threads may be in PageJudge::Assess(): lock
  // what Assess writes. Empty: nothing learned.
  virtual Status SaveState(std::string* blob) const {
    blob->clear();
    return Status::Ok();
  }
  // Restores SaveState's blob into a strategy just built with the same
  // context, after its selector is made and before the first page. An empty
  // blob means nothing was saved: keep the fresh state. A blob of another
  // version or layout, or damaged, is an error that names the problem.
  // Default: only the empty blob is accepted.
  virtual Status RestoreState(std::string_view blob) {
    if (blob.empty()) return Status::Ok();
    return Status::Error("the strategy keeps no state, but " + std::to_string(blob.size()) +
                         " bytes of state were saved");
  }
};

// Role: makes the frontier's selector. Called once, before seeding (and
// before RestoreState). An error (e.g. a selector name the selector registry
// does not know) stops the crawl before any fetch.
using SelectorFactory = std::function<StatusOr<std::unique_ptr<LinkSelector>>()>;

// A crawl strategy: its name, traits and role objects, composed by the
// strategy's constructor in its family. One object may play several roles
// when they share state (a learner re-scoring what its judge scored); the
// shared_ptrs keep it alive.
struct Strategy {
  std::string name;
  StrategyTraits traits;
  SelectorFactory make_selector;
  std::shared_ptr<PageJudge> judge;          // never null
  std::shared_ptr<StrategyLearner> learner;  // never null (a default one learns nothing)
};

// Composes a Strategy from one object that plays every role: T derives from
// PageJudge and StrategyLearner and has MakeSelector().
template <typename T>
Strategy ComposeStrategy(std::string name, StrategyTraits traits, std::shared_ptr<T> object) {
  Strategy s;
  s.name = std::move(name);
  s.traits = std::move(traits);
  s.make_selector = [object] { return object->MakeSelector(); };
  s.judge = object;
  s.learner = object;
  return s;
}

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CRAWL_STRATEGY_H_
