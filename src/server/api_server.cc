#include "server/api_server.h"

#include <httplib.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "crawl/crawl_monitor.h"
#include "eval/labels.h"
#include "nlohmann/json.hpp"
#include "store/crawl_db_reader.h"
#include "search/search_index.h"
#include "server/prometheus_text.h"
#include "url/url.h"

namespace topicrawl {

using nlohmann::json;

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Every byte of the longer string is visited whatever the content.
  const size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

bool IsLoopbackHost(std::string_view host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  return host.rfind("127.", 0) == 0;
}

Status ParseListenAddress(const std::string& listen, std::string* host, int* port) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::Error("listen address must be ADDR:PORT, got '" + listen + "'");
  }
  std::string h = listen.substr(0, colon);
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  const std::string p = listen.substr(colon + 1);
  char* end = nullptr;
  long v = std::strtol(p.c_str(), &end, 10);
  if (p.empty() || *end != '\0' || v < 0 || v > 65535) {
    return Status::Error("bad port in listen address '" + listen + "'");
  }
  *host = h;
  *port = static_cast<int>(v);
  return Status::Ok();
}

namespace {

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json ParseMaybeJson(const std::string& s) {
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
  std::vector<SeriesPoint> series;
  std::deque<RecentPage> recent;
  std::deque<bool> window;
  int64_t window_relevant = 0;
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

}  // namespace

class ApiServer::Impl {
 public:
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
  void Routes();
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

namespace {

void Reply(httplib::Response& res, const json& j, int status = 200) {
  res.status = status;
  res.set_content(Dump(j), "application/json; charset=utf-8");
}
void Error(httplib::Response& res, int status, const std::string& message) {
  Reply(res, json{{"error", message}}, status);
}
int64_t IntParam(const httplib::Request& req, const char* name, int64_t dflt, int64_t lo,
                 int64_t hi) {
  if (!req.has_param(name)) return dflt;
  const std::string v = req.get_param_value(name);
  char* end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') return dflt;
  return std::clamp<int64_t>(x, lo, hi);
}
bool BoolParam(const httplib::Request& req, const char* name) {
  if (!req.has_param(name)) return false;
  const std::string v = req.get_param_value(name);
  return v == "1" || v == "true" || v == "yes";
}
std::string HostOfHeader(const std::string& host_header) {
  // "name:port" or "[v6]:port" -> name
  if (!host_header.empty() && host_header[0] == '[') {
    size_t close = host_header.find(']');
    return host_header.substr(0, close == std::string::npos ? host_header.size() : close + 1);
  }
  return host_header.substr(0, host_header.rfind(':') == std::string::npos
                                   ? host_header.size()
                                   : host_header.rfind(':'));
}
json RecentJson(const RecentPage& p) {
  return json{{"id", p.id},         {"url", p.url},     {"title", p.title},
              {"relevance", p.relevance}, {"link_score", p.link_score}, {"depth", p.depth},
              {"fetched_at", p.fetched_at_ms}};
}

}  // namespace

Status ApiServer::Impl::Init() {
  Status s = ParseListenAddress(options.listen, &host, &port);
  if (!s.ok()) return s;
  loopback = IsLoopbackHost(host);
  if (!loopback && options.token.empty()) {
    return Status::Error("listening on " + host +
                         " (not loopback) requires --token or --token-file");
  }
  if (!options.labels_file.empty()) {
    auto l = eval::LabelSet::Load(options.labels_file);
    if (!l.ok()) return l.status();
    labels.emplace(std::move(l).value());
  }
  server.set_payload_max_length(options.max_body_bytes);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.set_keep_alive_max_count(100);
  Routes();
  int bound;
  if (port == 0) {
    bound = server.bind_to_any_port(host);
  } else {
    bound = server.bind_to_port(host, port) ? port : -1;
  }
  if (bound <= 0) return Status::Error("cannot listen on " + options.listen);
  port = bound;
  thread = std::thread([this] {
    pthread_setname_np(pthread_self(), "tr-http");
    server.listen_after_bind();
  });
  // Stop() right after Start() must find the loop running (httplib's stop()
  // does nothing before listen_after_bind() has started).
  for (int i = 0; i < 500 && !server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return Status::Ok();
}

bool ApiServer::Impl::Authorized(const httplib::Request& req, httplib::Response& res) {
  if (options.token.empty()) return true;
  const std::string auth = req.get_header_value("Authorization");
  static const std::string kBearer = "Bearer ";
  std::string_view given;
  if (auth.size() > kBearer.size() && auth.compare(0, kBearer.size(), kBearer) == 0) {
    given = std::string_view(auth).substr(kBearer.size());
  }
  if (ConstantTimeEquals(given, options.token)) return true;
  res.set_header("WWW-Authenticate", "Bearer realm=\"topicrawl\"");
  Error(res, 401, "missing or wrong bearer token");
  return false;
}

CrawlState* ApiServer::Impl::Crawl(const httplib::Request& req, httplib::Response& res) {
  const int64_t i = IntParam(req, "crawl", 0, 0, 1 << 20);
  if (i >= static_cast<int64_t>(crawls.size())) {
    Error(res, 404, "no crawl " + std::to_string(i));
    return nullptr;
  }
  return crawls[static_cast<size_t>(i)].get();
}

CrawlDbReader* ApiServer::Impl::Db(CrawlState* c) {
  if (!c->db) {
    auto db = CrawlDbReader::Open(c->dir);
    if (!db.ok()) return nullptr;
    c->db = std::move(db).value();
  }
  return c->db.get();
}

double ApiServer::Impl::Beta(CrawlState* c) {
  if (c->beta > -2) return c->beta;
  CrawlDbReader* db = Db(c);
  if (!db) return -1;
  auto b = db->QueryText("SELECT value FROM meta WHERE key = 'beta'");
  c->beta = -1;
  if (b) {
    char* end = nullptr;
    double v = std::strtod(b->c_str(), &end);
    if (end != b->c_str()) c->beta = v;
  }
  return c->beta;
}

void ApiServer::Impl::UpdateAggregate(CrawlState* c) {
  CrawlDbReader* db = Db(c);
  if (!db) return;
  const double beta = Beta(c);
  DbAggregate& a = c->agg;
  db->Query(
      "SELECT id, url, status, relevance, size, fetched_at, title, link_score, depth "
      "FROM pages WHERE id > ?1 ORDER BY id",
      {a.last_id}, [&](const DbRow& r) {
        a.last_id = r.Int(0);
        const std::string url = r.Text(1);
        const std::string status = r.Text(2);
        const bool ok = status == "ok";
        const bool relevant = ok && beta >= 0 && !r.IsNull(3) && r.Double(3) >= beta;
        const int64_t at = r.Int(5);
        if (a.first_ms == 0 || at < a.first_ms) a.first_ms = at;
        a.last_ms = std::max(a.last_ms, at);
        DbAggregate::Host& h = a.hosts[UrlHostPort(url)];
        ++(ok ? h.fetched : h.failed);
        h.last_status = status;
        ++(ok ? a.pages_ok : a.pages_failed);
        if (status == "robots_denied") ++a.robots_denied;
        if (!r.IsNull(4) && r.Int(4) > 0) a.bytes += r.Int(4);
        if (ok) {
          a.relevant += relevant;
          a.window.push_back(relevant);
          a.window_relevant += relevant;
          if (a.window.size() > 500) {
            a.window_relevant -= a.window.front();
            a.window.pop_front();
          }
        }
        if (relevant) {
          a.recent.push_front(RecentPage{r.Int(0), url, r.Text(6), r.Double(3), r.Double(7),
                                         static_cast<uint32_t>(r.Int(8)), at});
          if (a.recent.size() > 50) a.recent.pop_back();
        }
        const double t = (at - a.first_ms) / 1000.0;
        if (a.series.empty() || t - a.series.back().t >= 1.0) {
          a.series.push_back({t, a.pages_ok, a.pages_failed, a.relevant});
          if (a.series.size() > 3600) {
            size_t j = 0;
            for (size_t i = 0; i < a.series.size(); i += 2) a.series[j++] = a.series[i];
            a.series.resize(j);
          }
        } else {
          a.series.back() = {a.series.back().t, a.pages_ok, a.pages_failed, a.relevant};
        }
        return true;
      });
}

std::optional<json> ApiServer::Impl::RecallJson(CrawlState* c) {
  if (!labels) return std::nullopt;
  CrawlDbReader* db = Db(c);
  if (db) {
    Recall& r = c->recall;
    db->Query(
        "SELECT id, url, final_url FROM pages WHERE id > ?1 AND status = 'ok' ORDER BY id",
        {r.last_id}, [&](const DbRow& row) {
          r.last_id = row.Int(0);
          ++r.pages_ok;
          for (int col : {1, 2}) {
            const std::string u = row.Text(col);
            if (u.empty()) continue;
            const std::string canon = eval::CanonicalizeLabelUrl(u);
            if (labels->relevant().count(canon)) r.found.insert(canon);
          }
          const double recall =
              labels->relevant_count() ? static_cast<double>(r.found.size()) /
                                             static_cast<double>(labels->relevant_count())
                                       : 0.0;
          if (r.series.empty() || r.pages_ok - r.series.back().first >= 10) {
            r.series.emplace_back(r.pages_ok, recall);
            if (r.series.size() > 2000) {
              size_t j = 0;
              for (size_t i = 0; i < r.series.size(); i += 2) r.series[j++] = r.series[i];
              r.series.resize(j);
            }
          }
          return true;
        });
  }
  const Recall& r = c->recall;
  const double total = static_cast<double>(labels->relevant_count());
  json series = json::array();
  for (const auto& [n, v] : r.series) series.push_back({n, v});
  if (!r.series.empty() && r.series.back().first != r.pages_ok) {
    series.push_back({r.pages_ok, total > 0 ? r.found.size() / total : 0.0});
  }
  return json{{"relevant_labelled", labels->relevant_count()},
              {"relevant_found", r.found.size()},
              {"recall", total > 0 ? r.found.size() / total : 0.0},
              {"series", series}};
}

json ApiServer::Impl::StatusJson(CrawlState* c, bool with_series) {
  json j;
  j["dir"] = c->dir;
  j["live"] = c->monitor != nullptr;
  std::vector<SeriesPoint> series;
  int64_t window = 0, window_rel = 0, pages_ok = 0;
  if (c->monitor) {
    std::shared_ptr<const CrawlSnapshot> s = c->monitor->Snapshot();
    const CrawlStats& st = s->stats;
    j["state"] = s->state;
    j["strategy"] = s->strategy;
    j["beta"] = s->beta >= 0 ? json(s->beta) : json(nullptr);
    j["counters"] = {{"pages_ok", st.pages_ok},         {"pages_failed", st.pages_failed},
                     {"relevant", st.relevant},         {"robots_denied", st.robots_denied},
                     {"retries", st.retries},           {"links_seen", st.links_seen},
                     {"links_queued", st.links_queued}, {"bytes", st.bytes}};
    j["queue"] = st.queued;
    j["hosts"] = st.hosts;
    j["in_flight"] = st.in_flight;
    j["elapsed_s"] = st.elapsed_s;
    int backed_off = 0;
    for (const HostSnapshot& h : s->hosts) backed_off += h.backoff_level > 0;
    j["hosts_backed_off"] = backed_off;
    j["published_at"] = s->published_at_ms;
    series = s->series;
    window = s->harvest_window;
    window_rel = s->harvest_window_relevant;
    pages_ok = st.pages_ok;
    j["round"] = nullptr;
  } else {
    UpdateAggregate(c);
    const DbAggregate& a = c->agg;
    CrawlDbReader* db = Db(c);
    const bool finished =
        db && db->QueryText("SELECT value FROM meta WHERE key = 'finished_at'").has_value();
    j["state"] = finished ? "finished" : "unknown";
    j["strategy"] = db ? db->QueryText("SELECT value FROM meta WHERE key = 'strategy'")
                             .value_or("")
                       : "";
    j["beta"] = Beta(c) >= 0 ? json(Beta(c)) : json(nullptr);
    j["counters"] = {{"pages_ok", a.pages_ok},
                     {"pages_failed", a.pages_failed},
                     {"relevant", a.relevant},
                     {"robots_denied", a.robots_denied},
                     {"bytes", a.bytes}};
    j["queue"] = db ? db->QueryInt("SELECT count(*) FROM frontier WHERE state = 0").value_or(0)
                    : 0;
    j["hosts"] = a.hosts.size();
    j["in_flight"] = 0;
    j["elapsed_s"] = (a.last_ms - a.first_ms) / 1000.0;
    j["hosts_backed_off"] = 0;
    series = a.series;
    window = static_cast<int64_t>(a.window.size());
    window_rel = a.window_relevant;
    pages_ok = a.pages_ok;
    j["round"] = nullptr;
  }
  // pages/s over the last ~5 s of the series.
  double rate = 0;
  if (series.size() >= 2) {
    const SeriesPoint& b = series.back();
    size_t k = series.size() - 1;
    while (k > 0 && b.t - series[k - 1].t <= 5.0) --k;
    if (k == series.size() - 1) k = series.size() - 2;
    const SeriesPoint& a = series[k];
    if (b.t > a.t) rate = (b.pages_ok - a.pages_ok) / (b.t - a.t);
  }
  j["pages_per_s"] = rate;
  j["harvest"] = {{"window_pages", window},
                  {"window_relevant", window_rel},
                  {"window", window > 0 ? static_cast<double>(window_rel) / window : 0.0},
                  {"total", pages_ok > 0 ? j["counters"]["relevant"].get<double>() / pages_ok
                                         : 0.0}};
  if (with_series) {
    json s = json::array();
    for (const SeriesPoint& p : series) s.push_back({p.t, p.pages_ok, p.pages_failed, p.relevant});
    j["series"] = s;
  }
  auto recall = RecallJson(c);
  j["recall"] = recall ? *recall : json(nullptr);
  if (!c->search) {
    auto idx = SearchIndex::Open(c->dir);
    if (idx.ok()) c->search = std::move(idx).value();
  }
  j["search_indexed"] = c->search ? json(c->search->doc_count()) : json(nullptr);
  return j;
}

json ApiServer::Impl::HostsJson(CrawlState* c, const std::string& sort, size_t limit) {
  std::vector<HostSnapshot> hosts;
  if (c->monitor) {
    hosts = c->monitor->Snapshot()->hosts;
  } else {
    UpdateAggregate(c);
    for (const auto& [name, h] : c->agg.hosts) {
      HostSnapshot s;
      s.host = name;
      s.fetched = h.fetched;
      s.failed = h.failed;
      s.last_status = h.last_status;
      hosts.push_back(std::move(s));
    }
  }
  auto key = [&](const HostSnapshot& h) -> double {
    if (sort == "failed") return static_cast<double>(h.failed);
    if (sort == "queued") return static_cast<double>(h.queued);
    if (sort == "backoff") return h.backoff_level * 1e9 + h.next_fetch_in_s;
    return static_cast<double>(h.fetched);
  };
  if (sort == "host") {
    std::sort(hosts.begin(), hosts.end(),
              [](const HostSnapshot& a, const HostSnapshot& b) { return a.host < b.host; });
  } else {
    std::stable_sort(hosts.begin(), hosts.end(), [&](const HostSnapshot& a,
                                                     const HostSnapshot& b) {
      if (key(a) != key(b)) return key(a) > key(b);
      return a.host < b.host;
    });
  }
  json out = json::array();
  for (size_t i = 0; i < hosts.size() && i < limit; ++i) {
    const HostSnapshot& h = hosts[i];
    std::string state = "idle";
    if (h.held) state = "robots-pending";
    else if (h.backoff_level > 0) state = "backed-off";
    else if (h.in_flight > 0) state = "fetching";
    else if (h.queued > 0) state = h.next_fetch_in_s > 0 ? "waiting" : "ready";
    out.push_back({{"host", h.host},
                   {"fetched", h.fetched},
                   {"failed", h.failed},
                   {"queued", h.queued},
                   {"in_flight", h.in_flight},
                   {"state", c->monitor ? state : "stored"},
                   {"backoff_level", h.backoff_level},
                   {"next_fetch_in_s", std::max(0.0, h.next_fetch_in_s)},
                   {"crawl_delay_s", h.min_delay_s},
                   {"last_status", h.last_status}});
  }
  return json{{"total", hosts.size()}, {"hosts", out}};
}

void ApiServer::Impl::Metrics(std::string* out) {
  PrometheusWriter w;
  struct Values {
    std::map<std::string, std::string> labels;
    json status;
  };
  std::vector<Values> values;
  for (size_t i = 0; i < crawls.size(); ++i) {
    CrawlState* c = crawls[i].get();
    std::lock_guard<std::mutex> lock(c->mu);
    Values v;
    if (crawls.size() > 1) v.labels["crawl"] = std::to_string(i);
    v.status = StatusJson(c, false);
    values.push_back(std::move(v));
  }
  auto family = [&](const char* name, const char* type, const char* help,
                    const std::function<std::optional<double>(const json&)>& get) {
    bool any = false;
    for (const Values& v : values) any = any || get(v.status).has_value();
    if (!any) return;
    w.Family(name, type, help);
    for (const Values& v : values) {
      if (auto x = get(v.status)) w.Sample(*x, v.labels);
    }
  };
  auto counter = [](const char* key) {
    return [key](const json& s) -> std::optional<double> {
      if (!s["counters"].contains(key)) return std::nullopt;
      return s["counters"][key].get<double>();
    };
  };
  auto field = [](const char* key) {
    return [key](const json& s) -> std::optional<double> {
      if (!s.contains(key) || !s[key].is_number()) return std::nullopt;
      return s[key].get<double>();
    };
  };
  family("topicrawl_pages_ok_total", "counter", "Pages stored with status ok (DP).",
         counter("pages_ok"));
  family("topicrawl_pages_failed_total", "counter",
         "Pages stored with any other status (HTTP errors, timeouts, robots-denied, ...).",
         counter("pages_failed"));
  family("topicrawl_pages_relevant_total", "counter",
         "Pages stored ok with relevance >= the topic threshold beta.", counter("relevant"));
  family("topicrawl_robots_denied_total", "counter", "URLs refused by robots.txt.",
         counter("robots_denied"));
  family("topicrawl_fetch_retries_total", "counter", "Transient failures queued again.",
         counter("retries"));
  family("topicrawl_links_seen_total", "counter", "Outlinks found in stored pages.",
         counter("links_seen"));
  family("topicrawl_links_queued_total", "counter", "Links admitted to the frontier.",
         counter("links_queued"));
  family("topicrawl_downloaded_bytes_total", "counter", "Body bytes of stored pages.",
         counter("bytes"));
  family("topicrawl_frontier_queued_links", "gauge", "Links waiting in the frontier.",
         field("queue"));
  family("topicrawl_hosts", "gauge", "Hosts known to the crawl.", field("hosts"));
  family("topicrawl_hosts_backed_off", "gauge", "Hosts in back-off after transient failures.",
         field("hosts_backed_off"));
  family("topicrawl_fetches_in_flight", "gauge", "Transfers in flight.", field("in_flight"));
  family("topicrawl_elapsed_seconds", "gauge", "Seconds since the crawl session started.",
         field("elapsed_s"));
  family("topicrawl_harvest_window_ratio", "gauge",
         "Relevant share of the last pages stored ok (window of 500).",
         [](const json& s) -> std::optional<double> { return s["harvest"]["window"].get<double>(); });
  family("topicrawl_recall_estimate_ratio", "gauge",
         "Relevant labelled pages fetched / relevant labelled pages (with --labels).",
         [](const json& s) -> std::optional<double> {
           if (s["recall"].is_null()) return std::nullopt;
           return s["recall"]["recall"].get<double>();
         });
  family("topicrawl_search_indexed_documents", "gauge", "Documents in the full-text index.",
         field("search_indexed"));
  family("topicrawl_crawl_running", "gauge", "1 while the crawl loop runs in this process.",
         [](const json& s) -> std::optional<double> {
           return s["live"].get<bool>() &&
                          (s["state"] == "running" || s["state"] == "starting")
                      ? 1.0
                      : 0.0;
         });
  *out = w.text();
}

void ApiServer::Impl::Routes() {
  server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Frame-Options", "DENY");
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; script-src 'self'; style-src 'self'; "
                   "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                   "frame-ancestors 'none'; form-action 'none'");
    if (loopback && !IsLoopbackHost(HostOfHeader(req.get_header_value("Host")))) {
      Error(res, 403, "Host header must name this loopback listener");
      return httplib::Server::HandlerResponse::Handled;
    }
    const bool is_asset = req.path == "/" || req.path == "/app.js" || req.path == "/app.css";
    if (!is_asset && !Authorized(req, res)) return httplib::Server::HandlerResponse::Handled;
    if (req.method != "GET" && req.method != "HEAD") {
      const std::string origin = req.get_header_value("Origin");
      const std::string site = req.get_header_value("Sec-Fetch-Site");
      const std::string self = "http://" + req.get_header_value("Host");
      if ((!origin.empty() && origin != self) ||
          (!site.empty() && site != "same-origin" && site != "none")) {
        Error(res, 403, "cross-origin request refused");
        return httplib::Server::HandlerResponse::Handled;
      }
      const std::string ct = req.get_header_value("Content-Type");
      if (ct.rfind("application/json", 0) != 0) {
        Error(res, 415, "POST bodies must be application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(DashboardHtml()), "text/html; charset=utf-8");
  });
  server.Get("/app.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(DashboardJs()), "text/javascript; charset=utf-8");
  });
  server.Get("/app.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(DashboardCss()), "text/css; charset=utf-8");
  });

  server.Get("/api/crawls", [this](const httplib::Request&, httplib::Response& res) {
    json out = json::array();
    for (size_t i = 0; i < crawls.size(); ++i) {
      out.push_back({{"crawl", i}, {"dir", crawls[i]->dir}, {"live", crawls[i]->monitor != nullptr}});
    }
    Reply(res, json{{"crawls", out}});
  });

  server.Get("/api/status", [this](const httplib::Request& req, httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    std::lock_guard<std::mutex> lock(c->mu);
    json j = StatusJson(c, !req.has_param("series") || BoolParam(req, "series"));
    json recent = json::array();
    if (c->monitor) {
      for (const RecentPage& p : c->monitor->Snapshot()->recent_relevant) {
        recent.push_back(RecentJson(p));
      }
    } else {
      for (const RecentPage& p : c->agg.recent) recent.push_back(RecentJson(p));
    }
    j["recent_relevant"] = recent;
    Reply(res, j);
  });

  server.Get("/api/hosts", [this](const httplib::Request& req, httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    std::lock_guard<std::mutex> lock(c->mu);
    const std::string sort = req.has_param("sort") ? req.get_param_value("sort") : "fetched";
    static const std::set<std::string> kSorts = {"fetched", "failed", "queued", "backoff", "host"};
    if (!kSorts.count(sort)) return Error(res, 400, "sort must be one of fetched, failed, queued, backoff, host");
    Reply(res, HostsJson(c, sort, static_cast<size_t>(IntParam(req, "limit", 100, 1, 100000))));
  });

  server.Get("/api/pages", [this](const httplib::Request& req, httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    std::lock_guard<std::mutex> lock(c->mu);
    CrawlDbReader* db = Db(c);
    if (!db) return Error(res, 503, "crawl.db cannot be opened");
    std::string where = "1";
    std::vector<DbArg> args;
    auto arg = [&](DbArg a) {
      args.push_back(std::move(a));
      return "?" + std::to_string(args.size());
    };
    if (BoolParam(req, "relevant")) {
      where += " AND status = 'ok' AND relevance >= " + arg(std::max(0.0, Beta(c)));
    }
    if (req.has_param("status")) where += " AND status = " + arg(req.get_param_value("status"));
    if (req.has_param("q") && !req.get_param_value("q").empty()) {
      std::string like = "%" + req.get_param_value("q") + "%";
      const std::string a = arg(like);
      where += " AND (title LIKE " + a + " OR url LIKE " + a + ")";
    }
    if (req.has_param("host") && !req.get_param_value("host").empty()) {
      const std::string h = req.get_param_value("host");
      const std::string a1 = arg("http://" + h + "/%"), a2 = arg("https://" + h + "/%");
      where += " AND (url LIKE " + a1 + " OR url LIKE " + a2 + ")";
    }
    bool desc = req.has_param("order") && req.get_param_value("order") == "desc";
    if (req.has_param("before")) {
      desc = true;
      where += " AND id < " + arg(IntParam(req, "before", 0, 0, INT64_MAX));
    }
    if (req.has_param("after")) {
      where += " AND id > " + arg(IntParam(req, "after", 0, 0, INT64_MAX));
    }
    const int64_t limit = IntParam(req, "limit", 50, 1, 1000);
    const std::string sql =
        "SELECT id, url, final_url, status, http_code, fetched_at, depth, parent_id, relevance, "
        "link_score, title FROM pages WHERE " + where + " ORDER BY id " +
        (desc ? "DESC" : "ASC") + " LIMIT " + std::to_string(limit);
    json pages = json::array();
    int64_t last = 0;
    Status s = db->Query(sql, args, [&](const DbRow& r) {
      last = r.Int(0);
      pages.push_back({{"id", r.Int(0)},
                       {"url", r.Text(1)},
                       {"final_url", r.Text(2)},
                       {"status", r.Text(3)},
                       {"http_code", r.Int(4)},
                       {"fetched_at", r.Int(5)},
                       {"depth", r.Int(6)},
                       {"parent_id", r.Int(7)},
                       {"relevance", r.IsNull(8) ? json(nullptr) : json(r.Double(8))},
                       {"link_score", r.Double(9)},
                       {"title", r.Text(10)}});
      return true;
    });
    if (!s.ok()) return Error(res, 500, s.message());
    json out{{"pages", pages}};
    if (static_cast<int64_t>(pages.size()) == limit) {
      out[desc ? "next_before" : "next_after"] = last;
    }
    Reply(res, out);
  });

  server.Get(R"(/api/pages/(\d{1,18}))", [this](const httplib::Request& req,
                                                 httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    std::lock_guard<std::mutex> lock(c->mu);
    CrawlDbReader* db = Db(c);
    if (!db) return Error(res, 503, "crawl.db cannot be opened");
    const int64_t id = std::strtoll(req.matches[1].str().c_str(), nullptr, 10);
    auto load = [&](int64_t pid) -> std::optional<json> {
      std::optional<json> out;
      db->Query(
          "SELECT id, url, final_url, status, http_code, content_type, charset, fetched_at, "
          "depth, parent_id, anchor, size, relevance, link_score, title, error, explanation "
          "FROM pages WHERE id = ?1",
          {pid}, [&](const DbRow& r) {
            out = json{{"id", r.Int(0)},
                       {"url", r.Text(1)},
                       {"final_url", r.Text(2)},
                       {"status", r.Text(3)},
                       {"http_code", r.Int(4)},
                       {"content_type", r.Text(5)},
                       {"charset", r.Text(6)},
                       {"fetched_at", r.Int(7)},
                       {"depth", r.Int(8)},
                       {"parent_id", r.Int(9)},
                       {"anchor", r.Text(10)},
                       {"size", r.Int(11)},
                       {"relevance", r.IsNull(12) ? json(nullptr) : json(r.Double(12))},
                       {"link_score", r.Double(13)},
                       {"title", r.Text(14)},
                       {"error", r.Text(15)},
                       {"explanation", ParseMaybeJson(r.Text(16))}};
            return false;
          });
      return out;
    };
    std::optional<json> page = load(id);
    if (!page) return Error(res, 404, "no page " + std::to_string(id));
    json& p = *page;
    // Why it was queued: the explanation stored with its frontier row.
    std::string link_expl;
    for (const char* table : {"frontier", "frontier_log"}) {
      auto e = db->QueryText(std::string("SELECT explanation FROM ") + table +
                                 " WHERE url = ?1 AND explanation != '' LIMIT 1",
                             {p["url"].get<std::string>()});
      if (e) {
        link_expl = *e;
        break;
      }
    }
    p["link_explanation"] = ParseMaybeJson(link_expl);
    json path = json::array();
    int64_t parent = p["parent_id"].get<int64_t>();
    for (int hops = 0; parent != 0 && hops < 200; ++hops) {
      std::optional<json> up = load(parent);
      if (!up) break;
      path.push_back({{"id", (*up)["id"]},
                      {"url", (*up)["url"]},
                      {"title", (*up)["title"]},
                      {"depth", (*up)["depth"]},
                      {"relevance", (*up)["relevance"]},
                      {"anchor", (*up)["anchor"]}});
      parent = (*up)["parent_id"].get<int64_t>();
    }
    p["path_to_seed"] = path;
    json links = json::array();
    const int64_t max_links = IntParam(req, "links", 100, 0, 5000);
    db->Query("SELECT to_url, anchor, score, explanation FROM links WHERE from_id = ?1 LIMIT ?2",
              {id, max_links}, [&](const DbRow& r) {
                links.push_back({{"url", r.Text(0)},
                                 {"anchor", r.Text(1)},
                                 {"score", r.Double(2)},
                                 {"explanation", ParseMaybeJson(r.Text(3))}});
                return true;
              });
    p["links"] = links;
    Reply(res, p);
  });

  server.Get("/api/search", [this](const httplib::Request& req, httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    SearchQuery q;
    q.q = req.get_param_value("q");
    if (q.q.empty()) return Error(res, 400, "q is required");
    if (q.q.size() > 1000) return Error(res, 400, "q is too long");
    q.relevant_only = BoolParam(req, "relevant");
    q.host = req.get_param_value("host");
    if (req.has_param("round")) q.round = IntParam(req, "round", 0, 0, INT64_MAX);
    q.limit = static_cast<size_t>(IntParam(req, "limit", 10, 1, 100));
    q.offset = static_cast<size_t>(IntParam(req, "offset", 0, 0, 100000));
    SearchIndex* index;
    {
      std::lock_guard<std::mutex> lock(c->mu);
      if (!c->search) {
        auto idx = SearchIndex::Open(c->dir);
        if (!idx.ok()) return Error(res, 404, idx.status().message());
        c->search = std::move(idx).value();
      }
      index = c->search.get();
    }
    auto r = index->Search(q);
    if (!r.ok()) return Error(res, 400, r.status().message());
    json hits = json::array();
    for (const SearchHit& h : r->hits) {
      hits.push_back({{"id", h.id},
                      {"url", h.url},
                      {"title", h.title},
                      {"host", h.host},
                      {"relevance", h.relevance},
                      {"score", h.score},
                      {"percent", h.percent},
                      {"snippet", h.snippet}});
    }
    Reply(res, json{{"query", q.q},
                    {"estimated_matches", r->estimated_matches},
                    {"indexed", r->indexed_docs},
                    {"seconds", r->seconds},
                    {"hits", hits}});
  });

  server.Post("/api/seeds", [this](const httplib::Request& req, httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    if (!c->monitor) return Error(res, 409, "this crawl is not running in this process");
    json body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object() || !body.contains("urls") ||
        !body["urls"].is_array()) {
      return Error(res, 400, "body must be {\"urls\": [\"https://...\", ...]}");
    }
    if (body["urls"].size() > 1000) return Error(res, 400, "at most 1000 seeds a request");
    std::vector<std::string> ok;
    json rejected = json::array();
    for (const json& u : body["urls"]) {
      if (!u.is_string()) return Error(res, 400, "urls must be strings");
      auto url = ResolveLink("", u.get<std::string>());
      if (url) {
        ok.push_back(*url);
      } else {
        rejected.push_back(u);
      }
    }
    const size_t n = ok.size();
    c->monitor->AddSeeds(std::move(ok));
    Reply(res, json{{"accepted", n}, {"rejected", rejected}}, 202);
  });

