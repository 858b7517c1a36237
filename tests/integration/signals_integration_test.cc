// The `signals` round policy end to end (issue 34) on the real binary and a
// hand-made site on 127.0.0.1 that announces through robots.txt `Sitemap:`
// lines (a sitemap and an Atom feed):
//   * announced URLs the crawl does not know are scored by the crawl's
//     strategy like links (best-first, a networking topic): round 0 with
//     --seeds-from-sitemaps and a signals round both fetch the on-topic
//     announced URLs before the off-topic ones, and in a round the trusted
//     lastmod claims come first, then the announced URLs, then the
//     estimator's revisits;
//   * a round over an unchanged site whose sitemap is unchanged and trusted
//     costs <= 5 % of round 0's fetches (issue 34's acceptance).
// --concurrency 1: the order of the server's requests is the frontier's
// order (the fetches table is in the order pages finished parsing).
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using testing::ErrorResponse;
using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TestResponse;
using testing::TextResponse;

namespace fs = std::filesystem;

std::vector<std::string> Rows(const std::string& dir, const std::string& sql) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db) << " in " << sql;
  }
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    const auto* t = sqlite3_column_text(st, 0);
    out.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

// Paths fetched in round `round`, in fetch order.
std::vector<std::string> FetchOrder(const std::string& dir, int round) {
  std::vector<std::string> out;
  for (const std::string& url :
       Rows(dir, "SELECT f.url FROM fetches h JOIN frontier f USING(url_id) WHERE h.round = " +
                     std::to_string(round) + " ORDER BY h.rowid")) {
    out.push_back(url.substr(url.find('/', 8)));
  }
  return out;
}

// Position of `path` in `order` (order.size() when absent).
size_t At(const std::vector<std::string>& order, const std::string& path) {
  return static_cast<size_t>(std::find(order.begin(), order.end(), path) - order.begin());
}

int Sh(const std::string& cmd, const std::string& log) {
  int rc = std::system((cmd + " > " + log + " 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string Page(const std::string& title, const std::string& body) {
  return "<!doctype html><html><head><title>" + title + "</title></head><body>" + body +
         "</body></html>";
}

// "Wed, 01 Jan 2020 00:00:00 GMT" + `day` days, and the same as W3C datetime.
std::string HttpDate(int day) {
  static const char* kDays[] = {"Wed", "Thu", "Fri", "Sat", "Sun", "Mon", "Tue"};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d Jan 2020 00:00:00 GMT", kDays[day % 7], day + 1);
  return buf;
}
std::string W3cDate(int day) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "2020-01-%02dT00:00:00Z", day + 1);
  return buf;
}

class SignalsIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    base_ = ::testing::TempDir() + "/signals-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
            std::to_string(getpid());
    fs::remove_all(base_);
    fs::create_directories(base_);
    std::ofstream(base_ + "/seeds.txt") << "http://site.test/\n";
    std::ofstream(base_ + "/topic.txt") << "network\t1.0\ntcp\t0.9\nsocket\t0.8\nrouting\t0.7\n";
    server_.Set("/robots.txt", TextResponse("User-agent: *\nAllow: /\n"
                                            "Sitemap: http://site.test/sitemap.xml\n"
                                            "Sitemap: http://site.test/feed.atom\n"));
    server_.Set("/feed.atom", Feed({}));
  }
  void TearDown() override { fs::remove_all(base_); }

  // A known page: fixed text, Last-Modified `day` days after 2020-01-01.
  void SetPage(const std::string& path, const std::string& text, int day) {
    TestResponse r = HtmlResponse(Page(path, "<p>" + text + "</p><a href='/'>home</a>"));
    r.headers.push_back({"Last-Modified", HttpDate(day)});
    server_.Set(path, r);
  }
  // (path, lastmod W3C or "") pairs.
  static TestResponse Sitemap(const std::vector<std::pair<std::string, std::string>>& urls) {
    std::string x = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
    for (const auto& [path, lastmod] : urls) {
      x += "<url><loc>http://site.test" + path + "</loc>" +
           (lastmod.empty() ? "" : "<lastmod>" + lastmod + "</lastmod>") + "</url>";
    }
    return TextResponse(x + "</urlset>", "application/xml");
  }
  // (path, title) entries.
  static TestResponse Feed(const std::vector<std::pair<std::string, std::string>>& entries) {
    std::string x = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>site</title>";
    for (const auto& [path, title] : entries) {
      x += "<entry><title>" + title + "</title><link href=\"http://site.test" + path +
           "\"/><updated>2020-01-01T00:00:00Z</updated></entry>";
    }
    return TextResponse(x + "</feed>", "application/atom+xml");
  }
  std::string Flags() const {
    return " --delay 0 --concurrency 1 --connect-to site.test:80:127.0.0.1:" +
           std::to_string(server_.port());
  }
  int Crawl(const std::string& dir, const std::string& extra = "") const {
    return Sh(bin_ + " crawl --seeds " + base_ + "/seeds.txt --out " + dir + " --topic " + base_ +
                  "/topic.txt --strategy best-first --max-pages 0" + extra + Flags(),
              base_ + "/crawl.log");
  }
  int Recrawl(const std::string& dir, const std::string& extra = "") const {
    return Sh(bin_ + " recrawl " + dir + " --policy signals" + extra + Flags(),
              base_ + "/recrawl.log");
  }
  // Page requests the server received since the last call, in order
  // (robots.txt, the sitemap and the feed left out).
  std::vector<std::string> Served() {
    std::vector<std::string> out;
    for (const auto& r : server_.Requests()) {
      if (r.target != "/robots.txt" && r.target != "/sitemap.xml" && r.target != "/feed.atom") {
        out.push_back(r.target);
      }
    }
    server_.ClearLog();
    return out;
  }
  std::string Log(const std::string& name) const {
    std::ifstream in(base_ + "/" + name);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  TestHttpServer server_;
  std::string base_;
  const std::string bin_ = TOPICRAWL_BINARY;
};

