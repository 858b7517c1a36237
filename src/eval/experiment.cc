#include "eval/experiment.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "eval/crawl_reader.h"

namespace topicrawl::eval {
namespace {

namespace fs = std::filesystem;

bool IsFinishedCrawl(const std::string& dir) {
  StatusOr<CrawlRecord> crawl = ReadCrawl(dir);
  return crawl.ok() && crawl->MetaInt("finished_at").has_value();
}

void Say(std::ostream* progress, const std::string& line) {
  if (progress) *progress << line << std::endl;
}

// A run directory left by an interrupted (or --rerun) run is renamed to
// <dir>.old so the crawl starts fresh: a resumed run would mix two wall
// times and two RNG streams into one measurement.
void MoveAsideUnfinished(const std::string& dir, std::ostream* progress) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  fs::path old = dir + ".old";
  fs::remove_all(old, ec);
  fs::rename(dir, old, ec);
  Say(progress, ec ? "cannot move " + dir + " aside: " + ec.message()
                   : "moved earlier run " + dir + " to " + old.string());
}

std::optional<double> MetricByName(const CheckpointMetrics& c, const std::string& name) {
  if (name == "dp") return static_cast<double>(c.dp);
  if (name == "lp") return static_cast<double>(c.lp);
  if (name == "accuracy") return c.accuracy;
  if (name == "ardp") return c.ardp;
  if (name == "sddp") return c.sddp;
  if (name == "arlp") return c.arlp;
  if (name == "sdlp") return c.sdlp;
  if (name == "true_harvest") return c.true_harvest;
  if (name == "recall") return c.recall;
  if (name == "recall_reachable") return c.recall_reachable;
  if (name == "avg_harvest_rate") return c.avg_harvest_rate;
  if (name == "avg_target_recall") return c.avg_target_recall;
  if (name == "elapsed_s") return c.elapsed_s;
  return std::nullopt;
}

// The run's checkpoint for `label` ("final" = its last one), or null.
const CheckpointMetrics* FindCheckpoint(const CrawlMetrics& m, const std::string& label) {
  if (m.checkpoints.empty()) return nullptr;
  if (label == "final") return &m.checkpoints.back();
  int64_t n = std::stoll(label);
  for (const CheckpointMetrics& c : m.checkpoints) {
    if (c.n == n) return &c;
  }
  return nullptr;
}

std::vector<const CrawlMetrics*> OkRuns(const ExperimentResult& r, const std::string& strategy) {
  std::vector<const CrawlMetrics*> out;
  for (const RunOutcome& run : r.runs) {
    if (run.request.strategy == strategy && run.metrics) out.push_back(&*run.metrics);
  }
  return out;
}

StrategyCheckpoint AggregateCheckpoint(const std::vector<const CrawlMetrics*>& runs,
                                       const std::string& label) {
  StrategyCheckpoint sc;
  sc.label = label;
  std::map<std::string, std::vector<double>> values;
  for (const CrawlMetrics* m : runs) {
    const CheckpointMetrics* c = FindCheckpoint(*m, label);
    if (!c) continue;
    ++sc.runs;
    for (const std::string& name : AggregatedMetricNames()) {
      if (std::optional<double> v = MetricByName(*c, name)) values[name].push_back(*v);
    }
  }
  for (const auto& [name, v] : values) sc.metrics[name] = MeanAndSd(v);
  return sc;
}

MeanCurve AggregateCurve(const std::vector<const CrawlMetrics*>& runs,
                         const std::vector<double> MetricCurves::*curve,
                         const std::vector<int64_t>& grid) {
  MeanCurve out;
  for (int64_t x : grid) {
    std::vector<double> v;
    for (const CrawlMetrics* m : runs) {
      const std::vector<double>& c = m->curves.*curve;
      if (static_cast<int64_t>(c.size()) >= x) v.push_back(c[x - 1]);
    }
    if (v.empty()) continue;
    MeanSd ms = MeanAndSd(v);
    out.x.push_back(static_cast<double>(x));
    out.mean.push_back(ms.mean);
    out.sd.push_back(ms.sd);
    out.runs.push_back(ms.count);
  }
  return out;
}

std::map<std::string, MeanSd> AggregateTotals(const std::vector<const CrawlMetrics*>& runs) {
  std::map<std::string, std::vector<double>> values;
  for (const CrawlMetrics* m : runs) {
    if (m->wall_s) values["wall_s"].push_back(*m->wall_s);
    if (m->pages_per_s) values["pages_per_s"].push_back(*m->pages_per_s);
    if (m->pages_to_recall_50) values["pages_to_recall_50"].push_back(*m->pages_to_recall_50);
    if (m->pages_to_recall_90) values["pages_to_recall_90"].push_back(*m->pages_to_recall_90);
    values["dp"].push_back(static_cast<double>(m->dp));
  }
  std::map<std::string, MeanSd> out;
  for (const auto& [name, v] : values) out[name] = MeanAndSd(v);
  return out;
}

std::vector<int64_t> CurveGrid(int64_t max_dp, int points) {
  std::vector<int64_t> grid;
  if (max_dp <= 0) return grid;
  int64_t step = std::max<int64_t>(1, (max_dp + points - 1) / std::max(points, 1));
  for (int64_t x = step; x < max_dp; x += step) grid.push_back(x);
  grid.push_back(max_dp);
  return grid;
}

// The largest requested checkpoint every summarised strategy's runs all
// reached, else "final".
std::string FriedmanCheckpoint(const ExperimentSummary& s) {
  std::string best = "final";
  int64_t best_n = 0;
  for (const StrategyCheckpoint& c : s.strategies.front().checkpoints) {
    if (c.label == "final") continue;
    bool everywhere = std::all_of(s.strategies.begin(), s.strategies.end(),
                                  [&](const StrategySummary& st) {
      return std::any_of(st.checkpoints.begin(), st.checkpoints.end(),
                         [&](const StrategyCheckpoint& x) {
        return x.label == c.label && x.runs == st.runs_ok;
      });
    });
    int64_t n = std::stoll(c.label);
    if (everywhere && n > best_n) best = c.label, best_n = n;
  }
  return best;
}

void AddFriedman(ExperimentSummary* s) {
  std::vector<const StrategySummary*> ranked;
  for (const StrategySummary& st : s->strategies) {
    if (st.runs_ok > 0) ranked.push_back(&st);
  }
  if (ranked.size() < 2) {
    s->notes.push_back("Friedman ranks need at least two strategies with a successful run");
    return;
  }
  ExperimentSummary only;
  for (const StrategySummary* st : ranked) only.strategies.push_back(*st);
  FriedmanSummary f;
  f.checkpoint = FriedmanCheckpoint(only);
  if (f.checkpoint == "final") {
    // No checkpoint was reached by every run: the ranks then compare each
    // strategy's last page, and budgets may differ (e.g. a strategy whose
    // queue emptied early). Say so next to the table.
    std::string dps;
    for (const StrategySummary* st : ranked) {
      for (const StrategyCheckpoint& c : st->checkpoints) {
        auto it = c.metrics.find("dp");
        if (c.label == "final" && it != c.metrics.end()) {
          dps += (dps.empty() ? "" : ", ") + st->strategy + " " +
                 std::to_string(static_cast<int64_t>(it->second.mean));
        }
      }
    }
    s->notes.push_back(
        "Friedman ranks use each run's final page: no checkpoint was reached by every "
        "run, so budgets differ (mean DP: " + dps + ")");
  }
  // Seed 000 tables 2/4/6 rank Accuracy, LP, ARDP, SDDP (SDDP: lower is better).
  std::vector<std::pair<std::string, Direction>> blocks = {
      {"accuracy", Direction::kHigherIsBetter}, {"lp", Direction::kHigherIsBetter},
      {"ardp", Direction::kHigherIsBetter}, {"sddp", Direction::kLowerIsBetter}};
  if (s->has_labels) {
    blocks.push_back({"true_harvest", Direction::kHigherIsBetter});
    blocks.push_back({"recall", Direction::kHigherIsBetter});
  }
  std::vector<std::vector<double>> scores;
  std::vector<Direction> directions;
  for (const auto& [metric, direction] : blocks) {
    std::vector<double> row;
    for (const StrategySummary* st : ranked) {
      double v = std::nan("");
      for (const StrategyCheckpoint& c : st->checkpoints) {
        auto it = c.metrics.find(metric);
        if (c.label == f.checkpoint && it != c.metrics.end()) v = it->second.mean;
      }
      row.push_back(v);
    }
    scores.push_back(row);
    directions.push_back(direction);
    f.metrics.push_back(metric);
  }
  for (const StrategySummary* st : ranked) f.strategies.push_back(st->strategy);
  StatusOr<FriedmanResult> result = FriedmanTest(scores, directions);
  if (!result.ok()) {
    s->notes.push_back(result.status().message());
    return;
  }
  f.result = std::move(result).value();
  s->friedman = std::move(f);
}

}  // namespace

