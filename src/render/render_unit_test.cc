// Pure parts of render/: base64 (RFC 4648 section 10 vectors), the headers
// replayed to Chromium, the subresource gate (robots, per-host delay,
// cache) on a fake clock, --render names, the shell evidence of hand-made
// pages and the auto-mode decision.
#include <gtest/gtest.h>

#include "core/clock.h"
#include "render/render_decider.h"
#include "render/render_pool.h"
#include "render/render_worker.h"
#include "render/subresource_gate.h"

namespace topicrawl {
namespace {

TEST(Base64, Rfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(std::string("\xff\x00\xfe", 3)), "/wD+");
}

TEST(ReplayHeaders, LastBlockWithoutTransferHeaders) {
  const std::string head =
      "HTTP/1.1 301 Moved\r\nLocation: /x\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
      "Content-Encoding: gzip\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n"
      "Set-Cookie: a=b\r\nAccess-Control-Allow-Origin: *\r\nX-Odd:  v  \r\n\r\n";
  auto h = ReplayHeaders(head);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].first, "Content-Type");
  EXPECT_EQ(h[0].second, "text/html; charset=utf-8");
  EXPECT_EQ(h[1].first, "Access-Control-Allow-Origin");
  EXPECT_EQ(h[2].second, "v  ");
  EXPECT_TRUE(ReplayHeaders("").empty());
  EXPECT_TRUE(ReplayHeaders("garbage without colon\r\nno colon\r\n").empty());
}

TEST(SubresourceGate, RobotsFetchedOnceThenRulesApply) {
  FakeClock clock;
  SubresourceGate gate(&clock, {});
  auto d = gate.Check("http://a.test/app.js");
  ASSERT_EQ(d.verdict, SubresourceGate::Verdict::kFetchRobots);
  EXPECT_EQ(d.robots_url, "http://a.test/robots.txt");
  EXPECT_EQ(gate.Check("http://a.test/other.js").verdict, SubresourceGate::Verdict::kWait);
  gate.OnRobots(d.robots_key, 200, "User-agent: *\nDisallow: /private/\n", FetchStatus::kOk);
  EXPECT_EQ(gate.Check("http://a.test/app.js").verdict, SubresourceGate::Verdict::kAllow);
  auto denied = gate.Check("http://a.test/private/x.json");
  EXPECT_EQ(denied.verdict, SubresourceGate::Verdict::kDeny);
  EXPECT_EQ(denied.why, "disallowed by robots.txt");
  EXPECT_EQ(gate.Check("mailto:x@y").verdict, SubresourceGate::Verdict::kDeny);
}

TEST(SubresourceGate, UnreachableRobotsDisallowsTheHost) {
  FakeClock clock;
  SubresourceGate gate(&clock, {});
  auto d = gate.Check("http://b.test/app.js");
  gate.OnRobots(d.robots_key, 503, "", FetchStatus::kHttpError);
  EXPECT_EQ(gate.Check("http://b.test/app.js").verdict, SubresourceGate::Verdict::kDeny);
}

TEST(SubresourceGate, RefusedAddressIsTheReasonNotRobots) {
  FakeClock clock;
  SubresourceGate gate(&clock, {});
  auto d = gate.Check("http://rebind.test/x");
  gate.OnRobots(d.robots_key, 0, "", FetchStatus::kPrivateAddress, "127.0.0.1 (loopback)");
  auto denied = gate.Check("http://rebind.test/x");
  EXPECT_EQ(denied.verdict, SubresourceGate::Verdict::kDeny);
  EXPECT_EQ(denied.why, "refused_address (127.0.0.1 (loopback))");
}

