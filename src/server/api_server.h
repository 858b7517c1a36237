// ApiServer: the REST API, /metrics and the dashboard of one or more crawl
// directories (docs/guides/api.md), on cpp-httplib.
//
// Two kinds of crawl are served:
//   live       the crawl runs in this process: counters, host table and the
//              last relevant pages come from its CrawlMonitor snapshot
//              (crawl/crawl_monitor.h); seeds and stop go through the monitor
//              to the crawl thread. The server never touches the frontier
//              or the store writer.
//   read-only  `topicrawl serve DIR...`: everything from crawl.db through a
//              WAL reader (a crawl running in another process is fine).
// Pages, page details, links and search always come from crawl.db and
// DIR/search/ (read-only connections per crawl).
//
// Security (crawled content is hostile):
//   - binds 127.0.0.1 unless told otherwise; any other address requires a
//     token (Start fails without one); with a token every /api and /metrics
//     request needs `Authorization: Bearer TOKEN` (constant-time compare)
//     or gets 401;
//   - on a loopback bind, requests whose Host is not a loopback name are
//     refused (403): no DNS rebinding;
//   - POST requests must be same-origin (Origin / Sec-Fetch-Site) and
//     application/json: a cross-site form or fetch cannot pass (403);
//   - request bodies are bounded (max_body_bytes, 413 beyond);
//   - responses are JSON (crawled strings are data, never markup); the
//     dashboard inserts them with textContent only, under a CSP that allows
//     no inline script.
#ifndef TOPICRAWL_SERVER_API_SERVER_H_
#define TOPICRAWL_SERVER_API_SERVER_H_

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class CrawlMonitor;

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // ADDR:PORT; port 0 = any free port
  std::string token;                      // bearer token; required off loopback
  size_t max_body_bytes = 64 * 1024;
  std::string labels_file;  // optional ground truth: live recall estimate
};

struct ServedCrawl {
  std::string dir;
  CrawlMonitor* monitor = nullptr;  // null: read-only
};

class ApiServer {
 public:
  // Binds and starts serving on a background thread. Errors: bad address,
  // non-loopback without token, port in use, unreadable labels file.
  static StatusOr<std::unique_ptr<ApiServer>> Start(const ServerOptions& options,
                                                    std::vector<ServedCrawl> crawls);
  ~ApiServer();  // Stop()
  int port() const;
  std::string url() const;  // http://ADDR:PORT/
  void Stop();
  // Blocks until POST /api/stop (or Interrupt()), or `timeout`. True when
  // a stop was requested.
  bool WaitForStopRequest(std::chrono::milliseconds timeout);
  void Interrupt();

 private:
  class Impl;
  explicit ApiServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "ADDR:PORT" ("[::1]:PORT" for IPv6) -> host, port.
Status ParseListenAddress(const std::string& listen, std::string* host, int* port);
bool IsLoopbackHost(std::string_view host);
// Compares in time that depends only on the lengths.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// The dashboard (server/dashboard_assets.cc): one HTML page, its script and
// style sheet, no external assets.
std::string_view DashboardHtml();
std::string_view DashboardJs();
std::string_view DashboardCss();

}  // namespace topicrawl

#endif  // TOPICRAWL_SERVER_API_SERVER_H_
