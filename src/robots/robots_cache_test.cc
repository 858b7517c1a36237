// RobotsCache: access results (RFC 9309 §2.3.1) and caching (§2.4).
#include "robots/robots_cache.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

using State = RobotsCache::State;
constexpr char kAgent[] = "topicrawl/0.1";
constexpr char kHost[] = "http://example.com";

class RobotsCacheTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  RobotsCache cache_{&clock_, RobotsCacheOptions{}};
};

TEST(RobotsHostKeyTest, IsSchemeHostAndNonDefaultPort) {
  EXPECT_EQ(RobotsHostKey("HTTP://Example.COM:80/a?b"), "http://example.com");
  EXPECT_EQ(RobotsHostKey("https://example.com:8443/"), "https://example.com:8443");
  EXPECT_EQ(RobotsHostKey("ftp://example.com/"), "");
  EXPECT_EQ(RobotsUrl("https://h:1"), "https://h:1/robots.txt");
}

TEST_F(RobotsCacheTest, UnknownThenPendingThenReady) {
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kUnknown);
  cache_.MarkPending(kHost);
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kPending);
  EXPECT_FALSE(cache_.Allowed("http://example.com/a", kAgent));  // fails closed
  cache_.OnFetched(kHost, 200, "User-agent: *\nDisallow: /private\nCrawl-delay: 4\n",
                   FetchStatus::kOk);
  RobotsCache::LookupResult r = cache_.Lookup(kHost);
  EXPECT_EQ(r.state, State::kReady);
  ASSERT_NE(r.rules, nullptr);
  EXPECT_TRUE(cache_.Allowed("http://example.com/a", kAgent));
  EXPECT_FALSE(cache_.Allowed("http://example.com/private/x", kAgent));
  EXPECT_FALSE(cache_.Allowed("http://EXAMPLE.com:80/private/x", kAgent));
  EXPECT_EQ(cache_.CrawlDelay(kHost), 4.0);
  EXPECT_FALSE(cache_.Allowed("https://example.com/a", kAgent));  // other key
}

// §2.3.1.3: 4xx (401 and 403 included) = unavailable = allow all.
TEST_F(RobotsCacheTest, Rfc9309_2_3_1_3_ClientErrorsAllowAll) {
  for (int code : {400, 401, 403, 404, 410}) {
    std::string host = "http://h" + std::to_string(code);
    cache_.OnFetched(host, code, "User-agent: *\nDisallow: /\n", FetchStatus::kHttpError);
    EXPECT_EQ(cache_.Lookup(host).state, State::kReady);
    EXPECT_TRUE(cache_.Allowed(host + "/x", kAgent)) << code;
  }
}

// §2.3.1.4: server errors and network failures = complete disallow, retried
// after a back-off that doubles.
TEST_F(RobotsCacheTest, Rfc9309_2_3_1_4_UnreachableDisallowsAndRetries) {
  cache_.OnFetched(kHost, 503, "", FetchStatus::kHttpError);
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kReady);
  EXPECT_FALSE(cache_.Allowed("http://example.com/x", kAgent));
  EXPECT_TRUE(cache_.Allowed("http://example.com/robots.txt", kAgent));
  clock_.Advance(std::chrono::minutes(5));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kUnknown);  // retry now
  cache_.MarkPending(kHost);
  cache_.OnFetched(kHost, 0, "", FetchStatus::kTimeout);
  clock_.Advance(std::chrono::minutes(9));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kReady);  // 10 min back-off
  clock_.Advance(std::chrono::minutes(1));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kUnknown);
  for (FetchStatus s : {FetchStatus::kConnectError, FetchStatus::kDnsError,
                        FetchStatus::kTlsError}) {
    cache_.OnFetched("http://o", 0, "", s);
    EXPECT_FALSE(cache_.Allowed("http://o/x", kAgent));
  }
  cache_.OnFetched("http://r", 429, "", FetchStatus::kHttpError);
  EXPECT_FALSE(cache_.Allowed("http://r/x", kAgent));
}

// §2.4: a previously parsed copy keeps being used while unreachable.
TEST_F(RobotsCacheTest, Rfc9309_2_4_KeepsParsedRulesWhenUnreachable) {
  cache_.OnFetched(kHost, 200, "User-agent: *\nDisallow: /p\n", FetchStatus::kOk);
  clock_.Advance(std::chrono::hours(24));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kUnknown);  // expired
  EXPECT_TRUE(cache_.Allowed("http://example.com/a", kAgent));  // stale rules still answer
  cache_.MarkPending(kHost);
  cache_.OnFetched(kHost, 500, "", FetchStatus::kHttpError);
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kReady);
  EXPECT_TRUE(cache_.Allowed("http://example.com/a", kAgent));
  EXPECT_FALSE(cache_.Allowed("http://example.com/p", kAgent));
}

// §2.4: rules are refetched after 24 hours; 304 keeps them.
TEST_F(RobotsCacheTest, Rfc9309_2_4_ExpiresAfter24Hours) {
  cache_.OnFetched(kHost, 200, "User-agent: *\nDisallow: /p\n", FetchStatus::kOk);
  clock_.Advance(std::chrono::hours(23));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kReady);
  clock_.Advance(std::chrono::hours(1));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kUnknown);
  cache_.OnFetched(kHost, 304, "", FetchStatus::kNotModified);
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kReady);
  EXPECT_FALSE(cache_.Allowed("http://example.com/p", kAgent));
}

// §2.3.1.2: after more than five redirects robots.txt may be treated as
// unavailable.
TEST_F(RobotsCacheTest, Rfc9309_2_3_1_2_TooManyRedirectsAllowAll) {
  cache_.OnFetched(kHost, 301, "", FetchStatus::kTooManyRedirects);
  EXPECT_TRUE(cache_.Allowed("http://example.com/x", kAgent));
  cache_.OnFetched("http://l", 302, "", FetchStatus::kRedirectLoop);
  EXPECT_TRUE(cache_.Allowed("http://l/x", kAgent));
}

TEST_F(RobotsCacheTest, PendingFetchThatNeverReportsIsForgotten) {
  cache_.MarkPending(kHost);
  clock_.Advance(std::chrono::minutes(11));
  EXPECT_EQ(cache_.Lookup(kHost).state, State::kUnknown);
}

TEST_F(RobotsCacheTest, HtmlContentTypeStillParsed) {
  cache_.OnFetched(kHost, 200, "User-agent: *\nDisallow: /\n",
                   FetchStatus::kContentTypeRejected);
  EXPECT_FALSE(cache_.Allowed("http://example.com/x", kAgent));
  cache_.OnFetched("http://big", 200, "", FetchStatus::kTooLarge);
  EXPECT_FALSE(cache_.Allowed("http://big/x", kAgent));
}

TEST_F(RobotsCacheTest, RecordsSitemaps) {
  cache_.OnFetched(kHost, 200, "Sitemap: http://example.com/s.xml\n", FetchStatus::kOk);
  EXPECT_EQ(cache_.Sitemaps(kHost), std::vector<std::string>{"http://example.com/s.xml"});
  EXPECT_TRUE(cache_.Sitemaps("http://none").empty());
}

}  // namespace
}  // namespace topicrawl
