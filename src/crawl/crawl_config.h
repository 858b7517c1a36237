// CrawlConfig: every setting of one crawl, with its default. Filled from an
// optional TOML file (--config) and then command-line flags (flags win); the
// effective configuration is snapshotted into the crawl directory.
//
// The sample configuration docs/crawl-config.toml lists every key.
#ifndef TOPICRAWL_CRAWL_CRAWL_CONFIG_H_
#define TOPICRAWL_CRAWL_CRAWL_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

struct CrawlConfig {
  // --- what to crawl ---
  std::string seeds_file;           // one URL per line, or TSV with url/home_url
  std::vector<std::string> seeds;   // filled from seeds_file (or directly)
  // Round 0 also starts from the URLs the seed hosts' sitemaps and feeds
  // announce (robots.txt Sitemap: lines; crawl/announce_collector.h); they
  // are queued after the seeds and kept as the round-0 announcements.
  bool seeds_from_sitemaps = false;
  std::string out_dir;              // the crawl directory
  bool resume = false;              // continue the crawl in out_dir
  std::string strategy = "bfs";     // a name from the strategy registry
  std::string topic_file;           // TOML or keyword<TAB>weight; optional for bfs
  int64_t max_pages = 10000;        // DP limit: pages stored with status ok; 0 = no limit
  int max_depth = -1;               // -1 = unlimited
  uint64_t rng_seed = 1;            // strategy RNG seed
  // One page at a time, each fully processed (its links queued) before the
  // next is selected: with the same rng_seed, a static web gives the same
  // crawl, page for page. Slower; for experiments that need exact replays.
  bool deterministic = false;

  // --- scope ---
  std::vector<std::string> include_hosts;   // if non-empty, only these (suffix match)
  std::vector<std::string> exclude_hosts;
  std::vector<std::string> include_regex;   // if non-empty, URL must match one
  std::vector<std::string> exclude_regex;
  bool follow_nofollow = false;     // follow rel=nofollow / meta nofollow links
  bool dedup_ignore_scheme = true;  // http://h/p and https://h/p are one page

  // --- politeness ---
  bool respect_robots = true;
  bool fetch_tdmrep = false;  // fetch /.well-known/tdmrep.json after robots.txt
  double delay_s = 1.0;             // min seconds between requests to a host
  int per_host_connections = 2;
  int concurrency = 64;             // global in-flight transfers
  int64_t max_pages_per_host = 0;   // 0 = unlimited
  int max_retries = 2;              // transient failures (timeouts, 429, 503)
  // Back-off (docs/ARCHITECTURE.md "Back-off and failure budget"): a URL's
  // n-th retry waits retry_delay_s * 2^(n-1); host-wide back-off (429/503,
  // DNS, refused connect, repeated failures) is capped at backoff_max_s; a
  // host with host_failure_budget consecutive failures is given up and its
  // remaining URLs are recorded as host_failed (0 = never).
  double retry_delay_s = 2.0;
  double backoff_max_s = 60.0;
  double max_retry_after_s = 120.0;  // longer Retry-After values are capped
  int host_failure_budget = 6;
  // URL traps (crawl/url_trap.h): per-host budget of URLs per path pattern
  // (0 = off) and a cap on query parameters (-1 = off); refused URLs are
  // recorded as trap_refused.
  int64_t max_urls_per_pattern = 1000;
  int max_url_params = 10;
  // Queued links kept in RAM, overall and per host (>= 2 each); the rest
  // wait in the crawl directory's spill file (frontier/spill_file.h) and
  // come back best first. A queued link in RAM costs ~200-320 bytes, a
  // spilled one ~20-36 (docs/guides/performance.md, memory model): the default's
  // 10^6 take ~0.25 GB; more RAM saves the spill's CPU (sorting, writing,
  // reloading).
  int64_t queue_in_ram = 1'000'000;
  int64_t queue_in_ram_per_host = 10'000;
  // Best-first strategies: fetch a link only when its score is within this
  // of the best queued link on any (busy or delayed) host; < 0 = off. See
  // FrontierOptions::focus_tolerance. Off by default: measured on the dev
  // web (networking, best-first, 2,000 pages) the gate LOWERED recall from
  // 0.40 to 0.29 -- strict best-first order sinks the budget into the
  // link-dense host it first likes, while filling idle connections across
  // hosts acts as exploration.
  double focus_tolerance = -1;
  // At most this many pages are selected but not processed yet (being
  // fetched, or fetched and waiting for / in the parse pool); 0 = no limit
  // but concurrency and the parse backlog (4 x concurrency). Every page in
  // that window was chosen without its parents' links in the frontier. With
  // no limit the window's size is set by timing (a slow parse pool lets
  // ~320 pages pile up, a fast one few), and so was the crawl order: best-
  // first recall@5,000 on the dev web ranged 0.48-0.72 between runs. A fixed
  // window makes the lag the same on any machine; 64 (= the default
  // concurrency, so fetching is never starved) measured best: recall 0.83,
  // against 0.31-0.33 at 8-16 where best-first sinks into one link-dense
  // host (docs/notebook/baselines.md, "Reproducibility").
  int focus_window = 64;

