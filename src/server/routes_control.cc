// POST /api/seeds and POST /api/stop: requests to the crawl thread through
// its CrawlMonitor (only for a crawl running in this process).
#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

void ApiServer::Impl::ControlRoutes() {
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
}

}  // namespace topicrawl
