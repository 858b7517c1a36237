// CurlFetcher against the loopback TestHttpServer (and nginx for HTTPS).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/test_require.h"
#include "fetch/fetcher.h"
#include "support/child_process.h"
#include "support/nginx_server.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ErrorResponse;
using testing::HtmlResponse;
using testing::Millis;
using testing::RedirectResponse;
using testing::TestHttpServer;
using testing::TestResponse;
using testing::TextResponse;

constexpr std::chrono::seconds kMaxWait(10);

// The cache is what the option asks, within a quarter of the open-file
// limit and never below 16; 0 keeps libcurl's default; no limit, no cap.
TEST(EffectiveConnectionCacheTest, StaysWithinAQuarterOfTheOpenFileLimit) {
  EXPECT_EQ(EffectiveConnectionCache(1024, 1048576), 1024);
  EXPECT_EQ(EffectiveConnectionCache(1024, 20000), 1024);
  EXPECT_EQ(EffectiveConnectionCache(1024, 1024), 256);
  EXPECT_EQ(EffectiveConnectionCache(100, 1024), 100);
  EXPECT_EQ(EffectiveConnectionCache(1024, 32), 16);
  EXPECT_EQ(EffectiveConnectionCache(1024, 0), 1024);
  EXPECT_EQ(EffectiveConnectionCache(0, 1024), 0);
  EXPECT_EQ(EffectiveConnectionCache(-5, 1024), 0);
}

TEST(EffectiveConnectionCacheTest, NegativeOptionIsRefused) {
  FetcherOptions o;
  EXPECT_TRUE(ValidateFetcherOptions(o).ok());
  o.connection_cache_size = -1;
  Status s = ValidateFetcherOptions(o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("connection_cache"), std::string::npos) << s.message();
}

class CurlFetcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    options_.allow_private = true;  // most tests talk to 127.0.0.1 directly
  }

  std::unique_ptr<Fetcher> MakeFetcher() {
    EXPECT_TRUE(ValidateFetcherOptions(options_).ok());
    return NewCurlFetcher(options_, SystemClock());
  }

  // Submits one task and polls until its result arrives.
  FetchResult Fetch(const std::string& url, FetchKind kind = FetchKind::kPage,
                    CrawlTask task = {}) {
    auto fetcher = MakeFetcher();
    task.url = url;
    fetcher->Submit(task, kind);
    auto results = PollAll(*fetcher, 1);
    EXPECT_EQ(results.size(), 1u);
    EXPECT_EQ(fetcher->InFlight(), 0u);
    return results.empty() ? FetchResult{} : results[0];
  }

  static std::vector<FetchResult> PollAll(Fetcher& fetcher, size_t want) {
    std::vector<FetchResult> all;
    auto deadline = std::chrono::steady_clock::now() + kMaxWait;
    while (all.size() < want && std::chrono::steady_clock::now() < deadline) {
      for (auto& r : fetcher.Poll(std::chrono::milliseconds(500))) all.push_back(std::move(r));
    }
    return all;
  }

  TestHttpServer server_;
  FetcherOptions options_;
};

TEST_F(CurlFetcherTest, FetchesPageAndRecordsHeadsAndMetadata) {
  TestResponse page = HtmlResponse("<p>hi</p>");
  page.headers.emplace_back("ETag", "\"abc\"");
  page.headers.emplace_back("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT");
  server_.Set("/a", page);
  FakeClock clock;
  auto fetcher = NewCurlFetcher(options_, &clock);
  CrawlTask task;
  task.url = server_.Url("/a");
  task.url_id = 42;
  fetcher->Submit(task, FetchKind::kPage);
  EXPECT_EQ(fetcher->InFlight(), 1u);
  auto results = PollAll(*fetcher, 1);
  ASSERT_EQ(results.size(), 1u);
  const FetchResult& r = results[0];
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.http_code, 200);
  EXPECT_EQ(r.task.url_id, 42u);
  EXPECT_EQ(r.body, "<p>hi</p>");
  EXPECT_EQ(r.final_url, task.url);
  EXPECT_THAT(r.redirect_chain, ElementsAre(task.url));
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.etag, "\"abc\"");
  EXPECT_EQ(r.last_modified, "Wed, 21 Oct 2015 07:28:00 GMT");
  EXPECT_EQ(r.retry_after_s, -1);
  EXPECT_THAT(r.request_head, HasSubstr("GET /a HTTP/1.1\r\n"));
  EXPECT_THAT(r.request_head,
              HasSubstr("User-Agent: topicrawl/0.1 (+https://github.com/topicrawl/topicrawl)"));
  EXPECT_TRUE(r.request_head.ends_with("\r\n\r\n"));
  EXPECT_TRUE(r.response_head.starts_with("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(r.response_head, HasSubstr("ETag: \"abc\"\r\n"));
  EXPECT_EQ(r.remote_ip, "127.0.0.1");
  EXPECT_EQ(r.fetched_at_unix_ms, clock.UnixMillis());
  EXPECT_EQ(fetcher->InFlight(), 0u);
  EXPECT_EQ(server_.RequestCount("/a"), 1);
}

