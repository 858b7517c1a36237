#include "crawl/announce_collector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <string>
#include <vector>

namespace topicrawl {
namespace {

// Serves a fixed map of URLs; one Poll() answers what was submitted and
// moves the fake clock by the wait (so politeness is seen in clock time).
class MapFetcher : public Fetcher {
 public:
  explicit MapFetcher(FakeClock* clock) : clock_(clock) {}
  void Submit(CrawlTask task, FetchKind kind) override {
    submitted.push_back({task.url, clock_->Now()});
    kinds.push_back(kind);
    FetchResult r;
    r.task = task;
    r.final_url = task.url;
    auto it = pages.find(task.url);
    if (it == pages.end()) {
      r.status = FetchStatus::kHttpError;
      r.http_code = 404;
    } else {
      r.http_code = it->second.first;
      r.status = r.http_code == 200 ? FetchStatus::kOk : FetchStatus::kHttpError;
      r.body = it->second.second;
    }
    ready_.push_back(std::move(r));
  }
  std::vector<FetchResult> Poll(Duration max_wait) override {
    clock_->Advance(max_wait);
    std::vector<FetchResult> out;
    out.swap(ready_);
    return out;
  }
  void Wakeup() override {}
  size_t InFlight() const override { return ready_.size(); }

  std::map<std::string, std::pair<int, std::string>> pages;
  std::vector<std::pair<std::string, TimePoint>> submitted;
  std::vector<FetchKind> kinds;

