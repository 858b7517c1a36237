#include "frontier/host_key.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TEST(HostKeyTest, LowerCasesHost) {
  EXPECT_EQ(HostKeyOfUrl("http://WWW.Example.COM/a/B"), "www.example.com");
}

TEST(HostKeyTest, DropsDefaultPorts) {
  EXPECT_EQ(HostKeyOfUrl("http://a.com:80/"), "a.com");
  EXPECT_EQ(HostKeyOfUrl("https://a.com:443/x"), "a.com");
  EXPECT_EQ(HostKeyOfUrl("HTTPS://a.com:443"), "a.com");
}

TEST(HostKeyTest, KeepsOtherPorts) {
  EXPECT_EQ(HostKeyOfUrl("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
  EXPECT_EQ(HostKeyOfUrl("https://a.com:80/"), "a.com:80");
}

TEST(HostKeyTest, StopsAtPathQueryOrFragment) {
  EXPECT_EQ(HostKeyOfUrl("http://a.com?q=1:2"), "a.com");
  EXPECT_EQ(HostKeyOfUrl("http://a.com#x:y"), "a.com");
  EXPECT_EQ(HostKeyOfUrl("http://a.com"), "a.com");
}

TEST(HostKeyTest, StripsUserInfo) {
  EXPECT_EQ(HostKeyOfUrl("http://user:pw@a.com:81/"), "a.com:81");
}

TEST(HostKeyTest, HandlesIpv6Literals) {
  EXPECT_EQ(HostKeyOfUrl("http://[::1]:8080/"), "[::1]:8080");
  EXPECT_EQ(HostKeyOfUrl("http://[::1]/"), "[::1]");
  EXPECT_EQ(HostKeyOfUrl("http://[::1]:80/"), "[::1]");
}

TEST(HostKeyTest, RejectsUrlsWithoutHost) {
  EXPECT_EQ(HostKeyOfUrl("example.com/a"), std::nullopt);
  EXPECT_EQ(HostKeyOfUrl("http:///a"), std::nullopt);
  EXPECT_EQ(HostKeyOfUrl("://a.com"), std::nullopt);
  EXPECT_EQ(HostKeyOfUrl(""), std::nullopt);
}

}  // namespace
}  // namespace topicrawl