// The crawler calls Poll(0) while it has parsed pages to drain: every call
// must still service the sockets, or transfers stall until it idles.
TEST_F(CurlFetcherTest, ZeroWaitPollsStillMakeProgress) {
  server_.Set("/a", HtmlResponse(std::string(200000, 'x')));  // several reads
  auto fetcher = MakeFetcher();
  CrawlTask task;
  task.url = server_.Url("/a");
  for (int i = 0; i < 4; ++i) fetcher->Submit(task, FetchKind::kPage);
  // A few calls do it when the sockets are serviced; when they are not,
  // only curl's internal timers move the transfers (~2,000 calls here).
  std::vector<FetchResult> all;
  int calls = 0;
  for (; all.size() < 4 && calls < 300; ++calls) {
    for (auto& r : fetcher->Poll(Duration::zero())) all.push_back(std::move(r));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(all.size(), 4u) << "after " << calls << " Poll(0) calls";
  for (const FetchResult& r : all) {
    EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
    EXPECT_EQ(r.body.size(), 200000u);
  }
}

TEST_F(CurlFetcherTest, SendsConfiguredUserAgentAndAcceptEncoding) {
  options_.user_agent = "testbot/2.0 (+http://example.org/bot)";
  server_.Set("/ua", HtmlResponse("x"));
  Fetch(server_.Url("/ua"));
  auto log = server_.Requests();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].Header("User-Agent"), "testbot/2.0 (+http://example.org/bot)");
  EXPECT_THAT(log[0].Header("Accept-Encoding"), HasSubstr("gzip"));
  EXPECT_THAT(log[0].Header("Accept-Encoding"), HasSubstr("br"));
  EXPECT_THAT(log[0].Header("Accept-Encoding"), HasSubstr("zstd"));
}

TEST_F(CurlFetcherTest, DecodesGzipBody) {
  TestResponse r = HtmlResponse(std::string(5000, 'z'));
  r.gzip = true;
  server_.Set("/gz", r);
  FetchResult got = Fetch(server_.Url("/gz"));
  EXPECT_EQ(got.status, FetchStatus::kOk) << got.error;
  EXPECT_EQ(got.body, std::string(5000, 'z'));
  EXPECT_THAT(got.response_head, HasSubstr("Content-Encoding: gzip"));
}

TEST_F(CurlFetcherTest, MapsHttpErrorsAndKeepsStatusCode) {
  for (int code : {404, 410, 500, 503}) {
    server_.Set("/e" + std::to_string(code), ErrorResponse(code));
    FetchResult r = Fetch(server_.Url("/e" + std::to_string(code)));
    EXPECT_EQ(r.status, FetchStatus::kHttpError) << code;
    EXPECT_EQ(r.http_code, code);
    EXPECT_THAT(r.error, HasSubstr(std::to_string(code)));
    EXPECT_THAT(r.body, HasSubstr("error"));  // error pages are kept
  }
}

// RFC 9110 section 10.2.3: Retry-After is delay-seconds or an HTTP-date.
TEST_F(CurlFetcherTest, RecordsRetryAfterSecondsAndDate) {
  server_.Set("/busy", ErrorResponse(503, "120"));
  FetchResult r = Fetch(server_.Url("/busy"));
  EXPECT_EQ(r.http_code, 503);
  EXPECT_EQ(r.retry_after_s, 120);

  // An HTTP-date one hour ahead of now.
  time_t later = time(nullptr) + 3600;
  char date[64];
  strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", gmtime(&later));
  server_.Set("/slowdown", ErrorResponse(429, date));
  r = Fetch(server_.Url("/slowdown"));
  EXPECT_EQ(r.status, FetchStatus::kHttpError);
  EXPECT_EQ(r.http_code, 429);
  EXPECT_NEAR(r.retry_after_s, 3600, 5);
}

TEST_F(CurlFetcherTest, FollowsRedirectsAndRecordsEveryHop) {
  server_.Set("/r1", RedirectResponse(302, "/dir/r2"));
  server_.Set("/dir/r2", RedirectResponse(301, "../final?x=1"));  // relative
  server_.Set("/final?x=1", HtmlResponse("done"));
  FetchResult r = Fetch(server_.Url("/r1"));
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body, "done");
  EXPECT_THAT(r.redirect_chain, ElementsAre(server_.Url("/r1"), server_.Url("/dir/r2"),
                                            server_.Url("/final?x=1")));
  EXPECT_EQ(r.final_url, server_.Url("/final?x=1"));
  EXPECT_THAT(r.response_head, HasSubstr("200 OK"));
  EXPECT_THAT(r.request_head, HasSubstr("GET /final?x=1 "));
  EXPECT_EQ(server_.Connections(), 1);  // hops reuse the connection
}

