#include "fetch/address_policy.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

// RFC 6890 special-purpose address registries.
TEST(AddressPolicyTest, FlagsPrivateAndSpecialIpv4Ranges) {
  for (const char* ip : {"127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255",
                         "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
                         "224.0.0.1", "255.255.255.255", "198.18.0.1"}) {
    EXPECT_TRUE(IsPrivateAddressText(ip)) << ip;
  }
  for (const char* ip : {"8.8.8.8", "172.32.0.1", "172.15.255.255", "100.128.0.1",
                         "93.184.216.34", "192.169.0.1"}) {
    EXPECT_FALSE(IsPrivateAddressText(ip)) << ip;
  }
}

TEST(AddressPolicyTest, FlagsPrivateIpv6IncludingMappedIpv4) {
  for (const char* ip : {"::1", "::", "fe80::1", "fd00::5", "fc00::1", "ff02::1",
                         "::ffff:127.0.0.1", "::ffff:10.0.0.1", "[::1]"}) {
    EXPECT_TRUE(IsPrivateAddressText(ip)) << ip;
  }
  for (const char* ip : {"2001:4860:4860::8888", "::ffff:8.8.8.8", "2606:4700::1111"}) {
    EXPECT_FALSE(IsPrivateAddressText(ip)) << ip;
  }
  EXPECT_FALSE(IsPrivateAddressText("not-an-ip"));
}

TEST(AddressPolicyTest, EmbeddedIpv4FormsAreJudgedByTheirIpv4Address) {
  for (const char* ip : {"::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe",
                         "2002:7f00:1::1", "2002:c0a8:0101::", "::ffff:169.254.169.254",
                         "::ffff:0.0.0.0", "fec0::1"}) {
    EXPECT_TRUE(IsPrivateAddressText(ip)) << ip;
  }
  for (const char* ip : {"64:ff9b::808:808", "2002:808:808::1"}) {
    EXPECT_FALSE(IsPrivateAddressText(ip)) << ip;
  }
}

TEST(AddressPolicyTest, NamesTheRuleThatRefusesAnAddress) {
  EXPECT_EQ(PrivateAddressRuleText("127.0.0.1"), "127.0.0.0/8 (loopback)");
  EXPECT_EQ(PrivateAddressRuleText("169.254.169.254"), "169.254.0.0/16 (link-local)");
  EXPECT_EQ(PrivateAddressRuleText("::1"), "::1/128 (loopback)");
  EXPECT_EQ(PrivateAddressRuleText("::ffff:10.1.1.1"),
            "IPv4-mapped ::ffff:0:0/96 of 10.0.0.0/8 (private)");
  EXPECT_EQ(PrivateAddressRuleText("fd12::1"), "fc00::/7 (unique local)");
  EXPECT_EQ(PrivateAddressRuleText("8.8.8.8"), "");
  EXPECT_EQ(PrivateAddressRuleText("nonsense"), "");
}

TEST(AddressPolicyTest, ParsesConnectToLikeCurl) {
  std::string error;
  auto rule = ParseConnectTo("Site.Test:80:127.0.0.1:8080", &error);
  ASSERT_TRUE(rule.has_value()) << error;
  EXPECT_EQ(rule->host, "site.test");
  EXPECT_EQ(rule->port, 80);
  EXPECT_EQ(rule->connect_host, "127.0.0.1");
  EXPECT_EQ(rule->connect_port, 8080);
  EXPECT_TRUE(rule->Matches("SITE.test", 80));
  EXPECT_FALSE(rule->Matches("site.test", 443));
  EXPECT_FALSE(rule->Matches("other.test", 80));
}

TEST(AddressPolicyTest, EmptyHostOrPortMatchesAny) {
  auto any_host = ParseConnectTo(":443:127.0.0.1:9443", nullptr);
  ASSERT_TRUE(any_host.has_value());
  EXPECT_TRUE(any_host->Matches("a.example", 443));
  EXPECT_FALSE(any_host->Matches("a.example", 80));
  auto any_port = ParseConnectTo("a.example::127.0.0.1:", nullptr);
  ASSERT_TRUE(any_port.has_value());
  EXPECT_TRUE(any_port->Matches("a.example", 8080));
  EXPECT_EQ(any_port->connect_port, -1);
}

TEST(AddressPolicyTest, ParsesBracketedIpv6) {
  auto rule = ParseConnectTo("[::1]:80:[::1]:8080", nullptr);
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->host, "[::1]");
  EXPECT_EQ(rule->connect_host, "[::1]");
  EXPECT_EQ(rule->connect_port, 8080);
}

TEST(AddressPolicyTest, RejectsMalformedConnectTo) {
  std::string error;
  for (const char* bad : {"", "site.test", "site.test:80", "site.test:80:127.0.0.1",
                          "h:x:127.0.0.1:1", "h:80:127.0.0.1:99999", "[::1:80:a:1"}) {
    EXPECT_FALSE(ParseConnectTo(bad, &error).has_value()) << bad;
  }
  EXPECT_NE(error.find("HOST:PORT:CONNECT-HOST:CONNECT-PORT"), std::string::npos);
}

TEST(AddressPolicyTest, MappedByAnyRule) {
  std::vector<ConnectToRule> rules = {*ParseConnectTo("a.test:80:127.0.0.1:1", nullptr),
                                      *ParseConnectTo(":443:127.0.0.1:2", nullptr)};
  EXPECT_TRUE(IsMappedByConnectTo(rules, "a.test", 80));
  EXPECT_TRUE(IsMappedByConnectTo(rules, "b.test", 443));
  EXPECT_FALSE(IsMappedByConnectTo(rules, "b.test", 80));
}

}  // namespace
}  // namespace topicrawl