TEST(SubresourceGate, HostDelaySpacesFetches) {
  FakeClock clock;
  GateOptions o;
  o.respect_robots = false;
  o.host_delay_s = 2;
  SubresourceGate gate(&clock, o);
  EXPECT_EQ(gate.Check("http://c.test/1").verdict, SubresourceGate::Verdict::kAllow);
  auto wait = gate.Check("http://c.test/2");
  ASSERT_EQ(wait.verdict, SubresourceGate::Verdict::kWait);
  EXPECT_EQ(wait.wait_until - clock.Now(), std::chrono::seconds(2));
  EXPECT_EQ(gate.Check("http://d.test/1").verdict, SubresourceGate::Verdict::kAllow);
  clock.Advance(std::chrono::seconds(2));
  EXPECT_EQ(gate.Check("http://c.test/2").verdict, SubresourceGate::Verdict::kAllow);
}

TEST(SubresourceGate, CacheKeepsOkAnswersWithinItsBudget) {
  FakeClock clock;
  GateOptions o;
  o.cache_bytes = 10;
  o.cache_max_entry = 6;
  SubresourceGate gate(&clock, o);
  gate.Store("u1", std::make_shared<CachedResponse>(CachedResponse{200, "", "", "aaaaa"}));
  gate.Store("u2", std::make_shared<CachedResponse>(CachedResponse{404, "", "", "b"}));
  gate.Store("u3", std::make_shared<CachedResponse>(CachedResponse{200, "", "", "ccccccc"}));
  EXPECT_NE(gate.Lookup("u1"), nullptr);
  EXPECT_EQ(gate.Lookup("u2"), nullptr);  // not a 200
  EXPECT_EQ(gate.Lookup("u3"), nullptr);  // over cache_max_entry
  gate.Store("u4", std::make_shared<CachedResponse>(CachedResponse{200, "", "", "dddddd"}));
  EXPECT_EQ(gate.Lookup("u1"), nullptr);  // evicted: 5 + 6 > 10
  ASSERT_NE(gate.Lookup("u4"), nullptr);
  EXPECT_EQ(gate.Lookup("u4")->body, "dddddd");
}

TEST(RenderMode, Names) {
  EXPECT_EQ(ParseRenderMode("auto"), RenderMode::kAuto);
  EXPECT_EQ(ParseRenderMode("never"), RenderMode::kNever);
  EXPECT_EQ(ParseRenderMode("always"), RenderMode::kAlways);
  EXPECT_FALSE(ParseRenderMode("sometimes").has_value());
  EXPECT_STREQ(RenderModeName(RenderMode::kAuto), "auto");
}

// A script-built shell (thin page with a script file and an empty app
// root) and a documentation page with scripts (content).
ShellEvidence ShellPage() {
  return ReadShellEvidence("<div id=app></div><script src=app.js></script>", {0, 0, 0});
}
ShellEvidence ThinPage() {
  return ReadShellEvidence("<p>Loading</p><script src=app.js></script>", {1, 0, 7});
}
ShellEvidence ContentPage() {
  return ReadShellEvidence("<p>long text</p><script src=search.js></script>", {800, 40, 5000});
}
ShellEvidence PlainPage() { return ReadShellEvidence("<p>plain</p>", {1, 0, 5}); }

// Hand-made documents in the forms of the common single-page-application
// frameworks and of ordinary pages with scripts.
TEST(ShellEvidence, FrameworkShellsAreShells) {
  const ShellEvidence cra = ReadShellEvidence(
      "<!doctype html><html><head><script defer src=\"/static/js/main.3f.js\"></script></head>"
      "<body><noscript>You need to enable JavaScript to run this app.</noscript>"
      "<div id=\"root\"></div></body></html>",
      {9, 0, 48});
  EXPECT_TRUE(cra.Shell());
  EXPECT_TRUE(cra.Strong());
  EXPECT_EQ(cra.empty_root, "#root");
  EXPECT_TRUE(cra.noscript_notice);
  EXPECT_EQ(cra.script_files, 1);
  const ShellEvidence angular = ReadShellEvidence(
      "<html><body><APP-ROOT></APP-ROOT><script src=main.js type=module></script></body></html>",
      {0, 0, 0});
  EXPECT_EQ(angular.empty_root, "<app-root>");
  const ShellEvidence vue = ReadShellEvidence(
      "<body><DIV ID='app' style='height:4000px'>\n  Loading...\n</DIV><script src=/app.js>"
      "</script></body>",
      {1, 0, 10});
  EXPECT_EQ(vue.empty_root, "#app");  // a placeholder of <= 3 words is empty
  EXPECT_NE(vue.Describe().find("empty app root #app"), std::string::npos) << vue.Describe();
}

