#include "strategies/naive_bayes/url_prefix_labeler.h"

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

UrlPrefixLabeler Make(std::vector<std::string> on, std::vector<std::string> off) {
  auto l = UrlPrefixLabeler::Create(on, off);
  EXPECT_TRUE(l.ok()) << l.status().message();
  return std::move(l).value();
}

TEST(UrlPrefixLabelerTest, HostPrefixCoversHostAndSubdomainsOnly) {
  // Seed 001 §3.2.2 names whole sites: http://finance.sina.com.cn/ etc.
  UrlPrefixLabeler l = Make({"sina.com.cn", "http://money.163.com/"}, {"sports.example.com"});
  EXPECT_EQ(l.Label("http://finance.sina.com.cn/stock/a.html"), PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("https://sina.com.cn/"), PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("http://notsina.com.cn/"), PrefixLabel::kUnlabelled);
  EXPECT_EQ(l.Label("http://money.163.com"), PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("http://MONEY.163.com:8080/x"), PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("http://sports.example.com/nba"), PrefixLabel::kNegative);
  EXPECT_EQ(l.Label("http://www.example.com/"), PrefixLabel::kUnlabelled);
  EXPECT_EQ(l.Label("not a url"), PrefixLabel::kUnlabelled);
}

TEST(UrlPrefixLabelerTest, HostPathPrefixMatchesPathStartIgnoringScheme) {
  UrlPrefixLabeler l = Make({"www.kernel.org/doc/html/latest/networking/"}, {});
  EXPECT_EQ(l.Label("https://www.kernel.org/doc/html/latest/networking/index.html"),
            PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("http://www.kernel.org/doc/html/latest/networking/af_xdp.html#x"),
            PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("http://www.kernel.org/doc/html/latest/networkingfoo.html"),
            PrefixLabel::kUnlabelled);
  EXPECT_EQ(l.Label("http://www.kernel.org/doc/html/latest/"), PrefixLabel::kUnlabelled);
  // No subdomain matching for path prefixes.
  EXPECT_EQ(l.Label("http://cdn.www.kernel.org/doc/html/latest/networking/"),
            PrefixLabel::kUnlabelled);
}

TEST(UrlPrefixLabelerTest, MostSpecificPrefixWins) {
  UrlPrefixLabeler l = Make({"www.erlang.org/docs/25/lib/inets", "www.erlang.org/docs/25/lib/ssl"},
                            {"www.erlang.org", "boost.org"});
  EXPECT_EQ(l.Label("http://www.erlang.org/docs/25/lib/inets-8.3/doc/html/httpc.html"),
            PrefixLabel::kPositive);
  EXPECT_EQ(l.Label("http://www.erlang.org/docs/25/lib/stdlib-4.3/doc/html/lists.html"),
            PrefixLabel::kNegative);
  EXPECT_EQ(l.Label("http://www.boost.org/doc/libs/release/"), PrefixLabel::kNegative);
  // An off-topic directory inside an on-topic host.
  UrlPrefixLabeler m = Make({"docs.python.org"}, {"docs.python.org/3/library/turtle"});
  EXPECT_EQ(m.Label("http://docs.python.org/3/library/turtle.html"), PrefixLabel::kNegative);
  EXPECT_EQ(m.Label("http://docs.python.org/3/library/socket.html"), PrefixLabel::kPositive);
}

TEST(UrlPrefixLabelerTest, RejectsBadPrefixLists) {
  EXPECT_FALSE(UrlPrefixLabeler::Create({}, {}).ok());
  EXPECT_FALSE(UrlPrefixLabeler::Create({"/just/a/path"}, {}).ok());
  auto both = UrlPrefixLabeler::Create({"a.com/x"}, {"https://A.com/x"});
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.status().message().find("both on-topic and off-topic"), std::string::npos);
}

}  // namespace
}  // namespace topicrawl