TEST_F(CurlFetcherTest, DetectsRedirectLoop) {
  server_.Set("/loop1", RedirectResponse(302, "/loop2"));
  server_.Set("/loop2", RedirectResponse(307, "/loop1"));
  FetchResult r = Fetch(server_.Url("/loop1"));
  EXPECT_EQ(r.status, FetchStatus::kRedirectLoop);
  EXPECT_THAT(r.redirect_chain, ElementsAre(server_.Url("/loop1"), server_.Url("/loop2")));
  EXPECT_EQ(server_.RequestCount("/loop1"), 1);
  EXPECT_EQ(server_.RequestCount("/loop2"), 1);
}

TEST_F(CurlFetcherTest, StopsAfterMaxRedirects) {
  for (int i = 0; i < 10; ++i) {
    server_.Set("/h" + std::to_string(i), RedirectResponse(302, "/h" + std::to_string(i + 1)));
  }
  FetchResult r = Fetch(server_.Url("/h0"));
  EXPECT_EQ(r.status, FetchStatus::kTooManyRedirects);
  EXPECT_EQ(r.redirect_chain.size(), 6u);  // the start + 5 followed hops
  EXPECT_EQ(server_.TotalRequests(), 6);
  EXPECT_EQ(server_.RequestCount("/h6"), 0);
  EXPECT_EQ(r.http_code, 302);
}

TEST_F(CurlFetcherTest, FollowsExactlyMaxRedirects) {
  for (int i = 0; i < 5; ++i) {
    server_.Set("/h" + std::to_string(i), RedirectResponse(301, "/h" + std::to_string(i + 1)));
  }
  server_.Set("/h5", HtmlResponse("end"));
  FetchResult r = Fetch(server_.Url("/h0"));
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.redirect_chain.size(), 6u);
}

TEST_F(CurlFetcherTest, RejectsRedirectToOtherScheme) {
  server_.Set("/ftp", RedirectResponse(302, "ftp://example.org/file"));
  FetchResult r = Fetch(server_.Url("/ftp"));
  EXPECT_EQ(r.status, FetchStatus::kFilteredOut);
  EXPECT_THAT(r.error, HasSubstr("ftp://example.org/file"));
}

TEST_F(CurlFetcherTest, RedirectWithoutLocationIsHttpError) {
  server_.Set("/noloc", ErrorResponse(302));
  FetchResult r = Fetch(server_.Url("/noloc"));
  EXPECT_EQ(r.status, FetchStatus::kHttpError);
  EXPECT_EQ(r.http_code, 302);
}

TEST_F(CurlFetcherTest, AbortsBodyOverSizeCapFromContentLength) {
  options_.max_body_bytes = 1 << 20;
  server_.Set("/huge", testing::HugeResponse(3 << 20));
  FetchResult r = Fetch(server_.Url("/huge"));
  EXPECT_EQ(r.status, FetchStatus::kTooLarge);
  EXPECT_THAT(r.error, HasSubstr("1048576"));
  EXPECT_TRUE(r.body.empty());
  EXPECT_EQ(r.http_code, 200);
}

TEST_F(CurlFetcherTest, AbortsEndlessBodyAtSizeCap) {
  options_.max_body_bytes = 100000;
  TestResponse endless;
  endless.headers.emplace_back("Content-Type", "text/html");
  endless.endless = true;
  server_.Set("/endless", endless);
  FetchResult r = Fetch(server_.Url("/endless"));
  EXPECT_EQ(r.status, FetchStatus::kTooLarge);
}

TEST_F(CurlFetcherTest, CapsDecodedSizeOfGzipBomb) {
  options_.max_body_bytes = 100000;
  TestResponse bomb = HtmlResponse(std::string(2 << 20, '0'));  // ~2 KiB gzipped
  bomb.gzip = true;
  server_.Set("/bomb", bomb);
  FetchResult r = Fetch(server_.Url("/bomb"));
  EXPECT_EQ(r.status, FetchStatus::kTooLarge);
}

// RFC 9309 section 2.5: crawlers may cut robots.txt at a size >= 500 KiB.
TEST_F(CurlFetcherTest, TruncatesRobotsInsteadOfFailing) {
  options_.max_robots_bytes = 600 << 10;
  TestResponse robots;
  robots.headers.emplace_back("Content-Type", "text/plain");
  robots.endless = true;
  server_.Set("/robots.txt", robots);
  FetchResult r = Fetch(server_.Url("/robots.txt"), FetchKind::kRobots);
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body.size(), 600u << 10);
  EXPECT_THAT(r.error, HasSubstr("truncated"));
}

