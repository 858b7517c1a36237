// --render in the crawl loop, end to end on 127.0.0.1 with Debian's
// chromium (the test fails, not skips, without it): a site whose links are
// built by a script from a JSON API, next to a static site.
//   never:  the script-built site yields its home page only;
//   always: its articles are found; the document is downloaded once; the
//           WARC holds the response and the rendered DOM (conversion);
//   auto:   the script site is sampled and decided "render", the static
//           site (its home has a script, and its content in the HTML) is
//           never rendered; pages of the script site
//           fetched while its samples render are held and rendered after
//           the decision, so the links only their scripts write are found.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "render/browser_process.h"
#include "store/warc_reader.h"
#include "strategies/strategy_registry.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;
using testing::HtmlResponse;
using testing::TextResponse;

constexpr int kArticles = 6;

class CrawlerRenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!FindChromium().ok()) FAIL() << FindChromium().status().message();
    ASSERT_TRUE(spa_.Start().ok());
    ASSERT_TRUE(static_.Start().ok());
    const std::string shell =
        "<!doctype html><html><head><title>spa</title><script src=/app.js></script></head>"
        "<body><nav id=nav></nav><main id=main>Loading</main></body></html>";
    spa_.Set("/", HtmlResponse(shell));
    std::string nav = "[";
    for (int i = 0; i < kArticles; ++i) {
      const std::string path = "/article/" + std::to_string(i);
      spa_.Set(path, HtmlResponse(shell));
      spa_.Set("/api" + path + ".json",
               TextResponse("{\"text\":\"Article " + std::to_string(i) +
                                " about packet routing and congestion control\"}",
                            "application/json"));
      nav += std::string(i ? "," : "") + "\"" + path + "\"";
    }
    nav += ",\"http://static.test/\"]";
    spa_.Set("/api/nav.json", TextResponse(nav, "application/json"));
    spa_.Set("/app.js", TextResponse(R"JS(
      document.addEventListener('DOMContentLoaded', () => {
        fetch('/api/nav.json').then(r => r.json()).then(list => {
          for (const h of list) { const a = document.createElement('a'); a.href = h;
            a.textContent = 'link ' + h; document.getElementById('nav').appendChild(a); }
        });
        if (location.pathname.startsWith('/article/')) {
          fetch('/api' + location.pathname + '.json').then(r => r.json()).then(j => {
            document.getElementById('main').textContent = j.text; });
        }
      });)JS", "application/javascript"));
    // The static home has a script (a menu widget) and its content in the
    // HTML: auto mode reads it as content and never renders it.
    std::string prose;
    for (int i = 0; i < 12; ++i) prose += "Static pages about routing tables and queues. ";
    static_.Set("/", HtmlResponse("<html><head><script src=/menu.js></script></head><body><p>" +
                                  prose + "</p><a href=/s1>s1</a><a href=/s2>s2</a></body></html>"));
    static_.Set("/menu.js", TextResponse("document.body.dataset.menu = 'on';",
                                         "application/javascript"));
    static_.Set("/s1", HtmlResponse("<html><body><p>static one</p></body></html>"));
    static_.Set("/s2", HtmlResponse("<html><body><p>static two</p></body></html>"));
  }

  CrawlConfig Config(const std::string& name, const std::string& render) {
    dir_ = ::testing::TempDir() + "/render_crawl_" + name;
    fs::remove_all(dir_);
    CrawlConfig c;
    c.seeds = {"http://spa.test/", "http://static.test/"};
    c.out_dir = dir_;
    c.strategy = "bfs";
    c.max_pages = 50;
    c.delay_s = 0;
    c.respect_robots = false;
    c.progress_interval_ms = 0;
    c.total_timeout_s = 5;
    c.render = render;
    c.render_workers = 1;
    c.render_timeout_s = 20;
    c.connect_to = {"spa.test:80:127.0.0.1:" + std::to_string(spa_.port()),
                    "static.test:80:127.0.0.1:" + std::to_string(static_.port())};
    return c;
  }

  std::vector<std::string> Run(const CrawlConfig& c) {
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    Status s = crawler.Run();
    EXPECT_TRUE(s.ok()) << s.message();
    return Column("SELECT url FROM pages WHERE status = 'ok' ORDER BY url");
  }

  std::vector<std::string> Column(const std::string& sql) {
    std::vector<std::string> out;
    sqlite3* db = nullptr;
    sqlite3_open_v2((dir_ + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char* t = sqlite3_column_text(st, 0);
        out.push_back(t ? reinterpret_cast<const char*>(t) : "");
      }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }

  static int CountPrefix(const std::vector<std::string>& urls, const std::string& prefix) {
    int n = 0;
    for (const auto& u : urls) n += u.rfind(prefix, 0) == 0;
    return n;
  }

  testing::TestHttpServer spa_, static_;
  std::string dir_;
};

TEST_F(CrawlerRenderTest, NeverSeesOnlyTheShell) {
  auto urls = Run(Config("never", "never"));
  EXPECT_EQ(CountPrefix(urls, "http://spa.test/"), 1);
  EXPECT_EQ(CountPrefix(urls, "http://static.test/"), 3);
  EXPECT_EQ(spa_.RequestCount("/api/nav.json"), 0);
}

