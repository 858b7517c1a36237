#include "cluster/cluster_admin.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cluster/cluster_layout.h"
#include "core/hash.h"

namespace topicrawl {
namespace {

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') out.push_back(line);
  }
  return out;
}

}  // namespace

std::string ClusterCanonicalConfig(const CrawlConfig& config) {
  CrawlConfig c = config;
  const CrawlConfig defaults;
  c.seeds_file.clear();
  c.seeds.clear();
  c.out_dir.clear();
  c.resume = false;
  c.concurrency = defaults.concurrency;
  c.parse_threads = defaults.parse_threads;
  c.progress_interval_ms = defaults.progress_interval_ms;
  return CrawlConfigToToml(c);
}

Status ParseClusterConfig(const std::string& toml_text, CrawlConfig* config) {
  char path[] = "/tmp/topicrawl-cluster-config-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return Status::Error("cannot create a temporary file");
  close(fd);
  {
    std::ofstream out(path);
    out << toml_text;
  }
  Status s = LoadCrawlConfigToml(path, config);
  std::remove(path);
  if (!s.ok()) return Status::Error("the cluster's stored configuration: " + s.message());
  return Status::Ok();
}

std::string ConfigDifference(const std::string& stored, const std::string& mine) {
  std::vector<std::string> a = Lines(stored), b = Lines(mine);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    std::string x = i < a.size() ? a[i] : "(none)";
    std::string y = i < b.size() ? b[i] : "(none)";
    if (x != y) return "the crawl has `" + x + "`, this worker `" + y + "`";
  }
  return "";
}

std::string SeedsHash(const std::vector<std::string>& seeds) {
  std::vector<std::string> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  std::string all;
  for (const auto& s : sorted) all += s + "\n";
  return Hash64Hex(all);
}

StatusOr<std::optional<ClusterMeta>> ReadClusterMeta(RedisClient& redis,
                                                     const std::string& crawl_id) {
  const std::string p = ClusterKeyPrefix(crawl_id);
  auto r = redis.Command({"HMGET", p + "meta", "config", "seeds_hash", "seen_buckets"});
  if (!r.ok()) return r.status();
  if (r->elements.size() != 3 || r->elements[0].nil()) return std::optional<ClusterMeta>();
  // A configuration without its seen-bucket count is a registration still
  // under way (a crawl registered by a build that set the fields in two
  // steps): not read as one bucket, which would hand a URL off into another
  // seen bucket than the other workers do (a duplicate queue entry; see
  // docs/guides/scale-out.md, "Kill -9 stall").
  if (r->elements[2].nil()) return std::optional<ClusterMeta>();
  ClusterMeta m;
  m.config_toml = r->elements[0].str;
  m.seeds_hash = r->elements[1].str;
  m.seen_buckets = static_cast<uint64_t>(std::max<int64_t>(1, r->elements[2].AsInt(1)));
  return std::optional<ClusterMeta>(std::move(m));
}

StatusOr<bool> RegisterClusterMeta(RedisClient& redis, const std::string& crawl_id,
                                   const ClusterMeta& meta) {
  const std::string p = ClusterKeyPrefix(crawl_id);
  // One script: the first worker is decided by HSETNX on the config field,
  // and its seeds hash and seen-bucket count are set in the same atomic
  // step, so a joiner never reads a configuration without them.
  static const char* kRegister =
      "if redis.call('HSETNX', KEYS[1], 'config', ARGV[1]) == 0 then return 0 end\n"
      "redis.call('HSET', KEYS[1], 'seeds_hash', ARGV[2], 'seen_buckets', ARGV[3])\n"
      "return 1\n";
  auto r = redis.Command({"EVAL", kRegister, "1", p + "meta", meta.config_toml, meta.seeds_hash,
                          std::to_string(meta.seen_buckets)});
  if (!r.ok()) return r.status();
  return r->AsInt() == 1;
}

Status MarkSeeded(RedisClient& redis, const std::string& crawl_id) {
  auto r = redis.Command({"SET", ClusterKeyPrefix(crawl_id) + "seeded", "1"});
  return r.ok() ? Status::Ok() : r.status();
}

Status ClusterStop(RedisClient& redis, const std::string& crawl_id) {
  auto r = redis.Command({"SET", ClusterKeyPrefix(crawl_id) + "stop", "1"});
  return r.ok() ? Status::Ok() : r.status();
}

