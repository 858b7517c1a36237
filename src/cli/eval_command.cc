// `topicrawl eval DIR...`: the metrics of one crawl (eval/metrics.h),
// optionally against ground-truth labels, plus Wang-Landau diagnostics when
// the crawl left wl_steps.tsv / wl_dos.tsv. Several directories (a clustered
// crawl's workers) are one crawl, read as `topicrawl merge` joins them
// (cluster/crawl_view.h).
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cluster/crawl_view.h"
#include "eval/crawl_reader.h"
#include "crawl/crawl_config.h"
#include "eval/experiment_report.h"
#include "eval/failure_breakdown.h"
#include "eval/labels.h"
#include "eval/metrics.h"
#include "eval/metrics_report.h"
#include "eval/oracle_crawl.h"
#include "eval/round_metrics.h"
#include "eval/svg_plot.h"
#include "eval/wl_diagnostics.h"

namespace topicrawl::cli {
namespace {

struct EvalFlags {
  std::vector<std::string> dirs;
  std::string dir;  // the one crawl directory read (CrawlView)
  std::string labels;
  std::string reachable;
  std::optional<double> beta;
  std::string at;
  bool json = false;
  bool csv = false;
  std::string plot;
  std::string plot_dos;
  std::string truth_dir;
  bool scope_hosts = false;
  std::string plot_recall;
  bool oracle = false;
  std::string graph_from;
};

// Loads the optional label and reachable files; reports problems on stderr.
bool LoadGroundTruth(const EvalFlags& f, std::optional<eval::LabelSet>* labels,
                     std::optional<eval::UrlSet>* reachable) {
  if (!f.labels.empty()) {
    StatusOr<eval::LabelSet> set = eval::LabelSet::Load(f.labels);
    if (!set.ok()) {
      std::cerr << "eval: " << set.status().message() << '\n';
      return false;
    }
    for (const eval::FileIssue& issue : set->issues()) {
      std::cerr << "eval: " << f.labels << ':' << issue.line << ": " << issue.message << '\n';
    }
    labels->emplace(std::move(set).value());
  }
  if (!f.reachable.empty()) {
    StatusOr<eval::UrlSet> set = eval::UrlSet::Load(f.reachable);
    if (!set.ok()) {
      std::cerr << "eval: " << set.status().message() << '\n';
      return false;
    }
    reachable->emplace(std::move(set).value());
  }
  return true;
}

// One crawl's harvest (labels) or accuracy curve, with the oracle bound;
// `recall`: the recall curve instead (needs labels).
std::string CurveChart(const eval::CrawlMetrics& m, const std::string& name, bool recall = false) {
  eval::ExperimentSummary s;
  eval::StrategySummary st;
  st.strategy = name;
  st.runs_ok = 1;
  const std::vector<double>& y = m.has_labels ? m.curves.true_harvest : m.curves.accuracy;
  for (size_t i = 0; i < y.size(); ++i) {
    st.harvest.x.push_back(static_cast<double>(i + 1));
    st.harvest.mean.push_back(y[i]);
    st.harvest.sd.push_back(0);
    st.harvest.runs.push_back(1);
  }
  for (size_t i = 0; i < m.curves.recall.size(); ++i) {
    st.recall.x.push_back(static_cast<double>(i + 1));
    st.recall.mean.push_back(m.curves.recall[i]);
    st.recall.sd.push_back(0);
    st.recall.runs.push_back(1);
  }
  s.strategies.push_back(st);
  if (recall && !m.curves.oracle_recall.empty()) {
    eval::StrategySummary o;
    o.strategy = "oracle crawl (greedy)";
    o.runs_ok = 1;
    for (size_t i = 0; i < m.curves.oracle_recall.size(); ++i) {
      o.recall.x.push_back(static_cast<double>(i + 1));
      o.recall.mean.push_back(m.curves.oracle_recall[i]);
      o.recall.sd.push_back(0);
      o.recall.runs.push_back(1);
    }
    s.strategies.push_back(o);
  }
  s.has_labels = m.has_labels;
  s.relevant_total = m.relevant_total;
  s.oracle_relevant = m.reachable_relevant_total.value_or(m.relevant_total);
  s.max_dp = m.dp;
  return recall ? eval::RenderRecallChart(s) : eval::RenderHarvestChart(s);
}

// --truth-dir: metrics per crawl round against an evolved web's truth.
int RunRoundEval(const EvalFlags& f) {
  std::optional<eval::LabelSet> labels;
  std::optional<eval::UrlSet> reachable;
  if (!LoadGroundTruth(f, &labels, &reachable)) return kExitUsage;
  StatusOr<std::vector<eval::RoundMetrics>> rounds =
      eval::ComputeRoundMetrics(f.dir, f.truth_dir, labels ? &*labels : nullptr, f.scope_hosts);
  if (!rounds.ok()) {
    std::cerr << "eval: " << rounds.status().message() << '\n';
    return kExitFailure;
  }
  std::cout << (f.json ? eval::RoundMetricsToJson(*rounds) + "\n"
                       : eval::RoundMetricsToTable(*rounds));
  if (!f.plot.empty()) {
    Status s = eval::WriteTextFile(f.plot, eval::RenderRoundChart(*rounds, "Rounds of " + f.dir));
    if (!s.ok()) {
      std::cerr << "eval: " << s.message() << '\n';
      return kExitFailure;
    }
  }
  return kExitOk;
}

int RunEval(const EvalFlags& f) {
  if (f.json && f.csv) {
    std::cerr << "eval: --json and --csv are exclusive\n";
    return kExitUsage;
  }
  if (!f.truth_dir.empty()) return RunRoundEval(f);
  eval::MetricOptions options;
  options.beta = f.beta;
  if (!f.at.empty()) {
    StatusOr<std::vector<int64_t>> at = eval::ParseCheckpointList(f.at);
    if (!at.ok()) {
      std::cerr << "eval: " << at.status().message() << '\n';
      return kExitUsage;
    }
    options.checkpoints = *at;
  }
  std::optional<eval::LabelSet> labels;
  std::optional<eval::UrlSet> reachable;
  if (!LoadGroundTruth(f, &labels, &reachable)) return kExitUsage;
  if (reachable && !labels) std::cerr << "eval: --reachable has no effect without --labels\n";
  if (f.oracle && (!labels || f.graph_from.empty())) {
    std::cerr << "eval: --oracle needs --labels and --graph-from DIR (a full crawl of the web)\n";
    return kExitUsage;
  }
  StatusOr<eval::CrawlRecord> crawl = eval::ReadCrawl(f.dir);
  if (!crawl.ok()) {
    std::cerr << "eval: " << crawl.status().message() << '\n';
    return kExitFailure;
  }
  eval::CrawlMetrics m = eval::ComputeMetrics(*crawl, options, labels ? &*labels : nullptr,
                                              reachable ? &*reachable : nullptr);
  if (f.oracle) {
    int64_t budget = 0;  // the curve reaches the last checkpoint asked for
    for (int64_t n : options.checkpoints) budget = std::max(budget, n);
    Status s = eval::AddOracleFromGraph(f.graph_from, f.dir, *labels, budget, &m);
    if (!s.ok()) {
      std::cerr << "eval: " << s.message() << '\n';
      return kExitFailure;
    }
  }
  eval::WlDiagnostics wl = eval::ReadWlDiagnostics(f.dir);
  if (f.json) {
    nlohmann::json j = eval::MetricsToJson(m);
    if (auto it = crawl->meta.find("strategy"); it != crawl->meta.end()) j["strategy"] = it->second;
    j["wl"] = wl.present() ? eval::WlDiagnosticsToJson(wl) : nlohmann::json(nullptr);
    std::cout << j.dump(2) << '\n';
  } else if (f.csv) {
    std::cout << eval::MetricsToCsv(m);
  } else {
    std::cout << eval::MetricsToTable(m) << eval::WlDiagnosticsToText(wl);
    // Failures by cause; the crawl's web = the hosts its --connect-to named.
    CrawlConfig saved;
    const bool have_config = LoadCrawlConfigToml(f.dir + "/config.toml", &saved).ok();
    auto breakdown =
        eval::ReadFailureBreakdown(f.dir, have_config ? saved.connect_to : std::vector<std::string>{});
    if (breakdown.ok() && breakdown->failed > 0) {
      std::cout << "failures by cause:\n" << eval::FailureBreakdownText(*breakdown);
    }
  }
  int code = kExitOk;
  auto write = [&code](const std::string& path, const std::string& svg) {
    Status s = eval::WriteTextFile(path, svg);
    if (!s.ok()) std::cerr << "eval: " << s.message() << '\n', code = kExitFailure;
  };
  if (!f.plot.empty()) {
    auto it = crawl->meta.find("strategy");
    write(f.plot, CurveChart(m, it == crawl->meta.end() ? "crawl" : it->second));
  }
  if (!f.plot_recall.empty()) {
    if (m.has_labels) {
      auto it = crawl->meta.find("strategy");
      write(f.plot_recall, CurveChart(m, it == crawl->meta.end() ? "crawl" : it->second, true));
    } else {
      std::cerr << "eval: --plot-recall needs --labels; skipped\n";
    }
  }
  if (!f.plot_dos.empty()) {
    if (wl.dos) {
      write(f.plot_dos, eval::RenderDosChart(*wl.dos, "Wang-Landau ln g(E), final state"));
    } else {
      std::cerr << "eval: no wl_dos.tsv in " << f.dir << "; --plot-dos skipped\n";
    }
  }
  return code;
}

}  // namespace

void AddEvalCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<EvalFlags>();
  auto* cmd = app.add_subcommand(
      "eval",
      "Metrics of one crawl (one directory, or a clustered crawl's worker directories): DP, LP, Accuracy, ARDP/SDDP, ARLP/SDLP (seed 000 "
      "eq. 8-12) at checkpoints; with --labels also true harvest, recall, average "
      "harvest/recall@N and pages to 50/90 % recall.");
  cmd->add_option("dir", flags->dirs,
                  "Crawl directory (holds crawl.db); several: the workers of a clustered crawl, "
                  "read as one crawl (one row per URL, as `topicrawl merge`)")
      ->required();
  cmd->add_option("--labels", flags->labels,
                  "Label file url<TAB>relevant<TAB>reason (corpus/labels/*.tsv)");
  cmd->add_option("--reachable", flags->reachable,
                  "URL list of the pages reachable from the homes, for recall_reachable. "
                  "Produce it from a full BFS crawl: sqlite3 DIR/crawl.db \"SELECT "
                  "coalesce(final_url,url) FROM pages WHERE status='ok'\"");
  cmd->add_option("--beta", flags->beta,
                  "Relevance threshold (default: the crawl's meta beta, else 0.62)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--at", flags->at, "Checkpoints, e.g. 1000,5000,10000,15000");
  cmd->add_flag("--json", flags->json, "Print one JSON object");
  cmd->add_flag("--csv", flags->csv, "Print CSV, one row per checkpoint");
  cmd->add_option("--plot", flags->plot, "Write the harvest curve as SVG");
  cmd->add_option("--truth-dir", flags->truth_dir,
                  "Evolved web (web evolve): metrics per crawl round against its truth; "
                  "--json prints {rounds: [...]}, --plot an SVG per round");
  cmd->add_option("--plot-recall", flags->plot_recall,
                  "Write the recall curve as SVG (needs --labels)");
  cmd->add_flag("--oracle", flags->oracle,
                "With --labels and --graph-from: add the oracle crawl (a greedy that knows the "
                "labels and the link graph: a queued relevant page first, else the queued page "
                "nearest to an unfetched relevant one; eval/oracle_crawl.h) from the crawl's own "
                "seeds (its depth-0 rows): oracle_recall and share_of_oracle = recall / "
                "oracle_recall per checkpoint, and its curve in --plot-recall");
  cmd->add_option("--graph-from", flags->graph_from,
                  "Crawl directory whose ok pages and stored links are the web's link graph for "
                  "--oracle: a BFS crawl from the homes with no page budget over the same served "
                  "web (pages it did not reach are not in the graph)");
  cmd->add_flag("--scope-hosts", flags->scope_hosts,
                "With --truth-dir: count only truth URLs on hosts the crawl stored pages of");
  cmd->add_option("--plot-dos", flags->plot_dos, "Write WL ln g(E) as SVG (needs wl_dos.tsv)");
  cmd->callback([flags, exit_code] {
    auto view = CrawlView::Open(flags->dirs);
    if (!view.ok()) {
      std::cerr << "eval: " << view.status().message() << '\n';
      *exit_code = kExitFailure;
      return;
    }
    flags->dir = (*view)->dir();
    *exit_code = RunEval(*flags);
  });
}

}  // namespace topicrawl::cli
