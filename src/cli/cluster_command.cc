// topicrawl crawl --cluster ... (one worker) and topicrawl cluster
// status|stop|seeds: a crawl over N processes coordinated through Redis
// (src/cluster/, docs/guides/scale-out.md).
#include <cstdio>
#include <iostream>

#include "cli/cluster_crawl.h"
#include "cli/commands.h"
#include "cli/crawl_runner.h"
#include "cluster/cluster_admin.h"
#include "cluster/cluster_join.h"
#include "cluster/cluster_worker.h"

namespace topicrawl::cli {

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
  bool usage_error = false;
  auto joined = JoinClusterCrawl(flags, apply_flags, &usage_error);
  if (!joined.ok()) {
    std::cerr << "error: " << joined.status().message() << "\n";
    return usage_error ? kExitUsage : kExitFailure;
  }
  ClusterWorker& worker = *joined->worker;
  CrawlOutcome outcome = RunCrawlWithSignals(joined->config, &worker);
  worker.Leave();
  const ClusterWorkerStats cs = worker.stats();
  const CrawlStats& st = outcome.stats;
  if (!outcome.status.ok()) {
    std::cerr << "error: " << outcome.status.message() << "\n";
    return kExitFailure;
  }
  std::printf(
      "worker %s %s: %lld pages ok, %lld failed, %.1f s -> %s | cluster: %llu links routed, "
      "%llu new, %llu URLs taken, %llu released, %llu Redis commands, %llu bytes sent\n",
      joined->worker_id.c_str(), outcome.interrupted ? "interrupted" : "finished",
      static_cast<long long>(st.pages_ok), static_cast<long long>(st.pages_failed), st.elapsed_s,
      joined->config.out_dir.c_str(), static_cast<unsigned long long>(cs.routed),
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
    auto redis = ConnectClusterAdmin(args->redis_url, args->crawl_id);
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
    auto redis = ConnectClusterAdmin(args->redis_url, args->crawl_id);
    Status s = redis.ok() ? ClusterStop(**redis, args->crawl_id) : redis.status();
    if (!s.ok()) std::cerr << "error: " << s.message() << "\n";
    *exit_code = s.ok() ? kExitOk : kExitFailure;
  });
  auto* seeds = cmd->add_subcommand("seeds", "Add seed URLs to a running clustered crawl");
  add_common(seeds);
  seeds->add_option("--seeds", args->seeds_file, "Seed URLs (as crawl --seeds)")->required();
  seeds->callback([args, exit_code] {
    bool usage_error = false;
    auto added = AddClusterSeeds(args->redis_url, args->crawl_id, args->seeds_file, &usage_error);
    if (!added.ok()) {
      std::cerr << "error: " << added.status().message() << "\n";
      *exit_code = usage_error ? kExitUsage : kExitFailure;
      return;
    }
    std::printf("%zu seeds offered, %llu new to the crawl\n", added->offered,
                static_cast<unsigned long long>(added->new_to_crawl));
    *exit_code = kExitOk;
  });
}

}  // namespace topicrawl::cli