TEST_F(CurlFetcherTest, RejectsNonHtmlContentTypeOnHeaders) {
  TestResponse png = TextResponse(std::string(50000, 'P'), "image/png");
  server_.Set("/img.png", png);
  FetchResult r = Fetch(server_.Url("/img.png"));
  EXPECT_EQ(r.status, FetchStatus::kContentTypeRejected);
  EXPECT_THAT(r.error, HasSubstr("image/png"));
  EXPECT_EQ(r.content_type, "image/png");
  EXPECT_TRUE(r.body.empty());
}

TEST_F(CurlFetcherTest, AcceptsXhtmlAndCaseInsensitiveMediaType) {
  server_.Set("/x", TextResponse("<html/>", "application/xhtml+xml"));
  server_.Set("/y", TextResponse("<html/>", "Text/HTML;charset=GBK"));
  EXPECT_EQ(Fetch(server_.Url("/x")).status, FetchStatus::kOk);
  EXPECT_EQ(Fetch(server_.Url("/y")).status, FetchStatus::kOk);
}

TEST_F(CurlFetcherTest, RobotsFetchAcceptsAnyContentType) {
  server_.Set("/robots.txt", TextResponse("User-agent: *\nDisallow: /x\n", "text/plain"));
  server_.Set("/r2/robots.txt", TextResponse("User-agent: *\n", "application/octet-stream"));
  EXPECT_EQ(Fetch(server_.Url("/robots.txt"), FetchKind::kRobots).body,
            "User-agent: *\nDisallow: /x\n");
  EXPECT_EQ(Fetch(server_.Url("/r2/robots.txt"), FetchKind::kRobots).status, FetchStatus::kOk);
  EXPECT_EQ(Fetch(server_.Url("/robots.txt"), FetchKind::kPage).status,
            FetchStatus::kContentTypeRejected);
}

// RFC 9309 section 2.3.1: the robots cache needs the status code of
// unavailable (4xx) and unreachable (5xx) robots.txt, and redirects followed
// (at least five hops).
TEST_F(CurlFetcherTest, RobotsStatusesAndRedirectsReachTheCaller) {
  server_.Set("/a/robots.txt", ErrorResponse(404));
  server_.Set("/b/robots.txt", ErrorResponse(503, "30"));
  server_.Set("/c/robots.txt", RedirectResponse(301, "/c/real-robots.txt"));
  server_.Set("/c/real-robots.txt", TextResponse("User-agent: *\nDisallow: /\n"));
  FetchResult a = Fetch(server_.Url("/a/robots.txt"), FetchKind::kRobots);
  EXPECT_EQ(a.status, FetchStatus::kHttpError);
  EXPECT_EQ(a.http_code, 404);
  FetchResult b = Fetch(server_.Url("/b/robots.txt"), FetchKind::kRobots);
  EXPECT_EQ(b.http_code, 503);
  EXPECT_EQ(b.retry_after_s, 30);
  FetchResult c = Fetch(server_.Url("/c/robots.txt"), FetchKind::kRobots);
  EXPECT_EQ(c.status, FetchStatus::kOk);
  EXPECT_EQ(c.body, "User-agent: *\nDisallow: /\n");
  EXPECT_EQ(c.final_url, server_.Url("/c/real-robots.txt"));
}

// Charset decoding happens later (DecodeToUtf8): the fetcher passes the raw
// label and bytes through, even when the label is wrong.
TEST_F(CurlFetcherTest, KeepsWrongCharsetLabelAndRawBytes) {
  const std::string gbk = "<p>\xD6\xD0\xCE\xC4</p>";  // "Chinese" in GBK
  server_.Set("/gbk", HtmlResponse(gbk, "text/html; charset=utf-8"));
  FetchResult r = Fetch(server_.Url("/gbk"));
  EXPECT_EQ(r.status, FetchStatus::kOk);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.body, gbk);
}

