// The render pool against Debian's chromium and a loopback test server: one
// browser for the whole binary (SetUpTestSuite). What the test server
// received is the evidence: the page's own document is never downloaded
// again, and a request refused by a rule never arrives.
//
// The pool plays a public web: site.test is mapped to the test server by
// --connect-to (exempt from the private-address refusal, as crawls of test
// webs are), everything else follows the production rules.
#include <gtest/gtest.h>
#include <sched.h>

#include <filesystem>
#include <future>
#include <memory>
#include <set>

#include "core/test_require.h"
#include "parse/html_parser.h"
#include "render/browser_process.h"
#include "render/render_pool.h"
#include "support/test_http_server.h"
#include "url/url.h"

namespace topicrawl {
namespace {

using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TextResponse;

class RenderPoolTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new TestHttpServer();
    ASSERT_TRUE(server_->Start().ok());
    server_->Set("/robots.txt", TextResponse("User-agent: *\nDisallow: /private/\n"));
    auto chromium = FindChromium();
    if (!chromium.ok()) {
      start_error_ = chromium.status().message();
      return;
    }
    RenderOptions o;
    o.workers = 1;
    o.tabs_per_worker = 4;
    o.page_timeout_s = 30;  // a loaded CI machine; the hung page sets its own
    o.pages_per_browser = 8;
    o.fetch.connect_to = {"site.test:80:127.0.0.1:" + std::to_string(server_->port())};
    o.fetch.resolve = {"rebind.test:80:127.0.0.1"};
    o.fetch.connect_timeout_s = 1;
    auto pool = RenderPool::Start(o);
    if (!pool.ok()) {
      start_error_ = pool.status().message();
      return;
    }
    pool_ = std::move(pool).value().release();
  }
  static void TearDownTestSuite() {
    delete pool_;
    delete server_;
    pool_ = nullptr;
    server_ = nullptr;
  }
  void SetUp() override {
    // Debian's chromium is installed by scripts/setup: CI fails without it.
    if (pool_ == nullptr) FAIL() << "render pool did not start: " << start_error_;
  }

  static RenderResult Render(const std::string& url, const std::string& html,
                             double timeout_s = 0, RenderPool* pool = nullptr) {
    RenderJob job;
    job.timeout_s = timeout_s;
    job.url = url;
    job.response_head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n";
    job.content_type = "text/html; charset=utf-8";
    job.body = html;
    std::promise<RenderResult> done;
    auto f = done.get_future();
    (pool ? pool : pool_)->Submit(job, [&done](RenderResult r) { done.set_value(std::move(r)); });
    return f.get();
  }

  // The links the crawler's parser finds in the rendered DOM.
  static std::set<std::string> ParsedLinks(const RenderResult& r) {
    ParsedPage page = ParseHtml(r.html, r.location, ParseOptions());
    std::set<std::string> out;
    for (const Outlink& l : page.links) out.insert(l.url);
    return out;
  }
  static std::set<std::string> DomLinks(const RenderResult& r) {
    std::set<std::string> out;
    for (const std::string& l : r.dom_links) {
      if (auto u = ResolveLink("", l)) out.insert(*u);
    }
    return out;
  }

  // A pool of its own: one worker with one tab, no browser recycling.
  static std::unique_ptr<RenderPool> OneTabPool() {
    RenderOptions o;
    o.workers = 1;
    o.tabs_per_worker = 1;
    o.page_timeout_s = 30;
    o.fetch.connect_to = {"site.test:80:127.0.0.1:" + std::to_string(server_->port())};
    auto pool = RenderPool::Start(o);
    EXPECT_TRUE(pool.ok()) << pool.status().message();
    return pool.ok() ? std::move(pool).value() : nullptr;
  }

  static TestHttpServer* server_;
  static RenderPool* pool_;
  static std::string start_error_;
};

TestHttpServer* RenderPoolTest::server_ = nullptr;
RenderPool* RenderPoolTest::pool_ = nullptr;
std::string RenderPoolTest::start_error_;

