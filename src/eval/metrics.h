// Crawl-quality metrics (SPEC "Common vocabulary and metrics").
//
// Self-judged metrics, seed 000 eq. 8-12, over the downloaded pages
// (DP = pages rows with status 'ok', in download order) and their relevance
// R(P) as the crawl's strategy computed it:
//   LP       = |{P : R(P) >= beta}|
//   Accuracy = LP / DP                                          (eq. 8)
//   ARDP     = (1/DP) sum R(P)                                  (eq. 9)
//   SDDP     = sqrt((1/DP) sum (R(P) - ARDP)^2)                 (eq. 10)
//   ARLP, SDLP the same over the LP relevant pages              (eq. 11, 12)
// Eq. 10 and 12 divide by DP and LP, so SDDP/SDLP are POPULATION standard
// deviations (not the n-1 sample form); we follow the equations.
// A page whose relevance is NULL in the store counts as R(P) = 0 (it was
// downloaded, so it is in DP; it was not judged relevant) and is counted in
// CrawlMetrics::unscored_pages.
//
// Ground-truth metrics (labels from the corpus, never from the crawler), over
// DISTINCT labelled pages: a page downloaded twice (".../" and
// ".../index.html") is found once, so duplicates only cost budget.
//   true_harvest(n)   = relevant pages found in the first n downloads / n
//   recall(n)         = relevant pages found / all relevant pages
//   recall_reachable  = relevant reachable pages found / relevant reachable
//                       pages (needs a reachable URL set; else nullopt)
//   avg_harvest_rate@N  = (1/N) sum_{n=1..N} true_harvest(n)     (seed 004)
//   avg_target_recall@N = (1/N) sum_{n=1..N} recall(n)           (seed 004)
// Seed 004's formulas were lost in extraction; the text describes both as
// the average of the harvest / recall curve up to N, which is what we do.
#ifndef TOPICRAWL_EVAL_METRICS_H_
#define TOPICRAWL_EVAL_METRICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/crawl_reader.h"
#include "eval/labels.h"

namespace topicrawl::eval {

constexpr double kDefaultBeta = 0.62;  // seed 000, rainstorm topic

struct MetricOptions {
  // Relevance threshold. nullopt: the crawl's meta "beta", else kDefaultBeta.
  std::optional<double> beta;
  // Checkpoints N (DP values). Those above the crawl's DP are skipped; the
  // final DP is always reported as the last checkpoint.
  std::vector<int64_t> checkpoints = {1000, 5000, 10000, 15000};
};

struct CheckpointMetrics {
  int64_t n = 0;  // == dp
  int64_t dp = 0;
  int64_t lp = 0;
  double accuracy = 0;
  double ardp = 0;
  double sddp = 0;
  std::optional<double> arlp;  // nullopt when LP == 0
  std::optional<double> sdlp;
  // Seconds from the crawl start to the n-th download (fetched_at).
  std::optional<double> elapsed_s;
  // Ground truth; nullopt without labels.
  std::optional<int64_t> relevant_found;
  std::optional<double> true_harvest;
  std::optional<double> recall;
  std::optional<double> recall_reachable;
  std::optional<double> avg_harvest_rate;
  std::optional<double> avg_target_recall;
  // With an oracle curve (AddOracleCurve): its recall after n fetches and
  // recall / oracle_recall (nullopt while the oracle has found nothing).
  std::optional<double> oracle_recall;
  std::optional<double> share_of_oracle;
};

// The crawl's own relevance decisions (R(P) >= beta) against the labels,
// over DISTINCT labelled downloads (a page downloaded twice counts once, with
// its first judgment); unlabelled downloads are left out.
//   precision = tp / (tp + fp), recall = tp / (tp + fn),
//   f1 = 2 precision recall / (precision + recall)
// where the positives are the labelled-relevant DOWNLOADED pages: the
// judge's recall says how many of the relevant pages the crawl fetched it
// recognised, not how many of the web's relevant pages it fetched.
struct JudgeQuality {
  int64_t tp = 0, fp = 0, fn = 0, tn = 0;
  std::optional<double> precision;  // nullopt when nothing was judged relevant
  std::optional<double> recall;     // nullopt when no relevant page was downloaded
  std::optional<double> f1;
};

// Per-download curves, index n-1 holds the value after n downloads.
struct MetricCurves {
  std::vector<double> accuracy;
  std::vector<double> true_harvest;  // empty without labels
  std::vector<double> recall;        // empty without labels
  std::vector<double> oracle_recall;  // empty without an oracle curve
};

struct CrawlMetrics {
  double beta = kDefaultBeta;
  std::string beta_source;  // "flag", "meta" or "default"
  int64_t dp = 0;
  int64_t failed_rows = 0;     // pages rows whose status is not 'ok'
  int64_t unscored_pages = 0;  // relevance NULL, counted as 0
  std::vector<CheckpointMetrics> checkpoints;

  bool has_labels = false;
  int64_t relevant_total = 0;                   // |relevant| in the labels
  std::optional<int64_t> reachable_relevant_total;
  int64_t unlabelled_pages = 0;                 // downloads not in the labels
  std::optional<int64_t> pages_to_recall_50;    // first n with recall >= 0.5
  std::optional<int64_t> pages_to_recall_90;
  std::optional<JudgeQuality> judge;  // with labels
  // With an oracle curve: its size and where it came from (AddOracleCurve).
  std::optional<std::string> oracle_graph;

  std::optional<double> wall_s;  // meta finished_at - started_at
  std::optional<double> pages_per_s;
  std::vector<std::string> notes;  // how something was derived or why missing
  MetricCurves curves;
};

// Computes everything above. `labels` and `reachable` may be null.
// REQUIRES: options.checkpoints are positive (others are ignored).
CrawlMetrics ComputeMetrics(const CrawlRecord& crawl, const MetricOptions& options,
                            const LabelSet* labels, const UrlSet* reachable);

// Fills oracle_recall / share_of_oracle of every checkpoint and
// curves.oracle_recall from `oracle_recall` (index n-1 = after n fetches;
// eval/oracle_crawl.h). Checkpoints beyond the curve get the curve's last
// value. `source` describes the graph (for the report).
void AddOracleCurve(const std::vector<double>& oracle_recall, const std::string& source,
                    CrawlMetrics* m);

// Parses "1000,5000,10000" (also accepts spaces). Fails on anything that is
// not a positive integer.
StatusOr<std::vector<int64_t>> ParseCheckpointList(const std::string& text);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_METRICS_H_