TEST_F(CurlFetcherTest, TimesOutOnSlowServer) {
  options_.total_timeout_s = 0.2;
  TestResponse slow = HtmlResponse("late");
  slow.delay = Millis(60'000);  // stalled: answers only after a minute
  server_.Set("/slow", slow);
  FetchResult r = Fetch(server_.Url("/slow"));
  EXPECT_EQ(r.status, FetchStatus::kTimeout);
  // Bounds that hold on a loaded machine: not before the timeout, and well
  // before the server would have answered (it did not wait for it).
  EXPECT_GE(r.fetch_seconds, 0.19);
  EXPECT_LT(r.fetch_seconds, 30);
  EXPECT_FALSE(r.host_unreachable);  // it connected: the URL's problem
  EXPECT_FALSE(r.error.empty());
}

TEST_F(CurlFetcherTest, TotalTimeoutCoversAllRedirectHops) {
  options_.total_timeout_s = 0.3;
  TestResponse hop = RedirectResponse(302, "/t2");
  hop.delay = Millis(200);
  server_.Set("/t1", hop);
  TestResponse last = HtmlResponse("x");
  last.delay = Millis(200);
  server_.Set("/t2", last);
  FetchResult r = Fetch(server_.Url("/t1"));
  EXPECT_EQ(r.status, FetchStatus::kTimeout);
  EXPECT_EQ(r.redirect_chain.size(), 2u);
}

TEST_F(CurlFetcherTest, AbortsTrickleBelowLowSpeedLimit) {
  options_.low_speed_bytes_per_s = 1000;
  options_.low_speed_time_s = 1;
  // 10 bytes/s for 60 s: the whole body would take a minute.
  TestResponse trickle = HtmlResponse(std::string(600, 'a'));
  trickle.trickle_bytes = 1;
  trickle.trickle_interval = Millis(100);
  server_.Set("/trickle", trickle);
  FetchResult r = Fetch(server_.Url("/trickle"));
  EXPECT_EQ(r.status, FetchStatus::kTimeout);
  EXPECT_LT(r.fetch_seconds, 30);  // aborted, not read to the end
}

TEST_F(CurlFetcherTest, ConnectionRefusedIsConnectError) {
  uint16_t closed = testing::PickFreePort();
  FetchResult r = Fetch("http://127.0.0.1:" + std::to_string(closed) + "/");
  EXPECT_EQ(r.status, FetchStatus::kConnectError);
  EXPECT_FALSE(r.error.empty());
  EXPECT_TRUE(r.host_unreachable);
}

// A listener whose accept queue is full drops further SYNs, so connect()
// hangs: a hermetic stand-in for an unreachable host.
TEST_F(CurlFetcherTest, ConnectTimeoutIsTimeout) {
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(listener, 0), 0);
  socklen_t len = sizeof(addr);
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  std::vector<int> fillers;
  for (int i = 0; i < 4; ++i) {  // fill the accept queue (never accepted)
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    fillers.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  options_.connect_timeout_s = 0.2;
  FetchResult r = Fetch("http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/");
  EXPECT_EQ(r.status, FetchStatus::kTimeout) << r.error;
  EXPECT_TRUE(r.host_unreachable);  // never connected: a host signal
  EXPECT_LT(r.fetch_seconds, 30);   // the connect timeout, not the 60 s total
  for (int fd : fillers) close(fd);
  close(listener);
}

TEST_F(CurlFetcherTest, DestroyingFetcherWithTransfersInFlightIsSafe) {
  TestResponse slow = HtmlResponse("x");
  slow.delay = Millis(2000);
  server_.Set("/slow", slow);
  auto fetcher = MakeFetcher();
  for (int i = 0; i < 10; ++i) {
    CrawlTask task;
    task.url = server_.Url("/slow");
    fetcher->Submit(task, FetchKind::kPage);
  }
  EXPECT_TRUE(fetcher->Poll(std::chrono::milliseconds(50)).empty());
  EXPECT_EQ(fetcher->InFlight(), 10u);
  fetcher.reset();  // ASan/LSan check the cleanup
}

TEST_F(CurlFetcherTest, ResetIsConnectError) {
  TestResponse reset;
  reset.reset = true;
  server_.Set("/reset", reset);
  FetchResult r = Fetch(server_.Url("/reset"));
  EXPECT_EQ(r.status, FetchStatus::kConnectError);
  EXPECT_EQ(server_.RequestCount("/reset"), 1);
}

TEST_F(CurlFetcherTest, TruncatedBodyIsConnectError) {
  TestResponse cut = HtmlResponse("only part");
  cut.short_body_by = 100;
  server_.Set("/cut", cut);
  EXPECT_EQ(Fetch(server_.Url("/cut")).status, FetchStatus::kConnectError);
}

TEST_F(CurlFetcherTest, ConditionalGetWithEtagGivesNotModified) {
  TestResponse page = HtmlResponse("v1");
  page.headers.emplace_back("ETag", "\"v1\"");
  server_.Set("/cond", page);
  CrawlTask task;
  task.etag = "\"v1\"";
  FetchResult r = Fetch(server_.Url("/cond"), FetchKind::kPage, task);
  EXPECT_EQ(r.status, FetchStatus::kNotModified);
  EXPECT_EQ(r.http_code, 304);
  EXPECT_TRUE(r.body.empty());
  ASSERT_EQ(server_.Requests().size(), 1u);
  EXPECT_EQ(server_.Requests()[0].Header("If-None-Match"), "\"v1\"");

  task.etag = "\"old\"";
  EXPECT_EQ(Fetch(server_.Url("/cond"), FetchKind::kPage, task).status, FetchStatus::kOk);
}

TEST_F(CurlFetcherTest, ConditionalGetWithLastModifiedGivesNotModified) {
  const std::string date = "Wed, 21 Oct 2015 07:28:00 GMT";
  TestResponse page = HtmlResponse("v1");
  page.headers.emplace_back("Last-Modified", date);
  server_.Set("/lm", page);
  CrawlTask task;
  task.last_modified = date;
  EXPECT_EQ(Fetch(server_.Url("/lm"), FetchKind::kPage, task).status,
            FetchStatus::kNotModified);
  EXPECT_EQ(server_.Requests()[0].Header("If-Modified-Since"), date);
}

TEST_F(CurlFetcherTest, RefusesPrivateAddressByDefault) {
  options_.allow_private = false;
  server_.Set("/secret", HtmlResponse("secret"));
  FetchResult r = Fetch(server_.Url("/secret"));
  EXPECT_EQ(r.status, FetchStatus::kPrivateAddress);
  EXPECT_THAT(r.error, HasSubstr("127.0.0.1"));
  EXPECT_TRUE(r.body.empty());
  EXPECT_EQ(server_.Connections(), 0);
}

TEST_F(CurlFetcherTest, RefusesHostnameResolvingToLoopback) {
  options_.allow_private = false;
  server_.Set("/", HtmlResponse("local"));
  FetchResult r = Fetch("http://localhost:" + std::to_string(server_.port()) + "/");
  EXPECT_EQ(r.status, FetchStatus::kPrivateAddress) << r.error;
  EXPECT_EQ(server_.TotalRequests(), 0);
}

TEST_F(CurlFetcherTest, ConnectToMapsFakeHostnameWithoutAllowPrivate) {
  options_.allow_private = false;
  options_.connect_to = {"site.test:80:127.0.0.1:" + std::to_string(server_.port())};
  server_.Set("/page", HtmlResponse("mapped"));
  FetchResult r = Fetch("http://site.test/page");
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body, "mapped");
  EXPECT_EQ(r.final_url, "http://site.test/page");
  EXPECT_EQ(server_.Requests()[0].Header("Host"), "site.test");
}