TEST_F(CrawlerRenderTest, AlwaysFindsScriptBuiltLinksAndStoresTheDom) {
  auto urls = Run(Config("always", "always"));
  EXPECT_EQ(CountPrefix(urls, "http://spa.test/article/"), kArticles);
  EXPECT_EQ(CountPrefix(urls, "http://static.test/"), 3);
  EXPECT_EQ(spa_.RequestCount("/"), 1);  // rendered from the crawler's own bytes
  EXPECT_EQ(spa_.RequestCount("/app.js"), 1);  // shared subresource cache
  std::map<std::string, int> types;
  std::string article_dom;
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    if (entry.path().string().find(".warc.gz") == std::string::npos) continue;
    Status s = ReadWarcFile(entry.path(), [&](ParsedWarcRecord& r) {
      ++types[std::string(r.Header("WARC-Type"))];
      if (r.Header("WARC-Type") == "conversion" &&
          r.Header("WARC-Target-URI") == "http://spa.test/article/3") {
        article_dom = r.block;
      }
      return true;
    });
    ASSERT_TRUE(s.ok()) << s.message();
  }
  EXPECT_EQ(types["response"], 10);  // spa home, 6 articles, 3 static pages
  EXPECT_EQ(types["conversion"], types["response"]);
  EXPECT_NE(article_dom.find("Article 3 about packet routing"), std::string::npos);
}

TEST_F(CrawlerRenderTest, AutoRendersTheScriptSiteOnly) {
  CrawlConfig c = Config("auto", "auto");
  c.render_max_share = 1;
  c.deterministic = true;  // one page at a time: the samples come first
  auto urls = Run(c);
  EXPECT_EQ(CountPrefix(urls, "http://spa.test/article/"), kArticles);
  EXPECT_EQ(CountPrefix(urls, "http://static.test/"), 3);
  auto decisions = Column("SELECT detail FROM events WHERE kind = 'render_decision'");
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_NE(decisions[0].find("http://spa.test: 2 samples"), std::string::npos) << decisions[0];
  EXPECT_NE(decisions[0].find("-> render"), std::string::npos) << decisions[0];
  // The static site's pages are content (one with a script): none was
  // sampled or rendered, only the script site's 7 pages.
  auto static_renders = Column(
      "SELECT detail FROM events WHERE kind = 'render'");
  ASSERT_EQ(static_renders.size(), 1u);
  EXPECT_NE(static_renders[0].find("rendered=7 "), std::string::npos) << static_renders[0];
  EXPECT_NE(static_renders[0].find(" scripted_content=1"), std::string::npos)
      << static_renders[0];
}

// A script-built site whose every page writes one link of its own: /p/I
// links to /hidden/I only through its script. The home and the first /p/I
// parsed are the samples; the other /p/I arrive while the second sample
// renders and are held, then rendered once the host is decided "render".
TEST_F(CrawlerRenderTest, AutoRendersThePagesFetchedBeforeTheDecision) {
  testing::TestHttpServer site;
  ASSERT_TRUE(site.Start().ok());
  const std::string shell =
      "<!doctype html><html><head><title>app</title><script src=/app.js></script></head>"
      "<body><nav id=nav></nav></body></html>";
  site.Set("/", HtmlResponse(shell));
  for (int i = 0; i < kArticles; ++i) {
    site.Set("/p/" + std::to_string(i), HtmlResponse(shell));
    site.Set("/hidden/" + std::to_string(i),
             HtmlResponse("<html><body><p>hidden " + std::to_string(i) + "</p></body></html>"));
  }
  site.Set("/app.js", TextResponse(R"JS(
    document.addEventListener('DOMContentLoaded', () => {
      const add = h => { const a = document.createElement('a'); a.href = h; a.textContent = h;
                         document.getElementById('nav').appendChild(a); };
      const m = location.pathname.match(/^\/p\/(\d+)$/);
      if (m) { add('/hidden/' + m[1]); return; }
      for (let i = 0; i < )JS" + std::to_string(kArticles) + R"JS(; ++i) add('/p/' + i);
    });)JS", "application/javascript"));
  CrawlConfig c = Config("auto_held", "auto");
  c.seeds = {"http://app.test/"};
  c.connect_to = {"app.test:80:127.0.0.1:" + std::to_string(site.port())};
  c.render_max_share = 1;
  auto urls = Run(c);
  EXPECT_EQ(CountPrefix(urls, "http://app.test/p/"), kArticles);
  EXPECT_EQ(CountPrefix(urls, "http://app.test/hidden/"), kArticles);
  auto decisions = Column("SELECT detail FROM events WHERE kind = 'render_decision'");
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_NE(decisions[0].find("-> render"), std::string::npos) << decisions[0];
  // Every page was rendered (a conversion record each); the held
  // ones say so in their WARC metadata, as many as the render event counts.
  int conversions = 0, held = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    if (entry.path().string().find(".warc.gz") == std::string::npos) continue;
    Status s = ReadWarcFile(entry.path(), [&](ParsedWarcRecord& r) {
      conversions += r.Header("WARC-Type") == "conversion";
      if (r.Header("WARC-Type") == "metadata" &&
          r.block.find("held for its host's render decision") != std::string::npos) {
        ++held;
      }
      return true;
    });
    ASSERT_TRUE(s.ok()) << s.message();
  }
  EXPECT_EQ(conversions, 1 + 2 * kArticles);  // a "render" host: all its pages
  auto render = Column("SELECT detail FROM events WHERE kind = 'render'");
  ASSERT_EQ(render.size(), 1u);
  EXPECT_NE(render[0].find(" held=" + std::to_string(held)), std::string::npos) << render[0];
}

}  // namespace
}  // namespace topicrawl
