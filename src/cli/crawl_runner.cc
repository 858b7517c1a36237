#include "cli/crawl_runner.h"

#include <atomic>
#include <csignal>
#include <iostream>

#include "cli/commands.h"

namespace topicrawl::cli {
namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }

}  // namespace

int PrepareCrawlConfig(CrawlConfig* config) {
  if (!config->resume) {
    if (config->seeds_file.empty()) {
      std::cerr << "error: --seeds FILE is required (or --resume DIR)\n";
      return kExitUsage;
    }
    auto seeds = ReadSeedsFile(config->seeds_file);
    if (!seeds.ok()) {
      std::cerr << "error: " << seeds.status().message() << "\n";
      return kExitUsage;
    }
    config->seeds = std::move(seeds).value();
  }
  Status v = ValidateCrawlConfig(*config);
  if (!v.ok()) {
    std::cerr << "error: " << v.message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

CrawlOutcome RunCrawlWithSignals(const CrawlConfig& config) {
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  Crawler crawler(config, &g_stop);
  CrawlOutcome out;
  out.status = crawler.Run();
  out.stats = crawler.stats();
  out.interrupted = crawler.interrupted();
  return out;
}

}  // namespace topicrawl::cli
