// Internals of the API server shared by its files: the per-crawl state, the
// Impl class and small request/response helpers. api_server.cc holds the
// listener, security checks and static assets; one routes_*.cc file a
// resource (status and hosts, pages, search, control, metrics).
// Not a public header: only src/server/*.cc include it.
#ifndef TOPICRAWL_SERVER_API_SERVER_IMPL_H_
#define TOPICRAWL_SERVER_API_SERVER_IMPL_H_

#include <httplib.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "crawl/crawl_monitor.h"
#include "crawl/progress_eta.h"
#include "eval/labels.h"
#include "nlohmann/json.hpp"
#include "search/search_index.h"
#include "store/crawl_db_reader.h"
#include "server/prometheus_text.h"
#include "url/url.h"

#include "server/api_server.h"

namespace topicrawl {
namespace api_internal {

using nlohmann::json;

inline std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

inline json ParseMaybeJson(const std::string& s) {
  if (s.empty()) return nullptr;
  json j = json::parse(s, nullptr, false);
  if (j.is_discarded()) return s;
  return j;
}

// Aggregates of a crawl read from crawl.db, updated incrementally (pages
// are append-only, ids increase): counters, per-host counts, the rate
// series over fetched_at, recent relevant pages, the harvest window.
struct DbAggregate {
  int64_t last_id = 0;
  int64_t pages_ok = 0, pages_failed = 0, relevant = 0, robots_denied = 0, bytes = 0;
  int64_t first_ms = 0, last_ms = 0;
  struct Host {
    int64_t fetched = 0, failed = 0;
    std::string last_status;
  };
  std::map<std::string, Host> hosts;
  std::map<std::string, int64_t> content_types;  // ok pages by media type
  std::vector<SeriesPoint> series;
  std::deque<RecentPage> recent;
  std::deque<bool> window;
  int64_t window_relevant = 0;
  // URLs still queued. Counting them reads the whole frontier (schema 4:
  // the `frontier` view groups the append-only log), seconds at 10^7
  // rows, so it is cached: recounted only when pages were added since,
  // and then at most every kQueueRecountS seconds.
  int64_t queue = 0;
  int64_t queue_at_id = -1;  // last_id when counted (-1: never)
  std::chrono::steady_clock::time_point queue_counted_at{};
};

struct Recall {
  int64_t last_id = 0;
  std::unordered_set<std::string> found;  // canonical relevant URLs fetched
  int64_t pages_ok = 0;
  std::vector<std::pair<int64_t, double>> series;  // (pages ok, recall)
};

struct CrawlState {
  std::string dir;
  CrawlMonitor* monitor = nullptr;
  std::mutex mu;  // guards everything below
  std::unique_ptr<CrawlDbReader> db;
  std::unique_ptr<SearchIndex> search;
  double beta = -2;  // -2: not read yet
  DbAggregate agg;
  Recall recall;
};

inline void Reply(httplib::Response& res, const json& j, int status = 200) {
  res.status = status;
  res.set_content(Dump(j), "application/json; charset=utf-8");
}
inline void Error(httplib::Response& res, int status, const std::string& message) {
  Reply(res, json{{"error", message}}, status);
}
inline int64_t IntParam(const httplib::Request& req, const char* name, int64_t dflt, int64_t lo,
                 int64_t hi) {
  if (!req.has_param(name)) return dflt;
  const std::string v = req.get_param_value(name);
  char* end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') return dflt;
  return std::clamp<int64_t>(x, lo, hi);
}
inline bool BoolParam(const httplib::Request& req, const char* name) {
  if (!req.has_param(name)) return false;
  const std::string v = req.get_param_value(name);
  return v == "1" || v == "true" || v == "yes";
}
inline std::string HostOfHeader(const std::string& host_header) {
  // "name:port" or "[v6]:port" -> name
  if (!host_header.empty() && host_header[0] == '[') {
    size_t close = host_header.find(']');
    return host_header.substr(0, close == std::string::npos ? host_header.size() : close + 1);
  }
  return host_header.substr(0, host_header.rfind(':') == std::string::npos
                                   ? host_header.size()
                                   : host_header.rfind(':'));
}
inline json RecentJson(const RecentPage& p) {
  return json{{"id", p.id},         {"url", p.url},     {"title", p.title},
              {"relevance", p.relevance}, {"link_score", p.link_score}, {"depth", p.depth},
              {"fetched_at", p.fetched_at_ms}};
}

}  // namespace api_internal

class ApiServer::Impl {
 public:
  using json = nlohmann::json;
  using CrawlState = api_internal::CrawlState;
  ServerOptions options;
  std::string host;
  int port = 0;
  bool loopback = true;
  httplib::Server server;
  std::thread thread;
  std::vector<std::unique_ptr<CrawlState>> crawls;
  std::optional<eval::LabelSet> labels;
  std::mutex stop_mu;
  std::condition_variable stop_cv;
  bool stop_requested = false;

  Status Init();
  // One function a resource (api_server.cc, server/routes_*.cc).
  void Routes();
  void StatusRoutes();   // /api/crawls, /api/status, /api/hosts
  void PagesRoutes();    // /api/pages, /api/pages/{id}
  void ListPages(const httplib::Request& req, httplib::Response& res);
  void PageDetail(const httplib::Request& req, httplib::Response& res);
  void SearchRoutes();   // /api/search
  void ControlRoutes();  // POST /api/seeds, POST /api/stop
  void MetricsRoutes();  // /metrics
  bool Authorized(const httplib::Request& req, httplib::Response& res);
  CrawlState* Crawl(const httplib::Request& req, httplib::Response& res);
  CrawlDbReader* Db(CrawlState* c);  // REQUIRES c->mu
  double Beta(CrawlState* c);        // REQUIRES c->mu
  void UpdateAggregate(CrawlState* c);
  std::optional<json> RecallJson(CrawlState* c);
  json StatusJson(CrawlState* c, bool with_series);
  json HostsJson(CrawlState* c, const std::string& sort, size_t limit);
  void Metrics(std::string* out);
  void RequestStop() {
    std::lock_guard<std::mutex> lock(stop_mu);
    stop_requested = true;
    stop_cv.notify_all();
  }
};

}  // namespace topicrawl

#endif  // TOPICRAWL_SERVER_API_SERVER_IMPL_H_
