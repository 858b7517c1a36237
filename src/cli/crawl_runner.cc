#include "cli/crawl_runner.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <iostream>

#include "cli/commands.h"
#include "cli/serve_flags.h"
#include "crawl/crawl_monitor.h"
#include "server/api_server.h"
#include "server/live_indexer.h"
#include "strategies/strategy_registry.h"

namespace topicrawl::cli {
namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }

// One engine flag: how it is registered and how a given value is copied.
struct EngineFlag {
  const char* name;
  void (*add)(CLI::App* cmd, const char* name, CrawlConfig* c);
  void (*copy)(const CrawlConfig& from, CrawlConfig* to);
};

#define TOPICRAWL_OPTION(flag, field, help)                                    \
  EngineFlag {                                                                 \
    flag, [](CLI::App* cmd, const char* n, CrawlConfig* c) {                   \
      cmd->add_option(n, c->field, help);                                      \
    },                                                                         \
        [](const CrawlConfig& from, CrawlConfig* to) { to->field = from.field; } \
  }

const EngineFlag kEngineFlags[] = {
    TOPICRAWL_OPTION("--seeds", seeds_file,
                     "Seed URLs: one per line, or TSV with a url/home_url column"),
    TOPICRAWL_OPTION("--max-pages", max_pages,
                     "Stop after N pages stored ok (0 = no limit; default 10000)"),
    TOPICRAWL_OPTION("--max-depth", max_depth, "Maximum link depth (-1 = unlimited)"),
    TOPICRAWL_OPTION("--connect-to", connect_to,
                     "HOST:PORT:CONNECT-HOST:CONNECT-PORT (repeatable, as curl)"),
    TOPICRAWL_OPTION("--cacert", cacert, "CA bundle (PEM) for https"),
    TOPICRAWL_OPTION("--proxy", proxy, "HTTP proxy URL"),
    TOPICRAWL_OPTION("--delay", delay_s, "Seconds between requests to one host (default 1)"),
    TOPICRAWL_OPTION("--concurrency", concurrency, "Transfers in flight (default 64)"),
    TOPICRAWL_OPTION("--per-host", per_host_connections, "Connections per host (default 2)"),
    TOPICRAWL_OPTION("--connection-cache", connection_cache,
                     "Idle connections kept for reuse (default 1024, 0 = libcurl's)"),
    TOPICRAWL_OPTION("--max-pages-per-host", max_pages_per_host,
                     "Per-host budget (0 = unlimited)"),
    TOPICRAWL_OPTION("--user-agent", user_agent, "User-Agent header (include a contact URL)"),
    EngineFlag{"--allow-private",
               [](CLI::App* cmd, const char* n, CrawlConfig*) {
                 cmd->add_flag(std::string(n))->description("Allow private/loopback targets");
               },
               [](const CrawlConfig&, CrawlConfig* to) { to->allow_private = true; }},
    EngineFlag{"--seeds-from-sitemaps",
               [](CLI::App* cmd, const char* n, CrawlConfig*) {
                 cmd->add_flag(std::string(n))->description(
                     "Round 0 also queues the URLs the seed hosts' sitemaps and feeds announce");
               },
               [](const CrawlConfig&, CrawlConfig* to) { to->seeds_from_sitemaps = true; }},
    EngineFlag{"--no-robots",
               [](CLI::App* cmd, const char* n, CrawlConfig*) {
                 cmd->add_flag(std::string(n))->description("Ignore robots.txt (only for your own sites)");
               },
               [](const CrawlConfig&, CrawlConfig* to) { to->respect_robots = false; }},
    EngineFlag{"--tdmrep",
               [](CLI::App* cmd, const char* n, CrawlConfig*) {
                 cmd->add_flag(std::string(n))->description(
                     "Also fetch each host's /.well-known/tdmrep.json (TDMRep opt-out, for exports)");
               },
               [](const CrawlConfig&, CrawlConfig* to) { to->fetch_tdmrep = true; }},
    TOPICRAWL_OPTION("--include-host", include_hosts, "Only crawl these hosts (and subdomains)"),
    TOPICRAWL_OPTION("--exclude-host", exclude_hosts, "Never crawl these hosts"),
    TOPICRAWL_OPTION("--include-regex", include_regex, "Only URLs matching one of these"),
    TOPICRAWL_OPTION("--exclude-regex", exclude_regex, "Never URLs matching these"),
    TOPICRAWL_OPTION("--parse-threads", parse_threads, "Parse/score threads (default 2)"),
    TOPICRAWL_OPTION("--timeout", total_timeout_s, "Total seconds per fetch (default 60)"),
    TOPICRAWL_OPTION("--resolve", resolve,
                     "HOST:PORT:ADDRESS as curl --resolve (repeatable; no private exemption)"),
    TOPICRAWL_OPTION("--retry-delay", retry_delay_s,
                     "Seconds before a failed URL's first retry, doubling (default 2)"),
    TOPICRAWL_OPTION("--max-backoff", backoff_max_s,
                     "Cap in seconds of a host's back-off (default 60)"),
    TOPICRAWL_OPTION("--host-failure-budget", host_failure_budget,
                     "Consecutive failures before a host is given up (default 6, 0 = never)"),
    TOPICRAWL_OPTION("--max-urls-per-pattern", max_urls_per_pattern,
                     "URL-trap budget: new URLs admitted per host and path pattern (default 1000, 0 = off)"),
    TOPICRAWL_OPTION("--max-url-params", max_url_params,
                     "Refuse URLs with more query parameters (default 10, -1 = off)"),
    TOPICRAWL_OPTION("--state-interval", state_interval_s,
                     "Seconds between saves of the strategy's learned state (default 10)"),
    TOPICRAWL_OPTION("--queue-in-ram", queue_in_ram,
                     "Queued links kept in RAM; the rest wait on disk (default 1000000)"),
    TOPICRAWL_OPTION("--queue-in-ram-per-host", queue_in_ram_per_host,
                     "Queued links of one host kept in RAM (default 10000)"),
    TOPICRAWL_OPTION("--render", render,
                     "Render pages in headless Chromium: never (default), auto (per host, "
                     "where scripts build the page), always"),
    TOPICRAWL_OPTION("--render-workers", render_workers, "Chromium processes (default 2)"),
    TOPICRAWL_OPTION("--render-timeout", render_timeout_s,
                     "Seconds one page may take to render (default 10)"),
    TOPICRAWL_OPTION("--render-max-share", render_max_share,
                     "auto: most rendered pages as a share of all (default 0.1)"),
};
#undef TOPICRAWL_OPTION

}  // namespace