MeanSd MeanAndSd(const std::vector<double>& values) {
  MeanSd out;
  out.count = static_cast<int>(values.size());
  if (values.empty()) return out;
  double sum = 0;
  for (double v : values) sum += v;
  out.mean = sum / values.size();
  if (values.size() > 1) {
    double sq = 0;
    for (double v : values) sq += (v - out.mean) * (v - out.mean);
    out.sd = std::sqrt(sq / (values.size() - 1));
    out.ci95 = StudentT975(out.count - 1) * out.sd / std::sqrt(static_cast<double>(out.count));
  }
  return out;
}

double StudentT975(int df) {
  static constexpr double kT[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                  2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                  2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                  2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) return 0;
  if (df <= 30) return kT[df - 1];
  return 1.96 + 2.4 / df;
}

const std::vector<std::string>& AggregatedMetricNames() {
  static const std::vector<std::string> kNames = {
      "dp",     "lp",           "accuracy", "ardp",
      "sddp",   "arlp",         "sdlp",     "true_harvest",
      "recall", "recall_reachable", "avg_harvest_rate", "avg_target_recall",
      "elapsed_s"};
  return kNames;
}

StatusOr<ExperimentResult> RunExperiment(const ExperimentSpec& spec,
                                         const RunCrawlFn& run_crawl,
                                         const LabelSet* labels, const UrlSet* reachable,
                                         std::ostream* progress) {
  if (spec.strategies.empty()) return Status::Error("compare: no strategies given");
  if (spec.runs < 1) return Status::Error("compare: --runs must be >= 1");
  if (spec.out_dir.empty()) return Status::Error("compare: --out is required");
  std::error_code ec;
  fs::path runs_dir = fs::path(spec.out_dir) / "runs";
  fs::create_directories(runs_dir, ec);
  if (ec) return Status::Error("cannot create " + runs_dir.string() + ": " + ec.message());

  ExperimentResult result;
  result.spec = spec;
  result.has_labels = labels != nullptr;
  if (labels) {
    result.relevant_total = static_cast<int64_t>(labels->relevant_count());
    result.oracle_relevant = result.relevant_total;
    if (reachable) {
      result.oracle_relevant = 0;
      for (const std::string& url : labels->relevant()) {
        if (reachable->ContainsCanonical(url)) ++result.oracle_relevant;
      }
    }
  }
  for (const std::string& strategy : spec.strategies) {
    for (int i = 0; i < spec.runs; ++i) {
      RunOutcome run;
      run.request.strategy = strategy;
      run.request.rng_seed = spec.first_seed + i;
      run.request.out_dir =
          (runs_dir / (strategy + "-" + std::to_string(run.request.rng_seed))).string();
      std::string name = strategy + " seed " + std::to_string(run.request.rng_seed);
      if (spec.reuse_finished_runs && IsFinishedCrawl(run.request.out_dir)) {
        run.reused = true;
        Say(progress, "reusing finished run " + name + " (" + run.request.out_dir + ")");
      } else {
        MoveAsideUnfinished(run.request.out_dir, progress);
        Say(progress, "running " + name + " -> " + run.request.out_dir);
        run.status = run_crawl(run.request);
      }
      if (run.status.ok()) {
        StatusOr<CrawlRecord> crawl = ReadCrawl(run.request.out_dir);
        if (crawl.ok()) {
          run.metrics = ComputeMetrics(*crawl, spec.metric_options, labels, reachable);
        } else {
          run.status = crawl.status();
        }
      }
      if (!run.status.ok()) Say(progress, "run " + name + " failed: " + run.status.message());
      result.runs.push_back(std::move(run));
    }
  }
  return result;
}