TEST_F(RenderPoolTest, ScriptBuiltLinksAndTextFromTheFetchedDocument) {
  server_->Set("/app.js", TextResponse(R"JS(
    fetch('/api/list.json').then(r => r.json()).then(items => {
      const ul = document.getElementById('nav');
      for (const it of items) {
        const a = document.createElement('a'); a.href = it.href; a.textContent = it.title;
        const li = document.createElement('li'); li.appendChild(a); ul.appendChild(li);
      }
      document.getElementById('body').textContent = 'Quantum annealing article text';
    });)JS", "application/javascript"));
  server_->Set("/api/list.json",
               TextResponse(R"([{"href":"/a/one","title":"One"},{"href":"/b/two","title":"Two"},)"
                            R"({"href":"http://other.test/x","title":"X"}])",
                            "application/json"));
  const std::string html =
      "<html><head><script src=/app.js></script></head><body><ul id=nav></ul>"
      "<div id=body></div><a href=/static>static</a></body></html>";
  RenderResult r = Render("http://site.test/spa", html);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(server_->RequestCount("/spa"), 0);  // the crawler's bytes were used
  EXPECT_EQ(server_->RequestCount("/api/list.json"), 1);
  const std::set<std::string> want = {"http://site.test/a/one", "http://site.test/b/two",
                                      "http://other.test/x", "http://site.test/static"};
  EXPECT_EQ(ParsedLinks(r), want);
  EXPECT_EQ(DomLinks(r), want);
  EXPECT_NE(r.inner_text.find("Quantum annealing article text"), std::string::npos);
  EXPECT_GE(r.fetched, 2);
}

TEST_F(RenderPoolTest, LazyContentAppearsAfterScrolling) {
  server_->Set("/more.json", TextResponse(R"(["/lazy/1","/lazy/2"])", "application/json"));
  const std::string html = R"(<html><body><div style="height:5000px">tall</div>
    <div id=end></div><script>
    let done = false;
    window.addEventListener('scroll', () => {
      if (done || window.scrollY < 1000) return; done = true;
      fetch('/more.json').then(r => r.json()).then(l => l.forEach(h => {
        const a = document.createElement('a'); a.href = h; a.textContent = h;
        document.getElementById('end').appendChild(a); }));
    });</script></body></html>)";
  RenderResult r = Render("http://site.test/lazy", html);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GE(r.scrolls, 1);
  EXPECT_TRUE(ParsedLinks(r).count("http://site.test/lazy/2")) << r.html.substr(0, 400);
}

TEST_F(RenderPoolTest, InfiniteScrollStopsAtTheScrollCap) {
  const std::string html = R"(<html><body><div id=feed></div><script>
    let n = 0;
    function more() { for (let i = 0; i < 30; ++i) { const p = document.createElement('p');
      p.style.height = '100px'; p.textContent = 'item ' + (n++);
      document.getElementById('feed').appendChild(p); } }
    more(); window.addEventListener('scroll', more);</script></body></html>)";
  RenderResult r = Render("http://site.test/feed", html);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.scrolls, pool_->options().max_scrolls);
}

// Requests that must not reach anything: loopback and link-local addresses,
// a public-looking name that resolves to a private address, a robots.txt-
// disallowed path, a WebSocket. One allowed request shows the page ran.
TEST_F(RenderPoolTest, RefusedSubresourcesNeverReachTheServer) {
  server_->Set("/api/ok.json", TextResponse(R"({"v":"ALLOWED-OK"})", "application/json"));
  server_->Set("/secret", TextResponse("loopback secret"));
  server_->Set("/rebound", TextResponse("rebound secret"));
  server_->Set("/private/x.json", TextResponse("{}", "application/json"));
  const std::string port = std::to_string(server_->port());
  const std::string html = "<html><body><div id=out></div><script>"
      "const put = t => document.getElementById('out').append(t + ' ');"
      "fetch('/api/ok.json').then(r => r.json()).then(j => put(j.v));"
      "fetch('http://127.0.0.1:" + port + "/secret').then(() => put('LEAK1'), () => put('x1'));"
      "fetch('http://169.254.169.254/latest/meta-data/').then(() => put('LEAK2'), () => put('x2'));"
      "fetch('http://rebind.test/rebound').then(() => put('LEAK3'), () => put('x3'));"
      "fetch('/private/x.json').then(() => put('LEAK4'), () => put('x4'));"
      "try { new WebSocket('ws://127.0.0.1:" + port + "/ws'); } catch (e) {}"
      "const s = document.createElement('script'); s.src = 'http://127.0.0.1:" + port +
      "/secret'; document.head.appendChild(s);"
      "</script></body></html>";
  RenderResult r = Render("http://site.test/ssrf", html);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.inner_text.find("ALLOWED-OK"), std::string::npos) << r.inner_text;
  EXPECT_EQ(r.inner_text.find("LEAK"), std::string::npos) << r.inner_text;
  EXPECT_EQ(server_->RequestCount("/secret"), 0);
  EXPECT_EQ(server_->RequestCount("/rebound"), 0);
  EXPECT_EQ(server_->RequestCount("/private/x.json"), 0);
  EXPECT_EQ(server_->RequestCount("/ws"), 0);
  EXPECT_EQ(server_->RequestCount("/api/ok.json"), 1);
  std::string all;
  for (const auto& why : r.refusals) all += why + "\n";
  EXPECT_NE(all.find("169.254.169.254"), std::string::npos) << all;
  EXPECT_NE(all.find("disallowed by robots.txt"), std::string::npos) << all;
  EXPECT_NE(all.find("http://rebind.test/rebound: refused_address"), std::string::npos) << all;
}

