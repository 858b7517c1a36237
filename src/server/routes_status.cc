// GET /api/crawls, /api/status and /api/hosts: counters, rates, the recall
// estimate and the host table, from the live snapshot or from crawl.db.
#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

namespace {

// DbAggregate::queue, recounted as its comment says.
int64_t QueuedUrls(CrawlDbReader* db, DbAggregate* a) {
  constexpr double kQueueRecountS = 10;
  const auto now = std::chrono::steady_clock::now();
  if (a->queue_at_id == a->last_id) return a->queue;
  if (a->queue_at_id >= 0 &&
      std::chrono::duration<double>(now - a->queue_counted_at).count() < kQueueRecountS) {
    return a->queue;
  }
  // Schema 5: admission rows whose url_id has no "done" row, a scan of the
  // log and a set of the done ids (7x less CPU than the view, which sorts
  // every row: 0.39 s vs 2.8 s at 10^5 pages; docs/guides/performance.md). Older
  // schemas have no frontier_state: the view.
  std::optional<int64_t> queued = db->QueryInt(
      "SELECT count(*) FROM frontier_log WHERE state = 0 AND url_id NOT IN "
      "(SELECT url_id FROM frontier_state WHERE state > 0)");
  if (!queued) queued = db->QueryInt("SELECT count(*) FROM frontier WHERE state = 0");
  a->queue = queued.value_or(0);
  a->queue_at_id = a->last_id;
  a->queue_counted_at = now;
  return a->queue;
}

// What the status's rate and harvest are computed from: the live
// snapshot's or crawl.db's.
struct StatusProgress {
  std::vector<SeriesPoint> series;
  int64_t window = 0, window_relevant = 0, pages_ok = 0;
};

// The status of a crawl running in this process, from its snapshot.
void FillLiveStatus(const CrawlSnapshot& s, json* out, StatusProgress* progress) {
  json& j = *out;
  const CrawlStats& st = s.stats;
  j["state"] = s.state;
  j["strategy"] = s.strategy;
  j["beta"] = s.beta >= 0 ? json(s.beta) : json(nullptr);
  j["counters"] = {{"pages_ok", st.pages_ok},         {"pages_failed", st.pages_failed},
                   {"relevant", st.relevant},         {"robots_denied", st.robots_denied},
                   {"retries", st.retries},           {"links_seen", st.links_seen},
                   {"links_queued", st.links_queued}, {"bytes", st.bytes},
                   {"links_trap_not_queued", st.links_trap_not_queued}};
  j["queue"] = st.queued;
  j["hosts"] = st.hosts;
  j["in_flight"] = st.in_flight;
  j["elapsed_s"] = st.elapsed_s;
  int backed_off = 0;
  for (const HostSnapshot& h : s.hosts) backed_off += h.backoff_level > 0;
  j["hosts_backed_off"] = backed_off;
  j["render"] = {{"mode", s.render_mode},
                 {"pages_rendered", s.pages_rendered},
                 {"decisions", s.render_decisions}};
  j["published_at"] = s.published_at_ms;
  progress->series = s.series;
  progress->window = s.harvest_window;
  progress->window_relevant = s.harvest_window_relevant;
  progress->pages_ok = st.pages_ok;
  j["round"] = nullptr;
  j["content_types"] = st.content_types;
  j["max_pages"] = st.max_pages > 0 ? json(st.max_pages) : json(nullptr);
  j["eta_s"] = st.eta_s >= 0 ? json(st.eta_s) : json(nullptr);
}

// The status of a crawl directory read from crawl.db (db may be null: it
// cannot be opened), through its aggregate.
void FillStoredStatus(CrawlDbReader* db, double beta, DbAggregate* agg, json* out,
                      StatusProgress* progress) {
  json& j = *out;
  const DbAggregate& a = *agg;
  const bool finished =
      db && db->QueryText("SELECT value FROM meta WHERE key = 'finished_at'").has_value();
  j["state"] = finished ? "finished" : "unknown";
  j["strategy"] = db ? db->QueryText("SELECT value FROM meta WHERE key = 'strategy'")
                           .value_or("")
                     : "";
  j["beta"] = beta >= 0 ? json(beta) : json(nullptr);
  j["counters"] = {{"pages_ok", a.pages_ok},
                   {"pages_failed", a.pages_failed},
                   {"relevant", a.relevant},
                   {"robots_denied", a.robots_denied},
                   {"bytes", a.bytes}};
  j["queue"] = db ? QueuedUrls(db, agg) : 0;
  j["hosts"] = a.hosts.size();
  j["in_flight"] = 0;
  j["elapsed_s"] = (a.last_ms - a.first_ms) / 1000.0;
  j["hosts_backed_off"] = 0;
  progress->series = a.series;
  progress->window = static_cast<int64_t>(a.window.size());
  progress->window_relevant = a.window_relevant;
  progress->pages_ok = a.pages_ok;
  j["round"] = nullptr;
  j["content_types"] = a.content_types;
  const int64_t max_pages =
      db ? std::atoll(db->QueryText("SELECT value FROM meta WHERE key = 'max_pages'")
                          .value_or("0")
                          .c_str())
         : 0;
  j["max_pages"] = max_pages > 0 ? json(max_pages) : json(nullptr);
  j["eta_s"] = nullptr;  // set from the series' rate, unless finished
}

// pages/s over the last ~5 s of the series.
double RecentPagesPerSecond(const std::vector<SeriesPoint>& series) {
  double rate = 0;
  if (series.size() >= 2) {
    const SeriesPoint& b = series.back();
    size_t k = series.size() - 1;
    while (k > 0 && b.t - series[k - 1].t <= 5.0) --k;
    if (k == series.size() - 1) k = series.size() - 2;
    const SeriesPoint& a = series[k];
    if (b.t > a.t) rate = (b.pages_ok - a.pages_ok) / (b.t - a.t);
  }
  return rate;
}

}  // namespace

void ApiServer::Impl::UpdateAggregate(CrawlState* c) {
  CrawlDbReader* db = Db(c);
  if (!db) return;
  const double beta = Beta(c);
  DbAggregate& a = c->agg;
  db->Query(
      "SELECT id, url, status, relevance, size, fetched_at, title, link_score, depth, "
      "content_type FROM pages WHERE id > ?1 ORDER BY id",
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
          ++a.content_types[ContentTypeKey(r.Text(9))];
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
  StatusProgress progress;
  if (c->monitor) {
    FillLiveStatus(*c->monitor->Snapshot(), &j, &progress);
  } else {
    UpdateAggregate(c);
    CrawlDbReader* db = Db(c);
    FillStoredStatus(db, Beta(c), &c->agg, &j, &progress);
  }
  const std::vector<SeriesPoint>& series = progress.series;
  const double rate = RecentPagesPerSecond(series);
  j["pages_per_s"] = rate;
  if (!c->monitor && j["state"] != "finished" && j["max_pages"].is_number()) {
    const std::optional<double> eta =
        EtaSeconds(progress.pages_ok, j["max_pages"].get<int64_t>(), rate);
    if (eta) j["eta_s"] = *eta;
  }
  const int64_t window = progress.window, window_rel = progress.window_relevant;
  j["harvest"] = {{"window_pages", window},
                  {"window_relevant", window_rel},
                  {"window", window > 0 ? static_cast<double>(window_rel) / window : 0.0},
                  {"total", progress.pages_ok > 0
                                ? j["counters"]["relevant"].get<double>() / progress.pages_ok
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

void ApiServer::Impl::StatusRoutes() {
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
}

}  // namespace topicrawl
