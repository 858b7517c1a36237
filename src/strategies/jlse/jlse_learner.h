// JLSE, "joint link similarity evaluation" (seed 004_d65f8d41b01a9f7d,
// SPEC.md "Seed 004"): the learning core of the `jlse` and `ata` strategies,
// kept apart from the frontier so that it can be tested and serialised
// alone.
//
// Per page k (Assess, parse pool; algorithm 2 "GPAOGP"):
//   P(c | d_k)   multinomial NB page classifier (eq. 1-2). Below the
//                threshold the page is irrelevant: stored, not expanded
//                (unless expand_irrelevant).
//   result page  a relevant DetailPage: the result-page SVM on <TextDegree,
//                LinkDegree, Aggregation> (strategies/jlse/result_page_svm.h,
//                `topicrawl train result-svm`), or without a model the
//                documented rule IsDetailPageByRule. A result page goes to
//                ResultTable and is not expanded (unless expand_results).
//   each link u  sim_anchor(u) = P(+ | anchor words) by the page NB, 0.01
//                when NB says negative (algorithm 1 "GTSAT");
//                sim_predicted(u) = s_j * V(v_j): v_j = BM25 top-1 vertex of
//                Gw for u's <anchor, URL, context> (text/bm25_index.h), s_j
//                its normalised score, V(v_j) its link value from Q-learning
//                (graph/q_learning.h);
//                sim(u) = max(sim_anchor, sim_predicted)            (eq. 3)
//   priority(i)  = P(c|d_k) * sim(i) / sum_{v in O_k} sim(v)        (eq. 10)
//                ("normalized"; "product" drops the denominator)
// Per stored page (OnStored, crawl thread): the page joins the LinkTable
// (its discovering link's fields from the side table of queued links); a
// result page joins ResultTable; every cf new result pages Gw is rebuilt
// from ResultTable by walking parents to the seeds, Q is solved and the BM25
// index over Gw's vertices replaced (an immutable snapshot that Assess reads
// concurrently). The strategy then re-prioritises the queued links from
// the side table (anchor sim, the three fields, the parent's P(c|d) and
// denominator).
//
// `ata` (the seed's baseline) is the same without Gw: sim = sim_anchor.
#ifndef TOPICRAWL_STRATEGIES_JLSE_JLSE_LEARNER_H_
#define TOPICRAWL_STRATEGIES_JLSE_JLSE_LEARNER_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "classify/naive_bayes.h"
#include "classify/svm_model.h"
#include "core/crawl_task.h"
#include "crawl/crawl_strategy.h"
#include "graph/q_learning.h"
#include "strategies/naive_bayes/link_features.h"
#include "text/bm25_index.h"

namespace topicrawl {

struct JlseParams {
  bool use_graph = true;         // false: ata
  // Page classifier.
  double page_threshold = 0.5;   // P(c|d) >= it: relevant
  bool expand_irrelevant = false;  // seed: irrelevant pages are not expanded
  bool expand_results = false;     // seed: result pages are not expanded
  double anchor_negative = 0.01;   // sim_anchor of an NB-negative anchor
  // Link learner.
  int cf = 150;                  // rebuild Gw every cf new result pages
  QLearningParams q;             // gamma 0.9, r_d 1, k sweeps
  Bm25Params bm25;               // k1 2, b 0.75, weights (0.5, 0.2, 0.3)
  size_t max_context_terms = 64;  // context words kept per link
  bool normalized_priority = true;  // eq. 10 with the denominator
};

// The three BM25 fields of one link, tokenised, as space-joined strings
// (compact in the side tables; split again for a query).
struct JlseLinkFields {
  std::string anchor_raw;  // for LinkTable
  std::array<std::string, kBm25Fields> terms;
};

// One link's score parts.
struct JlseLinkScore {
  double sim_anchor = 0;
  double sim_predicted = 0;
  double bm25 = 0;       // normalised s_j
  double value = 0;      // V(v_j)
  int64_t vertex = -1;   // v_j in the snapshot, -1 when none
  PageId vertex_page = 0;  // v_j as a page id (stable across rebuilds), 0 when none
  // Mapped: scored against a non-empty Gw with a term in common. A mapped
  // link without a vertex had no vertex with s_j > sim_anchor (then
  // sim_predicted <= s_j * V <= sim_anchor whatever V becomes).
  bool mapped = false;
  double sim() const { return sim_anchor > sim_predicted ? sim_anchor : sim_predicted; }
};

class JlseLearner {
 public:
  // `page_model`: a trained page NB (kPage); `dictionary`: domain terms for
  // the tokeniser; `result_model`: a "result-page" SVM, or null for the
  // rule. The learner's topic fingerprint (TopicFingerprint) is a hash of
  // the three.
  static StatusOr<std::unique_ptr<JlseLearner>> Create(
      JlseParams params, std::shared_ptr<const NaiveBayes> page_model,
      const std::vector<std::string>& dictionary,
      std::shared_ptr<const SvmModel> result_model = nullptr);