TEST(ShellEvidence, DataIslandsAndInlineFetches) {
  // The synthetic web's template style: the content as JSON, a <template>.
  const std::string json(600, 'x');
  const ShellEvidence island = ReadShellEvidence(
      "<ul id=links></ul><template id=link><li><a></a></li></template>"
      "<script type=\"application/json\" id=data>{\"prose\":\"" + json + "\"}</script>"
      "<script src=/app.js></script>",
      {0, 0, 0});
  EXPECT_GT(island.island_bytes, 600u);
  EXPECT_TRUE(island.Strong());
  // JSON-LD is metadata: no island; with 12 links the page is no thin page.
  const ShellEvidence ld = ReadShellEvidence(
      "<script type=\"application/ld+json\">{\"@type\":\"Article\",\"x\":\"" + json +
          "\"}</script><p>short</p>",
      {30, 12, 200});
  EXPECT_EQ(ld.island_bytes, 0u);
  EXPECT_FALSE(ld.Shell());
  const ShellEvidence fetch = ReadShellEvidence(
      "<ul id=list></ul><script>fetch('/api/items').then(r => r.json()).then(j => {"
      "document.getElementById('list').innerHTML = j.html; });</script>",
      {0, 0, 0});
  EXPECT_TRUE(fetch.fetch_and_dom);
  EXPECT_TRUE(fetch.Strong());
  // Non-executable script types count as neither code nor data.
  const ShellEvidence config = ReadShellEvidence(
      "<script type=\"text/x-mathjax-config\">fetch( innerHTML</script>", {500, 50, 3000});
  EXPECT_FALSE(config.fetch_and_dom);
  EXPECT_EQ(config.inline_script_bytes, 0u);
}

TEST(ShellEvidence, ContentPagesWithScriptsAreNot) {
  // Server-rendered (Next.js): the root holds the page, the JSON is smaller
  // than its text.
  const ShellEvidence ssr = ReadShellEvidence(
      "<div id=\"__next\"><header><a href=/a>a</a></header><p>long article</p></div>"
      "<script id=\"__NEXT_DATA__\" type=\"application/json\">{\"props\":{}}</script>"
      "<script src=/_next/main.js></script>",
      {400, 25, 2500});
  EXPECT_TRUE(ssr.scripted);
  EXPECT_TRUE(ssr.empty_root.empty());
  EXPECT_FALSE(ssr.Shell());
  EXPECT_EQ(ssr.Describe().rfind("content (400 words, 25 links", 0), 0u) << ssr.Describe();
  // A documentation page that asks for JavaScript for its search box only.
  const ShellEvidence javadoc = ReadShellEvidence(
      "<noscript><div>JavaScript is disabled on your browser.</div></noscript>"
      "<script src=search.js></script><main>...</main>",
      {600, 70, 4000});
  EXPECT_TRUE(javadoc.noscript_notice);
  EXPECT_FALSE(javadoc.Shell());
  // A redirect stub: little text, an inline script, but its content is
  // elsewhere.
  const ShellEvidence stub = ReadShellEvidence(
      "<head><meta http-equiv=\"refresh\" content=\"0;URL=../x.html\"></head><body>"
      "<p>Redirecting to <a href=\"../x.html\">x</a></p>"
      "<script>location.replace(\"../x.html\" + location.search);</script></body>",
      {3, 1, 20});
  EXPECT_TRUE(stub.refresh);
  EXPECT_FALSE(stub.Shell());
  EXPECT_EQ(stub.Describe(), "redirects itself (meta refresh)");
  // An app root in a comment is no root; a small page with a tiny inline
  // script (less script than text) is just small.
  const ShellEvidence small = ReadShellEvidence(
      "<!-- <div id=app></div> --><p>Contact us by mail or phone today.</p>"
      "<script>var a=1;</script>",
      {7, 0, 35});
  EXPECT_TRUE(small.empty_root.empty());
  EXPECT_FALSE(small.Shell());
  EXPECT_FALSE(ReadShellEvidence("<div id=app></div>", {0, 0, 0}).Shell());  // no script
}

