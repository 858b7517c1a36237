#include "fetch/curl_routes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace topicrawl {
namespace {

std::vector<std::string> Items(const curl_slist* list) {
  std::vector<std::string> out;
  for (; list != nullptr; list = list->next) out.emplace_back(list->data);
  return out;
}

TEST(CurlRoutesTest, RuleToIpv4LiteralGivesTheHostItsOwnPair) {
  CurlRoutes routes({":80:127.0.0.1:8080"}, {});
  const CurlRoutes::Lists& lists = routes.For("example.org", 80);
  EXPECT_EQ(Items(lists.connect_to), std::vector<std::string>{"example.org:80::8080"});
  EXPECT_EQ(Items(lists.resolve), std::vector<std::string>{"example.org:8080:127.0.0.1"});
  EXPECT_EQ(&routes.For("example.org", 80), &lists);  // built once per host:port
  EXPECT_EQ(routes.own_routes(), 1u);
  EXPECT_TRUE(routes.Mapped("example.org", 80));
  // The shared list is the user's rule unchanged.
  EXPECT_EQ(Items(routes.shared().connect_to), std::vector<std::string>{":80:127.0.0.1:8080"});
  EXPECT_EQ(routes.shared().resolve, nullptr);
}

TEST(CurlRoutesTest, EmptyConnectPortKeepsTheRequestPort) {
  CurlRoutes routes({"example.org::127.0.0.2:"}, {});
  const CurlRoutes::Lists& lists = routes.For("example.org", 443);
  EXPECT_EQ(Items(lists.connect_to), std::vector<std::string>{"example.org:443::443"});
  EXPECT_EQ(Items(lists.resolve), std::vector<std::string>{"example.org:443:127.0.0.2"});
}

TEST(CurlRoutesTest, SharedListsWhenNoOwnPairIsPossible) {
  CurlRoutes by_name({"example.org:443:backend.test:8443"}, {});
  EXPECT_EQ(&by_name.For("example.org", 443), &by_name.shared());  // target is a name
  EXPECT_EQ(&by_name.For("other.org", 443), &by_name.shared());    // no rule matches
  EXPECT_FALSE(by_name.Mapped("other.org", 443));
  EXPECT_TRUE(by_name.Mapped("example.org", 443));
  EXPECT_EQ(by_name.own_routes(), 0u);

  // A resolve list of the caller's own would be hidden by a per-handle one.
  CurlRoutes with_resolve({":80:127.0.0.1:8080"}, {"example.org:80:10.0.0.1"});
  EXPECT_EQ(&with_resolve.For("example.org", 80), &with_resolve.shared());
  EXPECT_EQ(Items(with_resolve.shared().resolve),
            std::vector<std::string>{"example.org:80:10.0.0.1"});

  CurlRoutes v6({":80:127.0.0.1:8080"}, {});
  EXPECT_EQ(&v6.For("[::1]", 80), &v6.shared());  // IPv6 literal host
  EXPECT_EQ(&v6.For("", 80), &v6.shared());       // unparsable URL
  CurlRoutes to_v6({":80:[::1]:8080"}, {});
  EXPECT_EQ(&to_v6.For("example.org", 80), &to_v6.shared());
}

TEST(CurlRoutesTest, TheFirstMatchingRuleDecidesLikeCurl) {
  CurlRoutes routes({"a.test:80:backend.test:1", ":80:127.0.0.1:2", ":80:127.0.0.3:3"}, {});
  EXPECT_EQ(&routes.For("a.test", 80), &routes.shared());
  EXPECT_EQ(Items(routes.For("b.test", 80).resolve), std::vector<std::string>{"b.test:2:127.0.0.1"});
  EXPECT_EQ(&routes.For("b.test", 81), &routes.shared());  // port 81 unmatched
}

TEST(CurlRoutesTest, MalformedRulesStaySharedButNeverMatch) {
  CurlRoutes routes({"not a rule"}, {});
  EXPECT_TRUE(routes.rules().empty());
  EXPECT_EQ(Items(routes.shared().connect_to), std::vector<std::string>{"not a rule"});
  EXPECT_EQ(&routes.For("example.org", 80), &routes.shared());
}

TEST(CurlRoutesTest, HostAndPortLowerCasesAndFillsTheDefaultPort) {
  std::string host;
  int port = 0;
  ASSERT_TRUE(HostAndPort("http://Example.ORG/a?b", &host, &port));
  EXPECT_EQ(host, "example.org");
  EXPECT_EQ(port, 80);
  ASSERT_TRUE(HostAndPort("https://x.test:8443/", &host, &port));
  EXPECT_EQ(host, "x.test");
  EXPECT_EQ(port, 8443);
  ASSERT_TRUE(HostAndPort("https://x.test/", &host, &port));
  EXPECT_EQ(port, 443);
  EXPECT_FALSE(HostAndPort("not a url", &host, &port));
}

}  // namespace
}  // namespace topicrawl
