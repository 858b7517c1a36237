// The Redis layout of one clustered crawl (docs/guides/scale-out.md) and the pure
// functions every worker must compute identically: a URL's shard, its
// seen-set bucket and member, the rendezvous owner of a shard.
//
// Every key of crawl ID is "tc:{ID}:<name>": the hash tag {ID} puts the whole
// crawl in one Redis Cluster slot, so each Function call (which touches the
// seen-set, queues and counters of one batch) stays atomic there too.
#ifndef TOPICRAWL_CLUSTER_CLUSTER_LAYOUT_H_
#define TOPICRAWL_CLUSTER_CLUSTER_LAYOUT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

// Virtual shards hosts are hashed into; leases are per shard.
inline constexpr uint32_t kClusterShards = 1024;
// Seen-set buckets hold ~this many members on average at the expected crawl
// size: far below Redis's set-max-intset-entries (512), so every bucket
// stays in the compact intset encoding (8 B a member) with room for 2x.
inline constexpr uint64_t kSeenBucketTarget = 256;

// "tc:{ID}:" (IDs: 1-64 characters of [A-Za-z0-9._-]).
Status ValidateCrawlId(const std::string& id);
std::string ClusterKeyPrefix(const std::string& crawl_id);

// Shard of a politeness host key ("host[:port]", frontier/host_key.h).
uint32_t ShardOfHostKey(std::string_view host_key);
// Shard of a canonical URL (its host key); kClusterShards when it has none.
uint32_t ShardOfUrl(std::string_view url);

// Number of seen-set buckets for an expected number of URLs: the power of
// two >= expected / kSeenBucketTarget (at least 1).
uint64_t SeenBucketsFor(uint64_t expected_urls);
// The bucket of a URL id, and its member (the id's 64 bits as a signed
// decimal, which Redis stores as an intset integer).
uint64_t SeenBucket(uint64_t url_id, uint64_t buckets);
std::string SeenMember(uint64_t url_id);

// Rendezvous (highest random weight) hashing: the owner of `shard` among
// `workers` is the worker with the largest Hash64(worker "#" shard). Every
// worker computes the same owner from the same live set; when a worker
// joins or leaves only the shards it wins or held move (1/N of them).
std::string RendezvousOwner(uint32_t shard, const std::vector<std::string>& workers);

// The Redis Function library (Lua, FUNCTION LOAD REPLACE): handoff, take,
// done, heartbeat, acquire, verify, yield, release, leave.
const std::string& ClusterFunctionLibrary();

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_CLUSTER_LAYOUT_H_
