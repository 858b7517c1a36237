// `topicrawl compare`: runs each strategy K times (RNG seeds 1..K) by
// spawning this binary's `crawl` subcommand, evaluates every run and writes
// table.md/.csv/.json and harvest/recall SVG plots (eval/experiment.h).
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "eval/experiment.h"
#include "eval/experiment_report.h"
#include "eval/labels.h"
#include "eval/metrics.h"
#include "eval/process_runner.h"

namespace topicrawl::cli {
namespace {

struct CompareFlags {
  std::string strategies;
  std::string seeds;
  std::string topic;
  std::string labels;
  std::string reachable;
  int64_t max_pages = 15000;
  int runs = 3;
  int first_seed = 1;
  std::vector<std::string> connect_to;
  std::string cacert;
  std::optional<double> beta;
  std::string at;
  std::string extra_crawl_args;
  std::string out;
  bool rerun = false;
};

std::string SelfExe() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "/proc/self/exe" : p.string();
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

// The crawl command line of one run (contract with the crawl subcommand).
std::vector<std::string> CrawlArgv(const CompareFlags& f, const std::vector<std::string>& extra,
                                   const eval::RunRequest& r) {
  std::vector<std::string> argv = {SelfExe(),     "crawl",     "--seeds",      f.seeds,
                                   "--topic",     f.topic,     "--strategy",   r.strategy,
                                   "--max-pages", std::to_string(f.max_pages),
                                   "--rng-seed",  std::to_string(r.rng_seed),
                                   "--out",       r.out_dir,   "--delay",      "0"};
  for (const std::string& c : f.connect_to) argv.insert(argv.end(), {"--connect-to", c});
  if (!f.cacert.empty()) argv.insert(argv.end(), {"--cacert", f.cacert});
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

int RunCompare(const CompareFlags& f) {
  StatusOr<std::vector<std::string>> extra = eval::SplitShellWords(f.extra_crawl_args);
  if (!extra.ok()) {
    std::cerr << "compare: --extra-crawl-args: " << extra.status().message() << '\n';
    return kExitUsage;
  }
  eval::ExperimentSpec spec;
  spec.strategies = SplitList(f.strategies);
  spec.runs = f.runs;
  spec.first_seed = f.first_seed;
  spec.out_dir = f.out;
  spec.reuse_finished_runs = !f.rerun;
  spec.metric_options.beta = f.beta;
  if (!f.at.empty()) {
    StatusOr<std::vector<int64_t>> at = eval::ParseCheckpointList(f.at);
    if (!at.ok()) {
      std::cerr << "compare: " << at.status().message() << '\n';
      return kExitUsage;
    }
    spec.metric_options.checkpoints = *at;
  }
  std::optional<eval::LabelSet> labels;
  if (!f.labels.empty()) {
    StatusOr<eval::LabelSet> set = eval::LabelSet::Load(f.labels);
    if (!set.ok()) return std::cerr << "compare: " << set.status().message() << '\n', kExitUsage;
    labels.emplace(std::move(set).value());
  }
  std::optional<eval::UrlSet> reachable;
  if (!f.reachable.empty()) {
    StatusOr<eval::UrlSet> set = eval::UrlSet::Load(f.reachable);
    if (!set.ok()) return std::cerr << "compare: " << set.status().message() << '\n', kExitUsage;
    reachable.emplace(std::move(set).value());
  }
  for (const std::string* path : {&f.seeds, &f.topic}) {
    if (!std::filesystem::is_regular_file(*path)) {
      std::cerr << "compare: no such file " << *path << '\n';
      return kExitUsage;
    }
  }
  auto run_crawl = [&](const eval::RunRequest& r) {
    // The log sits next to the run directory, which the crawl owns.
    return eval::RunProcess(CrawlArgv(f, *extra, r), r.out_dir + ".log");
  };
  StatusOr<eval::ExperimentResult> result =
      eval::RunExperiment(spec, run_crawl, labels ? &*labels : nullptr,
                          reachable ? &*reachable : nullptr, &std::cerr);
  if (!result.ok()) {
    std::cerr << "compare: " << result.status().message() << '\n';
    return kExitUsage;
  }
  eval::ExperimentSummary summary = eval::SummarizeExperiment(*result);
  Status written = eval::WriteExperimentReport(summary, f.out);
  if (!written.ok()) {
    std::cerr << "compare: " << written.message() << '\n';
    return kExitFailure;
  }
  std::cout << eval::ExperimentToMarkdown(summary);
  std::cerr << "compare: wrote " << f.out << "/table.md, table.csv, table.json, harvest.svg"
            << (labels ? ", recall.svg" : "") << '\n';
  for (const eval::RunOutcome& run : result->runs) {
    if (!run.status.ok()) return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void AddCompareCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<CompareFlags>();
  auto* cmd = app.add_subcommand(
      "compare",
      "Run each strategy --runs times (RNG seeds 1..K) with `topicrawl crawl`, evaluate "
      "every run and write table.md/.csv/.json, harvest.svg and recall.svg into --out. "
      "Finished runs under OUT/runs/ are reused unless --rerun.");
  cmd->add_option("--strategies", f->strategies, "Comma-separated strategy names")->required();
  cmd->add_option("--seeds", f->seeds, "Seed URL file (passed to crawl)")->required();
  cmd->add_option("--topic", f->topic, "Topic file (passed to crawl)")->required();
  cmd->add_option("--labels", f->labels, "Label file for true harvest / recall");
  cmd->add_option("--reachable", f->reachable, "Reachable URL list (see `eval --help`)");
  cmd->add_option("--max-pages", f->max_pages, "Page budget per run")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--runs", f->runs, "Runs per strategy")->check(CLI::PositiveNumber);
  cmd->add_option("--first-seed", f->first_seed, "RNG seed of the first run");
  cmd->add_option("--connect-to", f->connect_to, "curl --connect-to HOST:PORT:HOST:PORT (repeatable)");
  cmd->add_option("--cacert", f->cacert, "CA certificate file (passed to crawl)");
  cmd->add_option("--beta", f->beta, "Relevance threshold for LP")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--at", f->at, "Checkpoints, e.g. 1000,5000,10000,15000");
  cmd->add_option("--extra-crawl-args", f->extra_crawl_args, "More crawl flags, shell-quoted");
  cmd->add_option("--out", f->out, "Output directory")->required();
  cmd->add_flag("--rerun", f->rerun, "Run again even when a finished run exists");
  cmd->callback([f, exit_code] { *exit_code = RunCompare(*f); });
}

}  // namespace topicrawl::cli