TEST_F(CurlFetcherTest, ConnectToWithEmptyHostMapsEveryHostOnThatPort) {
  options_.allow_private = false;
  options_.connect_to = {":80:127.0.0.1:" + std::to_string(server_.port())};
  server_.Set("/any", HtmlResponse("any"));
  EXPECT_EQ(Fetch("http://one.test/any").status, FetchStatus::kOk);
  EXPECT_EQ(Fetch("http://two.example/any").status, FetchStatus::kOk);
  EXPECT_EQ(server_.RequestCount("/any"), 2);
}

TEST_F(CurlFetcherTest, RefusesRedirectFromMappedHostToPrivateAddress) {
  options_.allow_private = false;
  options_.connect_to = {"site.test:80:127.0.0.1:" + std::to_string(server_.port())};
  server_.Set("/jump", RedirectResponse(302, server_.Url("/internal")));
  server_.Set("/internal", HtmlResponse("internal"));
  FetchResult r = Fetch("http://site.test/jump");
  EXPECT_EQ(r.status, FetchStatus::kPrivateAddress);
  EXPECT_EQ(r.redirect_chain.size(), 2u);
  EXPECT_EQ(server_.RequestCount("/internal"), 0);
}

// Every textual form of a loopback/private target is refused at connect,
// with the address and the rule in the error; nothing reaches the server.
TEST_F(CurlFetcherTest, RefusesEveryFormOfPrivateTarget) {
  options_.allow_private = false;
  const std::string port = std::to_string(server_.port());
  for (const std::string& url :
       {"http://127.0.0.1:" + port + "/", "http://[::1]:" + port + "/",
        "http://2130706433:" + port + "/", "http://0x7f.1:" + port + "/",
        "http://[::ffff:127.0.0.1]:" + port + "/", "http://localhost:" + port + "/",
        "http://0.0.0.0:" + port + "/"}) {
    FetchResult r = Fetch(url);
    EXPECT_EQ(r.status, FetchStatus::kPrivateAddress) << url << ": " << r.error;
    EXPECT_THAT(r.error, HasSubstr("refused address")) << url;
  }
  EXPECT_EQ(server_.Connections(), 0);
}

// A public-looking name that DNS answers with 127.0.0.1 (the resolve seam
// plays DNS; no /etc/hosts): refused by the address, named with its rule.
TEST_F(CurlFetcherTest, RefusesPublicNameResolvingToLoopback) {
  options_.allow_private = false;
  const std::string port = std::to_string(server_.port());
  options_.resolve = {"public.example:" + port + ":127.0.0.1"};
  server_.Set("/", HtmlResponse("local"));
  FetchResult r = Fetch("http://public.example:" + port + "/");
  EXPECT_EQ(r.status, FetchStatus::kPrivateAddress) << r.error;
  EXPECT_THAT(r.error, HasSubstr("127.0.0.1"));
  EXPECT_THAT(r.error, HasSubstr("127.0.0.0/8 (loopback)"));
  EXPECT_EQ(server_.Connections(), 0);
  // --allow-private lets the same fetch through.
  options_.allow_private = true;
  EXPECT_EQ(Fetch("http://public.example:" + port + "/").status, FetchStatus::kOk);
}

