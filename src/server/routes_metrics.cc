// GET /metrics: Prometheus text format 0.0.4, written by hand.
#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

namespace {

using MetricValue = std::optional<double> (*)(const json& status);

// One metric family, read from each crawl's /api/status document: a key
// of its "counters", a top-level number, or a function of the document.
struct MetricFamilySpec {
  const char* name;
  const char* type;
  const char* help;
  const char* counter = nullptr;
  const char* field = nullptr;
  MetricValue value = nullptr;
};

std::optional<double> HarvestWindowValue(const json& s) {
  return s["harvest"]["window"].get<double>();
}

std::optional<double> RecallValue(const json& s) {
  if (s["recall"].is_null()) return std::nullopt;
  return s["recall"]["recall"].get<double>();
}

std::optional<double> CrawlRunningValue(const json& s) {
  return s["live"].get<bool>() && (s["state"] == "running" || s["state"] == "starting") ? 1.0
                                                                                        : 0.0;
}

const MetricFamilySpec kMetricFamilies[] = {
    {"topicrawl_pages_ok_total", "counter", "Pages stored with status ok (DP).", "pages_ok"},
    {"topicrawl_pages_failed_total", "counter",
     "Pages stored with any other status (HTTP errors, timeouts, robots-denied, ...).",
     "pages_failed"},
    {"topicrawl_pages_relevant_total", "counter",
     "Pages stored ok with relevance >= the topic threshold beta.", "relevant"},
    {"topicrawl_robots_denied_total", "counter", "URLs refused by robots.txt.", "robots_denied"},
    {"topicrawl_fetch_retries_total", "counter", "Transient failures queued again.", "retries"},
    {"topicrawl_links_seen_total", "counter", "Outlinks found in stored pages.", "links_seen"},
    {"topicrawl_links_queued_total", "counter", "Links admitted to the frontier.",
     "links_queued"},
    {"topicrawl_downloaded_bytes_total", "counter", "Body bytes of stored pages.", "bytes"},
    {"topicrawl_links_trap_not_queued_total", "counter",
     "New links not queued: their URL-trap pattern had spent its budget.",
     "links_trap_not_queued"},
    {"topicrawl_frontier_queued_links", "gauge", "Links waiting in the frontier.", nullptr,
     "queue"},
    {"topicrawl_hosts", "gauge", "Hosts known to the crawl.", nullptr, "hosts"},
    {"topicrawl_hosts_backed_off", "gauge", "Hosts in back-off after transient failures.",
     nullptr, "hosts_backed_off"},
    {"topicrawl_fetches_in_flight", "gauge", "Transfers in flight.", nullptr, "in_flight"},
    {"topicrawl_elapsed_seconds", "gauge", "Seconds since the crawl session started.", nullptr,
     "elapsed_s"},
    {"topicrawl_harvest_window_ratio", "gauge",
     "Relevant share of the last pages stored ok (window of 500).", nullptr, nullptr,
     HarvestWindowValue},
    {"topicrawl_recall_estimate_ratio", "gauge",
     "Relevant labelled pages fetched / relevant labelled pages (with --labels).", nullptr,
     nullptr, RecallValue},
    {"topicrawl_search_indexed_documents", "gauge", "Documents in the full-text index.", nullptr,
     "search_indexed"},
    {"topicrawl_crawl_running", "gauge", "1 while the crawl loop runs in this process.", nullptr,
     nullptr, CrawlRunningValue},
};

std::optional<double> MetricOf(const MetricFamilySpec& f, const json& s) {
  if (f.counter) {
    if (!s["counters"].contains(f.counter)) return std::nullopt;
    return s["counters"][f.counter].get<double>();
  }
  if (f.field) {
    if (!s.contains(f.field) || !s[f.field].is_number()) return std::nullopt;
    return s[f.field].get<double>();
  }
  return f.value(s);
}

}  // namespace

void ApiServer::Impl::Metrics(std::string* out) {
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
  PrometheusWriter w;
  // A family no crawl has a value for is left out.
  for (const MetricFamilySpec& f : kMetricFamilies) {
    bool any = false;
    for (const Values& v : values) any = any || MetricOf(f, v.status).has_value();
    if (!any) continue;
    w.Family(f.name, f.type, f.help);
    for (const Values& v : values) {
      if (auto x = MetricOf(f, v.status)) w.Sample(*x, v.labels);
    }
  }
  *out = w.text();
}

void ApiServer::Impl::MetricsRoutes() {
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    std::string text;
    Metrics(&text);
    res.set_content(text, "text/plain; version=0.0.4; charset=utf-8");
  });
}

}  // namespace topicrawl
