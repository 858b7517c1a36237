// GET /api/search: full-text search over DIR/search/ (search/search_index.h).
#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

void ApiServer::Impl::SearchRoutes() {
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
}

}  // namespace topicrawl
