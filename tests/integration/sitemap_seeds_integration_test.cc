// crawl --seeds-from-sitemaps end to end: a site on 127.0.0.1 whose
// robots.txt names a sitemap index, whose sitemap lists two pages no page
// links to. With the option the crawl fetches them (the announced URLs are
// queued after the seeds); without it they stay unknown.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "gtest/gtest.h"
#include "strategies/strategy_registry.h"
#include "support/loopback_crawl_config.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TextResponse;

namespace fs = std::filesystem;

std::string Page(const std::string& links) {
  return "<!doctype html><html lang=en><head><title>t</title></head><body><p>Routing "
         "tables and firewall rules.</p>" +
         links + "</body></html>";
}

class SitemapSeedsIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    dir_ = ::testing::TempDir() + "/sitemap-seeds-" + std::to_string(getpid());
    fs::remove_all(dir_);
    server_.Set("/robots.txt",
                TextResponse("User-agent: *\nAllow: /\nSitemap: http://site.test/sitemap.xml\n"));
    server_.Set("/sitemap.xml",
                TextResponse("<?xml version='1.0' encoding='UTF-8'?>"
                             "<sitemapindex xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
                             "<sitemap><loc>http://site.test/hidden/sitemap.xml</loc></sitemap>"
                             "</sitemapindex>",
                             "application/xml"));
    server_.Set("/hidden/sitemap.xml",
                TextResponse("<?xml version='1.0' encoding='UTF-8'?>"
                             "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
                             "<url><loc>http://site.test/hidden/a.html</loc>"
                             "<lastmod>2026-01-02</lastmod></url>"
                             "<url><loc>http://site.test/hidden/b.html</loc></url>"
                             "</urlset>",
                             "application/xml"));
    server_.Set("/", HtmlResponse(Page("<a href='/linked.html'>x</a>")));
    server_.Set("/linked.html", HtmlResponse(Page("")));
    server_.Set("/hidden/a.html", HtmlResponse(Page("")));
    server_.Set("/hidden/b.html", HtmlResponse(Page("")));
  }
  void TearDown() override { fs::remove_all(dir_); }

  CrawlConfig Config(bool from_sitemaps) {
    CrawlConfig c = testing::LoopbackCrawlConfig(server_.port(), dir_);
    c.seeds_from_sitemaps = from_sitemaps;
    return c;
  }

  TestHttpServer server_;
  std::string dir_;
};

TEST_F(SitemapSeedsIntegrationTest, AnnouncedPagesNoLinkReachesAreFetched) {
  Crawler crawler(Config(true), nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  EXPECT_EQ(crawler.stats().pages_ok, 4);
  EXPECT_EQ(server_.RequestCount("/hidden/a.html"), 1);
  EXPECT_EQ(server_.RequestCount("/hidden/b.html"), 1);
  EXPECT_EQ(server_.RequestCount("/sitemap.xml"), 1);
  EXPECT_EQ(server_.RequestCount("/hidden/sitemap.xml"), 1);
  EXPECT_TRUE(fs::exists(dir_ + "/crawl.db"));
}

TEST_F(SitemapSeedsIntegrationTest, WithoutTheOptionNoSitemapIsRead) {
  Crawler crawler(Config(false), nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  EXPECT_EQ(crawler.stats().pages_ok, 2);
  EXPECT_EQ(server_.RequestCount("/sitemap.xml"), 0);
  EXPECT_EQ(server_.RequestCount("/hidden/a.html"), 0);
}

}  // namespace
}  // namespace topicrawl