  // Parse pool (thread-safe): classifies the page and scores its links.
  void Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out);

  // Crawl thread: records the stored page; `queued(url_id)` says whether an
  // outlink is now waiting in the frontier. Returns true when Gw was
  // rebuilt (the caller then re-prioritises queued links with Rescore).
  bool OnStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                const PageAssessment& assessment, const std::function<bool(UrlId)>& queued);

  // Re-prioritisation. A queued link keeps the Gw vertex v_j and the
  // normalised BM25 score s_j it was mapped to when it was scored (the
  // seed maps a link when it is extracted); a rebuild changes its
  // sim_predicted = s_j * V(v_j) only through V(v_j). A link with no match
  // yet is mapped again against each new snapshot until it has one.
  //
  // New priority of a queued link now (const: an unmapped link is matched
  // against the current snapshot without storing the match); `old_score`
  // when the link is unknown (e.g. a seed).
  double Rescore(UrlId url_id, double old_score) const;
  // The queued links whose priority changed since the last call, with their
  // new priority: after a rebuild, the links mapped to a vertex whose V
  // changed and the links still unmapped; after a page scored against an
  // older snapshot, that page's links. Applying them leaves every queued
  // link at exactly the priority RescoreAllQueued() would give it (unit
  // test); unmapped links that now match are mapped (stored).
  std::vector<std::pair<UrlId, double>> TakeRescores();
  // Every queued link's priority now (the full re-score; maps unmapped links
  // that now match). For tests and for callers without a per-link rescore.
  std::vector<std::pair<UrlId, double>> RescoreAllQueued();

  // Tokenises a link into its fields (thread-safe).
  JlseLinkFields Fields(std::string_view anchor, std::string_view url,
                        std::string_view context) const;
  // Scores fields against the current snapshot (thread-safe).
  JlseLinkScore ScoreLink(const JlseLinkFields& fields) const;
  double SimAnchor(std::string_view anchor) const;
  double SimAnchorWords(const std::vector<std::string>& words) const;

  // Turns the link cache off (tests compare both ways).
  void set_link_cache(bool on) { use_cache_ = on; }

  // Rebuilds Gw, Q and the BM25 index from the recorded pages now.
  void Rebuild() { RebuildFrom(results_.size()); }

  // The learned state (topic fingerprint, recorded pages = LinkTable, result
  // pages, side tables of queued links, rebuild counter) as bytes; Restore
  // reads it into a learner created with the same parameters and rebuilds
  // Gw, Q and BM25 from it: identical scores. Errors: malformed bytes; a
  // state learned for another topic (its fingerprint differs).
  std::string SaveState() const;
  Status RestoreState(std::string_view bytes);

  // LinkTable / ResultTable rows.
  struct PageNode {
    PageId id = 0;
    PageId parent = 0;
    uint32_t depth = 0;
    bool result = false;
    std::string url;
    JlseLinkFields fields;
  };
  const std::vector<PageNode>& pages() const { return pages_; }
  const std::vector<PageId>& results() const { return results_; }

  struct Stats {
    int64_t rebuilds = 0;
    int64_t gw_vertices = 0;
    int64_t gw_results = 0;
    int q_sweeps = 0;
    int64_t relevant_pages = 0;
    int64_t result_pages = 0;
    int64_t predictions = 0;    // links scored with a BM25 match
    int64_t predicted_wins = 0; // links where sim_predicted > sim_anchor
    int64_t cache_hits = 0;     // links whose fields came from the link cache
    int64_t cache_scored = 0;   // ... and whose score too (same snapshot)
    int64_t rescored = 0;       // links re-prioritised after rebuilds (TakeRescores)
    int64_t rescore_lookups = 0;  // ... of which needed a BM25 top-1 (unmapped)
    double rebuild_seconds = 0;
  };
  Stats stats() const;
  const JlseParams& params() const { return params_; }
  // Hash64 of what defines the topic for jlse/ata: the page classifier
  // (NB counts and dictionary), the tokeniser's dictionary and the
  // result-page model. A restore with another fingerprint is refused.
  uint64_t TopicFingerprint() const { return fingerprint_; }
  // Whether result pages are judged by the SVM (else by the rule).
  bool has_result_model() const { return result_model_ != nullptr; }

 private:
  struct Snapshot {
    Bm25Index index;
    std::vector<double> value;  // V(v) per index document
    uint64_t generation = 0;    // 0 before the first rebuild, then 1, 2, ...
    std::vector<PageId> page;   // the page id of each index document
  };
  // Link cache (parse pool): documentation pages repeat their navigation
  // links verbatim, so a link's fields and score are kept by its exact
  // <anchor, URL, context> and reused while the snapshot is the same (the
  // fields also after a rebuild). Sharded by key hash; a full shard is
  // cleared. Results are identical with and without it (unit test).
  struct CachedLink {
    std::string key;  // anchor \0 url \0 context
    uint64_t generation = 0;
    JlseLinkFields fields;
    JlseLinkScore score;
  };
  struct CacheShard {
    std::mutex mu;
    absl::flat_hash_map<uint64_t, std::shared_ptr<const CachedLink>> map;  // guarded by mu
  };
  static constexpr size_t kCacheShards = 16;
  static constexpr size_t kCacheShardCapacity = 4096;
  // Fields and score of one link against `snap`, through the cache. Returns
  // 0 (computed), 1 (fields from the cache) or 2 (fields and score).
  // `fields` shares the cache entry's fields (no copy: ~1 KB a link, and
  // only the links that get queued are copied into the side table).
  int ScoreCached(std::string_view anchor, std::string_view url, std::string_view context,
                   const Snapshot& snap, std::shared_ptr<const JlseLinkFields>* fields,
                   JlseLinkScore* score) const;
  JlseLinkScore ScoreAgainst(const JlseLinkFields& fields, const Snapshot& snap) const;
  struct QueuedLink {
    PageId parent = 0;
    double sim_anchor = 0;
    bool mapped = false;  // see JlseLinkScore::mapped
    PageId vertex = 0;   // mapped Gw vertex v_j (0: none)
    double bm25 = 0;     // its normalised s_j
    JlseLinkFields fields;
  };
  struct ParentInfo {
    double p_page = 0;
    double denominator = 1;
    int queued = 0;  // side-table links still pointing here
  };
  struct PendingPage {
    double p_page = 0;
    bool relevant = false;
    bool result = false;
    double denominator = 1;
    uint64_t generation = 0;        // snapshot the links were scored against
    std::vector<double> sim_anchor;  // per link
    std::vector<char> mapped;        // per link: JlseLinkScore::mapped
    std::vector<PageId> vertex;      // per link: mapped vertex (0: none)
    std::vector<double> bm25;        // per link: its s_j
    // per link (empty when not expanded; null for a link without URL)
    std::vector<std::shared_ptr<const JlseLinkFields>> fields;
  };

  JlseLearner(JlseParams params, std::shared_ptr<const NaiveBayes> model,
              std::unique_ptr<LinkFeatureExtractor> words,
              std::shared_ptr<const SvmModel> result_model, uint64_t fingerprint);
  std::shared_ptr<const Snapshot> snapshot() const;
  // Rebuild over the first `n_results` result pages (a restore rebuilds the
  // snapshot the saved crawl had, without the results found since).
  void RebuildFrom(size_t n_results);
  // After a restore: the side-table indexes from queued_, the snapshot the
  // saved crawl had (had_snapshot: rebuilt without the `since` results
  // found after its last rebuild), and the rebuild counter.
  void ReindexRestored(bool had_snapshot, int64_t since);
  // Assess: scores the page's links against one snapshot into pp (fields,
  // anchor similarities, mapping, denominator) and `scores`; returns the
  // denominator (the sum of the links' sim).
  double ScorePageLinks(const ParsedPage& page, PendingPage* pp, std::vector<JlseLinkScore>* scores);
  // OnStored: the page's Assess result (empty for a page never assessed),
  // its LinkTable row (and result row), its admitted links in the side table.
  PendingPage TakePending(UrlId url_id);
  void RecordPage(const CrawlTask& task, PageId id, const PendingPage& pp);
  void RecordQueuedLinks(const CrawlTask& task, PageId id, const ParsedPage& page,
                         const PageAssessment& assessment, const std::function<bool(UrlId)>& queued,
                         const PendingPage& pp);
  // RebuildFrom: Gw's vertices (Definition 5) over the first n_results
  // result pages, in page-id order; the queued links to rescore for the new
  // values V(v).
  std::vector<PageId> ResultPaths(size_t n_results) const;
  void MarkRescores(const absl::flat_hash_map<PageId, double>& values);
  double Priority(double p_page, double sim, double denominator) const;
  // Priority of a queued link from its stored mapping; maps it first when
  // unmapped and `map` (crawl thread).
  double QueuedPriority(UrlId url_id, QueuedLink* q, bool map, bool* looked_up);
  // Indexes a queued link by its vertex (or as unmapped).
  void IndexQueued(UrlId url_id, const QueuedLink& q);

  JlseParams params_;
  std::shared_ptr<const NaiveBayes> model_;
  std::unique_ptr<LinkFeatureExtractor> words_;
  std::shared_ptr<const SvmModel> result_model_;  // null: IsDetailPageByRule
  uint64_t fingerprint_ = 0;

  mutable std::mutex snapshot_mu_;
  std::shared_ptr<const Snapshot> snapshot_;  // guarded by snapshot_mu_

  mutable std::array<CacheShard, kCacheShards> cache_;
  bool use_cache_ = true;

  std::mutex pending_mu_;
  absl::flat_hash_map<UrlId, PendingPage> pending_;  // guarded by pending_mu_

  // Crawl thread only.
  std::vector<PageNode> pages_;
  absl::flat_hash_map<PageId, size_t> page_index_;
  std::vector<PageId> results_;
  int64_t results_since_rebuild_ = 0;
  absl::flat_hash_map<UrlId, QueuedLink> queued_;
  absl::flat_hash_map<PageId, ParentInfo> parents_;
  // V(v) of the current snapshot by vertex page id.
  absl::flat_hash_map<PageId, double> value_by_page_;
  // Queued links by mapped vertex, and those not mapped yet (may hold
  // links no longer queued: dropped when met).
  absl::flat_hash_map<PageId, std::vector<UrlId>> by_vertex_;
  absl::flat_hash_set<UrlId> unmapped_;
  absl::flat_hash_set<UrlId> to_rescore_;
  mutable std::mutex stats_mu_;
  Stats stats_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_JLSE_JLSE_LEARNER_H_
