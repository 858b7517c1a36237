#include "crawl/url_trap.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TEST(UrlPatternTest, DigitsIdsAndQueryValuesCollapse) {
  EXPECT_EQ(UrlPattern("http://a.com/cal/2024/05/"), "a.com/cal/#/#/");
  EXPECT_EQ(UrlPattern("http://a.com/cal/2031/11/"), "a.com/cal/#/#/");
  EXPECT_EQ(UrlPattern("http://a.com/p?sid=9fA3kQ1z"), "a.com/p?sid");
  EXPECT_EQ(UrlPattern("http://a.com/p?sid=x&b=2"), "a.com/p?b&sid");
  EXPECT_EQ(UrlPattern("http://a.com/s/Ab12Cd34ef/page.html"), "a.com/s/*/page.html");
  EXPECT_EQ(UrlPattern("http://a.com/page;jsessionid=ABC123"), "a.com/page;*");
  EXPECT_EQ(UrlPattern("http://a.com/docs/intro.html#x"), "a.com/docs/intro.html");
  EXPECT_EQ(UrlPattern("http://a.com"), "a.com");
  // Words stay: real pages of a site spread over many patterns.
  EXPECT_NE(UrlPattern("http://a.com/docs/intro.html"), UrlPattern("http://a.com/docs/api.html"));
}

TEST(UrlPatternTest, CountsQueryParams) {
  EXPECT_EQ(CountQueryParams("http://a.com/x"), 0);
  EXPECT_EQ(CountQueryParams("http://a.com/x?"), 0);
  EXPECT_EQ(CountQueryParams("http://a.com/x?a=1"), 1);
  EXPECT_EQ(CountQueryParams("http://a.com/x?a=1&b&&c=3"), 3);
}

TEST(UrlTrapGuardTest, PatternBudgetTurnsAwayTheRestAndCountsThem) {
  UrlTrapOptions o;
  o.max_urls_per_pattern = 3;
  UrlTrapGuard guard(o);
  EXPECT_TRUE(guard.counts_patterns());
  for (int m = 1; m <= 3; ++m) {
    EXPECT_TRUE(guard.Admit("http://a.com/cal/2024/" + std::to_string(m) + "/"));
    // Reported once, when the third URL spends the budget.
    EXPECT_EQ(guard.TakeNewlySpent().size(), m == 3 ? 1u : 0u);
  }
  EXPECT_FALSE(guard.Admit("http://a.com/cal/2024/4/"));
  EXPECT_FALSE(guard.Admit("http://a.com/cal/2031/11/"));
  EXPECT_TRUE(guard.TakeNewlySpent().empty());
  EXPECT_EQ(UrlPattern("http://a.com/cal/2031/11/"), "a.com/cal/#/#/");
  // Another host or another pattern has its own budget.
  EXPECT_TRUE(guard.Admit("http://b.com/cal/2024/4/"));
  EXPECT_TRUE(guard.Admit("http://a.com/about.html"));
  EXPECT_TRUE(guard.Admit("http://a.com:8080/cal/2024/4/"));
  // What was turned away, per pattern, most first.
  EXPECT_FALSE(guard.Admit("http://b.com/p?sid=1") && guard.Admit("http://b.com/p?sid=2") &&
               guard.Admit("http://b.com/p?sid=3") && guard.Admit("http://b.com/p?sid=4"));
  EXPECT_EQ(guard.not_queued(), 3u);
  auto by = guard.NotQueuedByPattern();
  ASSERT_EQ(by.size(), 2u);
  EXPECT_EQ(by[0], (std::pair<std::string, uint64_t>{"a.com/cal/#/#/", 2}));
  EXPECT_EQ(by[1], (std::pair<std::string, uint64_t>{"b.com/p?sid", 1}));
}

TEST(UrlTrapGuardTest, RestoredUrlsSpendTheBudget) {
  UrlTrapOptions o;
  o.max_urls_per_pattern = 3;
  UrlTrapGuard guard(o);
  // Two URLs admitted before a resume, counted without a check.
  guard.Restore("http://a.com/cal/2024/1/");
  guard.Restore("http://a.com/cal/2024/2/");
  EXPECT_TRUE(guard.Admit("http://a.com/cal/2024/3/"));
  EXPECT_FALSE(guard.Admit("http://a.com/cal/2024/4/"));
  // Over the budget by restore alone: reported once.
  guard.Restore("http://c.com/x/1");
  guard.Restore("http://c.com/x/2");
  guard.Restore("http://c.com/x/3");
  guard.Restore("http://c.com/x/4");
  EXPECT_EQ(guard.TakeNewlySpent(), (std::vector<std::string>{"a.com/cal/#/#/", "c.com/x/#"}));
  EXPECT_FALSE(guard.Admit("http://c.com/x/9"));
  o.max_urls_per_pattern = 0;  // budget off: everything is admitted
  UrlTrapGuard off(o);
  EXPECT_FALSE(off.counts_patterns());
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(off.Admit("http://a.com/p?sid=" + std::to_string(i)));
  off.Restore("http://a.com/p?sid=9");
  EXPECT_TRUE(off.TakeNewlySpent().empty());
  EXPECT_EQ(off.not_queued(), 0u);
}

TEST(UrlTrapGuardTest, ParamsSegmentsAndRepeats) {
  UrlTrapGuard guard(UrlTrapOptions{});
  EXPECT_NE(guard.Check("http://a.com/s?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11"), "");
  EXPECT_EQ(guard.Check("http://a.com/s?a=1&b=2"), "");
  EXPECT_NE(guard.Check("http://a.com/x/x/x/x/page"), "");
  EXPECT_EQ(guard.Check("http://a.com/x/x/x/page"), "");
  std::string deep = "http://a.com";
  for (int i = 0; i < 31; ++i) deep += "/d" + std::string(1, static_cast<char>('a' + i % 26));
  EXPECT_NE(guard.Check(deep), "");
  UrlTrapOptions off;
  off.max_urls_per_pattern = 0;
  off.max_url_params = -1;
  off.max_segment_repeats = -1;
  off.max_path_segments = -1;
  UrlTrapGuard none(off);
  EXPECT_EQ(none.Check("http://a.com/x/x/x/x/page?a&b&c&d&e&f&g&h&i&j&k&l"), "");
}

TEST(UrlTrapGuardTest, RepeatsInLongPathsAreFoundToo) {
  UrlTrapOptions o;
  o.max_path_segments = -1;  // long paths allowed: the repeat rule still holds
  UrlTrapGuard guard(o);
  std::string url = "http://a.com";
  for (int i = 0; i < 80; ++i) url += "/s" + std::to_string(i);
  EXPECT_EQ(guard.Check(url + "/page"), "");
  std::string why = guard.Check(url + "/s7/s7/s7/page");
  EXPECT_NE(why.find("path segment \"s7\" repeated more than 3 times"), std::string::npos) << why;
  why = guard.Check("http://a.com/b/a/b/a/b/a/a");
  EXPECT_NE(why.find("path segment \"a\" repeated"), std::string::npos) << why;
}

}  // namespace
}  // namespace topicrawl
