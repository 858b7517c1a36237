// GET /api/pages (paged list) and /api/pages/{id} (fetch, scores with
// explanations, path to the seed, links), read from crawl.db.
#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

namespace {

// The WHERE clause of /api/pages from its filters (relevant, status, q,
// host, before, after), every value a bound parameter in *args (`beta`
// only read with relevant=1). *desc:
// newest first (order=desc, or paging backwards with before).
std::string PagesWhereClause(const httplib::Request& req, double beta, std::vector<DbArg>* args,
                             bool* desc) {
  std::string where = "1";
  auto arg = [&](DbArg a) {
    args->push_back(std::move(a));
    return "?" + std::to_string(args->size());
  };
  if (BoolParam(req, "relevant")) {
    where += " AND status = 'ok' AND relevance >= " + arg(std::max(0.0, beta));
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
  *desc = req.has_param("order") && req.get_param_value("order") == "desc";
  if (req.has_param("before")) {
    *desc = true;
    where += " AND id < " + arg(IntParam(req, "before", 0, 0, INT64_MAX));
  }
  if (req.has_param("after")) {
    where += " AND id > " + arg(IntParam(req, "after", 0, 0, INT64_MAX));
  }
  return where;
}

// One page's row with every column /api/pages/{id} shows; nullopt when
// there is no such page.
std::optional<json> PageDetailRow(CrawlDbReader* db, int64_t id) {
  std::optional<json> out;
  db->Query(
      "SELECT id, url, final_url, status, http_code, content_type, charset, fetched_at, "
      "depth, parent_id, anchor, size, relevance, link_score, title, error, explanation "
      "FROM pages WHERE id = ?1",
      {id}, [&](const DbRow& r) {
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
}

// Why the URL was queued: the explanation stored with its frontier row
// ("" when none was stored).
std::string QueuedLinkExplanation(CrawlDbReader* db, const std::string& url) {
  // The log first: schema 4's `frontier` is a view that sorts every row.
  for (const char* table : {"frontier_log", "frontier"}) {
    auto e = db->QueryText(std::string("SELECT explanation FROM ") + table +
                               " WHERE url = ?1 AND explanation != '' LIMIT 1",
                           {url});
    if (e) return *e;
  }
  return "";
}

// The pages from `parent` up to the seed (at most 200 hops).
json PathToSeedJson(CrawlDbReader* db, int64_t parent) {
  json path = json::array();
  for (int hops = 0; parent != 0 && hops < 200; ++hops) {
    std::optional<json> up = PageDetailRow(db, parent);
    if (!up) break;
    path.push_back({{"id", (*up)["id"]},
                    {"url", (*up)["url"]},
                    {"title", (*up)["title"]},
                    {"depth", (*up)["depth"]},
                    {"relevance", (*up)["relevance"]},
                    {"anchor", (*up)["anchor"]}});
    parent = (*up)["parent_id"].get<int64_t>();
  }
  return path;
}

json PageLinksJson(CrawlDbReader* db, int64_t id, int64_t max_links) {
  json links = json::array();
  db->Query("SELECT to_url, anchor, score, explanation FROM links WHERE from_id = ?1 LIMIT ?2",
            {id, max_links}, [&](const DbRow& r) {
              links.push_back({{"url", r.Text(0)},
                               {"anchor", r.Text(1)},
                               {"score", r.Double(2)},
                               {"explanation", ParseMaybeJson(r.Text(3))}});
              return true;
            });
  return links;
}

}  // namespace

void ApiServer::Impl::PagesRoutes() {
  server.Get("/api/pages", [this](const httplib::Request& req, httplib::Response& res) {
    ListPages(req, res);
  });
  server.Get(R"(/api/pages/(\d{1,18}))", [this](const httplib::Request& req,
                                                 httplib::Response& res) {
    PageDetail(req, res);
  });
}

void ApiServer::Impl::ListPages(const httplib::Request& req, httplib::Response& res) {
  CrawlState* c = Crawl(req, res);
  if (!c) return;
  std::lock_guard<std::mutex> lock(c->mu);
  CrawlDbReader* db = Db(c);
  if (!db) return Error(res, 503, "crawl.db cannot be opened");
  std::vector<DbArg> args;
  bool desc = false;
  // Beta() caches what it reads: read only when the filter needs it.
  const double beta = BoolParam(req, "relevant") ? Beta(c) : 0.0;
  const std::string where = PagesWhereClause(req, beta, &args, &desc);
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
}

void ApiServer::Impl::PageDetail(const httplib::Request& req, httplib::Response& res) {
  CrawlState* c = Crawl(req, res);
  if (!c) return;
  std::lock_guard<std::mutex> lock(c->mu);
  CrawlDbReader* db = Db(c);
  if (!db) return Error(res, 503, "crawl.db cannot be opened");
  const int64_t id = std::strtoll(req.matches[1].str().c_str(), nullptr, 10);
  std::optional<json> page = PageDetailRow(db, id);
  if (!page) return Error(res, 404, "no page " + std::to_string(id));
  json& p = *page;
  p["link_explanation"] = ParseMaybeJson(QueuedLinkExplanation(db, p["url"].get<std::string>()));
  p["path_to_seed"] = PathToSeedJson(db, p["parent_id"].get<int64_t>());
  p["links"] = PageLinksJson(db, id, IntParam(req, "links", 100, 0, 5000));
  Reply(res, p);
}

}  // namespace topicrawl
