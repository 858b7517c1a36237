#include "cluster/cluster_layout.h"

#include <bit>
#include <string_view>

#include "cluster/cluster_functions_lua.h"  // generated
#include "core/hash.h"
#include "frontier/host_key.h"

namespace topicrawl {

Status ValidateCrawlId(const std::string& id) {
  if (id.empty() || id.size() > 64) return Status::Error("--crawl-id must have 1-64 characters");
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return Status::Error("--crawl-id '" + id + "': only A-Z a-z 0-9 . _ - allowed");
  }
  return Status::Ok();
}

std::string ClusterKeyPrefix(const std::string& crawl_id) { return "tc:{" + crawl_id + "}:"; }

uint32_t ShardOfHostKey(std::string_view host_key) {
  return static_cast<uint32_t>(Hash64(host_key) % kClusterShards);
}

uint32_t ShardOfUrl(std::string_view url) {
  auto key = HostKeyOfUrl(url);
  if (!key) return kClusterShards;
  return ShardOfHostKey(*key);
}

uint64_t SeenBucketsFor(uint64_t expected_urls) {
  uint64_t want = expected_urls / kSeenBucketTarget;
  if (want <= 1) return 1;
  return std::bit_ceil(want);
}

uint64_t SeenBucket(uint64_t url_id, uint64_t buckets) {
  // The high bits: the low bits of the id stay spread within a bucket.
  return buckets <= 1 ? 0 : (url_id >> 32) % buckets;
}

std::string SeenMember(uint64_t url_id) {
  return std::to_string(static_cast<int64_t>(url_id));
}

std::string RendezvousOwner(uint32_t shard, const std::vector<std::string>& workers) {
  std::string best;
  uint64_t best_weight = 0;
  for (const std::string& w : workers) {
    const uint64_t weight = Hash64(w + "#" + std::to_string(shard));
    if (best.empty() || weight > best_weight || (weight == best_weight && w < best)) {
      best = w;
      best_weight = weight;
    }
  }
  return best;
}

const std::string& ClusterFunctionLibrary() {
  // KEYS[1] is always "tc:{ID}:pending"; the other keys of the crawl are
  // derived from it and share its hash tag (same slot). The library is
  // cluster_functions.lua, embedded at build time (embed_lua.cmake).
  static const std::string kLib(kClusterFunctionsLua);
  return kLib;
}

}  // namespace topicrawl