  server.Post("/api/stop", [this](const httplib::Request& req, httplib::Response& res) {
    CrawlState* c = Crawl(req, res);
    if (!c) return;
    if (!c->monitor) return Error(res, 409, "this crawl is not running in this process");
    c->monitor->RequestStop();
    RequestStop();
    Reply(res, json{{"state", "stopping"}}, 202);
  });

  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    std::string text;
    Metrics(&text);
    res.set_content(text, "text/plain; version=0.0.4; charset=utf-8");
  });

  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      Error(res, res.status, res.status == 413 ? "request body too large" : "not found");
    }
  });
}

ApiServer::ApiServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<ApiServer>> ApiServer::Start(const ServerOptions& options,
                                                      std::vector<ServedCrawl> crawls) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  for (ServedCrawl& c : crawls) {
    auto st = std::make_unique<CrawlState>();
    st->dir = c.dir;
    st->monitor = c.monitor;
    impl->crawls.push_back(std::move(st));
  }
  if (impl->crawls.empty()) return Status::Error("no crawl directory to serve");
  Status s = impl->Init();
  if (!s.ok()) return s;
  return std::unique_ptr<ApiServer>(new ApiServer(std::move(impl)));
}

ApiServer::~ApiServer() { Stop(); }

int ApiServer::port() const { return impl_->port; }

std::string ApiServer::url() const {
  const bool v6 = impl_->host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + impl_->host + "]" : impl_->host) + ":" +
         std::to_string(impl_->port) + "/";
}

void ApiServer::Stop() {
  if (!impl_) return;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
  Interrupt();
}

void ApiServer::Interrupt() { impl_->RequestStop(); }

bool ApiServer::WaitForStopRequest(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl_->stop_mu);
  return impl_->stop_cv.wait_for(lock, timeout, [this] { return impl_->stop_requested; });
}

}  // namespace topicrawl