// Round 0: the sitemap and the feed name pages no link leads to. The
// strategy scores them by their feed titles or URL words: the on-topic ones
// (by URL words, and one whose URL says nothing but whose title is on
// topic) are fetched before the off-topic ones.
TEST_F(SignalsIntegrationTest, SeedsFromSitemapsAreFetchedOnTopicFirst) {
  server_.Set("/", HtmlResponse(Page("home", "<p>welcome</p><a href='/about'>about</a>")));
  SetPage("/about", "about us", 0);
  const std::vector<std::string> on = {"/net/tcp-socket-network.html", "/net/network-routing",
                                       "/item/7"};
  const std::vector<std::string> off = {"/food/soup-recipes.html", "/garden/flowers", "/item/8",
                                        "/food/bread"};
  for (const auto& p : on) SetPage(p, "some page", 1);
  for (const auto& p : off) SetPage(p, "some page", 1);
  server_.Set("/sitemap.xml", Sitemap({{off[0], ""}, {on[0], ""}, {off[1], ""}, {on[1], ""},
                                       {off[3], ""}}));
  server_.Set("/feed.atom", Feed({{"/item/8", "Bread and soup"},
                                  {"/item/7", "TCP socket tuning for the network"}}));
  const std::string dir = base_ + "/crawl";
  ASSERT_EQ(Crawl(dir, " --seeds-from-sitemaps"), 0) << Log("crawl.log");
  std::vector<std::string> order = Served();
  size_t last_on = 0, first_off = order.size();
  for (const auto& p : on) {
    ASSERT_LT(At(order, p), order.size()) << p;
    last_on = std::max(last_on, At(order, p));
  }
  for (const auto& p : off) {
    ASSERT_LT(At(order, p), order.size()) << p;
    first_off = std::min(first_off, At(order, p));
  }
  EXPECT_LT(last_on, first_off) << ::testing::PrintToString(order);
  // The title, not the URL, made /item/7 an on-topic link: its frontier row
  // keeps the anchor the strategy read.
  EXPECT_EQ(Rows(dir, "SELECT anchor FROM frontier WHERE url = 'http://site.test/item/7'"),
            (std::vector<std::string>{"TCP socket tuning for the network"}));
  EXPECT_EQ(Rows(dir, "SELECT anchor FROM frontier WHERE url = 'http://site.test/garden/flowers'"),
            (std::vector<std::string>{"garden flowers"}));
}

