// Pure parts of render/: base64 (RFC 4648 section 10 vectors), the headers
// replayed to Chromium, the subresource gate (robots, per-host delay,
// cache) on a fake clock, --render names.
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
  const std::string js = "<div id=app></div><script src=app.js></script>";
  EXPECT_EQ(d.Consider("spa.test", "<p>no scripts</p>"), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kSample);
  // Samples out, no decision yet: a scripted page is held, an unscripted
  // one is static (rendering cannot change it).
  EXPECT_EQ(d.Consider("spa.test", js), RenderDecider::Action::kHold);
  EXPECT_EQ(d.Consider("spa.test", "<p>plain</p>"), RenderDecider::Action::kStatic);
  RenderSample shell{{}, {"x", "y"}, 3, 200};
  EXPECT_EQ(d.AddSample("spa.test", shell), "");
  EXPECT_EQ(d.Reconsider("spa.test", js), RenderDecider::Action::kHold);  // one sample out
  const std::string ev = d.AddSample("spa.test", shell);
  EXPECT_NE(ev.find("-> render"), std::string::npos) << ev;
  EXPECT_EQ(d.Reconsider("spa.test", js), RenderDecider::Action::kRender);  // the held page
  EXPECT_EQ(d.Consider("spa.test", "<p>even without scripts</p>"), RenderDecider::Action::kRender);

  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kSample);
  RenderSample same{{"a", "b"}, {"a", "b"}, 500, 510};
  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kHold);
  d.AddSample("docs.test", same);
  EXPECT_NE(d.AddSample("docs.test", same).find("-> static"), std::string::npos);
  EXPECT_EQ(d.Reconsider("docs.test", js), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.Consider("docs.test", js), RenderDecider::Action::kStatic);
  EXPECT_EQ(d.pages(), 10);  // the Consider calls: Reconsider counts no page
  auto all = d.Decisions();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].host, "docs.test");
  EXPECT_EQ(all[0].state, HostRenderDecision::State::kStatic);
}

TEST(RenderDecider, FailedSamplesAreRetriedThenGivenUp) {
  RenderDeciderOptions o;
  o.samples = 2;
  RenderDecider d(o);
  const std::string js = "<script></script>";
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
  EXPECT_EQ(d.Consider("a.test", "<script>"), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("a.test", "<script>"), RenderDecider::Action::kStatic);
}

TEST(RenderDecider, PendingSamplesAreBoundedAcrossHosts) {
  RenderDeciderOptions o;
  o.samples = 2;
  o.max_pending_samples = 3;
  o.free_renders = 100;
  RenderDecider d(o);
  EXPECT_EQ(d.Consider("a.test", "<script>"), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("a.test", "<script>"), RenderDecider::Action::kSample);
  EXPECT_EQ(d.Consider("b.test", "<script>"), RenderDecider::Action::kSample);
  // Three samples render: b.test's next page is static, its host undecided.
  EXPECT_EQ(d.pending_samples(), 3);
  EXPECT_EQ(d.Consider("b.test", "<script>"), RenderDecider::Action::kStatic);
  d.AddSample("a.test", RenderSample{{"a"}, {"a"}, 10, 10});
  EXPECT_EQ(d.pending_samples(), 2);
  EXPECT_EQ(d.Consider("b.test", "<script>"), RenderDecider::Action::kSample);
  d.RenderFailed("b.test", true);
  EXPECT_EQ(d.pending_samples(), 2);
}

TEST(RenderDecider, StopSamplingLeavesUndecidedHostsStatic) {
  RenderDeciderOptions o;
  o.samples = 2;
  o.free_renders = 100;
  RenderDecider d(o);
  const std::string js = "<script></script>";
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

TEST(RenderDecider, ShareCapAfterTheFreeRenders) {
  RenderDeciderOptions o;
  o.samples = 1;
  o.max_share = 0.25;
  o.free_renders = 2;
  RenderDecider d(o);
  d.Consider("a.test", "<script>");
  d.AddSample("a.test", RenderSample{{}, {"x"}, 0, 10});  // a.test: render
  int rendered = 0;
  for (int i = 0; i < 40; ++i) {
    rendered += d.Consider("a.test", "<p>") == RenderDecider::Action::kRender;
  }
  // 41 pages: 2 free renders, then at most a quarter of the pages.
  EXPECT_EQ(d.rendered(), 10);
  EXPECT_EQ(rendered, 9);
  EXPECT_EQ(d.capped(), 31);
  EXPECT_EQ(d.pages(), 41);
}

}  // namespace
}  // namespace topicrawl
