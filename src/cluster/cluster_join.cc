#include "cluster/cluster_join.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "cluster/cluster_admin.h"
#include "cluster/cluster_layout.h"
#include "crawl/dedup.h"
#include "url/url.h"

namespace topicrawl {
namespace {

// What the join settled before a worker exists: the configuration, the
// crawl's stored meta, and for the first worker the seeds to register.
struct ClusterJoinPlan {
  CrawlConfig config;
  ClusterMeta meta;
  bool first = false;
  std::vector<std::string> seeds;
};

Status JoinUsageError(bool* usage_error, const Status& s) {
  *usage_error = true;
  return s;
}

// A later worker: the stored configuration plus this worker's flags, which
// may change only per-worker settings; --seeds, when given, must be the
// crawl's.
Status AdoptStoredClusterConfig(const ClusterJoinOptions& options,
                                const std::function<Status(CrawlConfig*)>& apply_flags,
                                ClusterJoinPlan* plan, bool* usage_error) {
  CrawlConfig base;
  if (Status s = ParseClusterConfig(plan->meta.config_toml, &base); !s.ok()) return s;
  CrawlConfig& config = plan->config;
  config = base;
  if (Status s = apply_flags(&config); !s.ok()) return JoinUsageError(usage_error, s);
  std::string diff = ConfigDifference(ClusterCanonicalConfig(base), ClusterCanonicalConfig(config));
  if (diff.empty() && options.seeds_given) {
    auto mine = ReadSeedsFile(config.seeds_file);
    if (!mine.ok()) return JoinUsageError(usage_error, mine.status());
    if (SeedsHash(*mine) != plan->meta.seeds_hash) diff = "the seed lists differ";
  }
  if (!diff.empty()) {
    return JoinUsageError(
        usage_error,
        Status::Error("this worker's configuration conflicts with crawl '" + options.crawl_id +
                      "': " + diff +
                      ". Join with --cluster and --crawl-id alone (plus per-worker flags: --out, "
                      "--concurrency, --parse-threads), or use another --crawl-id"));
  }
  config.out_dir = options.out_dir;
  config.seeds.clear();
  if (Status v = ValidateCrawlConfig(config); !v.ok()) return JoinUsageError(usage_error, v);
  return Status::Ok();
}

// The first worker: its flags define the crawl. *won is false when another
// worker registered first (its configuration is then adopted).
Status RegisterAsFirstClusterWorker(RedisClient& redis, const ClusterJoinOptions& options,
                                    const std::function<Status(CrawlConfig*)>& apply_flags,
                                    ClusterJoinPlan* plan, bool* won, bool* usage_error) {
  CrawlConfig& config = plan->config;
  config = CrawlConfig();
  if (Status s = apply_flags(&config); !s.ok()) return JoinUsageError(usage_error, s);
  config.out_dir = options.out_dir;
  if (Status s = LoadSeedsAndValidate(&config); !s.ok()) return JoinUsageError(usage_error, s);
  plan->seeds = config.seeds;
  plan->meta.config_toml = CrawlConfigToToml(config);
  plan->meta.seeds_hash = SeedsHash(plan->seeds);
  plan->meta.seen_buckets =
      SeenBucketsFor(static_cast<uint64_t>(std::max<int64_t>(1, options.expected_urls)));
  auto registered = RegisterClusterMeta(redis, options.crawl_id, plan->meta);
  if (!registered.ok()) return registered.status();
  *won = *registered;
  return Status::Ok();
}

Status PlanClusterJoin(RedisClient& redis, const ClusterJoinOptions& options,
                       const std::function<Status(CrawlConfig*)>& apply_flags,
                       ClusterJoinPlan* plan, bool* usage_error) {
  for (int attempt = 0; attempt <= 600; ++attempt) {
    auto stored = ReadClusterMeta(redis, options.crawl_id);
    if (!stored.ok()) return stored.status();
    if (stored->has_value()) {
      plan->meta = **stored;
      return AdoptStoredClusterConfig(options, apply_flags, plan, usage_error);
    }
    if (!options.seeds_given) {
      // A joiner started before the first worker registered the crawl:
      // wait for it (up to a minute) rather than define a crawl of its own.
      if (attempt == 0) {
        std::fprintf(stderr, "cluster: waiting for crawl '%s' to be registered\n",
                     options.crawl_id.c_str());
      }
      if (attempt < 600) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      return JoinUsageError(usage_error,
                            Status::Error("no crawl '" + options.crawl_id +
                                          "' in this Redis: the first worker needs --seeds"));
    }
    bool won = false;
    if (Status s = RegisterAsFirstClusterWorker(redis, options, apply_flags, plan, &won,
                                                usage_error);
        !s.ok()) {
      return s;
    }
    if (won) {
      plan->first = true;
      return Status::Ok();
    }
    // Another worker registered first: compare with its configuration.
  }
  return Status::Ok();
}

// The worker of the plan; the first one hands the crawl its seeds before
// it starts.
Status StartClusterWorker(RedisClient& redis, const ClusterJoinOptions& options,
                          const ClusterJoinPlan& plan, JoinedClusterCrawl* joined,
                          bool* usage_error) {
  ClusterWorkerOptions o;
  o.redis = *ParseRedisUrl(options.redis_url);
  o.crawl_id = options.crawl_id;
  o.worker_id = options.worker_id.empty() ? DefaultClusterWorkerId() : options.worker_id;
  o.lease_ms = options.lease_ms;
  o.seen_buckets = plan.meta.seen_buckets;
  o.max_pages = plan.config.max_pages;
  o.hold_ms = static_cast<int>(plan.config.delay_s * 1000);
  o.dedup_ignore_scheme = plan.config.dedup_ignore_scheme;
  joined->worker_id = o.worker_id;
  auto worker = ClusterWorker::Create(o);
  if (!worker.ok()) return JoinUsageError(usage_error, worker.status());
  joined->worker = std::move(worker).value();
  if (plan.first) {
    size_t accepted = 0;
    Status s = HandOffClusterSeeds(joined->worker.get(), plan.seeds,
                                   plan.config.dedup_ignore_scheme, &accepted);
    if (s.ok()) s = MarkSeeded(redis, options.crawl_id);
    if (!s.ok()) return Status::Error("registering the seeds: " + s.message());
    std::fprintf(stderr, "cluster: crawl '%s' registered with %zu seeds\n",
                 options.crawl_id.c_str(), accepted);
  }
  if (Status s = joined->worker->Start(); !s.ok()) return s;
  std::fprintf(stderr, "cluster: worker %s of crawl '%s' holds %zu shards\n", o.worker_id.c_str(),
               options.crawl_id.c_str(), joined->worker->OwnedShards());
  return Status::Ok();
}

}  // namespace

StatusOr<JoinedClusterCrawl> JoinClusterCrawl(
    const ClusterJoinOptions& options, const std::function<Status(CrawlConfig*)>& apply_flags,
    bool* usage_error) {
  *usage_error = false;
  auto admin = ConnectClusterAdmin(options.redis_url, options.crawl_id);
  if (!admin.ok()) return JoinUsageError(usage_error, admin.status());
  RedisClient& redis = **admin;
  ClusterJoinPlan plan;
  if (Status s = PlanClusterJoin(redis, options, apply_flags, &plan, usage_error); !s.ok()) {
    return s;
  }
  JoinedClusterCrawl joined;
  joined.config = plan.config;
  if (Status s = StartClusterWorker(redis, options, plan, &joined, usage_error); !s.ok()) {
    return s;
  }
  return joined;
}

std::string DefaultClusterWorkerId() {
  char host[128] = {};
  gethostname(host, sizeof(host) - 1);
  std::random_device rd;
  char buf[256];
  std::snprintf(buf, sizeof(buf), "%s-%d-%04x", host, static_cast<int>(getpid()), rd() & 0xffff);
  std::string id = buf;
  for (char& c : id) {
    if (c == ' ' || c == '\t') c = '_';
  }
  return id;
}

StatusOr<std::unique_ptr<RedisClient>> ConnectClusterAdmin(const std::string& redis_url,
                                                           const std::string& crawl_id) {
  if (Status s = ValidateCrawlId(crawl_id); !s.ok()) return s;
  auto address = ParseRedisUrl(redis_url);
  if (!address.ok()) return address.status();
  return RedisClient::Connect(*address);
}

Status HandOffClusterSeeds(ClusterWorker* worker, const std::vector<std::string>& seeds,
                           bool ignore_scheme, size_t* accepted) {
  *accepted = 0;
  for (const std::string& seed : seeds) {
    auto url = ResolveLink("", seed);
    if (!url) {
      std::fprintf(stderr, "warning: seed is not a crawlable URL: %s\n", seed.c_str());
      continue;
    }
    LinkCandidate c{*url, DedupId(*url, ignore_scheme), 0, 0, "", 1.0};
    worker->Route(c);
    ++*accepted;
  }
  return worker->FlushRoutes();
}

StatusOr<ClusterSeedsAdded> AddClusterSeeds(const std::string& redis_url,
                                            const std::string& crawl_id,
                                            const std::string& seeds_file, bool* usage_error) {
  *usage_error = false;
  auto redis = ConnectClusterAdmin(redis_url, crawl_id);
  if (!redis.ok()) return JoinUsageError(usage_error, redis.status());
  auto meta = ReadClusterMeta(**redis, crawl_id);
  auto list = ReadSeedsFile(seeds_file);
  if (!list.ok()) return JoinUsageError(usage_error, list.status());
  if (!meta.ok()) return JoinUsageError(usage_error, meta.status());
  if (!meta->has_value()) {
    return JoinUsageError(usage_error,
                          Status::Error("no crawl '" + crawl_id + "' in this Redis"));
  }
  CrawlConfig config;
  (void)ParseClusterConfig((*meta)->config_toml, &config);
  ClusterWorkerOptions o;
  o.redis = *ParseRedisUrl(redis_url);
  o.crawl_id = crawl_id;
  o.worker_id = "seeds-" + DefaultClusterWorkerId();
  o.seen_buckets = (*meta)->seen_buckets;
  auto worker = ClusterWorker::Create(o);
  if (!worker.ok()) return worker.status();
  ClusterSeedsAdded added;
  if (Status s = HandOffClusterSeeds(worker->get(), *list, config.dedup_ignore_scheme,
                                     &added.offered);
      !s.ok()) {
    return s;
  }
  added.new_to_crawl = (*worker)->stats().handed_new;
  return added;
}

}  // namespace topicrawl
