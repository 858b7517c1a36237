// topicrawl crawl: run (or resume) a crawl into an output directory.
#include <csignal>
#include <cstdio>
#include <iostream>

#include "cli/cluster_crawl.h"
#include "cli/commands.h"
#include "cli/crawl_runner.h"
#include "cli/serve_flags.h"
#include "crawl/crawl_config.h"
#include "crawl/crawl_strategy.h"
#include "crawl/crawler.h"
#include "eval/failure_breakdown.h"
#include "strategies/strategy_registry.h"

namespace topicrawl::cli {
namespace {

struct CrawlFlags {
  CrawlConfig config;
  std::string config_file;
  std::string resume_dir;
  ClusterCrawlFlags cluster;  // --cluster: one worker of a clustered crawl
  // Flags given on the command line override the config file; CLI11 tells
  // which were given through count().
};

// Config file first, then flags (flags win), onto *config.
Status ApplyCrawlFlags(CLI::App* cmd, const CrawlFlags& flags, CrawlConfig* config) {
  if (!flags.config_file.empty()) {
    Status s = LoadCrawlConfigToml(flags.config_file, config);
    if (!s.ok()) return s;
  }
  const CrawlConfig& f = flags.config;
  auto given = [cmd](const char* name) { return cmd->count(name) > 0; };
  ApplyGivenEngineFlags(*cmd, f, config);
  if (given("--strategy")) config->strategy = f.strategy;
  if (given("--topic")) config->topic_file = f.topic_file;
  if (given("--rng-seed")) config->rng_seed = f.rng_seed;
  if (given("--no-links-table")) config->store_links = false;
  if (given("--link-details")) config->store_link_details = true;
  if (given("--warc-compression")) config->warc_compression = f.warc_compression;
  if (given("--deterministic")) config->deterministic = true;
  if (given("--focus-tolerance")) config->focus_tolerance = f.focus_tolerance;
  if (given("--focus-window")) config->focus_window = f.focus_window;
  return Status::Ok();
}

int RunCrawl(CLI::App* cmd, CrawlFlags* flags) {
  const CrawlConfig& f = flags->config;
  auto given = [cmd](const char* name) { return cmd->count(name) > 0; };
  if (!flags->cluster.redis_url.empty()) {
    if (!flags->resume_dir.empty()) {
      std::cerr << "error: --resume and --cluster: a restarted worker joins as a new worker "
                   "with a new --out directory\n";
      return kExitUsage;
    }
    flags->cluster.out_dir = f.out_dir;
    flags->cluster.seeds_given = given("--seeds");
    return RunClusterCrawl(flags->cluster, [cmd, flags](CrawlConfig* c) {
      return ApplyCrawlFlags(cmd, *flags, c);
    });
  }
  CrawlConfig config;
  if (Status s = ApplyCrawlFlags(cmd, *flags, &config); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitUsage;
  }

  if (!flags->resume_dir.empty()) {
    config.resume = true;
    config.out_dir = flags->resume_dir;
    // A resumed crawl keeps its own configuration unless flags override it.
    CrawlConfig saved = config;
    Status s = LoadCrawlConfigToml(flags->resume_dir + "/config.toml", &saved);
    if (s.ok() && flags->config_file.empty()) {
      CrawlConfig merged = saved;
      merged.resume = true;
      merged.out_dir = flags->resume_dir;
      if (given("--max-pages")) merged.max_pages = f.max_pages;
      if (given("--connect-to")) merged.connect_to = f.connect_to;
      if (given("--cacert")) merged.cacert = f.cacert;
      config = merged;
    }
  } else {
    config.out_dir = f.out_dir;
  }
  if (int rc = PrepareCrawlConfig(&config); rc != kExitOk) return rc;

  CrawlOutcome outcome = RunCrawlWithSignals(config);
  const CrawlStats& st = outcome.stats;
  if (!outcome.status.ok()) {
    std::cerr << "error: " << outcome.status.message() << "\n";
    // Errors before the first fetch are configuration errors.
    return st.pages_ok + st.pages_failed == 0 && st.elapsed_s == 0 ? kExitUsage
                                                                   : kExitFailure;
  }
  std::printf(
      "crawl %s: %lld pages ok, %lld failed, %lld relevant, %lld robots-denied, "
      "%lld links seen, %lld queued, %.1f s, %.1f pages/s -> %s\n",
      outcome.interrupted ? "interrupted" : "finished",
      static_cast<long long>(st.pages_ok), static_cast<long long>(st.pages_failed),
      static_cast<long long>(st.relevant), static_cast<long long>(st.robots_denied),
      static_cast<long long>(st.links_seen), static_cast<long long>(st.links_queued),
      st.elapsed_s, st.RunRate(),
      config.out_dir.c_str());
  if (st.links_trap_not_queued > 0) {
    std::printf("url traps: %lld new links not queued, their pattern's budget "
                "(--max-urls-per-pattern) spent; per pattern in the trap_links event\n",
                static_cast<long long>(st.links_trap_not_queued));
  }
  // Failures by cause, and which are links out of the crawl's web.
  if (st.pages_failed > 0) {
    // Refusals by status only: their hosts need a scan of the whole
    // frontier_log (eval counts them), and the crawl must end promptly.
    auto breakdown = eval::ReadFailureBreakdown(config.out_dir, config.connect_to,
                                                /*refusal_hosts=*/false);
    if (breakdown.ok()) {
      std::printf("failures by cause:\n%s", eval::FailureBreakdownText(*breakdown).c_str());
    }
  }
  return outcome.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace

void AddCrawlCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("crawl", "Crawl from seed URLs into an output directory");
  auto flags = std::make_shared<CrawlFlags>();
  CrawlConfig& c = flags->config;
  std::string strategies;
  for (const auto& n : CrawlStrategyNames()) strategies += (strategies.empty() ? "" : ", ") + n;
  cmd->add_option("--out", c.out_dir, "Output directory (must not hold a crawl)");
  cmd->add_option("--resume", flags->resume_dir, "Resume the crawl in this directory");
  cmd->add_option("--strategy", c.strategy, "Strategy: " + strategies)->default_str("bfs");
  cmd->add_option("--topic", c.topic_file, "Topic file (TOML or keyword<TAB>weight)");
  cmd->add_option("--rng-seed", c.rng_seed, "Seed of the strategy's random choices");
  AddEngineFlags(cmd, &c);
  cmd->add_flag("--no-links-table")->description("Do not store every outlink in the links table");
  cmd->add_flag("--link-details")
      ->description("Links table: also store each link's text context and scoring explanation, "
                    "and the admitting link's explanation in frontier rows "
                    "(default: URL, anchor, score)");
  cmd->add_option("--warc-compression", c.warc_compression,
                  "gzip (.warc.gz) or zstd (.warc.zst, IIPC proposal, with a dictionary "
                  "trained on the first 1,000 records)")
      ->check(CLI::IsMember({"gzip", "zstd"}))
      ->default_str("gzip");
  cmd->add_option("--focus-tolerance", c.focus_tolerance,
                  "Best-first kin: fetch only links within this score of the best queued "
                  "(default -1 = off)");
  cmd->add_option("--focus-window", c.focus_window,
                  "At most this many pages selected but not yet parsed (default 64; 0 = no limit)");
  cmd->add_flag("--deterministic")->description(
      "One page at a time: same --rng-seed + static web = same crawl");
  cmd->add_option("--config", flags->config_file, "TOML configuration file (flags override it)");
  AddServeFlags(cmd);
  AddClusterCrawlFlags(cmd, &flags->cluster);
  cmd->callback([cmd, flags, exit_code] { *exit_code = RunCrawl(cmd, flags.get()); });
}

}  // namespace topicrawl::cli
