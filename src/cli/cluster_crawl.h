// `crawl --cluster`: one worker of a crawl spread over several processes
// through Redis (docs/guides/scale-out.md). Shared by crawl_command.cc and
// cluster_command.cc.
#ifndef TOPICRAWL_CLI_CLUSTER_CRAWL_H_
#define TOPICRAWL_CLI_CLUSTER_CRAWL_H_

#include <cstdint>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/status.h"
#include "crawl/crawl_config.h"

namespace topicrawl::cli {

struct ClusterCrawlFlags {
  std::string redis_url;     // --cluster redis://HOST:PORT[/DB]
  std::string crawl_id;      // --crawl-id
  std::string worker_id;     // --worker-id (default host-pid-random)
  int lease_ms = 10000;      // --lease-ms
  int64_t expected_urls = 1000000;  // --expected-urls (sizes the seen-set buckets)
  std::string out_dir;       // from --out
  bool seeds_given = false;  // --seeds on this worker's command line
};

void AddClusterCrawlFlags(CLI::App* cmd, ClusterCrawlFlags* flags);

// Joins (or starts) the crawl: the first worker of a crawl id stores its
// configuration and seeds; later ones build theirs from the stored one plus
// their own flags and are refused (exit 2) when it differs in anything but
// per-worker settings. `apply_flags` applies --config and the given flags.
int RunClusterCrawl(const ClusterCrawlFlags& flags,
                    const std::function<Status(CrawlConfig*)>& apply_flags);

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_CLUSTER_CRAWL_H_
