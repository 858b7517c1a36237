// topicrawl recrawl DIR: run the next round of an existing crawl (issue 11).
// A RoundPolicy plans which known URLs to revisit (conditional GETs) and
// which URLs seed the round; newly found links are crawled as in round 0.
// --resume continues a round interrupted by a signal or kill -9.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/crawl_runner.h"
#include "cli/serve_flags.h"
#include "cluster/crawl_view.h"
#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "crawl/rounds/round_runner.h"
#include "strategies/round_registry.h"

namespace topicrawl::cli {
namespace {

struct RecrawlFlags {
  CrawlConfig config;
  std::string dir;
  std::string policy = "full";
  std::string budget;  // "N" or "P%"
  std::string model;
  bool resume = false;
  bool probe_sitemap_xml = false;
  std::string cluster;  // refused (docs/guides/scale-out.md "Rounds")
};

// Rounds are not run in cluster mode (docs/guides/scale-out.md "Rounds"): a round
// plans its revisits from the whole crawl's pages and fetch history, which
// are spread over the workers' directories, and it would need the cluster's
// seen-set to admit URLs already crawled again.
constexpr const char* kClusterRoundsHelp =
    "rounds (recrawl) do not run in cluster mode: a round plans its revisits from the whole "
    "crawl's pages and history, spread over the workers' directories. Merge the workers' "
    "directories (`topicrawl merge OUT DIR...`) and run `topicrawl recrawl OUT` in one process";

// "120" -> 120 revisits; "30%" -> 0.30 of the known pages.
bool ParseBudget(const std::string& text, RecrawlOptions* options) {
  if (text.empty()) return true;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || v < 0) return false;
  if (*end == '%' && end[1] == '\0') {
    options->budget_fraction = v / 100.0;
    return v <= 100;
  }
  if (*end != '\0' || v != static_cast<double>(static_cast<int64_t>(v))) return false;
  options->budget = static_cast<int64_t>(v);
  return true;
}

int RunRecrawl(CLI::App* cmd, RecrawlFlags* flags) {
  const std::string& dir = flags->dir;
  if (!flags->cluster.empty()) {
    std::cerr << "error: --cluster: " << kClusterRoundsHelp << "\n";
    return kExitUsage;
  }
  if (IsClusterWorkerDirectory(dir)) {
    std::cerr << "error: " << dir << " is one worker's part of a clustered crawl; "
              << kClusterRoundsHelp << "\n";
    return kExitUsage;
  }
  CrawlConfig config;
  Status loaded = LoadCrawlConfigToml(dir + "/config.toml", &config);
  if (!loaded.ok()) {
    std::cerr << "error: " << dir << " is not a crawl directory (" << loaded.message() << ")\n";
    return kExitUsage;
  }
  // A round has no page limit of its own unless given: round 0's limit
  // would stop it before the new pages.
  config.max_pages = 0;
  ApplyGivenEngineFlags(*cmd, flags->config, &config);
  config.resume = true;
  config.out_dir = dir;
  RecrawlOptions options;
  options.dir = dir;
  options.policy = flags->policy;
  options.topic_file = config.topic_file;
  options.rng_seed = config.rng_seed;
  options.model_file = flags->model;
  options.dedup_ignore_scheme = config.dedup_ignore_scheme;
  if (!ParseBudget(flags->budget, &options)) {
    std::cerr << "error: --budget takes a number of revisits or a percentage (e.g. 30%), got '"
              << flags->budget << "'\n";
    return kExitUsage;
  }
  if (int rc = PrepareCrawlConfig(&config); rc != kExitOk) return rc;
  options.announce.fetch = MakeFetcherOptions(config);
  options.announce.robots_agent = config.robots_agent;
  options.announce.delay_s = config.delay_s;
  options.announce.probe_sitemap_xml = flags->probe_sitemap_xml;
  // Files the crawl needs are checked before a round is planned: a plan
  // that cannot run would leave an unfinished round behind.
  if (!config.topic_file.empty() && ::access(config.topic_file.c_str(), R_OK) != 0) {
    std::cerr << "error: the crawl's topic file " << config.topic_file
              << " cannot be read from here (config.toml keeps the path as given to "
                 "`crawl`; run recrawl from that directory)\n";
    return kExitUsage;
  }
  if (flags->resume) {
    StatusOr<int> round = UnfinishedRound(dir);
    if (!round.ok()) {
      std::cerr << "error: " << round.status().message() << "\n";
      return kExitUsage;
    }
    std::fprintf(stderr, "round %d: resuming\n", *round);
  } else {
    StatusOr<PlannedRound> planned = PlanNextRound(options, MakeRoundPolicy);
    if (!planned.ok()) {
      std::cerr << "error: " << planned.status().message() << "\n";
      return kExitUsage;
    }
    std::fprintf(stderr,
                 "round %d (%s): %lld revisits (budget %lld), %lld new seeds, %lld announced "
                 "new URLs%s%s\n",
                 planned->round, flags->policy.c_str(),
                 static_cast<long long>(planned->revisits),
                 static_cast<long long>(planned->budget),
                 static_cast<long long>(planned->new_seeds),
                 static_cast<long long>(planned->announced), planned->note.empty() ? "" : "; ",
                 planned->note.c_str());
  }
  CrawlOutcome outcome = RunCrawlWithSignals(config);
  const CrawlStats& st = outcome.stats;
  if (!outcome.status.ok()) {
    std::cerr << "error: " << outcome.status.message() << "\n";
    return kExitFailure;
  }
  std::printf("recrawl %s: %lld fetches kept or stored ok, %lld failed or gone, %lld bytes, "
              "%.1f s -> %s\n",
              outcome.interrupted ? "interrupted" : "finished",
              static_cast<long long>(st.pages_ok), static_cast<long long>(st.pages_failed),
              static_cast<long long>(st.bytes), st.elapsed_s, dir.c_str());
  return outcome.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace

void AddRecrawlCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "recrawl", "Run the next round of a crawl: revisit known pages, find new ones");
  auto flags = std::make_shared<RecrawlFlags>();
  std::string policies;
  for (const auto& n : RoundPolicyNames()) policies += (policies.empty() ? "" : ", ") + n;
  cmd->add_option("dir", flags->dir, "Crawl directory (made by `topicrawl crawl`)")->required();
  cmd->add_option("--policy", flags->policy, "Round policy: " + policies)->default_str("full");
  cmd->add_option("--budget", flags->budget,
                  "At most N revisits, or P% of the known pages (default: the policy's choice)");
  cmd->add_option("--model", flags->model,
                  "Model file of policies that use one (hubs: `train hub-svm --features url`; "
                  "default: trained on the crawl's own link graph)");
  cmd->add_flag("--probe-sitemap-xml", flags->probe_sitemap_xml,
                "signals: also try /sitemap.xml on hosts whose robots.txt names no sitemap");
  cmd->add_flag("--resume", flags->resume,
                "Continue the current round (after an interruption) instead of planning one");
  cmd->add_option("--cluster", flags->cluster,
                  "Not supported: rounds run in one process over a merged crawl (refused with "
                  "what to do)");
  AddEngineFlags(cmd, &flags->config);
  AddServeFlags(cmd);  // --serve / --index: dashboard and API during the round
  cmd->callback([cmd, flags, exit_code] { *exit_code = RunRecrawl(cmd, flags.get()); });
}

}  // namespace topicrawl::cli