TEST_F(RenderPoolTest, DialogsAndNavigationAwayAreContained) {
  server_->Set("/elsewhere", HtmlResponse("<a href=/trap>trap</a>"));
  const std::string html = R"(<html><body><a href="/kept">kept</a><script>
    alert('hi'); confirm('sure?');
    window.addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'x'; });
    setTimeout(() => { location.href = '/elsewhere'; }, 10);
    window.open('/popup');</script></body></html>)";
  RenderResult r = Render("http://site.test/dialogs", html);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GE(r.dialogs, 2);
  EXPECT_EQ(server_->RequestCount("/elsewhere"), 0);
  EXPECT_EQ(server_->RequestCount("/popup"), 0);
  EXPECT_TRUE(ParsedLinks(r).count("http://site.test/kept"));
}

TEST_F(RenderPoolTest, HungAndCrashingPagesFailAndTheNextPageRenders) {
  // The 1 s cap ends a page whose script holds the main thread. Its DOM is
  // read at the cap if the page still answers (on a slow machine the cap can
  // fall before the script has run: the DOM as it stood then), else the
  // render fails with its reason; either way it is marked timed out.
  RenderResult hung = Render("http://site.test/hung",
                             "<html><body><script>while (true) {}</script></body></html>", 1);
  EXPECT_TRUE(hung.timed_out);
  if (hung.ok) {
    EXPECT_TRUE(ParsedLinks(hung).empty());
  } else {
    EXPECT_FALSE(hung.error.empty());
  }
  // A page that allocates until its heap cap kills the renderer.
  RenderResult oom = Render("http://site.test/oom",
                            "<html><body><script>const a = []; while (true) "
                            "a.push(new Array(1e6).fill(1.5));</script></body></html>");
  EXPECT_FALSE(oom.ok);
  RenderResult next = Render("http://site.test/after", "<html><body><a href=/ok>ok</a></body></html>");
  ASSERT_TRUE(next.ok) << next.error;
  EXPECT_TRUE(ParsedLinks(next).count("http://site.test/ok"));
}

// Pages rendered one after another go through one tab: one target for all,
// each with its own links; the site data a page stores is gone for the
// next page of its origin.
TEST_F(RenderPoolTest, ConsecutivePagesReuseOneTabWithTheirStorageCleared) {
  std::unique_ptr<RenderPool> pool = OneTabPool();
  ASSERT_TRUE(pool);
  const std::string writer = R"(<html><body><a href="/w">w</a><script>
    localStorage.setItem('seen', '/from-storage'); document.cookie = 'c=/from-cookie';
    </script></body></html>)";
  const std::string reader = R"(<html><body><div id=out></div><script>
    const add = h => { const a = document.createElement('a'); a.href = h; a.textContent = h;
                       document.getElementById('out').appendChild(a); };
    const s = localStorage.getItem('seen'); if (s) add(s);
    const c = document.cookie.match(/c=([^;]*)/); if (c) add(c[1]);
    add('/reader-ran');</script></body></html>)";
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    RenderResult w = Render("http://site.test/write" + n, writer, 0, pool.get());
    ASSERT_TRUE(w.ok) << w.error;
    EXPECT_EQ(ParsedLinks(w), std::set<std::string>{"http://site.test/w"});
    RenderResult r = Render("http://site.test/read" + n, reader, 0, pool.get());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(ParsedLinks(r), std::set<std::string>{"http://site.test/reader-ran"}) << r.html;
    EXPECT_EQ(r.location, "http://site.test/read" + n);
  }
  const RenderPoolStats stats = pool->Stats();
  EXPECT_EQ(stats.rendered, 6);
  EXPECT_EQ(stats.tabs_opened, 1);
}

// A page that misbehaved (here: a dialog) does not leave its tab to the
// next page: that one renders in a fresh context.
TEST_F(RenderPoolTest, APageThatMisbehavedGetsItsTabReplaced) {
  std::unique_ptr<RenderPool> pool = OneTabPool();
  ASSERT_TRUE(pool);
  ASSERT_TRUE(Render("http://site.test/m0", "<html><body>x</body></html>", 0, pool.get()).ok);
  ASSERT_TRUE(Render("http://site.test/m1", "<html><body>y</body></html>", 0, pool.get()).ok);
  EXPECT_EQ(pool->Stats().tabs_opened, 1);
  RenderResult d = Render("http://site.test/m2",
                          "<html><body><script>alert(1)</script></body></html>", 0, pool.get());
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_EQ(d.dialogs, 1);
  RenderResult next =
      Render("http://site.test/m3", "<html><body><a href=/n>n</a></body></html>", 0, pool.get());
  ASSERT_TRUE(next.ok) << next.error;
  EXPECT_TRUE(ParsedLinks(next).count("http://site.test/n"));
  EXPECT_EQ(pool->Stats().tabs_opened, 2);
}

