// RobotsRules against RFC 9309; each test names the section it checks.
#include "robots/robots_rules.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

constexpr char kAgent[] = "topicrawl/0.1 (+http://example.com/bot)";

bool Allowed(std::string_view robots, std::string_view url,
             std::string_view agent = kAgent) {
  return RobotsRules::Parse(robots).Allowed(agent, url);
}

// §2.2.1: the product token of a full User-Agent is matched
// case-insensitively.
TEST(RobotsRulesTest, Rfc9309_2_2_1_MatchesProductTokenOfUserAgent) {
  EXPECT_EQ(RobotsProductToken(kAgent), "topicrawl");
  EXPECT_EQ(RobotsProductToken("Mozilla/5.0"), "Mozilla");
  const char* robots = "User-agent: TopiCrawl\nDisallow: /\n";
  EXPECT_FALSE(Allowed(robots, "http://h/a"));
  EXPECT_TRUE(Allowed(robots, "http://h/a", "otherbot/1.0"));
}

// §2.2.1: without a matching group the "*" group applies; a matching group
// replaces "*" entirely.
TEST(RobotsRulesTest, Rfc9309_2_2_1_FallsBackToStarGroup) {
  const char* robots =
      "User-agent: *\nDisallow: /private\n\n"
      "User-agent: otherbot\nDisallow: /public\n";
  EXPECT_FALSE(Allowed(robots, "http://h/private/x"));
  EXPECT_TRUE(Allowed(robots, "http://h/public"));
  EXPECT_TRUE(Allowed(robots, "http://h/private/x", "otherbot"));
  EXPECT_FALSE(Allowed(robots, "http://h/public", "otherbot"));
}

// §2.2.1: "If there is more than one group matching the user-agent, the
// matching groups' rules MUST be combined into one group".
TEST(RobotsRulesTest, Rfc9309_2_2_1_MergesGroupsForSameAgent) {
  const char* robots =
      "User-agent: topicrawl\nDisallow: /a\n\n"
      "User-agent: *\nDisallow: /c\n\n"
      "user-agent: TOPICRAWL\nDisallow: /b\n";
  EXPECT_FALSE(Allowed(robots, "http://h/a"));
  EXPECT_FALSE(Allowed(robots, "http://h/b"));
  EXPECT_TRUE(Allowed(robots, "http://h/c"));
}

// §2.1: consecutive user-agent lines share the following rules.
TEST(RobotsRulesTest, Rfc9309_2_1_ConsecutiveUserAgentsShareGroup) {
  const char* robots =
      "User-agent: a\nUser-agent: topicrawl\nDisallow: /x\n"
      "User-agent: b\nDisallow: /y\n";
  EXPECT_FALSE(Allowed(robots, "http://h/x"));
  EXPECT_TRUE(Allowed(robots, "http://h/y"));
  EXPECT_EQ(RobotsRules::Parse(robots).group_count(), 2u);
}

// §2.2.2: longest match wins; on equal length allow wins.
TEST(RobotsRulesTest, Rfc9309_2_2_2_LongestMatchAllowWinsTie) {
  const char* robots =
      "User-agent: *\nAllow: /folder/page\nDisallow: /folder\n"
      "Allow: /same\nDisallow: /same\n";
  EXPECT_TRUE(Allowed(robots, "http://h/folder/page.html"));
  EXPECT_FALSE(Allowed(robots, "http://h/folder/other"));
  EXPECT_TRUE(Allowed(robots, "http://h/same"));
}

// §2.2.2: "The /robots.txt URI is implicitly allowed."
TEST(RobotsRulesTest, Rfc9309_2_2_2_RobotsTxtAlwaysAllowed) {
  EXPECT_TRUE(Allowed("User-agent: *\nDisallow: /\n", "http://h/robots.txt"));
  EXPECT_TRUE(RobotsRules::DisallowAll().Allowed(kAgent, "http://h/robots.txt"));
  EXPECT_FALSE(RobotsRules::DisallowAll().Allowed(kAgent, "http://h/robots.txt2"));
}