TEST(ShellEvidence, BrokenHtmlEndsTheScanWithoutHarm) {
  // Truncated tags, unclosed quotes, raw-text elements without an end tag,
  // an unclosed comment and NUL bytes: read to the end, never past it.
  const std::string inputs[] = {
      "<div id='app", "<script", "<script src=x", "<script>fetch( innerHTML", "<noscript>",
      "<!--", "<template>", "<div id=\"root\">", "<a href=\"x>y</a><div id=app></div>",
      std::string("<p>\0<script src=a></script>\0", 28), "<<<>>><", "</", "<meta http-equiv",
      "<DIV ID=app>one two three four</DIV><script src=a></script>"};
  for (const std::string& html : inputs) {
    const ShellEvidence e = ReadShellEvidence(html, {0, 0, 0});
    (void)e.Describe();
  }
  EXPECT_TRUE(ReadShellEvidence("<script>fetch( innerHTML", {0, 0, 0}).fetch_and_dom);
  EXPECT_EQ(ReadShellEvidence("<div id=\"root\"><script src=a></script>", {0, 0, 0}).empty_root,
            "");  // the root's content is the script: not a closing tag first
  // Four words are content, not a placeholder.
  EXPECT_EQ(ReadShellEvidence("<DIV ID=app>one two three four</DIV><script src=a></script>",
                              {4, 0, 18})
                .empty_root,
            "");
}

TEST(RenderDecider, AThinSampleWithoutGainDecidesItsHostAtOnce) {
  RenderDeciderOptions o;
  o.samples = 2;
  o.free_renders = 100;
  RenderDecider d(o);
  ASSERT_TRUE(ThinPage().Thin());
  ASSERT_FALSE(ThinPage().Strong());
  EXPECT_EQ(d.Consider("small.test", ThinPage()), RenderDecider::Action::kSample);
  const std::string ev =
      d.AddSample("small.test", RenderSample{{"a"}, {"a"}, 1, 1, /*thin_only=*/true});
  EXPECT_NE(ev.find("1 sample: "), std::string::npos) << ev;
  EXPECT_NE(ev.find("a thin page without gain -> static"), std::string::npos) << ev;
  EXPECT_EQ(d.Consider("small.test", ThinPage()), RenderDecider::Action::kStatic);
  // Strong evidence (an empty app root) wants all samples, and a thin
  // sample that shows a gain does not end the sampling either.
  EXPECT_EQ(d.Consider("spa.test", ShellPage()), RenderDecider::Action::kSample);
  EXPECT_EQ(d.AddSample("spa.test", RenderSample{{"a"}, {"a"}, 1, 1, false}), "");
  EXPECT_EQ(d.Consider("thin.test", ThinPage()), RenderDecider::Action::kSample);
  EXPECT_EQ(d.AddSample("thin.test", RenderSample{{}, {"x", "y"}, 1, 90, true}), "");
  EXPECT_EQ(d.Consider("thin.test", ThinPage()), RenderDecider::Action::kSample);
  EXPECT_NE(d.AddSample("thin.test", RenderSample{{"a"}, {"a"}, 1, 1, true}).find("-> render"),
            std::string::npos);
}

TEST(RenderDecider, ContentPagesAreNeverSampled) {
  RenderDeciderOptions o;
  o.free_renders = 100;
  RenderDecider d(o);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(d.Consider("docs.test", ContentPage()), RenderDecider::Action::kStatic);
  }
  EXPECT_EQ(d.rendered(), 0);
  EXPECT_EQ(d.scripted_content(), 50);
  EXPECT_TRUE(d.Decisions().empty());
}

