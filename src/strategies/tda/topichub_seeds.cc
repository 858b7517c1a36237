#include "strategies/tda/topichub_seeds.h"

#include <cstdio>
#include <unordered_map>

#include "store/crawl_db_reader.h"
#include "text/utf8_util.h"
#include "url/url.h"

namespace topicrawl {
namespace {

struct CrawledPageRow {
  int64_t id = 0;
  std::string url;  // final URL when redirected
  double relevance = 0;
};

StatusOr<std::vector<CrawledPageRow>> ReadCrawledPages(CrawlDbReader& db) {
  std::vector<CrawledPageRow> rows;
  Status s = db.Query(
      "SELECT id, coalesce(nullif(final_url, ''), url), coalesce(relevance, 0) FROM pages "
      "WHERE status = 'ok' ORDER BY id",
      {}, [&](const DbRow& row) {
        rows.push_back({row.Int(0), row.Text(1), row.Double(2)});
        return true;
      });
  if (!s.ok()) return s;
  return rows;
}

// TopicHub's input from a crawl: its pages (crawled ones and link targets)
// and sites by first appearance, and the links between them.
class HubInputBuilder {
 public:
  uint32_t PageId(const std::string& url) {
    auto [it, inserted] = page_of_.try_emplace(url, urls_.size());
    if (inserted) {
      urls_.push_back(url);
      std::string host = UrlHostPort(url);
      auto [sit, snew] = site_of_.try_emplace(host, sites_.size());
      if (snew) sites_.push_back(host);
      TopicHubPage p;
      p.site = sit->second;
      in_.pages.push_back(p);
    }
    return it->second;
  }

  // A crawled page: fresh, with its relevance, relevant at >= beta.
  void AddCrawled(const CrawledPageRow& r, double beta) {
    const uint32_t p = PageId(r.url);
    in_.pages[p].crawled = true;
    in_.pages[p].fresh = true;
    in_.pages[p].sim = static_cast<float>(r.relevance);
    in_.pages[p].relevant = r.relevance >= beta;
    by_row_[r.id] = p;
  }

  // The links table's rows from crawled pages.
  Status AddLinks(CrawlDbReader& db) {
    return db.Query("SELECT from_id, to_url FROM links", {}, [&](const DbRow& row) {
      auto it = by_row_.find(row.Int(0));
      std::string to = row.Text(1);
      if (it != by_row_.end() && !to.empty()) edges_.emplace_back(it->second, PageId(to));
      return true;
    });
  }

  TopicHubInput& Finish() {
    in_.site_count = sites_.size();
    in_.links = CsrGraph::FromEdges(in_.pages.size(), edges_, /*dedup=*/true);
    return in_;
  }
  std::vector<std::string>& urls() { return urls_; }
  size_t sites() const { return sites_.size(); }

 private:
  TopicHubInput in_;
  StringMap<uint32_t> page_of_, site_of_;
  std::vector<std::string> urls_, sites_;
  std::unordered_map<int64_t, uint32_t> by_row_;
  std::vector<CsrGraph::Edge> edges_;
};

}  // namespace

StatusOr<CrawlTopicHub> CrawlTopicHubSeeds(const std::string& crawl_dir, double beta, int seeds) {
  auto db = CrawlDbReader::Open(crawl_dir);
  if (!db.ok()) return db.status();
  auto rows = ReadCrawledPages(**db);
  if (!rows.ok()) return rows.status();
  HubInputBuilder hub;
  for (const CrawledPageRow& r : *rows) hub.AddCrawled(r, beta);
  if (Status s = hub.AddLinks(**db); !s.ok()) return s;
  const TopicHubInput& in = hub.Finish();
  TopicHubOptions options;
  options.seeds = seeds;
  CrawlTopicHub out;
  out.result = RunTopicHub(in, options);
  out.pages = in.pages.size();
  out.crawled = rows->size();
  out.links = in.links.EdgeCount();
  out.sites = hub.sites();
  out.urls = std::move(hub.urls());
  return out;
}

std::string FormatTopicHubSeeds(const CrawlTopicHub& hub) {
  char line[512];
  std::snprintf(line, sizeof line,
                "pages %zu (%zu crawled), links %zu, sites %zu; SiteRank %d sweeps; %zu THub pages\n",
                hub.pages, hub.crawled, hub.links, hub.sites, hub.result.siterank_iterations,
                hub.result.thub_pages);
  std::string text = line;
  std::snprintf(line, sizeof line, "%-10s %-8s %-8s %s\n", "weight", "TSI", "I(p)", "url");
  text += line;
  for (const ThubPage& t : hub.result.seeds) {
    std::snprintf(line, sizeof line, "%-10.5f %-8.4f %-8.4f ", t.weight, t.site_weight, t.page_weight);
    text += line;
    text += hub.urls[t.page];
    text += '\n';
  }
  return text;
}

}  // namespace topicrawl