// §2.2.2: empty Disallow value means nothing is disallowed.
TEST(RobotsRulesTest, Rfc9309_2_2_2_EmptyDisallowAllowsEverything) {
  EXPECT_TRUE(Allowed("User-agent: *\nDisallow:\n", "http://h/anything"));
}

// §2.2.2 percent-encoding table: non-ASCII in patterns matches the
// percent-encoded URL; hex case does not matter.
TEST(RobotsRulesTest, Rfc9309_2_2_2_PercentEncodingEquivalence) {
  const char* robots =
      "User-agent: *\nDisallow: /\xE6\x90\x9C\xE7\xB4\xA2\n"
      "Disallow: /a%3cb\nAllow: /foo/bar?baz=https://foo.bar\n";
  EXPECT_FALSE(Allowed(robots, "http://h/%E6%90%9C%E7%B4%A2?q=1"));
  EXPECT_FALSE(Allowed(robots, "http://h/a%3Cb"));
  EXPECT_FALSE(Allowed(robots, "http://h/a%3cb"));
  EXPECT_TRUE(Allowed(robots, "http://h/foo/bar?baz=https://foo.bar"));
}

// §2.2.3: '*' matches any sequence, '$' anchors the end (RFC examples).
TEST(RobotsRulesTest, Rfc9309_2_2_3_SpecialCharacters) {
  const char* robots =
      "User-agent: *\nDisallow: /*.gif$\nDisallow: /private*/\n"
      "Disallow: /path$x\n";
  EXPECT_FALSE(Allowed(robots, "http://h/a/b.gif"));
  EXPECT_TRUE(Allowed(robots, "http://h/a/b.gif?x"));
  EXPECT_FALSE(Allowed(robots, "http://h/private-stuff/x"));
  EXPECT_TRUE(Allowed(robots, "http://h/privatestuff"));
  EXPECT_FALSE(Allowed(robots, "http://h/path$x"));  // '$' inside is literal
}

// §2.1: keys are case-insensitive, comments and blank lines ignored, any of
// CR, LF, CRLF ends a line, a BOM is skipped.
TEST(RobotsRulesTest, Rfc9309_2_1_LineSyntax) {
  const char* robots =
      "\xEF\xBB\xBFUSER-AGENT: *  # everyone\r\n\r\n"
      "# Disallow: /comment\rDISALLOW: /x # trailing\n";
  EXPECT_FALSE(Allowed(robots, "http://h/x"));
  EXPECT_TRUE(Allowed(robots, "http://h/comment"));
}

// §2.1: malformed lines are reported as data, never an error.
TEST(RobotsRulesTest, Rfc9309_2_1_ReportsMalformedLinesAsIssues) {
  RobotsRules rules = RobotsRules::Parse(
      "Disallow: /early\nUser-agent: *\nnoindex: /x\nthis line has words\n"
      "Crawl-delay: soon\nDisallow /y\n");
  ASSERT_EQ(rules.issues().size(), 5u);
  EXPECT_EQ(rules.issues()[0].line, 1);
  EXPECT_EQ(rules.issues()[0].problem, "rule before any user-agent line ignored");
  EXPECT_EQ(rules.issues()[1].problem, "unknown key 'noindex'");
  EXPECT_EQ(rules.issues()[2].problem, "no ':' separator; line ignored");
  EXPECT_EQ(rules.issues()[3].problem, "invalid crawl-delay 'soon'");
  EXPECT_EQ(rules.issues()[4].problem, "no ':' separator; whitespace accepted");
  EXPECT_FALSE(rules.Allowed(kAgent, "http://h/y"));
  EXPECT_TRUE(rules.Allowed(kAgent, "http://h/early"));
}

