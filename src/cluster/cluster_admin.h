// Cluster administration: the crawl's shared configuration and seeds in
// Redis (first worker registers, later ones adopt or are refused), and the
// `topicrawl cluster status|stop|seeds` operations.
#ifndef TOPICRAWL_CLUSTER_CLUSTER_ADMIN_H_
#define TOPICRAWL_CLUSTER_CLUSTER_ADMIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/redis_client.h"
#include "crawl/crawl_config.h"

namespace topicrawl {

// The configuration every worker must share, as TOML: the crawl config
// without what is per worker (seeds file path, concurrency, parse threads,
// progress cadence, output directory).
std::string ClusterCanonicalConfig(const CrawlConfig& config);
// The stored configuration text parsed (full TOML as the first worker ran).
Status ParseClusterConfig(const std::string& toml_text, CrawlConfig* config);
// Empty when equal; otherwise "key: stored X, this worker Y" of the first
// difference.
std::string ConfigDifference(const std::string& stored_canonical,
                             const std::string& mine_canonical);
// Order-independent hash of a seed list (later workers' --seeds must match).
std::string SeedsHash(const std::vector<std::string>& seeds);

struct ClusterMeta {
  std::string config_toml;   // full TOML of the first worker
  std::string seeds_hash;
  uint64_t seen_buckets = 1;
};
// nullopt when the crawl id has no (complete) configuration yet.
StatusOr<std::optional<ClusterMeta>> ReadClusterMeta(RedisClient& redis, const std::string& crawl_id);
// SET NX of the configuration, with the seeds hash and seen-bucket count in
// the same atomic step; false when another worker registered first.
StatusOr<bool> RegisterClusterMeta(RedisClient& redis, const std::string& crawl_id,
                                   const ClusterMeta& meta);
// After the seeds were handed off: joiners may now end on pending == 0.
Status MarkSeeded(RedisClient& redis, const std::string& crawl_id);

// Human-readable state: counters, workers and their shards, seen-set size
// and Redis memory.
StatusOr<std::string> ClusterStatusText(RedisClient& redis, const std::string& crawl_id);
// Sets the stop flag: workers stop taking URLs and exit (their in-flight
// URLs stay in Redis).
Status ClusterStop(RedisClient& redis, const std::string& crawl_id);

// Seen-set figures: members over all buckets, and the bytes Redis reports
// for the bucket keys (MEMORY USAGE, sampled over up to `sample` buckets and
// scaled).
struct SeenSetSize {
  uint64_t members = 0;
  uint64_t buckets = 0;
  uint64_t bytes = 0;
};
StatusOr<SeenSetSize> MeasureSeenSet(RedisClient& redis, const std::string& crawl_id,
                                     uint64_t buckets);

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_CLUSTER_ADMIN_H_
