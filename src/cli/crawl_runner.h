// The part of `crawl` that other commands (collect-links) reuse: loading the
// seeds, validating the configuration, and running a Crawler that SIGINT /
// SIGTERM stop cleanly (the directory stays resumable).
#ifndef TOPICRAWL_CLI_CRAWL_RUNNER_H_
#define TOPICRAWL_CLI_CRAWL_RUNNER_H_

#include <string>

#include <CLI/CLI.hpp>

#include "crawl/crawl_config.h"
#include "crawl/cluster_role.h"
#include "crawl/crawler.h"

namespace topicrawl::cli {

// Unless config->resume: reads config->seeds_file into config->seeds. Then
// validates. On failure prints "error: ..." to stderr and returns kExitUsage;
// kExitOk otherwise.
int PrepareCrawlConfig(CrawlConfig* config);

struct CrawlOutcome {
  Status status;
  CrawlStats stats;
  bool interrupted = false;
};

// The crawl-engine flags that `crawl` and `collect-links` share (seeds,
// scope, politeness, transport), registered on `cmd` to write into *flags.
void AddEngineFlags(CLI::App* cmd, CrawlConfig* flags);

// Copies the engine flags given on `cmd`'s command line from `flags` into
// *config (flags override a config file; flags not given leave it alone).
void ApplyGivenEngineFlags(const CLI::App& cmd, const CrawlConfig& flags,
                           CrawlConfig* config);

// Runs the crawl to its end; SIGINT/SIGTERM set the stop flag. `cluster`
// (may be null): run as one worker of a clustered crawl.
CrawlOutcome RunCrawlWithSignals(const CrawlConfig& config, ClusterRole* cluster = nullptr);

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_CRAWL_RUNNER_H_
