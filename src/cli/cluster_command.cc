// topicrawl crawl --cluster ... (one worker) and topicrawl cluster
// status|stop|seeds: a crawl over N processes coordinated through Redis
// (src/cluster/, docs/guides/scale-out.md).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <iostream>
#include <random>

#include "cli/cluster_crawl.h"
#include "cli/commands.h"
#include "cli/crawl_runner.h"
#include "cluster/cluster_admin.h"
#include "cluster/cluster_layout.h"
#include "cluster/cluster_worker.h"
#include "crawl/dedup.h"
#include "url/url.h"

namespace topicrawl::cli {
namespace {

std::string DefaultWorkerId() {
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

StatusOr<std::unique_ptr<RedisClient>> ConnectAdmin(const std::string& url,
                                                   const std::string& crawl_id) {
  if (Status s = ValidateCrawlId(crawl_id); !s.ok()) return s;
  auto address = ParseRedisUrl(url);
  if (!address.ok()) return address.status();
  return RedisClient::Connect(*address);
}

// Routes `seeds` through `worker` (seen-set, queue, pending) and flushes.
Status HandOffSeeds(ClusterWorker* worker, const std::vector<std::string>& seeds,
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

}  // namespace

void AddClusterCrawlFlags(CLI::App* cmd, ClusterCrawlFlags* f) {
  cmd->add_option("--cluster", f->redis_url,
                  "Run as one worker of a clustered crawl: redis://HOST:PORT[/DB]");
  cmd->add_option("--crawl-id", f->crawl_id, "--cluster: the crawl's id (joins it if it exists)");
  cmd->add_option("--worker-id", f->worker_id, "--cluster: this worker's id (default host-pid-rand)");
  cmd->add_option("--lease-ms", f->lease_ms,
                  "--cluster: shard lease / liveness time (default 10000; a dead worker's "
                  "shards move after it)");
  cmd->add_option("--expected-urls", f->expected_urls,
                  "--cluster, first worker: expected distinct URLs, sizes the seen-set "
                  "(default 1000000)");
}

int RunClusterCrawl(const ClusterCrawlFlags& flags,
                    const std::function<Status(CrawlConfig*)>& apply_flags) {
  if (flags.crawl_id.empty()) {
    std::cerr << "error: --cluster needs --crawl-id\n";
    return kExitUsage;
  }
  auto admin = ConnectAdmin(flags.redis_url, flags.crawl_id);
  if (!admin.ok()) {
    std::cerr << "error: " << admin.status().message() << "\n";
    return kExitUsage;
  }
  RedisClient& redis = **admin;
  CrawlConfig config;
  std::vector<std::string> seeds;
  bool first = false;
  ClusterMeta meta;
  for (int attempt = 0; attempt <= 600; ++attempt) {
    auto stored = ReadClusterMeta(redis, flags.crawl_id);
    if (!stored.ok()) {
      std::cerr << "error: " << stored.status().message() << "\n";
      return kExitFailure;
    }
    if (stored->has_value()) {
      meta = **stored;
      CrawlConfig base;
      if (Status s = ParseClusterConfig(meta.config_toml, &base); !s.ok()) {
        std::cerr << "error: " << s.message() << "\n";
        return kExitFailure;
      }
      config = base;
      if (Status s = apply_flags(&config); !s.ok()) {
        std::cerr << "error: " << s.message() << "\n";
        return kExitUsage;
      }
      std::string diff = ConfigDifference(ClusterCanonicalConfig(base), ClusterCanonicalConfig(config));
      if (diff.empty() && flags.seeds_given) {
        auto mine = ReadSeedsFile(config.seeds_file);
        if (!mine.ok()) {
          std::cerr << "error: " << mine.status().message() << "\n";
          return kExitUsage;
        }
        if (SeedsHash(*mine) != meta.seeds_hash) diff = "the seed lists differ";
      }
      if (!diff.empty()) {
        std::cerr << "error: this worker's configuration conflicts with crawl '" << flags.crawl_id
                  << "': " << diff
                  << ". Join with --cluster and --crawl-id alone (plus per-worker flags: --out, "
                     "--concurrency, --parse-threads), or use another --crawl-id\n";
        return kExitUsage;
      }
      config.out_dir = flags.out_dir;
      config.seeds.clear();
      if (Status v = ValidateCrawlConfig(config); !v.ok()) {
        std::cerr << "error: " << v.message() << "\n";
        return kExitUsage;
      }
      break;
    }
    if (!flags.seeds_given) {
      // A joiner started before the first worker registered the crawl:
      // wait for it (up to a minute) rather than define a crawl of its own.
      if (attempt == 0) {
        std::fprintf(stderr, "cluster: waiting for crawl '%s' to be registered\n",
                     flags.crawl_id.c_str());
      }
      if (attempt < 600) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      std::cerr << "error: no crawl '" << flags.crawl_id
                << "' in this Redis: the first worker needs --seeds\n";
      return kExitUsage;
    }
    // The first worker: its flags define the crawl.
    config = CrawlConfig();
    if (Status s = apply_flags(&config); !s.ok()) {
      std::cerr << "error: " << s.message() << "\n";
      return kExitUsage;
    }
    config.out_dir = flags.out_dir;
    if (int rc = PrepareCrawlConfig(&config); rc != kExitOk) return rc;
    seeds = config.seeds;
    meta.config_toml = CrawlConfigToToml(config);
    meta.seeds_hash = SeedsHash(seeds);
    meta.seen_buckets = SeenBucketsFor(static_cast<uint64_t>(std::max<int64_t>(1, flags.expected_urls)));
    auto won = RegisterClusterMeta(redis, flags.crawl_id, meta);
    if (!won.ok()) {
      std::cerr << "error: " << won.status().message() << "\n";
      return kExitFailure;
    }
    if (*won) {
      first = true;
      break;
    }
    // Another worker registered first: compare with its configuration.
  }

  ClusterWorkerOptions o;
  o.redis = *ParseRedisUrl(flags.redis_url);
  o.crawl_id = flags.crawl_id;
  o.worker_id = flags.worker_id.empty() ? DefaultWorkerId() : flags.worker_id;
  o.lease_ms = flags.lease_ms;
  o.seen_buckets = meta.seen_buckets;
  o.max_pages = config.max_pages;
  o.hold_ms = static_cast<int>(config.delay_s * 1000);
  o.dedup_ignore_scheme = config.dedup_ignore_scheme;
  auto worker = ClusterWorker::Create(o);
  if (!worker.ok()) {
    std::cerr << "error: " << worker.status().message() << "\n";
    return kExitUsage;
  }
  if (first) {
    size_t accepted = 0;
    Status s = HandOffSeeds(worker->get(), seeds, config.dedup_ignore_scheme, &accepted);
    if (s.ok()) s = MarkSeeded(redis, flags.crawl_id);
    if (!s.ok()) {
      std::cerr << "error: registering the seeds: " << s.message() << "\n";
      return kExitFailure;
    }
    std::fprintf(stderr, "cluster: crawl '%s' registered with %zu seeds\n", flags.crawl_id.c_str(),
                 accepted);
  }
  if (Status s = (*worker)->Start(); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  std::fprintf(stderr, "cluster: worker %s of crawl '%s' holds %zu shards\n", o.worker_id.c_str(),
               flags.crawl_id.c_str(), (*worker)->OwnedShards());
  CrawlOutcome outcome = RunCrawlWithSignals(config, worker->get());
  (*worker)->Leave();
  const ClusterWorkerStats cs = (*worker)->stats();
  const CrawlStats& st = outcome.stats;
  if (!outcome.status.ok()) {
    std::cerr << "error: " << outcome.status.message() << "\n";
    return kExitFailure;
  }
  std::printf(
      "worker %s %s: %lld pages ok, %lld failed, %.1f s -> %s | cluster: %llu links routed, "
      "%llu new, %llu URLs taken, %llu released, %llu Redis commands, %llu bytes sent\n",
      o.worker_id.c_str(), outcome.interrupted ? "interrupted" : "finished",
      static_cast<long long>(st.pages_ok), static_cast<long long>(st.pages_failed), st.elapsed_s,
      config.out_dir.c_str(), static_cast<unsigned long long>(cs.routed),
      static_cast<unsigned long long>(cs.handed_new), static_cast<unsigned long long>(cs.taken),
      static_cast<unsigned long long>(cs.released),
      static_cast<unsigned long long>(cs.redis_commands),
      static_cast<unsigned long long>(cs.redis_bytes));
  return outcome.interrupted ? kExitInterrupted : kExitOk;
}

void AddClusterCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("cluster", "Status, stop and seeds of a clustered crawl (Redis)");
  cmd->require_subcommand(1);
  struct Args {
    std::string redis_url;
    std::string crawl_id;
    std::string seeds_file;
  };
  auto args = std::make_shared<Args>();
  auto add_common = [args](CLI::App* sub) {
    sub->add_option("--cluster", args->redis_url, "redis://HOST:PORT[/DB]")->required();
    sub->add_option("--crawl-id", args->crawl_id, "The crawl's id")->required();
  };
  auto* status = cmd->add_subcommand("status", "Counters, workers, shards, seen-set size");
  add_common(status);
  status->callback([args, exit_code] {
    auto redis = ConnectAdmin(args->redis_url, args->crawl_id);
    if (!redis.ok()) {
      std::cerr << "error: " << redis.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    auto text = ClusterStatusText(**redis, args->crawl_id);
    if (!text.ok()) {
      std::cerr << "error: " << text.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::printf("%s", text->c_str());
    *exit_code = kExitOk;
  });
  auto* stop = cmd->add_subcommand("stop", "Ask every worker to stop (in-flight URLs stay queued)");
  add_common(stop);
  stop->callback([args, exit_code] {
    auto redis = ConnectAdmin(args->redis_url, args->crawl_id);
    Status s = redis.ok() ? ClusterStop(**redis, args->crawl_id) : redis.status();
    if (!s.ok()) std::cerr << "error: " << s.message() << "\n";
    *exit_code = s.ok() ? kExitOk : kExitFailure;
  });
  auto* seeds = cmd->add_subcommand("seeds", "Add seed URLs to a running clustered crawl");
  add_common(seeds);
  seeds->add_option("--seeds", args->seeds_file, "Seed URLs (as crawl --seeds)")->required();
  seeds->callback([args, exit_code] {
    auto redis = ConnectAdmin(args->redis_url, args->crawl_id);
    if (!redis.ok()) {
      std::cerr << "error: " << redis.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    auto meta = ReadClusterMeta(**redis, args->crawl_id);
    auto list = ReadSeedsFile(args->seeds_file);
    if (!meta.ok() || !meta->has_value() || !list.ok()) {
      std::cerr << "error: "
                << (!list.ok()       ? list.status().message()
                    : !meta.ok()     ? meta.status().message()
                                     : "no crawl '" + args->crawl_id + "' in this Redis")
                << "\n";
      *exit_code = kExitUsage;
      return;
    }
    CrawlConfig config;
    (void)ParseClusterConfig((*meta)->config_toml, &config);
    ClusterWorkerOptions o;
    o.redis = *ParseRedisUrl(args->redis_url);
    o.crawl_id = args->crawl_id;
    o.worker_id = "seeds-" + DefaultWorkerId();
    o.seen_buckets = (*meta)->seen_buckets;
    auto worker = ClusterWorker::Create(o);
    size_t accepted = 0;
    Status s = worker.ok() ? HandOffSeeds(worker->get(), *list, config.dedup_ignore_scheme, &accepted)
                           : worker.status();
    if (!s.ok()) {
      std::cerr << "error: " << s.message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::printf("%zu seeds offered, %llu new to the crawl\n", accepted,
                static_cast<unsigned long long>((*worker)->stats().handed_new));
    *exit_code = kExitOk;
  });
}

}  // namespace topicrawl::cli