  // --- fetching ---
  std::string user_agent =
      "topicrawl/0.1 (+https://github.com/topicrawl/topicrawl)";
  std::string robots_agent = "topicrawl";   // product token for robots.txt
  std::vector<std::string> connect_to;      // curl --connect-to syntax
  std::vector<std::string> resolve;         // curl --resolve syntax (not exempt)
  std::string cacert;
  std::string proxy;
  bool allow_private = false;
  double connect_timeout_s = 10;
  double total_timeout_s = 60;
  double low_speed_time_s = 20;             // abort below 1 KB/s for this long
  int64_t max_body_bytes = 10 << 20;
  int max_redirects = 5;
  // Idle connections kept for reuse (0: libcurl's default); capped at a
  // quarter of the open-file limit (FetcherOptions::connection_cache_size).
  int64_t connection_cache = 1024;

  // --- processing ---
  int parse_threads = 2;
  bool store_links = true;          // write every outlink to the links table
  // The links table keeps each link's text context and scoring explanation
  // too (collect-links, classifier exports). Off by default (issue 12): they
  // were ~200 of a stored link's ~300 bytes; URL, anchor and score remain.
  // It also keeps the admitting link's explanation in frontier rows (~120 of
  // a row's ~225 bytes).
  bool store_link_details = false;
  // A page whose SimHash is within 3 bits of a stored page's is stored with
  // near_dup_of; its outlinks are still followed unless this is false.
  bool near_duplicate_follow_links = true;
  bool write_warc = true;  // a WARC/1.1 record per fetch in DIR/warc/
  std::string warc_compression = "gzip";  // or "zstd": .warc.zst (store/warc_writer.h)
  int progress_interval_ms = 1000;  // stderr progress line cadence; 0 = off
  // Seconds between saves of the strategy's learned state (DIR/state/
  // strategy.bin, also saved at the end): a kill -9 loses at most this much
  // learning. A save slower than 2 % of it stretches the interval.
  double state_interval_s = 10;

  // Render pages in headless Chromium (docs/guides/javascript.md): never,
  // auto (per host, render/render_decider.h) or always.
  std::string render = "never";
  int render_workers = 2;        // Chromium processes
  int render_tabs = 6;           // pages rendered at once per Chromium process
  double render_timeout_s = 10;  // time cap of one page's render, seconds
  // A Chromium whose processes use more than this (RSS, MB) is replaced.
  int64_t render_browser_mb = 1024;
  // A Chromium is replaced after rendering this many pages.
  int render_pages_per_browser = 1000;
  // auto: pages rendered per host as samples before its decision.
  int render_samples = 2;
  // auto: at most this share of the crawl's pages is rendered.
  double render_max_share = 0.1;
};

// Reads a seeds file: one URL per line ('#' comments, blank lines skipped), or
// a TSV whose header has a `url` or `home_url` column. Errors name the line.
StatusOr<std::vector<std::string>> ReadSeedsFile(const std::string& path);

// Unless config->resume: reads config->seeds_file (required) into
// config->seeds. Then ValidateCrawlConfig.
Status LoadSeedsAndValidate(CrawlConfig* config);

// Applies a TOML configuration file onto *config. Unknown keys, wrong types
// and out-of-range values are errors naming the key (and line when known).
Status LoadCrawlConfigToml(const std::string& path, CrawlConfig* config);

// Checks cross-field constraints (positive limits, known formats...).
Status ValidateCrawlConfig(const CrawlConfig& config);

// The effective configuration as TOML (the crawl directory's snapshot);
// LoadCrawlConfigToml of this text reproduces the same config.
std::string CrawlConfigToToml(const CrawlConfig& config);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CRAWL_CONFIG_H_