TEST(RenderDecider, LooksScripted) {
  EXPECT_TRUE(LooksScripted("<html><SCRIPT src=a.js></SCRIPT>"));
  EXPECT_TRUE(LooksScripted("<script>"));
  EXPECT_TRUE(LooksScripted("x<script\n type=module>"));
  EXPECT_FALSE(LooksScripted("<scripts> <noscript>hi</noscript> <p>script</p>"));
  EXPECT_FALSE(LooksScripted(""));
}

TEST(RenderDecider, GainsByHand) {
  RenderSample s;
  s.static_links = {"a", "b"};
  s.rendered_links = {"a", "b", "c", "d", "d"};  // 4 distinct, 2 new
  s.static_words = 30;
  s.rendered_words = 120;
  EXPECT_DOUBLE_EQ(LinkGain(s), 0.5);
  EXPECT_DOUBLE_EQ(TextGain(s), 0.75);
  s.rendered_words = 20;  // rendering lost text: no gain
  EXPECT_DOUBLE_EQ(TextGain(s), 0);
  s.rendered_links.clear();
  EXPECT_DOUBLE_EQ(LinkGain(s), 0);
}

TEST(RenderDecider, SamplesDecideTheHost) {
  RenderDeciderOptions o;
  o.samples = 2;
  o.free_renders = 100;
  RenderDecider d(o);
  const ShellEvidence js = ShellPage();
  EXPECT_EQ(d.Consider("spa.test", PlainPage()), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kSample);
  // Samples out, no decision yet: a scripted page is held, an unscripted
  // one is static (rendering cannot change it).
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kHold);
  EXPECT_EQ(d.Consider("spa.test", PlainPage()), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.Consider("spa.test", ContentPage()), RenderDecider::Action::kStatic);
  RenderSample shell{{}, {"x", "y"}, 3, 200};
  EXPECT_EQ(d.AddSample("spa.test", shell), "");
  EXPECT_EQ(d.Reconsider("spa.test", js), RenderDecider::Action::kHold);  // one sample out
  const std::string ev = d.AddSample("spa.test", shell);
  EXPECT_NE(ev.find("-> render"), std::string::npos) << ev;
  EXPECT_EQ(d.Reconsider("spa.test", js), RenderDecider::Action::kRender);  // the held page
  EXPECT_EQ(d.Consider("spa.test", PlainPage()), RenderDecider::Action::kRender);

  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kSample);
  RenderSample same{{"a", "b"}, {"a", "b"}, 500, 510};
  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kHold);
  d.AddSample("docs.test", same);
  EXPECT_NE(d.AddSample("docs.test", same).find("-> static"), std::string::npos);
  EXPECT_EQ(d.Reconsider("docs.test", js), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.pages(), 11);  // the Consider calls: Reconsider counts no page
  EXPECT_EQ(d.shells(), 7);  // before "render": the scripted pages by their evidence
  EXPECT_EQ(d.scripted_content(), 1);
  auto all = d.Decisions();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].host, "docs.test");
  EXPECT_EQ(all[0].state, HostRenderDecision::State::kStatic);
  EXPECT_NE(all[0].evidence.find("sampled as a shell: empty app root #app"), std::string::npos)
      << all[0].evidence;
}