// A signals round: one known page's trusted lastmod moved (a claim), and the
// sitemap and feed name new on- and off-topic pages. Order: the claim (and
// the crawl's seed, revisited at the top priority), then the announced new
// URLs on-topic first, then the estimator's revisits.
TEST_F(SignalsIntegrationTest, RoundFetchesClaimsThenOnTopicAnnouncedThenTheEstimators) {
  std::string home;
  std::vector<std::pair<std::string, std::string>> listed;
  for (int i = 0; i < 20; ++i) {
    const std::string path = "/docs/p" + std::to_string(i);
    home += "<a href='" + path + "'>page " + std::to_string(i) + "</a> ";
    SetPage(path, "text of page " + std::to_string(i), i);
    if (i < 10) listed.push_back({path, W3cDate(i)});  // p10-p19: not in the sitemap
  }
  server_.Set("/", HtmlResponse(Page("home", home)));
  server_.Set("/sitemap.xml", Sitemap(listed));
  const std::string dir = base_ + "/crawl";
  ASSERT_EQ(Crawl(dir), 0) << Log("crawl.log");
  ASSERT_EQ(FetchOrder(dir, 0).size(), 21u);
  Served();

  // Round 1: p3 changed (its lastmod says so), new pages announced.
  SetPage("/docs/p3", "new text of page 3", 25);
  listed[3].second = W3cDate(25);
  const std::vector<std::string> on = {"/new/tcp-network-socket", "/new/routing-network.html",
                                       "/item/9"};
  const std::vector<std::string> off = {"/new/cake-recipes", "/new/holiday-photos.html", "/item/10"};
  for (const auto& p : on) SetPage(p, "fresh page", 26);
  for (const auto& p : off) SetPage(p, "fresh page", 26);
  listed.push_back({off[0], W3cDate(26)});
  listed.push_back({on[0], W3cDate(26)});
  listed.push_back({off[1], W3cDate(26)});
  listed.push_back({on[1], W3cDate(26)});
  server_.Set("/sitemap.xml", Sitemap(listed));
  server_.Set("/feed.atom", Feed({{"/item/10", "Holiday cake"}, {"/item/9", "Socket routing"}}));
  // 50 % of 21 pages: the claim, the 6 announced URLs, 3 estimator revisits
  // (one budget for the three).
  ASSERT_EQ(Recrawl(dir, " --budget 50%"), 0) << Log("recrawl.log");
  std::vector<std::string> order = Served();
  const std::string dump = ::testing::PrintToString(order);
  const size_t claim = At(order, "/docs/p3");
  ASSERT_LT(claim, order.size()) << dump;
  size_t first_announced = order.size(), last_on = 0, first_off = order.size(), last_off = 0;
  for (const auto& p : on) {
    ASSERT_LT(At(order, p), order.size()) << p << " " << dump;
    last_on = std::max(last_on, At(order, p));
    first_announced = std::min(first_announced, At(order, p));
  }
  for (const auto& p : off) {
    ASSERT_LT(At(order, p), order.size()) << p << " " << dump;
    first_off = std::min(first_off, At(order, p));
    last_off = std::max(last_off, At(order, p));
    first_announced = std::min(first_announced, At(order, p));
  }
  EXPECT_LT(claim, first_announced) << dump;
  EXPECT_LT(last_on, first_off) << dump;
  // The estimator's revisits (the pages no sitemap covers) come after every
  // announced URL.
  int estimator = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].rfind("/docs/p1", 0) == 0 && order[i].size() == 9) {  // p10-p19
      ++estimator;
      EXPECT_GT(i, last_off) << order[i] << " " << dump;
    }
  }
  EXPECT_GT(estimator, 0) << dump;
  EXPECT_NE(Log("recrawl.log").find("6 announced new URLs"), std::string::npos)
      << Log("recrawl.log");
}

// Issue 34's acceptance: a round over an unchanged site whose sitemap is
// unchanged and trusted costs <= 5 % of round 0's fetches (what is left:
// the crawl's seed and the two exploration revisits of the host).
TEST_F(SignalsIntegrationTest, UnchangedSiteWithTrustedSitemapCostsAtMostFivePercent) {
  std::string home;
  std::vector<std::pair<std::string, std::string>> listed = {{"/", W3cDate(0)}};
  constexpr int kPages = 100;
  for (int i = 0; i < kPages; ++i) {
    const std::string path = "/docs/p" + std::to_string(i);
    home += "<a href='" + path + "'>page " + std::to_string(i) + "</a> ";
    SetPage(path, "text of page " + std::to_string(i), i % 28);
    listed.push_back({path, W3cDate(i % 28)});
  }
  TestResponse h = HtmlResponse(Page("home", home));
  h.headers.push_back({"Last-Modified", HttpDate(0)});
  server_.Set("/", h);
  server_.Set("/sitemap.xml", Sitemap(listed));
  const std::string dir = base_ + "/crawl";
  ASSERT_EQ(Crawl(dir), 0) << Log("crawl.log");
  const size_t round0 = FetchOrder(dir, 0).size();
  ASSERT_EQ(round0, static_cast<size_t>(kPages + 1));
  ASSERT_EQ(Recrawl(dir, " --budget 30%"), 0) << Log("recrawl.log");
  const std::vector<std::string> round1 = FetchOrder(dir, 1);
  RecordProperty("round0_fetches", static_cast<int>(round0));
  RecordProperty("round1_fetches", static_cast<int>(round1.size()));
  EXPECT_GE(round1.size(), 1u);  // the seed
  EXPECT_LE(round1.size() * 100, round0 * 5) << ::testing::PrintToString(round1);
  EXPECT_EQ(Rows(dir, "SELECT state FROM host_trust WHERE round = 1"),
            (std::vector<std::string>{"trusted"}));
  // A second unchanged round stays as cheap.
  ASSERT_EQ(Recrawl(dir, " --budget 30%"), 0) << Log("recrawl.log");
  EXPECT_LE(FetchOrder(dir, 2).size() * 100, round0 * 5);
}

}  // namespace
}  // namespace topicrawl
