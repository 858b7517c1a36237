// GET /metrics: Prometheus text format 0.0.4, written by hand.
#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

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
  family("topicrawl_links_trap_not_queued_total", "counter",
         "New links not queued: their URL-trap pattern had spent its budget.",
         counter("links_trap_not_queued"));
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

void ApiServer::Impl::MetricsRoutes() {
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    std::string text;
    Metrics(&text);
    res.set_content(text, "text/plain; version=0.0.4; charset=utf-8");
  });
}

}  // namespace topicrawl
