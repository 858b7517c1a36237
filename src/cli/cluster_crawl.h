// `crawl --cluster`: one worker of a crawl spread over several processes
// through Redis (docs/guides/scale-out.md). Shared by crawl_command.cc and
// cluster_command.cc.
#ifndef TOPICRAWL_CLI_CLUSTER_CRAWL_H_
#define TOPICRAWL_CLI_CLUSTER_CRAWL_H_

#include <cstdint>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "cluster/cluster_join.h"
#include "core/status.h"
#include "crawl/crawl_config.h"

namespace topicrawl::cli {

// The flags of `crawl --cluster` are the join's options.
using ClusterCrawlFlags = ClusterJoinOptions;

void AddClusterCrawlFlags(CLI::App* cmd, ClusterCrawlFlags* flags);

// Joins (or starts) the crawl (JoinClusterCrawl: a conflicting
// configuration is refused with exit 2), crawls as one worker, and prints
// the worker's summary. `apply_flags` applies --config and the given flags.
int RunClusterCrawl(const ClusterCrawlFlags& flags,
                    const std::function<Status(CrawlConfig*)>& apply_flags);

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_CLUSTER_CRAWL_H_
