// Joining a clustered crawl (`crawl --cluster`, docs/guides/scale-out.md):
// the first worker of a crawl id stores its configuration and seeds in
// Redis; later ones build theirs from the stored one plus their own flags
// and are refused when it differs in anything but per-worker settings.
// Also the operations of `topicrawl cluster`.
#ifndef TOPICRAWL_CLUSTER_CLUSTER_JOIN_H_
#define TOPICRAWL_CLUSTER_CLUSTER_JOIN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cluster/cluster_worker.h"
#include "cluster/redis_client.h"
#include "core/status.h"
#include "crawl/crawl_config.h"

namespace topicrawl {

struct ClusterJoinOptions {
  std::string redis_url;     // --cluster redis://HOST:PORT[/DB]
  std::string crawl_id;      // --crawl-id
  std::string worker_id;     // --worker-id (default host-pid-random)
  int lease_ms = 10000;      // --lease-ms
  int64_t expected_urls = 1000000;  // --expected-urls (sizes the seen-set buckets)
  std::string out_dir;       // from --out
  bool seeds_given = false;  // --seeds on this worker's command line
};

struct JoinedClusterCrawl {
  CrawlConfig config;  // the crawl's configuration with this worker's settings
  std::string worker_id;
  std::unique_ptr<ClusterWorker> worker;  // started, holding its first shards
};

// Joins the crawl options.crawl_id, or registers it with this worker's
// configuration and seeds when it is the first; waits up to a minute for
// the first worker when this one has no --seeds. `apply_flags` applies
// --config and the given flags to a configuration. Progress lines go to
// stderr. On failure *usage_error says whether the command line is at
// fault (a conflicting configuration, bad flags or seeds, no such crawl)
// rather than Redis or the worker.
StatusOr<JoinedClusterCrawl> JoinClusterCrawl(
    const ClusterJoinOptions& options, const std::function<Status(CrawlConfig*)>& apply_flags,
    bool* usage_error);

// "host-pid-rand", blanks replaced by '_'.
std::string DefaultClusterWorkerId();

// A Redis connection for administering crawl `crawl_id` (the id checked).
StatusOr<std::unique_ptr<RedisClient>> ConnectClusterAdmin(const std::string& redis_url,
                                                           const std::string& crawl_id);

// Routes `seeds` through `worker` (seen-set, queue, pending) and flushes;
// a seed that is not a crawlable URL is skipped with a warning on stderr.
Status HandOffClusterSeeds(ClusterWorker* worker, const std::vector<std::string>& seeds,
                           bool ignore_scheme, size_t* accepted);

struct ClusterSeedsAdded {
  size_t offered = 0;         // crawlable URLs of the file
  uint64_t new_to_crawl = 0;  // ... the crawl had not seen
};
// `topicrawl cluster seeds`: offers the URLs of `seeds_file` to the running
// crawl `crawl_id` through a short-lived worker of it. *usage_error as for
// JoinClusterCrawl (bad id or file, no such crawl).
StatusOr<ClusterSeedsAdded> AddClusterSeeds(const std::string& redis_url,
                                            const std::string& crawl_id,
                                            const std::string& seeds_file, bool* usage_error);

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_CLUSTER_JOIN_H_