// CutShort (a crawl's close): optional jobs end early -- the running one
// taken as it is, the queued and later ones refused -- and the others render.
TEST_F(RenderPoolTest, CutShortEndsOptionalJobsOnly) {
  std::unique_ptr<RenderPool> pool = OneTabPool();
  ASSERT_TRUE(pool);
  // Never idle: a request every 50 ms until the (60 s) cap.
  const std::string busy = R"(<html><body><a href="/busy">b</a><script>
    setInterval(() => fetch('/tick?' + Math.random()).catch(() => {}), 50);</script></body></html>)";
  auto job = [](const std::string& url, const std::string& html, bool optional) {
    RenderJob j;
    j.url = url;
    j.response_head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
    j.content_type = "text/html";
    j.body = html;
    j.timeout_s = 60;
    j.optional = optional;
    return j;
  };
  std::promise<RenderResult> a, b, c, d;
  auto done = [](std::promise<RenderResult>* p) {
    return [p](RenderResult r) { p->set_value(std::move(r)); };
  };
  pool->Submit(job("http://site.test/busy-a", busy, true), done(&a));
  pool->Submit(job("http://site.test/busy-b", busy, true), done(&b));  // waits for the tab
  pool->Submit(job("http://site.test/plain-c", "<html><body><a href=/c>c</a></body></html>", false),
               done(&c));
  pool->CutShort();
  pool->Submit(job("http://site.test/busy-d", busy, true), done(&d));
  RenderResult ra = a.get_future().get(), rb = b.get_future().get();
  RenderResult rc = c.get_future().get(), rd = d.get_future().get();
  EXPECT_TRUE(ra.cut_short) << ra.error;  // taken as it was, or before it had loaded
  EXPECT_TRUE(rb.cut_short);
  EXPECT_FALSE(rb.ok);
  EXPECT_NE(rb.error.find("cut short"), std::string::npos) << rb.error;
  EXPECT_TRUE(rd.cut_short);
  EXPECT_FALSE(rd.ok);
  ASSERT_TRUE(rc.ok) << rc.error;
  EXPECT_FALSE(rc.cut_short);
  EXPECT_TRUE(ParsedLinks(rc).count("http://site.test/c"));
}

// The idle scheduling class moves every thread of the browser's processes
// in and out (auto mode samples on spare CPU).
TEST_F(RenderPoolTest, BrowserThreadsMoveInAndOutOfTheIdleClass) {
  auto chromium = FindChromium();
  ASSERT_TRUE(chromium.ok());
  BrowserLaunchOptions lo;
  lo.chromium = *chromium;
  auto b = BrowserProcess::Launch(lo);
  ASSERT_TRUE(b.ok()) << b.status().message();
  std::unique_ptr<BrowserProcess> browser = std::move(b).value();
  auto policies = [&browser] {
    std::set<int> out;
    const std::string dir = "/proc/" + std::to_string(browser->pid()) + "/task";
    for (const auto& t : std::filesystem::directory_iterator(dir)) {
      out.insert(sched_getscheduler(std::stoi(t.path().filename().string())));
    }
    return out;
  };
  EXPECT_EQ(policies(), std::set<int>{SCHED_OTHER});
  ASSERT_TRUE(browser->SetIdleClass(true));
  EXPECT_EQ(policies(), std::set<int>{SCHED_IDLE});
  ASSERT_TRUE(browser->SetIdleClass(false));
  EXPECT_EQ(policies(), std::set<int>{SCHED_OTHER});
}

TEST_F(RenderPoolTest, BrowserIsRecycledAfterItsPageBudget) {
  const int64_t before = pool_->Stats().browser_recycles;
  for (int i = 0; i < 10; ++i) {
    RenderResult r = Render("http://site.test/r" + std::to_string(i),
                            "<html><body><p>page " + std::to_string(i) + "</p></body></html>");
    ASSERT_TRUE(r.ok) << r.error;
  }
  EXPECT_GE(pool_->Stats().browser_recycles, before + 1);
  EXPECT_GT(pool_->Stats().peak_browser_memory, 0u);
}

}  // namespace
}  // namespace topicrawl
