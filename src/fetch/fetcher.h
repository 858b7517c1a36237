// Fetcher: downloads CrawlTasks and reports each outcome as a FetchResult.
//
// The production implementation (NewCurlFetcher) drives every transfer from
// one libcurl multi handle on the thread that calls Poll(): no thread per
// connection, connections kept alive and reused (HTTP/1.1; HTTP/2 only over
// TLS, never cleartext h2c), gzip/br/zstd bodies decoded. Redirects are
// followed here, not inside libcurl, so that every hop is resolved with
// ResolveLink(), recorded in FetchResult::redirect_chain, and checked for
// loops, the hop limit and the private-address rule.
//
// Every submitted task comes back from Poll() exactly once, also on failure:
// failures are values (FetchResult::status + error), never exceptions.
//
// What a FetchResult holds:
//   redirect_chain  every URL requested, in order: task.url first, then each
//                   followed Location resolved with ResolveLink() (canonical);
//                   size() == 1 without redirects. final_url is the last one.
//   status          kOk (2xx, body accepted), kNotModified (304),
//                   kHttpError (other 3xx/4xx/5xx; body kept up to the size
//                   cap), kContentTypeRejected, kTooLarge, kRedirectLoop (a
//                   Location already in the chain), kTooManyRedirects,
//                   kFilteredOut (non-http(s) URL or redirect target),
//                   kTimeout (connect, total or low-speed), kConnectError
//                   (refused, reset, truncated), kDnsError, kTlsError,
//                   kPrivateAddress, kOtherError. `error` carries the reason
//                   (libcurl's message for transport failures).
//   http_code, content_type, etag, last_modified, retry_after_s,
//   response_head   from the last response received.
//   request_head    the last request sent (HTTP/2 requests rendered as
//                   HTTP/1-style text by libcurl).
//   fetched_at_unix_ms  Clock::UnixMillis() at Submit(); fetch_seconds
//                   spans Submit() to completion, all hops included.
#ifndef TOPICRAWL_FETCH_FETCHER_H_
#define TOPICRAWL_FETCH_FETCHER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/crawl_task.h"
#include "core/status.h"

namespace topicrawl {

// What a transfer is for; it decides which bodies are accepted.
enum class FetchKind {
  kPage,    // HTML page: Content-Type filter and max_body_bytes apply
  kRobots,  // robots.txt: any Content-Type; body truncated (not failed) at
            // max_robots_bytes, as RFC 9309 section 2.5 allows
  kSitemap, // sitemap or feed: any Content-Type (servers send text/xml,
            // application/gzip, application/octet-stream ...); bodies over
            // max_sitemap_bytes fail with kTooLarge
  kResource,  // a rendered page's subresource (script, JSON, stylesheet):
              // any Content-Type; max_body_bytes applies as for pages
};

// Every default is the production default.
struct FetcherOptions {
  // Sent on every request. Name the crawler and give a contact URL.
  std::string user_agent = "topicrawl/0.1 (+https://github.com/topicrawl/topicrawl)";
  // curl --connect-to syntax "HOST:PORT:CONNECT-HOST:CONNECT-PORT"
  // (repeatable). An empty HOST matches any host, an empty PORT any port;
  // e.g. ":80:127.0.0.1:8080" sends every http:// request to a local server.
  // Hosts mapped here are exempt from the private-address rule.
  std::vector<std::string> connect_to;
  // curl --resolve syntax "HOST:PORT:ADDRESS[,ADDRESS]" (repeatable): the
  // answer DNS would give, without /etc/hosts. Unlike connect_to, a name
  // resolved here is NOT exempt from the private-address rule (tests use it
  // to play a public name that resolves to 127.0.0.1).
  std::vector<std::string> resolve;
  std::string cacert;  // PEM CA bundle file; empty: the system store
  // e.g. "http://127.0.0.1:3128"; empty: no proxy (environment proxy
  // variables are ignored). Through a proxy the fetcher only sees the proxy's
  // address, so the private-address rule is the proxy's job.
  std::string proxy;

  double connect_timeout_s = 10;
  // Whole fetch including all redirect hops.
  double total_timeout_s = 60;
  // Abort when fewer than low_speed_bytes_per_s arrive for low_speed_time_s
  // (libcurl counts whole seconds; 0 disables).
  long low_speed_bytes_per_s = 512;
  long low_speed_time_s = 20;

