// Opt-out signals end to end: a site on 127.0.0.1 whose robots.txt has
// Content-Usage / Content-Signal lines, whose /.well-known/tdmrep.json
// reserves a section, and whose pages send X-Robots-Tag, tdm-reservation
// and Content-Usage headers or <meta> tags. A crawl keeps the host files;
// the text export with --respect-optout leaves out exactly the opted-out
// pages and counts them.
#include <unistd.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "export/text_export.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "strategies/strategy_registry.h"
#include "support/loopback_crawl_config.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TestResponse;
using testing::TextResponse;

namespace fs = std::filesystem;

constexpr char kArticle[] =
    "<article><h1>Firewall rules</h1><p>A firewall compares every packet with an ordered "
    "list of rules, and the first rule that matches decides whether it passes.</p>"
    "<p>Specific rules belong above general ones, so that they match first.</p></article>";

std::string Page(const std::string& head, const std::string& links) {
  return "<!doctype html><html lang=en><head><title>t</title>" + head + "</head><body>" +
         kArticle + links + "</body></html>";
}

TestResponse WithHeader(TestResponse r, std::string name, std::string value) {
  r.headers.emplace_back(std::move(name), std::move(value));
  return r;
}

class OptOutIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    dir_ = ::testing::TempDir() + "/optout-crawl-" + std::to_string(getpid());
    fs::remove_all(dir_);
    server_.Set("/robots.txt",
                TextResponse("User-agent: *\n"
                             "Content-Usage: /ai-no/ train-ai=n\n"
                             "Content-Signal: /signal/ search=yes, ai-train=no\n"
                             "Allow: /\n"
                             "User-agent: otherbot\nContent-Usage: bots=n\n"));
    server_.Set("/.well-known/tdmrep.json",
                TextResponse(R"([{"location": "/tdm/*", "tdm-reservation": 1},
                                 {"location": "/", "tdm-reservation": 0}])",
                             "application/json"));
    const char* paths[] = {"/plain.html",  "/ai-no/a.html", "/signal/b.html", "/tdm/c.html",
                           "/xrt.html",    "/meta.html",    "/header-cu.html", "/nofollow.html"};
    std::string links;
    for (const char* p : paths) links += std::string("<a href='") + p + "'>x</a> ";
    server_.Set("/", HtmlResponse(Page("", links)));
    for (const char* p : {"/plain.html", "/ai-no/a.html", "/signal/b.html", "/tdm/c.html"}) {
      server_.Set(p, HtmlResponse(Page("", "")));
    }
    server_.Set("/xrt.html", WithHeader(HtmlResponse(Page("", "")), "X-Robots-Tag", "noai"));
    server_.Set("/meta.html",
                HtmlResponse(Page("<meta name=tdm-reservation content=1>", "")));
    server_.Set("/header-cu.html",
                WithHeader(HtmlResponse(Page("", "")), "Content-Usage", "train-genai=n"));
    // nofollow is not an opt-out from a corpus.
    server_.Set("/nofollow.html",
                WithHeader(HtmlResponse(Page("", "")), "X-Robots-Tag", "nofollow"));
  }
  void TearDown() override { fs::remove_all(dir_); }

  CrawlConfig Config() {
    CrawlConfig c = testing::LoopbackCrawlConfig(server_.port(), dir_);
    c.fetch_tdmrep = true;
    return c;
  }

  // URL -> "optout" array (as JSON text) of every exported line.
  std::map<std::string, std::string> Export(bool respect, TextExportStats* stats) {
    std::ostringstream out;
    TextExportOptions o;
    o.respect_optout = respect;
    auto s = WriteTextExport(dir_, "", out, o);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (s.ok()) *stats = *s;
    std::map<std::string, std::string> lines;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) {
      nlohmann::json j = nlohmann::json::parse(line);
      lines[j["url"]] = j.contains("optout") ? j["optout"].dump() : "";
    }
    return lines;
  }

  TestHttpServer server_;
  std::string dir_;
};

TEST_F(OptOutIntegrationTest, RespectOptOutLeavesOutExactlyTheOptedOutPages) {
  Crawler crawler(Config(), nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  EXPECT_EQ(crawler.stats().pages_ok, 9);
  EXPECT_EQ(server_.RequestCount("/robots.txt"), 1);
  EXPECT_EQ(server_.RequestCount("/.well-known/tdmrep.json"), 1);

  TextExportStats stats;
  std::map<std::string, std::string> kept = Export(true, &stats);
  std::set<std::string> urls;
  for (const auto& [url, signals] : kept) urls.insert(url);
  EXPECT_EQ(urls, (std::set<std::string>{"http://site.test/", "http://site.test/plain.html",
                                         "http://site.test/nofollow.html"}));
  EXPECT_EQ(stats.opted_out, 6);
  EXPECT_EQ(stats.written, 3);
  EXPECT_NE(TextExportSummary(stats).find("6 opted out (--respect-optout)"), std::string::npos)
      << TextExportSummary(stats);

  std::map<std::string, std::string> all = Export(false, &stats);
  EXPECT_EQ(stats.written, 9);
  EXPECT_EQ(stats.opted_out, 0);
  const std::string tdm0 = "\"tdmrep.json: tdm-reservation 0 (location /)\"";
  EXPECT_EQ(all["http://site.test/plain.html"], "[" + tdm0 + "]");
  EXPECT_EQ(all["http://site.test/ai-no/a.html"],
            "[\"robots.txt content-usage: train-ai=n\"," + tdm0 + "]");
  EXPECT_EQ(all["http://site.test/signal/b.html"],
            "[\"robots.txt content-signal: search=yes, ai-train=no\"," + tdm0 + "]");
  EXPECT_EQ(all["http://site.test/tdm/c.html"],
            "[\"tdmrep.json: tdm-reservation 1 (location /tdm/*)\"]");
  EXPECT_EQ(all["http://site.test/xrt.html"], "[\"x-robots-tag: noai\"," + tdm0 + "]");
  EXPECT_EQ(all["http://site.test/meta.html"], "[\"meta tdm-reservation: 1\"," + tdm0 + "]");
  EXPECT_EQ(all["http://site.test/header-cu.html"],
            "[\"content-usage: train-genai=n\"," + tdm0 + "]");
}

// Without --tdmrep the crawl asks for robots.txt only; its Content-Usage
// lines still apply.
TEST_F(OptOutIntegrationTest, WithoutTdmRepOnlyRobotsIsFetched) {
  CrawlConfig c = Config();
  c.fetch_tdmrep = false;
  Crawler crawler(c, nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  EXPECT_EQ(server_.RequestCount("/.well-known/tdmrep.json"), 0);
  TextExportStats stats;
  std::map<std::string, std::string> kept = Export(true, &stats);
  EXPECT_EQ(stats.opted_out, 5);  // /tdm/c.html is kept: its reservation was never fetched
  EXPECT_TRUE(kept.count("http://site.test/tdm/c.html"));
  EXPECT_FALSE(kept.count("http://site.test/ai-no/a.html"));
}

}  // namespace
}  // namespace topicrawl