// §2.5: parsers must handle at least 500 KiB; content after it is ignored,
// and a line cut by the limit is dropped rather than shortened.
TEST(RobotsRulesTest, Rfc9309_2_5_ParsesOnlyFirst500KiB) {
  std::string robots = "User-agent: *\nDisallow: /early\n";
  while (robots.size() < kMaxRobotsBytes - 10) robots += "# padding padding padding\n";
  robots += "Disallow: /cut-by-the-limit-here\nDisallow: /late\n";
  RobotsRules rules = RobotsRules::Parse(robots);
  EXPECT_TRUE(rules.truncated());
  EXPECT_FALSE(rules.Allowed(kAgent, "http://h/early"));
  EXPECT_TRUE(rules.Allowed(kAgent, "http://h/cut"));
  EXPECT_TRUE(rules.Allowed(kAgent, "http://h/late"));
}

// §2.2.4 other records: sitemaps collected; Crawl-delay per group.
TEST(RobotsRulesTest, Rfc9309_2_2_4_SitemapsAndCrawlDelay) {
  RobotsRules rules = RobotsRules::Parse(
      "Sitemap: http://h/s1.xml\nUser-agent: *\nCrawl-delay: 2.5\n"
      "User-agent: topicrawl\nCrawl-delay: 7\nDisallow: /x\n"
      "Sitemap: http://h/s2.xml\n");
  EXPECT_EQ(rules.sitemaps(), (std::vector<std::string>{"http://h/s1.xml", "http://h/s2.xml"}));
  // "*" and topicrawl share one group (crawl-delay does not end the run).
  EXPECT_EQ(rules.CrawlDelay(kAgent), 7.0);
  EXPECT_EQ(RobotsRules::Parse("User-agent: *\nCrawl-delay: 3\n").CrawlDelay(kAgent), 3.0);
  EXPECT_EQ(RobotsRules::Parse("User-agent: *\nDisallow: /\n").CrawlDelay(kAgent), std::nullopt);
}

// §5.1 "Simple Example", verbatim from the RFC.
TEST(RobotsRulesTest, Rfc9309_5_1_SimpleExample) {
  const char* robots =
      "User-Agent: *\n"
      "Disallow: *.gif$\n"
      "Disallow: /example/\n"
      "Allow: /publications/\n"
      "\n"
      "User-Agent: foobot\n"
      "Disallow:/\n"
      "Allow:/example/page.html\n"
      "Allow:/example/allowed.gif\n"
      "\n"
      "User-Agent: barbot\n"
      "User-Agent: bazbot\n"
      "Disallow: /example/page.html\n"
      "\n"
      "User-Agent: quxbot\n"
      "\n"
      "EOF\n";
  RobotsRules rules = RobotsRules::Parse(robots);
  // Other crawlers: the "*" group.
  EXPECT_FALSE(rules.Allowed("otherbot", "http://h/a/b.gif"));
  EXPECT_FALSE(rules.Allowed("otherbot", "http://h/example/x"));
  EXPECT_TRUE(rules.Allowed("otherbot", "http://h/publications/x"));
  EXPECT_TRUE(rules.Allowed("otherbot", "http://h/other"));
  // foobot: everything disallowed except two files.
  EXPECT_FALSE(rules.Allowed("foobot", "http://h/other"));
  EXPECT_TRUE(rules.Allowed("foobot", "http://h/example/page.html"));
  EXPECT_TRUE(rules.Allowed("foobot", "http://h/example/allowed.gif"));
  EXPECT_FALSE(rules.Allowed("foobot", "http://h/example/other.gif"));
  // barbot and bazbot share a group.
  for (const char* agent : {"barbot", "bazbot"}) {
    EXPECT_FALSE(rules.Allowed(agent, "http://h/example/page.html")) << agent;
    EXPECT_TRUE(rules.Allowed(agent, "http://h/example/other.gif")) << agent;
  }
  // quxbot has an empty group of its own: everything allowed.
  EXPECT_TRUE(rules.Allowed("quxbot", "http://h/example/x.gif"));
  // "EOF" is an unknown line, reported.
  ASSERT_FALSE(rules.issues().empty());
  EXPECT_EQ(rules.issues().back().line, 17);
}