ExperimentSummary SummarizeExperiment(const ExperimentResult& result, int curve_points) {
  ExperimentSummary s;
  s.has_labels = result.has_labels;
  s.relevant_total = result.relevant_total;
  s.oracle_relevant = result.oracle_relevant;
  for (const RunOutcome& run : result.runs) {
    if (run.metrics) s.max_dp = std::max(s.max_dp, run.metrics->dp);
  }
  std::vector<int64_t> grid = CurveGrid(s.max_dp, curve_points);
  std::vector<int64_t> wanted = result.spec.metric_options.checkpoints;
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  for (const std::string& strategy : result.spec.strategies) {
    StrategySummary st;
    st.strategy = strategy;
    for (const RunOutcome& run : result.runs) {
      if (run.request.strategy != strategy) continue;
      run.metrics ? ++st.runs_ok : ++st.runs_failed;
    }
    std::vector<const CrawlMetrics*> runs = OkRuns(result, strategy);
    for (int64_t n : wanted) {
      StrategyCheckpoint c = AggregateCheckpoint(runs, std::to_string(n));
      if (c.runs > 0) st.checkpoints.push_back(std::move(c));
    }
    if (!runs.empty()) st.checkpoints.push_back(AggregateCheckpoint(runs, "final"));
    st.totals = AggregateTotals(runs);
    st.harvest = AggregateCurve(
        runs, result.has_labels ? &MetricCurves::true_harvest : &MetricCurves::accuracy, grid);
    if (result.has_labels) st.recall = AggregateCurve(runs, &MetricCurves::recall, grid);
    if (st.runs_failed > 0) {
      s.notes.push_back(strategy + ": " + std::to_string(st.runs_failed) + " failed run(s)");
    }
    s.strategies.push_back(std::move(st));
  }
  AddFriedman(&s);
  return s;
}

}  // namespace topicrawl::eval