 private:
  FakeClock* clock_;
  std::vector<FetchResult> ready_;
};

std::string Gzip(const std::string& s) {
  uLongf n = compressBound(s.size()) + 32;
  std::string out(n, '\0');
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string Index(const std::vector<std::string>& locs) {
  std::string x = "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
  for (const auto& l : locs) x += "<sitemap><loc>" + l + "</loc></sitemap>";
  return x + "</sitemapindex>";
}

std::string Urlset(const std::vector<std::pair<std::string, std::string>>& urls) {
  std::string x = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
  for (const auto& [u, d] : urls) x += "<url><loc>" + u + "</loc><lastmod>" + d + "</lastmod></url>";
  return x + "</urlset>";
}

struct Collected {
  AnnounceCollection c;
  std::map<std::string, std::string> problems;  // fetch url -> status + problems
};

Collected Collect(MapFetcher* f, FakeClock* clock, const std::vector<std::string>& origins,
            AnnounceCollectOptions o = {}) {
  Collected r;
  r.c = CollectAnnouncements(origins, o, f, clock);
  for (const auto& row : r.c.fetches) r.problems[row.url] += row.status + " " + row.problems + ";";
  return r;
}

TEST(AnnounceCollector, RobotsIndexGzipSitemapAndFeed) {
  FakeClock clock;
  MapFetcher f(&clock);
  f.pages["http://h.test/robots.txt"] = {200,
      "User-agent: *\nDisallow: /private/\nSitemap: http://h.test/sitemap.xml\n"
      "Sitemap: http://h.test/feed.atom\nSitemap: http://other.test/sitemap.xml\n"};
  f.pages["http://h.test/sitemap.xml"] = {200, Index({"http://h.test/s/a.xml.gz", "http://h.test/private/b.xml"})};
  f.pages["http://h.test/s/a.xml.gz"] = {200, Gzip(Urlset({{"http://h.test/1", "2026-01-02"},
                                                            {"http://h.test/2", "2026-01-01"}}))};
  f.pages["http://h.test/feed.atom"] = {200,
      "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><link href=\"/1\"/>"
      "<updated>2026-01-03T00:00:00Z</updated></entry><entry><link href=\"/3\"/></entry></feed>"};
  Collected r = Collect(&f, &clock, {"http://h.test"});
  ASSERT_EQ(r.c.rows.size(), 3u);
  EXPECT_EQ(r.c.rows[0].url, "http://h.test/1");
  EXPECT_EQ(r.c.rows[0].source, 1);  // sitemap before feed
  EXPECT_EQ(r.c.rows[0].lastmod_ms, 1767398400000);  // the feed's newer date wins
  EXPECT_EQ(r.c.rows[2].source, 2);
  EXPECT_EQ(r.c.hosts_announcing, 1);
  EXPECT_NE(r.problems["http://h.test/private/b.xml"].find("robots_denied"), std::string::npos);
  EXPECT_NE(r.problems["http://other.test/sitemap.xml"].find("other_origin"), std::string::npos);
  for (size_t i = 0; i < f.submitted.size(); ++i) {
    EXPECT_NE(f.submitted[i].first, "http://h.test/private/b.xml");
  }
  EXPECT_EQ(f.kinds[0], FetchKind::kRobots);
  EXPECT_EQ(f.kinds[1], FetchKind::kSitemap);
}

// One host on two origins whose robots.txt both name the http sitemap
// (the zh web's www.kernel.org): the https origin skips it as another
// origin's, the http origin reads it, whichever robots.txt answers first.
TEST(AnnounceCollector, SitemapNamedByTwoOriginsIsReadByItsOwn) {
  for (const bool https_first : {true, false}) {
    FakeClock clock;
    MapFetcher f(&clock);
    const std::string robots = "User-agent: *\nSitemap: http://h.test/sitemap.xml\n";
    f.pages["http://h.test/robots.txt"] = {200, robots};
    f.pages["https://h.test/robots.txt"] = {200, robots};
    f.pages["http://h.test/sitemap.xml"] = {200, Urlset({{"http://h.test/1", "2026-01-02"}})};
    const std::vector<std::string> origins =
        https_first ? std::vector<std::string>{"https://h.test", "http://h.test"}
                    : std::vector<std::string>{"http://h.test", "https://h.test"};
    Collected r = Collect(&f, &clock, origins);
    ASSERT_EQ(r.c.rows.size(), 1u) << https_first;
    EXPECT_EQ(r.c.rows[0].url, "http://h.test/1");
    EXPECT_EQ(r.problems["http://h.test/sitemap.xml"].find("already_read"), std::string::npos)
        << https_first << " " << r.problems["http://h.test/sitemap.xml"];
  }
}

TEST(AnnounceCollector, OneRequestAtATimePerHostWithTheDelayBetween) {
  FakeClock clock;
  MapFetcher f(&clock);
  f.pages["http://h.test/robots.txt"] = {200, "Sitemap: http://h.test/a.xml\nSitemap: http://h.test/b.xml\n"};
  f.pages["http://h.test/a.xml"] = {200, Urlset({{"http://h.test/1", "2026-01-02"}})};
  f.pages["http://h.test/b.xml"] = {200, Urlset({{"http://h.test/2", "2026-01-02"}})};
  AnnounceCollectOptions o;
  o.delay_s = 2.0;
  Collected r = Collect(&f, &clock, {"http://h.test"}, o);
  ASSERT_EQ(f.submitted.size(), 3u);
  for (size_t i = 1; i < f.submitted.size(); ++i) {
    EXPECT_GE(f.submitted[i].second - f.submitted[i - 1].second, Seconds(2.0));
  }
}

TEST(AnnounceCollector, SelfReferencingIndexIsReadOnce) {
  FakeClock clock;
  MapFetcher f(&clock);
  f.pages["http://h.test/robots.txt"] = {200, "Sitemap: http://h.test/sitemap.xml\n"};
  f.pages["http://h.test/sitemap.xml"] = {200, Index({"http://h.test/sitemap.xml", "http://h.test/a.xml"})};
  f.pages["http://h.test/a.xml"] = {200, Urlset({{"http://h.test/1", "2026-01-02"}})};
  AnnounceCollectOptions o;
  o.delay_s = 0;
  Collected r = Collect(&f, &clock, {"http://h.test"}, o);
  EXPECT_EQ(f.submitted.size(), 3u);
  EXPECT_EQ(r.c.rows.size(), 1u);
  EXPECT_NE(r.problems["http://h.test/sitemap.xml"].find("already_read"), std::string::npos);
}

TEST(AnnounceCollector, ThousandDeepIndexNestingStopsAtTheDepthLimit) {
  FakeClock clock;
  MapFetcher f(&clock);
  f.pages["http://h.test/robots.txt"] = {200, "Sitemap: http://h.test/i0.xml\n"};
  for (int k = 0; k < 1000; ++k) {
    f.pages["http://h.test/i" + std::to_string(k) + ".xml"] = {
        200, Index({"http://h.test/i" + std::to_string(k + 1) + ".xml"})};
  }
  AnnounceCollectOptions o;
  o.delay_s = 0;
  Collected r = Collect(&f, &clock, {"http://h.test"}, o);
  // robots.txt + i0 (depth 0) + i1 (1) + i2 (2, whose child would be 3).
  EXPECT_EQ(f.submitted.size(), 4u);
  EXPECT_NE(r.problems["http://h.test/i2.xml"].find("index_too_deep=1"), std::string::npos);
  EXPECT_TRUE(r.c.rows.empty());
}

TEST(AnnounceCollector, UnreachableRobotsSkipsTheHostMissingRobotsProbesAndReadsHomeFeeds) {
  FakeClock clock;
  MapFetcher f(&clock);
  f.pages["http://down.test/robots.txt"] = {503, ""};
  f.pages["http://plain.test/sitemap.xml"] = {200, Urlset({{"http://plain.test/x", "2026-01-02"}})};
  f.pages["http://plain.test/"] = {200,
      "<html><head><link rel=alternate type=application/rss+xml href=/rss.xml></head></html>"};
  f.pages["http://plain.test/rss.xml"] = {200,
      "<rss version=\"2.0\"><channel><item><link>http://plain.test/y</link>"
      "<pubDate>Fri, 02 Jan 2026 00:00:00 GMT</pubDate></item></channel></rss>"};
  AnnounceCollectOptions o;
  o.delay_s = 0;
  o.probe_sitemap_xml = true;
  Collected r = Collect(&f, &clock, {"http://down.test", "http://plain.test"}, o);
  EXPECT_NE(r.problems["http://down.test/robots.txt"].find("host_skipped"), std::string::npos);
  ASSERT_EQ(r.c.rows.size(), 2u);
  EXPECT_EQ(r.c.rows[0].url, "http://plain.test/x");
  EXPECT_EQ(r.c.rows[1].url, "http://plain.test/y");
  EXPECT_EQ(r.c.rows[1].source, 3);  // a feed found through <link rel=alternate>
  for (const auto& [url, t] : f.submitted) EXPECT_EQ(url.find("http://down.test/s"), std::string::npos);
}

TEST(AnnounceCollector, BadDocumentsAreRecordedWithTheirReasons) {
  FakeClock clock;
  MapFetcher f(&clock);
  f.pages["http://h.test/robots.txt"] = {200,
      "Sitemap: http://h.test/broken.xml\nSitemap: http://h.test/bomb.xml\nSitemap: http://h.test/gone.xml\n"};
  f.pages["http://h.test/broken.xml"] = {200, "<urlset><url><loc>http://h.test/a</loc></url>"};
  f.pages["http://h.test/bomb.xml"] = {200,
      "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]><urlset>&b;</urlset>"};
  AnnounceCollectOptions o;
  o.delay_s = 0;
  Collected r = Collect(&f, &clock, {"http://h.test"}, o);
  EXPECT_NE(r.problems["http://h.test/broken.xml"].find("malformed_xml=1"), std::string::npos);
  EXPECT_NE(r.problems["http://h.test/bomb.xml"].find("dtd_entity=1"), std::string::npos);
  EXPECT_NE(r.problems["http://h.test/gone.xml"].find("http_error"), std::string::npos);
  ASSERT_EQ(r.c.rows.size(), 1u);  // the entry before the break is kept
}

}  // namespace
}  // namespace topicrawl
