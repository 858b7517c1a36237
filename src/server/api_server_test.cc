#include "server/api_server.h"

#include <httplib.h>

#include <filesystem>

#include "crawl/crawl_monitor.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "search/search_index.h"
#include "server/prometheus_text.h"
#include "store/crawl_store.h"
#include "support/search_test_util.h"

namespace topicrawl {
namespace {

using nlohmann::json;
using testing::TestDoc;

const char kHostileTitle[] = "<script>alert(1)</script>";
const char kHostileUrl[] = "http://evil.test/\"><img src=x onerror=alert(2)>";

std::vector<TestDoc> Docs() {
  return {
      {"http://net.test/", "Networking home", "Networks, routers and firewalls.", 0.9},
      {"http://zh.test/fw", "防火墙配置", "本文介绍如何配置防火墙。", 0.8, "ok", 200, 1},
      {"http://food.test/soup", "Tomato soup", "Cook the tomatoes.", 0.1, "ok", 200, 1},
      {"http://net.test/missing", "", "", std::nullopt, "http_error", 404, 1},
      {kHostileUrl, kHostileTitle, "firewall <b>bold</b>", 0.7, "ok", 200, 2},
  };
}

class ApiServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir("api");
    ASSERT_TRUE(testing::WriteTestCrawl(dir_, Docs(), 0.5).ok());
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Start(ServerOptions options = {}, CrawlMonitor* monitor = nullptr) {
    options.listen = "127.0.0.1:0";
    auto s = ApiServer::Start(options, {ServedCrawl{dir_, monitor}});
    ASSERT_TRUE(s.ok()) << s.status().message();
    server_ = std::move(s).value();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }
  json Get(const std::string& path, int expect = 200) {
    auto r = client_->Get(path.c_str());
    EXPECT_TRUE(r) << path;
    if (!r) return nullptr;
    EXPECT_EQ(r->status, expect) << path << ": " << r->body;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
    return json::parse(r->body, nullptr, false);
  }
  httplib::Result Post(const std::string& path, const std::string& body,
                       httplib::Headers headers = {}) {
    return client_->Post(path.c_str(), headers, body, "application/json");
  }
  std::string dir_;
  std::unique_ptr<ApiServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ApiServerTest, ReadOnlyStatusCountsMatchTheStore) {
  Start();
  json s = Get("/api/status");
  EXPECT_EQ(s["live"], false);
  EXPECT_EQ(s["state"], "finished");
  EXPECT_EQ(s["counters"]["pages_ok"], 4);
  EXPECT_EQ(s["counters"]["pages_failed"], 1);
  EXPECT_EQ(s["counters"]["relevant"], 3);
  EXPECT_EQ(s["hosts"], 4);
  EXPECT_EQ(s["recent_relevant"].size(), 3u);
  EXPECT_EQ(s["recent_relevant"][0]["id"], 5);  // newest first
  EXPECT_EQ(s["recall"], nullptr);              // no labels
  // Ok pages by media type (the 404 is not counted); no ETA once finished.
  EXPECT_EQ(s["content_types"], json({{"text/html", 4}}));
  EXPECT_EQ(s["eta_s"], nullptr);
}

// The queue of a served crawl directory is the number of URLs whose
// frontier state is still 0; counting it reads the whole frontier, so it is
// counted once and again only after new pages (DbAggregate::queue).
TEST_F(ApiServerTest, ReadOnlyStatusCountsTheQueuedUrlsOnce) {
  {
    auto store = CrawlStore::Open(dir_, OpenMode::kResume);
    ASSERT_TRUE(store.ok()) << store.status().message();
    std::vector<FrontierRecord> rows;
    for (int i = 0; i < 3; ++i) {
      FrontierRecord r;
      r.url = "http://net.test/queued-" + std::to_string(i);
      r.url_id = 1000 + i;
      rows.push_back(r);
    }
    ASSERT_TRUE((*store)->AddSeeds(rows).ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  Start();
  EXPECT_EQ(Get("/api/status")["queue"], 3);
  {
    auto store = CrawlStore::Open(dir_, OpenMode::kResume);
    ASSERT_TRUE(store.ok()) << store.status().message();
    FrontierRecord r;
    r.url = "http://net.test/queued-late";
    r.url_id = 2000;
    ASSERT_TRUE((*store)->AddSeeds({r}).ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  // No page was added since the count: the cached figure stands.
  EXPECT_EQ(Get("/api/status")["queue"], 3);
}

TEST_F(ApiServerTest, PagesFiltersAndPaging) {
  Start();
  json p = Get("/api/pages?relevant=1");
  ASSERT_EQ(p["pages"].size(), 3u);
  EXPECT_EQ(p["pages"][0]["id"], 1);
  EXPECT_EQ(p["pages"][2]["id"], 5);
  p = Get("/api/pages?limit=2");
  ASSERT_EQ(p["pages"].size(), 2u);
  EXPECT_EQ(p["next_after"], 2);
  p = Get("/api/pages?limit=2&after=2");
  EXPECT_EQ(p["pages"][0]["id"], 3);
  p = Get("/api/pages?host=net.test");
  EXPECT_EQ(p["pages"].size(), 2u);
  p = Get("/api/pages?q=soup");
  ASSERT_EQ(p["pages"].size(), 1u);
  EXPECT_EQ(p["pages"][0]["title"], "Tomato soup");
  p = Get("/api/pages?order=desc&limit=1");
  EXPECT_EQ(p["pages"][0]["id"], 5);
  Get("/api/pages/999", 404);
  Get("/api/pages?crawl=3", 404);
  Get("/api/hosts?sort=nonsense", 400);
}

TEST_F(ApiServerTest, PageDetailHasExplanationsPathAndLinks) {
  Start();
  json p = Get("/api/pages/5");
  EXPECT_EQ(p["title"], kHostileTitle);  // data, verbatim: escaping is the renderer's job
  EXPECT_EQ(p["url"], kHostileUrl);
  EXPECT_EQ(p["explanation"]["why"], "test");
  ASSERT_EQ(p["path_to_seed"].size(), 2u);
  EXPECT_EQ(p["path_to_seed"][0]["id"], 2);
  EXPECT_EQ(p["path_to_seed"][1]["id"], 1);
  json first = Get("/api/pages/1");
  EXPECT_TRUE(first["path_to_seed"].empty());
  ASSERT_EQ(first["links"].size(), 1u);
  EXPECT_EQ(first["links"][0]["url"], "http://zh.test/fw");
}

TEST_F(ApiServerTest, SearchNeedsAnIndexThenFindsChineseAndEnglish) {
  Start();
  Get("/api/search?q=firewall", 404);
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  json r = Get("/api/search?q=%E9%98%B2%E7%81%AB%E5%A2%99");  // 防火墙
  ASSERT_EQ(r["hits"].size(), 1u);
  EXPECT_EQ(r["hits"][0]["id"], 2);
  r = Get("/api/search?q=firewall&relevant=1");
  EXPECT_EQ(r["hits"].size(), 2u);
  r = Get("/api/search?q=bold");
  ASSERT_EQ(r["hits"].size(), 1u);
  EXPECT_EQ(r["hits"][0]["title"], kHostileTitle);
  Get("/api/search", 400);
}

TEST_F(ApiServerTest, MetricsParseStrictlyAndAgreeWithTheStore) {
  Start();
  auto r = client_->Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  auto f = ParsePrometheusText(r->body);
  ASSERT_TRUE(f.ok()) << f.status().message() << "\n" << r->body;
  EXPECT_EQ(f->at("topicrawl_pages_ok_total").samples.at(0).value, 4);
  EXPECT_EQ(f->at("topicrawl_pages_failed_total").samples.at(0).value, 1);
  EXPECT_EQ(f->at("topicrawl_pages_relevant_total").samples.at(0).value, 3);
  for (const auto& [name, family] : *f) {
    for (const auto& s : family.samples) EXPECT_EQ(s.labels.count("host"), 0u) << name;
  }
}

TEST_F(ApiServerTest, TokenIsRequiredAndComparedExactly) {
  ServerOptions o;
  o.token = "0123456789abcdef-secret";
  Start(o);
  Get("/api/status", 401);
  Get("/metrics", 401);
  client_->set_bearer_token_auth("0123456789abcdef-secreT");
  Get("/api/status", 401);
  client_->set_bearer_token_auth("0123456789abcdef-secret");
  Get("/api/status", 200);
  // The page itself holds no crawl data and loads without the token.
  httplib::Client anon("127.0.0.1", server_->port());
  auto page = anon.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
}

TEST_F(ApiServerTest, NonLoopbackWithoutTokenRefusesToStart) {
  ServerOptions o;
  o.listen = "0.0.0.0:0";
  auto s = ApiServer::Start(o, {ServedCrawl{dir_, nullptr}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("token"), std::string::npos);
}

TEST_F(ApiServerTest, ForeignHostHeaderIsRefused) {
  Start();
  auto r = client_->Get("/api/status", {{"Host", "rebind.example:80"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
}

TEST_F(ApiServerTest, PostsAreSameOriginJsonAndBounded) {
  CrawlMonitor monitor;
  Start({}, &monitor);
  auto r = Post("/api/stop", "{}", {{"Origin", "http://evil.example"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  r = Post("/api/stop", "{}", {{"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(r->status, 403);
  r = client_->Post("/api/stop", "{}", "text/plain");
  EXPECT_EQ(r->status, 415);
  EXPECT_FALSE(monitor.stop_requested());
  r = Post("/api/seeds", std::string(100 * 1024, ' '));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  const std::string origin = "http://127.0.0.1:" + std::to_string(server_->port());
  r = Post("/api/stop", "{}", {{"Origin", origin}, {"Sec-Fetch-Site", "same-origin"}});
  EXPECT_EQ(r->status, 202);
  EXPECT_TRUE(monitor.stop_requested());
  EXPECT_TRUE(server_->WaitForStopRequest(std::chrono::milliseconds(0)));
}

TEST_F(ApiServerTest, SeedsGoToTheMonitor) {
  CrawlMonitor monitor;
  Start({}, &monitor);
  auto r = Post("/api/seeds", R"J({"urls": ["HTTP://New.Test/a/../b", "javascript:alert(1)"]})J");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202);
  json j = json::parse(r->body);
  EXPECT_EQ(j["accepted"], 1);
  EXPECT_EQ(j["rejected"][0], "javascript:alert(1)");
  ASSERT_TRUE(monitor.seeds_pending());
  EXPECT_EQ(monitor.TakeSeeds(), std::vector<std::string>{"http://new.test/b"});
  r = Post("/api/seeds", R"({"url": "x"})");
  EXPECT_EQ(r->status, 400);
}

TEST_F(ApiServerTest, ReadOnlyCrawlRefusesControl) {
  Start();
  auto r = Post("/api/stop", "{}");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409);
}

TEST_F(ApiServerTest, LiveStatusComesFromTheSnapshot) {
  CrawlMonitor monitor;
  monitor.SetStrategy("best-first", 0.5);
  std::string url = "http://a.test/x", title = "A page";
  for (int i = 1; i <= 3; ++i) {
    MonitoredPage p;
    p.id = i;
    p.host = 0;
    p.ok = true;
    p.relevant = i != 2;
    p.relevance = i != 2 ? 0.9 : 0.1;
    p.status = "ok";
    p.url = &url;
    p.title = &title;
    monitor.OnPage(p);
  }
  CrawlStats stats;
  stats.pages_ok = 3;
  stats.relevant = 2;
  stats.elapsed_s = 1.5;
  stats.links_trap_not_queued = 17;
  stats.content_types = {{"text/html", 2}, {"application/pdf", 1}};
  stats.max_pages = 100;
  stats.eta_s = 48.5;
  monitor.Publish(stats, nullptr, TimePoint{}, 1700000000000, "running");
  Start({}, &monitor);
  json s = Get("/api/status");
  EXPECT_EQ(s["live"], true);
  EXPECT_EQ(s["state"], "running");
  EXPECT_EQ(s["strategy"], "best-first");
  EXPECT_EQ(s["counters"]["pages_ok"], 3);
  EXPECT_EQ(s["counters"]["links_trap_not_queued"], 17);
  EXPECT_EQ(s["content_types"], json({{"application/pdf", 1}, {"text/html", 2}}));
  EXPECT_EQ(s["max_pages"], 100);
  EXPECT_DOUBLE_EQ(s["eta_s"].get<double>(), 48.5);
  auto m = client_->Get("/metrics");
  ASSERT_TRUE(m);
  auto f = ParsePrometheusText(m->body);
  ASSERT_TRUE(f.ok()) << f.status().message() << "\n" << m->body;
  EXPECT_EQ(f->at("topicrawl_links_trap_not_queued_total").samples.at(0).value, 17);
  EXPECT_NEAR(s["harvest"]["window"].get<double>(), 2.0 / 3, 1e-9);
  ASSERT_EQ(s["recent_relevant"].size(), 2u);
  EXPECT_EQ(s["recent_relevant"][0]["id"], 3);
}

TEST_F(ApiServerTest, DashboardIsSelfContainedAndLocked) {
  Start();
  auto r = client_->Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  const std::string csp = r->get_header_value("Content-Security-Policy");
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos);
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos);
  EXPECT_EQ(r->body.find("http://"), std::string::npos);   // no external assets
  EXPECT_EQ(r->body.find("https://"), std::string::npos);
  auto js = client_->Get("/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->body.find("innerHTML"), std::string::npos);  // textContent only
}

TEST(ListenAddressTest, ParsesAndChecks) {
  std::string host;
  int port = 0;
  ASSERT_TRUE(ParseListenAddress("127.0.0.1:8080", &host, &port).ok());
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 8080);
  ASSERT_TRUE(ParseListenAddress("[::1]:9", &host, &port).ok());
  EXPECT_EQ(host, "::1");
  EXPECT_FALSE(ParseListenAddress("8080", &host, &port).ok());
  EXPECT_FALSE(ParseListenAddress("x:99999", &host, &port).ok());
  EXPECT_TRUE(IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackHost("localhost"));
  EXPECT_FALSE(IsLoopbackHost("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackHost("10.0.0.1"));
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
  EXPECT_FALSE(ConstantTimeEquals("", "a"));
}

}  // namespace
}  // namespace topicrawl
