#include "eval/experiment_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "eval/svg_plot.h"

namespace topicrawl::eval {
namespace {

struct Column {
  const char* metric;
  const char* title;
  int decimals;
  bool needs_labels;
};

constexpr Column kColumns[] = {
    {"dp", "DP", 0, false},           {"lp", "LP", 1, false},
    {"accuracy", "Accuracy", 4, false}, {"ardp", "ARDP", 4, false},
    {"sddp", "SDDP", 4, false},       {"arlp", "ARLP", 4, false},
    {"sdlp", "SDLP", 4, false},       {"true_harvest", "true harvest", 4, true},
    {"recall", "recall", 4, true},    {"recall_reachable", "recall (reachable)", 4, true},
    {"avg_harvest_rate", "avg harvest@N", 4, true},
    {"avg_target_recall", "avg recall@N", 4, true},
    {"elapsed_s", "elapsed s", 1, false}};

std::string Fmt(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string MeanSdText(const std::map<std::string, MeanSd>& m, const std::string& key,
                       int decimals) {
  auto it = m.find(key);
  if (it == m.end() || it->second.count == 0) return "–";
  return Fmt(it->second.mean, decimals) + " ± " + Fmt(it->second.sd, decimals);
}

// "mean ± sd [low, high]": with the 95 % interval of the mean when there
// are at least 2 runs.
std::string MeanSdCiText(const std::map<std::string, MeanSd>& m, const std::string& key,
                         int decimals) {
  auto it = m.find(key);
  if (it == m.end() || it->second.count < 2) return MeanSdText(m, key, decimals);
  return MeanSdText(m, key, decimals) + " [" + Fmt(it->second.ci95_low(), decimals) + ", " +
         Fmt(it->second.ci95_high(), decimals) + "]";
}

// The metrics whose 95 % interval is printed in the checkpoint tables (the
// others would make them unreadable; table.csv/json have all intervals).
bool ShowsInterval(const std::string& metric) {
  return metric == "accuracy" || metric == "recall" || metric == "true_harvest";
}

// Checkpoint labels in order of first appearance across strategies.
std::vector<std::string> CheckpointLabels(const ExperimentSummary& s) {
  std::vector<std::string> labels;
  for (const StrategySummary& st : s.strategies) {
    for (const StrategyCheckpoint& c : st.checkpoints) {
      if (std::find(labels.begin(), labels.end(), c.label) == labels.end()) {
        labels.push_back(c.label);
      }
    }
  }
  std::stable_sort(labels.begin(), labels.end(), [](const std::string& a, const std::string& b) {
    if (a == "final" || b == "final") return b == "final" && a != "final";
    return std::stoll(a) < std::stoll(b);
  });
  return labels;
}

void MarkdownCheckpoints(const ExperimentSummary& s, std::ostringstream& out) {
  for (const std::string& label : CheckpointLabels(s)) {
    out << "## " << (label == "final" ? "Final (each run's last download)" : "DP = " + label)
        << "\n\n| strategy | runs |";
    for (const Column& c : kColumns) {
      if (!c.needs_labels || s.has_labels) out << ' ' << c.title << " |";
    }
    out << "\n|---|---:|";
    for (const Column& c : kColumns) {
      if (!c.needs_labels || s.has_labels) out << "---:|";
    }
    out << '\n';
    for (const StrategySummary& st : s.strategies) {
      auto it = std::find_if(st.checkpoints.begin(), st.checkpoints.end(),
                             [&](const StrategyCheckpoint& c) { return c.label == label; });
      if (it == st.checkpoints.end()) continue;
      out << "| " << st.strategy << " | " << it->runs << " |";
      for (const Column& c : kColumns) {
        if (!c.needs_labels || s.has_labels) {
          out << ' '
              << (ShowsInterval(c.metric) ? MeanSdCiText(it->metrics, c.metric, c.decimals)
                                          : MeanSdText(it->metrics, c.metric, c.decimals))
              << " |";
        }
      }
      out << '\n';
    }
    out << '\n';
  }
}

void MarkdownFriedman(const ExperimentSummary& s, std::ostringstream& out) {
  if (!s.friedman) return;
  const FriedmanSummary& f = *s.friedman;
  out << "## Friedman ranks at "
      << (f.checkpoint == "final" ? "the final download" : "DP = " + f.checkpoint)
      << " (1 = best; SDDP lower is better)\n\n| strategy |";
  for (const std::string& m : f.metrics) out << ' ' << m << " |";
  out << " Average |\n|---|";
  for (size_t i = 0; i <= f.metrics.size(); ++i) out << "---:|";
  out << '\n';
  for (size_t t = 0; t < f.strategies.size(); ++t) {
    out << "| " << f.strategies[t] << " |";
    for (size_t b = 0; b < f.metrics.size(); ++b) {
      out << ' ' << Fmt(f.result.ranks[b][t], f.result.ranks[b][t] == static_cast<int>(f.result.ranks[b][t]) ? 0 : 1) << " |";
    }
    out << ' ' << Fmt(f.result.mean_ranks[t], 2) << " |\n";
  }
  out << "\nFriedman chi² = " << Fmt(f.result.chi_square, 3) << ", df = " << f.result.df
      << ", p = " << Fmt(f.result.p_value, 4) << " (n = " << f.result.blocks
      << " metrics, k = " << f.result.treatments << " strategies; tie-corrected)\n\n";
}

void MarkdownTotals(const ExperimentSummary& s, std::ostringstream& out) {
  out << "## Totals per run (mean ± sd)\n\n| strategy | ok runs | failed | final DP | wall s | "
         "pages/s |";
  if (s.has_labels) out << " pages to 50 % recall | pages to 90 % recall |";
  out << "\n|---|---:|---:|---:|---:|---:|" << (s.has_labels ? "---:|---:|" : "") << '\n';
  for (const StrategySummary& st : s.strategies) {
    out << "| " << st.strategy << " | " << st.runs_ok << " | " << st.runs_failed << " | "
        << MeanSdText(st.totals, "dp", 0) << " | " << MeanSdText(st.totals, "wall_s", 1)
        << " | " << MeanSdText(st.totals, "pages_per_s", 1) << " |";
    if (s.has_labels) {
      for (const char* key : {"pages_to_recall_50", "pages_to_recall_90"}) {
        auto it = st.totals.find(key);
        std::string text = MeanSdText(st.totals, key, 0);
        if (it != st.totals.end() && it->second.count < st.runs_ok) {
          text += " (" + std::to_string(it->second.count) + "/" + std::to_string(st.runs_ok) +
                  " runs)";
        }
        out << ' ' << (it == st.totals.end() ? "never" : text) << " |";
      }
    }
    out << '\n';
  }
  out << '\n';
}

nlohmann::json MeanSdJson(const std::map<std::string, MeanSd>& m) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : m) {
    j[k] = {{"mean", v.mean}, {"sd", v.sd}, {"runs", v.count},
            {"ci95_low", v.ci95_low()}, {"ci95_high", v.ci95_high()}};
  }
  return j;
}

nlohmann::json CurveJson(const MeanCurve& c) {
  return {{"x", c.x}, {"mean", c.mean}, {"sd", c.sd}, {"runs", c.runs}};
}

std::vector<PlotSeries> CurveSeries(const ExperimentSummary& s, const MeanCurve StrategySummary::*curve) {
  std::vector<PlotSeries> series;
  for (const StrategySummary& st : s.strategies) {
    const MeanCurve& c = st.*curve;
    PlotSeries p;
    p.name = st.strategy + " (" + std::to_string(st.runs_ok) + " runs)";
    p.x = c.x;
    p.y = c.mean;
    for (size_t i = 0; i < c.x.size(); ++i) {
      p.band_low.push_back(std::max(0.0, c.mean[i] - c.sd[i]));
      p.band_high.push_back(std::min(1.0, c.mean[i] + c.sd[i]));
    }
    series.push_back(std::move(p));
  }
  return series;
}

// The oracle bound on the x grid, with the kink at oracle_relevant exact.
PlotSeries OracleSeries(const ExperimentSummary& s, bool recall) {
  PlotSeries p;
  p.name = "oracle bound";
  p.dashed = true;
  p.color = "#222222";
  std::set<int64_t> xs;
  int64_t max_x = std::max<int64_t>(s.max_dp, 1);
  for (int i = 1; i <= 400; ++i) xs.insert(std::max<int64_t>(1, max_x * i / 400));
  if (s.oracle_relevant <= max_x) xs.insert(std::max<int64_t>(1, s.oracle_relevant));
  for (int64_t x : xs) {
    p.x.push_back(static_cast<double>(x));
    p.y.push_back(recall ? OracleRecall(x, s.oracle_relevant, s.relevant_total)
                         : OracleHarvest(x, s.oracle_relevant));
  }
  return p;
}

}  // namespace