void AddEngineFlags(CLI::App* cmd, CrawlConfig* flags) {
  for (const EngineFlag& f : kEngineFlags) f.add(cmd, f.name, flags);
}

void ApplyGivenEngineFlags(const CLI::App& cmd, const CrawlConfig& flags,
                           CrawlConfig* config) {
  for (const EngineFlag& f : kEngineFlags) {
    if (cmd.count(f.name) > 0) f.copy(flags, config);
  }
}

int PrepareCrawlConfig(CrawlConfig* config) {
  if (Status s = LoadSeedsAndValidate(config); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

CrawlOutcome RunCrawlWithSignals(const CrawlConfig& config, ClusterRole* cluster) {
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  Crawler crawler(config, &g_stop, MakeCrawlStrategy);
  if (cluster) crawler.SetClusterRole(cluster);
  CrawlOutcome out;
  // --serve / --index (cli/serve_flags.h): the server and the indexer run
  // beside the crawl and only see it through the monitor and crawl.db.
  const ServeFlags& serve = GivenServeFlags();
  CrawlMonitor monitor;
  std::unique_ptr<ApiServer> server;
  if (!serve.listen.empty()) {
    auto options = MakeServerOptions(serve, serve.listen);
    if (!options.ok()) {
      out.status = options.status();
      return out;
    }
    auto started = ApiServer::Start(*options, {ServedCrawl{config.out_dir, &monitor}});
    if (!started.ok()) {
      out.status = started.status();
      return out;
    }
    server = std::move(started).value();
    crawler.SetMonitor(&monitor);
    std::fprintf(stderr, "dashboard: %s  (API: %sapi/status, metrics: %smetrics)\n",
                 server->url().c_str(), server->url().c_str(), server->url().c_str());
  }
  std::unique_ptr<LiveIndexer> indexer;
  if (serve.index) {
    indexer = std::make_unique<LiveIndexer>(config.out_dir);
    indexer->Start();
  }
  out.status = crawler.Run();
  out.stats = crawler.stats();
  out.interrupted = crawler.interrupted();
  if (indexer) {
    indexer->Stop();  // ends its batch after the page at hand
    std::fprintf(stderr,
                 "search index: %lld pages indexed -> %s/search (`topicrawl index %s` "
                 "adds any the indexer did not catch up with)\n",
                 static_cast<long long>(indexer->indexed()), config.out_dir.c_str(),
                 config.out_dir.c_str());
  }
  if (server && serve.linger_s > 0 && !monitor.stop_requested() && !g_stop.load()) {
    std::fprintf(stderr, "crawl ended; serving %s for %.0f s more (POST /api/stop ends it)\n",
                 server->url().c_str(), serve.linger_s);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(serve.linger_s * 1000));
    while (!g_stop.load() && std::chrono::steady_clock::now() < deadline &&
           !server->WaitForStopRequest(std::chrono::milliseconds(200))) {
    }
  }
  return out;
}

}  // namespace topicrawl::cli