  // Decoded body limit for pages; larger bodies fail with kTooLarge.
  size_t max_body_bytes = 10u << 20;
  // robots.txt bodies are cut (status stays kOk) at this size.
  size_t max_robots_bytes = 512u << 10;
  // Sitemap and feed bodies (as sent: a .xml.gz file counts compressed;
  // the sitemap parser caps the inflated XML at 50 MiB on its own).
  size_t max_sitemap_bytes = 50u << 20;

  // Media types accepted for kPage (lower case, no parameters). Checked on the
  // response headers; anything else aborts early with kContentTypeRejected.
  std::vector<std::string> accepted_content_types = {"text/html",
                                                     "application/xhtml+xml"};
  // A page without a Content-Type header is accepted (the parser sniffs).
  bool accept_missing_content_type = true;

  int max_redirects = 5;  // more hops: kTooManyRedirects
  // Connect to private, loopback, link-local, unique-local, CGNAT and
  // unspecified addresses. Off by default (SSRF protection); hosts mapped by
  // connect_to are always allowed. The rule is applied to the address
  // actually connected to (CURLOPT_OPENSOCKETFUNCTION), on every hop, so a
  // public name that resolves -- or re-resolves (DNS rebinding) -- to a
  // private address is refused: there is no separate lookup to race.
  // A refusal is kPrivateAddress ("refused_address") with the address and
  // the rule in `error`.
  bool allow_private = false;

  bool http2 = true;                 // HTTP/2 over TLS when the server offers it
  long max_host_connections = 0;     // per host; 0: unlimited (the frontier
                                     // enforces politeness)
  long max_total_connections = 0;    // 0: unlimited
  // Idle connections kept for reuse (CURLMOPT_MAXCONNECTS; 0: libcurl's
  // default). A crawl that spreads over more hosts than the cache holds
  // closes the oldest idle connection for every new one, and libcurl 7.88
  // finds it by walking the whole cache: 1,024 keeps a connection to each
  // of ~1,000 busy hosts (docs/notebook/performance.md, "connection cache").
  // NewCurlFetcher keeps it within a quarter of the open-file limit
  // (EffectiveConnectionCache).
  long connection_cache_size = 1024;
};

// The connection cache a fetcher really uses: `wanted`, but at most a
// quarter of `open_file_limit` (the process's soft RLIMIT_NOFILE; 0 or
// RLIM_INFINITY-like huge values: no cap) and at least 16, so that cached
// sockets leave room for the transfers in flight, the store and the WARC
// files. 0 stays 0 (libcurl's default, 4 x the transfers in flight).
long EffectiveConnectionCache(long wanted, uint64_t open_file_limit);

// Checks connect_to syntax, timeouts and sizes. NewCurlFetcher with invalid
// options still works, but the invalid parts fail every affected fetch.
Status ValidateFetcherOptions(const FetcherOptions& options);

class Fetcher {
 public:
  virtual ~Fetcher() = default;

  // Starts downloading `task.url` (an absolute http(s) URL). Never blocks.
  // Sends task.etag / task.last_modified as If-None-Match /
  // If-Modified-Since when non-empty (a 304 answer gives kNotModified).
  // Owner thread only (the thread that calls Poll()).
  virtual void Submit(CrawlTask task, FetchKind kind) = 0;

  // Runs the event loop for at most `max_wait` and returns the transfers that
  // finished (at least one, unless the time ran out, Wakeup() was called or
  // nothing is in flight and `max_wait` passed). Owner thread only.
  virtual std::vector<FetchResult> Poll(Duration max_wait) = 0;

  // Makes a blocked (or the next) Poll() return early. Thread-safe.
  virtual void Wakeup() = 0;

  // Tasks submitted and not yet returned by Poll(). Thread-safe.
  virtual size_t InFlight() const = 0;
};

// `clock` (not owned, must outlive the fetcher) stamps fetched_at and
// fetch_seconds and resolves Retry-After dates.
std::unique_ptr<Fetcher> NewCurlFetcher(const FetcherOptions& options, Clock* clock);

}  // namespace topicrawl

#endif  // TOPICRAWL_FETCH_FETCHER_H_