TEST(RenderDecider, FailedSamplesAreRetriedThenGivenUp) {
  RenderDeciderOptions o;
  o.samples = 2;
  RenderDecider d(o);
  const ShellEvidence js = ShellPage();
  EXPECT_EQ(d.Consider("bad.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("bad.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("bad.test", js), RenderDecider::Action::kHold);
  d.RenderFailed("bad.test", true);
  // The failed sample's slot goes to the held page.
  EXPECT_EQ(d.Reconsider("bad.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("bad.test", js), RenderDecider::Action::kHold);
  d.RenderFailed("bad.test", true);  // the second failure: static
  EXPECT_EQ(d.Reconsider("bad.test", js), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.Consider("bad.test", js), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.rendered(), 1);  // the third sample still renders
}

TEST(RenderDecider, WithoutHoldingTheUndecidedHostsPagesAreStatic) {
  RenderDeciderOptions o;
  o.samples = 1;
  o.hold_undecided = false;
  RenderDecider d(o);
  EXPECT_EQ(d.Consider("a.test", ShellPage()), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("a.test", ShellPage()), RenderDecider::Action::kStatic);
}

TEST(RenderDecider, PendingSamplesAreBoundedAcrossHosts) {
  RenderDeciderOptions o;
  o.samples = 2;
  o.max_pending_samples = 3;
  o.free_renders = 100;
  RenderDecider d(o);
  EXPECT_EQ(d.Consider("a.test", ShellPage()), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("a.test", ShellPage()), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("b.test", ShellPage()), RenderDecider::Action::kSample);
  // Three samples render: b.test's next page is static, its host undecided.
  EXPECT_EQ(d.pending_samples(), 3);
  EXPECT_EQ(d.Consider("b.test", ShellPage()), RenderDecider::Action::kStatic);
  d.AddSample("a.test", RenderSample{{"a"}, {"a"}, 10, 10});
  EXPECT_EQ(d.pending_samples(), 2);
  EXPECT_EQ(d.Consider("b.test", ShellPage()), RenderDecider::Action::kSample);
  d.RenderFailed("b.test", true);
  EXPECT_EQ(d.pending_samples(), 2);
}

TEST(RenderDecider, StopSamplingLeavesUndecidedHostsStatic) {
  RenderDeciderOptions o;
  o.samples = 2;
  o.free_renders = 100;
  RenderDecider d(o);
  const ShellEvidence js = ShellPage();
  d.Consider("spa.test", js);
  d.AddSample("spa.test", RenderSample{{}, {"x"}, 0, 10});
  d.AddSample("spa.test", RenderSample{{}, {"y"}, 0, 10});  // spa.test: render
  EXPECT_TRUE(d.AnyHostRenders());
  EXPECT_EQ(d.Consider("u.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("u.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("u.test", js), RenderDecider::Action::kHold);
  d.StopSampling();
  // The held page goes on statically; a sample cut short is no failure.
  EXPECT_EQ(d.Reconsider("u.test", js), RenderDecider::Action::kStatic);
  d.RenderFailed("u.test", true);
  d.RenderFailed("u.test", true);
  EXPECT_EQ(d.pending_samples(), 0);
  auto all = d.Decisions();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].host, "u.test");
  EXPECT_EQ(all[1].state, HostRenderDecision::State::kUndecided);
  EXPECT_EQ(all[1].failures, 0);
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kRender);  // decided hosts keep theirs
}

TEST(RenderDecider, ShowsGainAtEitherThreshold) {
  RenderDeciderOptions o;
  RenderDecider d(o);
  EXPECT_TRUE(d.ShowsGain(RenderSample{{}, {"x"}, 10, 10}));            // link gain 1
  EXPECT_TRUE(d.ShowsGain(RenderSample{{"x"}, {"x"}, 10, 100}));        // text gain 0.9
  EXPECT_FALSE(d.ShowsGain(RenderSample{{"x", "y"}, {"x", "y"}, 100, 110}));
}

TEST(RenderDecider, ShareCapAfterTheFreeRenders) {
  RenderDeciderOptions o;
  o.samples = 1;
  o.max_share = 0.25;
  o.free_renders = 2;
  RenderDecider d(o);
  d.Consider("a.test", ShellPage());
  d.AddSample("a.test", RenderSample{{}, {"x"}, 0, 10});  // a.test: render
  int rendered = 0;
  for (int i = 0; i < 40; ++i) {
    rendered += d.Consider("a.test", PlainPage()) == RenderDecider::Action::kRender;
  }
  // 41 pages: 2 free renders, then at most a quarter of the pages.
  EXPECT_EQ(d.rendered(), 10);
  EXPECT_EQ(rendered, 9);
  EXPECT_EQ(d.capped(), 31);
  EXPECT_EQ(d.pages(), 41);
}

}  // namespace
}  // namespace topicrawl