// §5.2 "Longest Match", verbatim from the RFC.
TEST(RobotsRulesTest, Rfc9309_5_2_LongestMatchExample) {
  const char* robots =
      "User-Agent: foobot\n"
      "Allow: /example/page/\n"
      "Disallow: /example/page/disallowed.gif\n";
  EXPECT_TRUE(Allowed(robots, "http://h/example/page/", "foobot"));
  EXPECT_TRUE(Allowed(robots, "http://h/example/page/x.html", "foobot"));
  EXPECT_FALSE(Allowed(robots, "http://h/example/page/disallowed.gif", "foobot"));
}

// §2.2.3 table: "$" and "*" examples.
TEST(RobotsRulesTest, Rfc9309_2_2_3_TableExamples) {
  const char* dollar = "User-agent: *\nDisallow: /\nAllow: /this/path/exactly$\n";
  EXPECT_TRUE(Allowed(dollar, "http://h/this/path/exactly"));
  EXPECT_FALSE(Allowed(dollar, "http://h/this/path/exactly/not"));
  const char* star = "User-agent: *\nDisallow: /\nAllow: /this/*/exactly\n";
  EXPECT_TRUE(Allowed(star, "http://h/this/any/thing/exactly"));
  EXPECT_FALSE(Allowed(star, "http://h/this/exact"));
}

TEST(RobotsRulesTest, MatchPathKeepsQueryDropsFragment) {
  EXPECT_EQ(RobotsMatchPath("http://h:8/a;p?q=1#f"), "/a;p?q=1");
  EXPECT_EQ(RobotsMatchPath("http://h"), "/");
  EXPECT_EQ(RobotsMatchPath("http://h?x"), "/?x");
  EXPECT_EQ(RobotsMatchPath("http://h/%e3%83"), "/%E3%83");
  EXPECT_EQ(RobotsMatchPath(""), "/");
}

// aipref-attach §4 / contentsignals.org: Content-Usage and Content-Signal
// lines of the applying group, per field the longest matching path; they
// never change what is allowed.
TEST(RobotsRulesTest, UsagePreferencesOfTheApplyingGroupByLongestPath) {
  const char* robots =
      "Content-Usage: search=y\n"  // before any group: every agent
      "User-agent: *\n"
      "Content-Signal: search=yes, ai-train=no\n"
      "Content-Usage: train-ai=n\n"
      "Content-Usage: /open/ train-ai=y\n"
      "Content-Usage: /open/*.pdf$ train-genai=n\n"
      "Allow: /\n"
      "User-agent: otherbot\n"
      "content-usage: bots=n\n";
  RobotsRules rules = RobotsRules::Parse(robots);
  EXPECT_TRUE(rules.issues().empty()) << rules.issues()[0].problem;
  EXPECT_EQ(rules.group_count(), 2u);
  auto text = [&](std::string_view agent, std::string_view url) {
    std::string out;
    for (const auto& u : rules.UsagePreferences(agent, url)) {
      out += u.field + "|" + u.path + "|" + u.value + ";";
    }
    return out;
  };
  EXPECT_EQ(text(kAgent, "http://h/a.html"),
            "content-usage||train-ai=n;content-signal||search=yes, ai-train=no;");
  EXPECT_EQ(text(kAgent, "http://h/open/x.html"),
            "content-usage|/open/|train-ai=y;content-signal||search=yes, ai-train=no;");
  EXPECT_EQ(text(kAgent, "http://h/open/paper.pdf"),
            "content-usage|/open/*.pdf$|train-genai=n;content-signal||search=yes, ai-train=no;");
  EXPECT_EQ(text("otherbot", "http://h/a"), "content-usage||bots=n;");
  EXPECT_TRUE(rules.Allowed(kAgent, "http://h/a.html"));
  EXPECT_EQ(text(kAgent, "http://h/"), text("thirdbot", "http://h/"));
  // A usage line ends a run of user-agent lines, like a rule.
  RobotsRules two = RobotsRules::Parse(
      "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n");
  EXPECT_EQ(two.group_count(), 2u);
  EXPECT_TRUE(two.UsagePreferences("b", "http://h/").empty());
  RobotsRules empty = RobotsRules::Parse("User-agent: *\nContent-Usage: /x/\n");
  EXPECT_TRUE(empty.UsagePreferences(kAgent, "http://h/x/").empty());
  ASSERT_EQ(empty.issues().size(), 1u);
}

