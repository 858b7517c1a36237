// The strategy-comparison experiment behind `topicrawl compare`: run every
// strategy K times with RNG seeds first_seed..first_seed+K-1, evaluate every
// run (metrics.h), aggregate mean +- sd per strategy and checkpoint, rank
// the strategies with the Friedman test (friedman.h), and write the report
// (experiment_report.h).
//
// Running a crawl is injected (RunCrawlFn): the CLI spawns the topicrawl
// binary's `crawl` subcommand; tests write fake crawl databases.
#ifndef TOPICRAWL_EVAL_EXPERIMENT_H_
#define TOPICRAWL_EVAL_EXPERIMENT_H_

#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "eval/friedman.h"
#include "eval/labels.h"
#include "eval/metrics.h"

namespace topicrawl::eval {

struct RunRequest {
  std::string strategy;
  int rng_seed = 0;
  std::string out_dir;  // <experiment out>/runs/<strategy>-<seed>
};

// Runs one crawl into request.out_dir (not created beforehand: a resumed
// crawl finds its own directory, a fresh one creates it). OK means a crawl
// database was written there.
using RunCrawlFn = std::function<Status(const RunRequest&)>;

struct ExperimentSpec {
  std::vector<std::string> strategies;
  int runs = 1;
  int first_seed = 1;
  std::string out_dir;
  MetricOptions metric_options;
  // Skip (strategy, seed) runs whose crawl.db already has meta finished_at,
  // so an interrupted experiment resumes where it stopped. Any other existing
  // run directory (interrupted, or all of them when false) is renamed to
  // <dir>.old before the run starts afresh.
  bool reuse_finished_runs = true;
};

struct RunOutcome {
  RunRequest request;
  Status status;                        // of running or of reading the crawl
  bool reused = false;
  std::optional<CrawlMetrics> metrics;  // set when status is OK
};

struct ExperimentResult {
  ExperimentSpec spec;
  std::vector<RunOutcome> runs;  // strategy-major, seed order
  bool has_labels = false;
  int64_t relevant_total = 0;
  // Relevant pages a crawler can reach (reachable set given) else
  // relevant_total; the oracle's budget.
  int64_t oracle_relevant = 0;
};

// Runs (or reuses) every run, then evaluates it. Never stops at a failed
// run: its outcome records the error. `progress` may be null.
// Fails only on an invalid spec (no strategies, runs < 1, no out_dir) or
// when out_dir/runs cannot be created.
StatusOr<ExperimentResult> RunExperiment(const ExperimentSpec& spec,
                                         const RunCrawlFn& run_crawl,
                                         const LabelSet* labels, const UrlSet* reachable,
                                         std::ostream* progress);

// ---- Aggregation ----------------------------------------------------------

// Mean and SAMPLE standard deviation (n-1; 0 for one run) across runs: the
// runs are a sample of the strategy's random behaviour (RNG seed, and the
// timing of fetches and parses). ci95 is the half-width of the 95 %
// confidence interval of the mean, Student t with n-1 degrees of freedom:
// t_{0.975, n-1} * sd / sqrt(n) (0 for fewer than 2 runs). With 5 runs
// t = 2.776, so the interval is about +- 1.24 sd.
struct MeanSd {
  double mean = 0;
  double sd = 0;
  int count = 0;
  double ci95 = 0;
  double ci95_low() const { return mean - ci95; }
  double ci95_high() const { return mean + ci95; }
};
MeanSd MeanAndSd(const std::vector<double>& values);
// t_{0.975, df}, df >= 1 (exact to 3 decimals for df <= 30, then the
// normal 1.960 approached as 1.96 + 2.4 / df).
double StudentT975(int df);

// The metric names aggregated per checkpoint, in report order.
const std::vector<std::string>& AggregatedMetricNames();

struct StrategyCheckpoint {
  std::string label;  // "1000", ..., or "final"
  int runs = 0;       // runs that reached this checkpoint
  std::map<std::string, MeanSd> metrics;  // by AggregatedMetricNames()
};

struct MeanCurve {
  std::vector<double> x;  // pages downloaded
  std::vector<double> mean, sd;
  std::vector<int> runs;  // runs that reached x
};

struct StrategySummary {
  std::string strategy;
  int runs_ok = 0;
  int runs_failed = 0;
  std::vector<StrategyCheckpoint> checkpoints;  // requested Ns reached, then final
  std::map<std::string, MeanSd> totals;  // wall_s, pages_per_s, pages_to_recall_50/90
  MeanCurve harvest;  // true harvest with labels, else accuracy (self-judged)
  MeanCurve recall;   // empty without labels
};

struct FriedmanSummary {
  std::string checkpoint;                 // where it was computed
  std::vector<std::string> metrics;       // blocks
  std::vector<std::string> strategies;    // treatments
  FriedmanResult result;
};

struct ExperimentSummary {
  std::vector<StrategySummary> strategies;
  std::optional<FriedmanSummary> friedman;  // needs >= 2 strategies with runs
  std::vector<std::string> notes;
  bool has_labels = false;
  int64_t relevant_total = 0;
  int64_t oracle_relevant = 0;
  int64_t max_dp = 0;
};

// `curve_points`: about how many x values the mean curves have.
ExperimentSummary SummarizeExperiment(const ExperimentResult& result,
                                      int curve_points = 400);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_EXPERIMENT_H_