// DNS rebinding: the check is made on the socket being opened, not on a
// separate lookup. A mapped host (allowed) redirects to a name that resolves
// to the very same 127.0.0.1:PORT; the open keep-alive connection of the
// allowed host is not reused for it, and the new socket is refused.
TEST_F(CurlFetcherTest, RebindingToTheSameAddressAfterARedirectIsRefused) {
  options_.allow_private = false;
  const std::string port = std::to_string(server_.port());
  options_.connect_to = {"site.test:80:127.0.0.1:" + port};
  options_.resolve = {"rebind.example:" + port + ":127.0.0.1"};
  server_.Set("/ok", HtmlResponse("fine"));
  server_.Set("/jump", RedirectResponse(302, "http://rebind.example:" + port + "/internal"));
  server_.Set("/internal", HtmlResponse("internal"));
  auto fetcher = MakeFetcher();
  for (const char* path : {"/ok", "/jump"}) {
    CrawlTask task;
    task.url = std::string("http://site.test") + path;
    fetcher->Submit(task, FetchKind::kPage);
    auto results = PollAll(*fetcher, 1);
    ASSERT_EQ(results.size(), 1u);
    if (std::string(path) == "/ok") {
      EXPECT_EQ(results[0].status, FetchStatus::kOk);
    } else {
      EXPECT_EQ(results[0].status, FetchStatus::kPrivateAddress) << results[0].error;
      EXPECT_EQ(results[0].redirect_chain.size(), 2u);
    }
  }
  EXPECT_EQ(server_.RequestCount("/internal"), 0);
  EXPECT_EQ(server_.Connections(), 1);  // only site.test's connection
}

TEST_F(CurlFetcherTest, UsesHttpProxy) {
  options_.allow_private = false;  // the proxy is trusted to apply policy
  options_.proxy = server_.Url("");
  server_.Set("http://far.example/p", HtmlResponse("via proxy"));
  FetchResult r = Fetch("http://far.example/p");
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body, "via proxy");
  EXPECT_EQ(server_.RequestCount("http://far.example/p"), 1);
}

TEST_F(CurlFetcherTest, ReusesKeepAliveConnection) {
  server_.Set("/k", HtmlResponse("k"));
  auto fetcher = MakeFetcher();
  for (int i = 0; i < 20; ++i) {
    CrawlTask task;
    task.url = server_.Url("/k");
    fetcher->Submit(task, FetchKind::kPage);
    auto got = PollAll(*fetcher, 1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].status, FetchStatus::kOk);
  }
  EXPECT_EQ(server_.RequestCount("/k"), 20);
  EXPECT_EQ(server_.Connections(), 1);
}

TEST_F(CurlFetcherTest, RunsManyConcurrentTransfers) {
  constexpr int kTasks = 500;
  for (int i = 0; i < 50; ++i) {
    TestResponse r = HtmlResponse("page " + std::to_string(i));
    r.delay = Millis(20);
    server_.Set("/p" + std::to_string(i), r);
  }
  auto fetcher = MakeFetcher();
  for (int i = 0; i < kTasks; ++i) {
    CrawlTask task;
    task.url = server_.Url("/p" + std::to_string(i % 50));
    task.url_id = static_cast<UrlId>(i);
    fetcher->Submit(task, FetchKind::kPage);
  }
  EXPECT_EQ(fetcher->InFlight(), static_cast<size_t>(kTasks));
  auto results = PollAll(*fetcher, kTasks);
  ASSERT_EQ(results.size(), static_cast<size_t>(kTasks));
  std::set<UrlId> ids;
  for (const auto& r : results) {
    EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
    EXPECT_EQ(r.body, "page " + std::to_string(r.task.url_id % 50));
    ids.insert(r.task.url_id);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kTasks));
  EXPECT_EQ(fetcher->InFlight(), 0u);
  // Parallel, counted rather than timed: sequential transfers would share
  // one keep-alive connection.
  EXPECT_GT(server_.Connections(), 10);
}

TEST_F(CurlFetcherTest, PollReturnsAfterMaxWaitWhenIdle) {
  auto fetcher = MakeFetcher();
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(fetcher->Poll(std::chrono::milliseconds(100)).empty());
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, std::chrono::milliseconds(90));
  EXPECT_LT(elapsed, std::chrono::seconds(30));  // returns; generous on a loaded box
}