TEST(RobotsRulesTest, PatternMatchesAsRules) {
  EXPECT_TRUE(RobotsPatternMatches("", "/anything"));
  EXPECT_TRUE(RobotsPatternMatches("/a", "/abc"));
  EXPECT_FALSE(RobotsPatternMatches("/b", "/abc"));
  EXPECT_TRUE(RobotsPatternMatches("/*.pdf$", "/x/y.pdf"));
  EXPECT_FALSE(RobotsPatternMatches("/*.pdf$", "/x/y.pdf?q"));
  EXPECT_TRUE(RobotsPatternMatches("/caf\xC3\xA9/", "/caf%C3%A9/menu"));
}

TEST(RobotsRulesTest, EmptyFileAllowsAll) {
  EXPECT_TRUE(Allowed("", "http://h/x"));
  EXPECT_TRUE(RobotsRules().Allowed(kAgent, "http://h/x"));
  EXPECT_TRUE(RobotsRules::AllowAll().Allowed(kAgent, "http://h/x"));
}

TEST(RobotsRulesTest, PathologicalWildcardsStayFast) {
  std::string pattern = "User-agent: *\nDisallow: /";
  for (int i = 0; i < 200; ++i) pattern += "*a";
  pattern += "$\n";
  std::string url = "http://h/" + std::string(2000, 'a') + "b";
  EXPECT_TRUE(Allowed(pattern, url));
}

// Random robots.txt bodies: parsing and matching never crash (ASan/UBSan
// run this too), a Crawl-delay is finite and >= 0, and a "Disallow" group
// for everyone appended to any body always wins for an agent no random group
// names, on a path longer than any random Allow pattern can match (RFC 9309
// 2.2.2: the longest match wins; groups for "*" are merged).
TEST(RobotsRulesTest, RandomBodiesNeverCrash) {
  static const char* kPieces[] = {
      "User-agent: ", "Disallow: ", "Allow: ", "Sitemap: ", "Crawl-delay: ",
      "*", "$", "/", "a", "%", "%4", "%e3", "#", ":", " ", "\t", "\n", "\r",
      "\r\n", "\xef\xbb\xbf", "\xff", "topicrawl", "1.5", "-1"};
  const std::string kPrivate = "/zz-private-zone-0123456789-abcdefghijklmnopqrstuvwxyz/";
  std::mt19937 rng(9309);
  std::uniform_int_distribution<size_t> pick(0, std::size(kPieces) - 1);
  int denied = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string body;
    for (int n = 0; n < 40; ++n) body += kPieces[pick(rng)];
    RobotsRules rules = RobotsRules::Parse(body);
    rules.Allowed(kAgent, "http://h/a*b$%E3/");
    if (auto delay = rules.CrawlDelay(kAgent)) {
      EXPECT_TRUE(std::isfinite(*delay) && *delay >= 0) << *delay;
    }
    // The longest random line is 40 pieces of <= 12 bytes, but an Allow
    // pattern only matches the private path if it is made of '/', '*',
    // 'a', '$'... and at least as long as it: 56 bytes without a newline
    // of such pieces. The fixed seed makes this a fixed set of bodies.
    RobotsRules all =
        RobotsRules::Parse(body + "\nUser-agent: *\nDisallow: " + kPrivate + "\n");
    bool allowed = all.Allowed("zzbot", "http://h" + kPrivate + "page");
    EXPECT_FALSE(allowed) << "body: " << body;
    denied += allowed ? 0 : 1;
  }
  EXPECT_EQ(denied, 3000);
  EXPECT_FALSE(Allowed("User-agent: *\nDisallow: /\n", "http://h/x"));
}

}  // namespace
}  // namespace topicrawl