StatusOr<SeenSetSize> MeasureSeenSet(RedisClient& redis, const std::string& crawl_id,
                                     uint64_t buckets) {
  const std::string p = ClusterKeyPrefix(crawl_id);
  SeenSetSize out;
  out.buckets = buckets;
  std::vector<std::vector<std::string>> cmds;
  for (uint64_t b = 0; b < buckets; ++b) cmds.push_back({"SCARD", p + "s:" + std::to_string(b)});
  for (size_t i = 0; i < cmds.size(); i += 1024) {
    std::vector<std::vector<std::string>> part(cmds.begin() + i,
                                               cmds.begin() + std::min(cmds.size(), i + 1024));
    auto r = redis.Pipeline(part);
    if (!r.ok()) return r.status();
    for (const auto& e : *r) out.members += static_cast<uint64_t>(e.AsInt());
  }
  // MEMORY USAGE of every bucket (SAMPLES 0: exact for sets).
  for (uint64_t b = 0; b < buckets; b += 1024) {
    std::vector<std::vector<std::string>> part;
    for (uint64_t k = b; k < std::min(buckets, b + 1024); ++k) {
      part.push_back({"MEMORY", "USAGE", p + "s:" + std::to_string(k), "SAMPLES", "0"});
    }
    auto r = redis.Pipeline(part);
    if (!r.ok()) return r.status();
    for (const auto& e : *r) out.bytes += static_cast<uint64_t>(std::max<int64_t>(0, e.AsInt()));
  }
  return out;
}

StatusOr<std::string> ClusterStatusText(RedisClient& redis, const std::string& crawl_id) {
  auto meta = ReadClusterMeta(redis, crawl_id);
  if (!meta.ok()) return meta.status();
  if (!*meta) return Status::Error("no crawl '" + crawl_id + "' in this Redis");
  const std::string p = ClusterKeyPrefix(crawl_id);
  auto r = redis.Pipeline({{"GET", p + "pending"},
                           {"GET", p + "inflight"},
                           {"GET", p + "ok"},
                           {"EXISTS", p + "stop"},
                           {"EXISTS", p + "seeded"},
                           {"SMEMBERS", p + "workers"},
                           {"SCARD", p + "ready"}});
  if (!r.ok()) return r.status();
  const auto& v = *r;
  std::ostringstream out;
  const int64_t pending = v[0].AsInt(), inflight = v[1].AsInt();
  CrawlConfig config;
  const int64_t budget =
      ParseClusterConfig((*meta)->config_toml, &config).ok() ? config.max_pages : 0;
  const bool spent = budget > 0 && v[2].AsInt() >= budget;
  const char* state = v[3].AsInt() ? "stopped"
                      : !v[4].AsInt() ? "starting"
                      : pending == 0  ? "finished"
                      : spent         ? "finished (page budget spent)"
                                      : "running";
  out << "crawl " << crawl_id << ": " << state << "\n";
  out << "pending " << pending << " (queued " << pending - inflight << ", in flight " << inflight
      << "), pages ok " << v[2].AsInt() << ", shards with queued URLs " << v[6].AsInt() << "\n";
  std::vector<std::vector<std::string>> owns;
  for (const auto& w : v[5].elements) owns.push_back({"SCARD", p + "own:" + w.str});
  std::vector<RedisReply> counts;
  if (!owns.empty()) {
    auto c = redis.Pipeline(owns);
    if (!c.ok()) return c.status();
    counts = std::move(c).value();
  }
  out << "workers " << v[5].elements.size() << ":";
  for (size_t i = 0; i < v[5].elements.size(); ++i) {
    out << " " << v[5].elements[i].str << " (" << counts[i].AsInt() << " shards)";
  }
  out << "\n";
  auto seen = MeasureSeenSet(redis, crawl_id, (*meta)->seen_buckets);
  if (!seen.ok()) return seen.status();
  out << "seen URLs " << seen->members << " in " << seen->buckets << " buckets, "
      << seen->bytes << " bytes";
  if (seen->members > 0) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), " (%.1f B/URL)", double(seen->bytes) / double(seen->members));
    out << buf;
  }
  out << "\n";
  return out.str();
}

}  // namespace topicrawl