TEST_F(CurlFetcherTest, WakeupInterruptsBlockedPoll) {
  TestResponse slow = HtmlResponse("x");
  slow.delay = Millis(120'000);
  server_.Set("/never", slow);
  auto fetcher = MakeFetcher();
  CrawlTask task;
  task.url = server_.Url("/never");
  fetcher->Submit(task, FetchKind::kPage);
  std::thread waker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    fetcher->Wakeup();
  });
  auto start = std::chrono::steady_clock::now();
  auto results = fetcher->Poll(std::chrono::seconds(60));
  auto elapsed = std::chrono::steady_clock::now() - start;
  waker.join();
  EXPECT_TRUE(results.empty());
  EXPECT_LT(elapsed, std::chrono::seconds(30));  // well before the 60 s wait
  EXPECT_EQ(fetcher->InFlight(), 1u);
}

TEST_F(CurlFetcherTest, UnsupportedSchemeIsFilteredOut) {
  FetchResult r = Fetch("ftp://127.0.0.1/x");
  EXPECT_EQ(r.status, FetchStatus::kFilteredOut);
  EXPECT_FALSE(r.error.empty());
}

TEST(FetcherOptionsTest, ValidatesConnectToSyntax) {
  FetcherOptions o;
  EXPECT_TRUE(ValidateFetcherOptions(o).ok());
  o.connect_to = {"site.test:80:127.0.0.1:8080", ":443:127.0.0.1:8443"};
  EXPECT_TRUE(ValidateFetcherOptions(o).ok());
  o.connect_to = {"site.test:80"};
  EXPECT_FALSE(ValidateFetcherOptions(o).ok());
  EXPECT_THAT(ValidateFetcherOptions(o).message(), HasSubstr("site.test:80"));
  o.connect_to = {"site.test:http:127.0.0.1:1"};
  EXPECT_FALSE(ValidateFetcherOptions(o).ok());
}

// HTTPS through nginx with a throw-away CA: connect_to must map both the
// http and the https port, and certificates must verify against cacert.
class CurlFetcherTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::NginxAvailable()) TOPICRAWL_SKIP_UNLESS_REQUIRED("nginx/openssl not installed");
    char tmpl[] = "/tmp/topicrawl-site-XXXXXX";
    root_ = mkdtemp(tmpl);
    std::ofstream(root_ + "/index.html") << "<p>secure</p>";
    testing::NginxOptions o;
    o.root = root_;
    o.tls = true;
    o.extra_server_config = "location = /upgrade { return 301 https://site.test/index.html; }";
    Status s = nginx_.Start(o);
    ASSERT_TRUE(s.ok()) << s.message();
    options_.connect_to = {":80:127.0.0.1:" + std::to_string(nginx_.http_port()),
                           ":443:127.0.0.1:" + std::to_string(nginx_.https_port())};
    options_.cacert = nginx_.cacert_path();
  }
  void TearDown() override {
    nginx_.Stop();
    if (!root_.empty()) std::filesystem::remove_all(root_);
  }
  FetchResult Fetch(const std::string& url) {
    auto fetcher = NewCurlFetcher(options_, SystemClock());
    CrawlTask task;
    task.url = url;
    fetcher->Submit(task, FetchKind::kPage);
    std::vector<FetchResult> got;
    auto deadline = std::chrono::steady_clock::now() + kMaxWait;
    while (got.empty() && std::chrono::steady_clock::now() < deadline) {
      got = fetcher->Poll(std::chrono::milliseconds(500));
    }
    return got.empty() ? FetchResult{} : got[0];
  }

  std::string root_;
  testing::NginxServer nginx_;
  FetcherOptions options_;
};

TEST_F(CurlFetcherTlsTest, FetchesHttpsOverHttp2WithLocalCa) {
  FetchResult r = Fetch("https://site.test/index.html");
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body, "<p>secure</p>");
  EXPECT_TRUE(r.response_head.starts_with("HTTP/2 200")) << r.response_head;
  EXPECT_THAT(r.request_head, HasSubstr("GET /index.html HTTP/2"));
  EXPECT_THAT(r.request_head, HasSubstr("Host: site.test"));
}

TEST_F(CurlFetcherTlsTest, FollowsHttpToHttpsRedirectWithBothPortsMapped) {
  FetchResult r = Fetch("http://site.test/upgrade");
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_THAT(r.redirect_chain,
              ElementsAre("http://site.test/upgrade", "https://site.test/index.html"));
  EXPECT_EQ(r.body, "<p>secure</p>");
}

TEST_F(CurlFetcherTlsTest, UnknownCaIsTlsError) {
  options_.cacert = "/dev/null";
  FetchResult r = Fetch("https://site.test/index.html");
  EXPECT_EQ(r.status, FetchStatus::kTlsError);
  EXPECT_FALSE(r.error.empty());
}

TEST_F(CurlFetcherTlsTest, WrongHostnameIsTlsError) {
  options_.connect_to.push_back("other.test:443:127.0.0.1:" +
                                std::to_string(nginx_.https_port()));
  FetchResult r = Fetch("https://other.test/index.html");
  EXPECT_EQ(r.status, FetchStatus::kTlsError);
}

}  // namespace
}  // namespace topicrawl