double OracleHarvest(int64_t n, int64_t oracle_relevant) {
  if (n <= 0) return 0;
  return static_cast<double>(std::min(n, oracle_relevant)) / static_cast<double>(n);
}

double OracleRecall(int64_t n, int64_t oracle_relevant, int64_t relevant_total) {
  if (relevant_total <= 0 || n <= 0) return 0;
  return static_cast<double>(std::min(n, oracle_relevant)) / static_cast<double>(relevant_total);
}

std::string ExperimentToMarkdown(const ExperimentSummary& s) {
  std::ostringstream out;
  out << "# Strategy comparison\n\nMetrics: seed 000 eq. 8–12 (self-judged, R(P) ≥ β); "
         "true harvest / recall from the corpus labels";
  if (s.has_labels) {
    out << " (" << s.relevant_total << " relevant pages, " << s.oracle_relevant
        << " reachable by the oracle)";
  }
  out << ". Values are mean ± sample sd over runs; [low, high] is the 95 % confidence "
         "interval of the mean (Student t, runs - 1 df) for accuracy, true harvest and "
         "recall (table.csv / table.json have it for every metric).\n\n";
  MarkdownCheckpoints(s, out);
  MarkdownFriedman(s, out);
  MarkdownTotals(s, out);
  for (const std::string& note : s.notes) out << "- note: " << note << '\n';
  return out.str();
}

std::string ExperimentToCsv(const ExperimentSummary& s) {
  std::ostringstream out;
  out << "strategy,checkpoint,metric,mean,sd,runs,ci95_low,ci95_high\n";
  auto row = [&](const std::string& strategy, const std::string& label,
                 const std::string& metric, const MeanSd& v) {
    out << strategy << ',' << label << ',' << metric << ',' << Fmt(v.mean, 6) << ','
        << Fmt(v.sd, 6) << ',' << v.count << ',' << Fmt(v.ci95_low(), 6) << ','
        << Fmt(v.ci95_high(), 6) << '\n';
  };
  for (const StrategySummary& st : s.strategies) {
    for (const StrategyCheckpoint& c : st.checkpoints) {
      for (const auto& [metric, v] : c.metrics) row(st.strategy, c.label, metric, v);
    }
    for (const auto& [metric, v] : st.totals) row(st.strategy, "run", metric, v);
  }
  return out.str();
}

nlohmann::json ExperimentToJson(const ExperimentSummary& s) {
  nlohmann::json strategies = nlohmann::json::array();
  for (const StrategySummary& st : s.strategies) {
    nlohmann::json checkpoints = nlohmann::json::array();
    for (const StrategyCheckpoint& c : st.checkpoints) {
      checkpoints.push_back({{"checkpoint", c.label}, {"runs", c.runs},
                             {"metrics", MeanSdJson(c.metrics)}});
    }
    strategies.push_back({{"strategy", st.strategy},
                          {"runs_ok", st.runs_ok},
                          {"runs_failed", st.runs_failed},
                          {"checkpoints", checkpoints},
                          {"totals", MeanSdJson(st.totals)},
                          {"harvest_curve", CurveJson(st.harvest)},
                          {"recall_curve", CurveJson(st.recall)}});
  }
  nlohmann::json j = {{"strategies", strategies},
                      {"has_labels", s.has_labels},
                      {"relevant_total", s.relevant_total},
                      {"oracle_relevant", s.oracle_relevant},
                      {"max_dp", s.max_dp},
                      {"notes", s.notes},
                      {"friedman", nullptr}};
  if (s.friedman) {
    const FriedmanSummary& f = *s.friedman;
    j["friedman"] = {{"checkpoint", f.checkpoint},
                     {"metrics", f.metrics},
                     {"strategies", f.strategies},
                     {"ranks", f.result.ranks},
                     {"mean_ranks", f.result.mean_ranks},
                     {"chi_square", f.result.chi_square},
                     {"df", f.result.df},
                     {"p_value", f.result.p_value}};
  }
  return j;
}

std::string RenderHarvestChart(const ExperimentSummary& s) {
  std::vector<PlotSeries> series = CurveSeries(s, &StrategySummary::harvest);
  if (s.has_labels) series.push_back(OracleSeries(s, false));
  ChartOptions o;
  o.title = s.has_labels ? "True harvest rate vs pages downloaded"
                         : "Accuracy (self-judged harvest) vs pages downloaded";
  o.x_label = "pages downloaded";
  o.y_label = s.has_labels ? "harvest (labelled relevant / downloaded)" : "accuracy LP/DP";
  o.x_min = 0;
  o.y_min = 0;
  o.y_max = 1;
  return RenderLineChart(o, series);
}

std::string RenderRecallChart(const ExperimentSummary& s) {
  std::vector<PlotSeries> series = CurveSeries(s, &StrategySummary::recall);
  series.push_back(OracleSeries(s, true));
  ChartOptions o;
  o.title = "Recall vs pages downloaded";
  o.x_label = "pages downloaded";
  o.y_label = "recall (relevant found / all relevant)";
  o.x_min = 0;
  o.y_min = 0;
  o.y_max = 1;
  return RenderLineChart(o, series);
}

Status WriteExperimentReport(const ExperimentSummary& s, const std::string& out_dir) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  auto path = [&](const char* name) { return (std::filesystem::path(out_dir) / name).string(); };
  Status st = WriteTextFile(path("table.md"), ExperimentToMarkdown(s));
  if (st.ok()) st = WriteTextFile(path("table.csv"), ExperimentToCsv(s));
  if (st.ok()) st = WriteTextFile(path("table.json"), ExperimentToJson(s).dump(2) + "\n");
  if (st.ok()) st = WriteTextFile(path("harvest.svg"), RenderHarvestChart(s));
  if (st.ok() && s.has_labels) st = WriteTextFile(path("recall.svg"), RenderRecallChart(s));
  return st;
}

}  // namespace topicrawl::eval
