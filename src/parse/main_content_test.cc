#include "parse/main_content.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace topicrawl {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(TOPICRAWL_SOURCE_DIR) + "/src/parse/testdata/main_content/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_FALSE(ss.str().empty()) << name;
  return ss.str();
}

TEST(MainContentTest, NavHeavyPageKeepsTheArticleOnly) {
  MainContent m = ExtractMainContent(Fixture("nav_heavy.html"), "http://docs.test/guides/pf");
  ASSERT_TRUE(m.found) << m.reason;
  EXPECT_EQ(m.title, "Configuring the packet filter | NetDocs");
  EXPECT_EQ(m.lang, "en");
  EXPECT_THAT(m.text, HasSubstr("The packet filter inspects every incoming"));
  EXPECT_THAT(m.text, HasSubstr("Finally, drop everything else."));
  for (const char* boilerplate : {"NetDocs home", "API reference", "Routing tables explained",
                                  "We use cookies", "Copyright 2024", "Accept all",
                                  "do not show", "Home >"}) {
    EXPECT_THAT(m.text, Not(HasSubstr(boilerplate))) << boilerplate;
    EXPECT_THAT(m.markdown, Not(HasSubstr(boilerplate))) << boilerplate;
  }
  EXPECT_THAT(m.markdown, HasSubstr("# Configuring the packet filter\n\n"));
  EXPECT_THAT(m.markdown, HasSubstr("\n## Writing rules\n\n"));
  EXPECT_THAT(m.markdown, HasSubstr("\n- Allow established connections first.\n- Then allow"));
  EXPECT_THAT(m.markdown, HasSubstr("See the [zones guide](http://docs.test/guides/zones) for"));
}

TEST(MainContentTest, ChinesePage) {
  MainContent m = ExtractMainContent(Fixture("chinese.html"), "http://zh.test/fw");
  ASSERT_TRUE(m.found) << m.reason;
  EXPECT_EQ(m.lang, "zh");
  EXPECT_THAT(m.text, HasSubstr("防火墙是保护内部网络的第一道防线"));
  EXPECT_THAT(m.markdown, HasSubstr("# 防火墙配置指南\n"));
  EXPECT_THAT(m.markdown, HasSubstr("1. 首先允许已建立的连接。\n2. 然后允许"));
  EXPECT_THAT(m.markdown, HasSubstr("3. 最后丢弃其他所有数据包。"));
  for (const char* boilerplate : {"论坛", "交换机", "相关文章", "路由表详解", "版权所有"}) {
    EXPECT_THAT(m.text, Not(HasSubstr(boilerplate))) << boilerplate;
  }
}

TEST(MainContentTest, CodeHeavyPageKeepsCodeBlocks) {
  MainContent m = ExtractMainContent(Fixture("code_heavy.html"), "http://py.test/json");
  ASSERT_TRUE(m.found) << m.reason;
  EXPECT_THAT(m.markdown,
              HasSubstr("```python\nimport json\n\nwith open(\"config.json\") as f:\n"
                        "    config = json.load(f)\nprint(config[\"name\"])\n```\n"));
  EXPECT_THAT(m.markdown, HasSubstr("```shell\n$ python3 -m json.tool config.json\n```"));
  EXPECT_THAT(m.markdown, HasSubstr("The `json` module reads"));
  EXPECT_THAT(m.markdown, HasSubstr("use `json.dumps()` with *indent* for"));
  EXPECT_THAT(m.markdown, HasSubstr("pass **ensure_ascii=False** to"));
  EXPECT_THAT(m.text, HasSubstr("    config = json.load(f)"));
  for (const char* boilerplate : {"Tweet", "12 comments", "Great post", "JavaScript"}) {
    EXPECT_THAT(m.text, Not(HasSubstr(boilerplate))) << boilerplate;
  }
}

TEST(MainContentTest, TablePageKeepsTheTable) {
  MainContent m = ExtractMainContent(Fixture("table.html"), "http://ports.test/list");
  ASSERT_TRUE(m.found) << m.reason;
  EXPECT_THAT(m.markdown, HasSubstr("| Port | Protocol | Service |\n| --- | --- | --- |\n"
                                    "| 22 | TCP | SSH remote login |\n"
                                    "| 53 | UDP \\| TCP | DNS name resolution |\n"
                                    "| 443 | TCP | HTTPS [web traffic](http://ports.test/https) |\n"));
  EXPECT_THAT(m.markdown, HasSubstr("Common services"));
  EXPECT_THAT(m.text, HasSubstr("22\tTCP\tSSH remote login"));
  EXPECT_THAT(m.text, Not(HasSubstr("Edit this page")));
  EXPECT_THAT(m.text, Not(HasSubstr("Protocols")));
}

TEST(MainContentTest, NoMainContentIsAReason) {
  MainContent m = ExtractMainContent(
      "<html><head><title>Empty</title></head><body><nav><a href=/>Home</a></nav>"
      "<p>Hi.</p></body></html>",
      "http://e.test/");
  EXPECT_FALSE(m.found);
  EXPECT_THAT(m.reason, HasSubstr("no main content"));
  EXPECT_EQ(m.title, "Empty");
  EXPECT_TRUE(m.text.empty());
  m = ExtractMainContent("", "http://e.test/");
  EXPECT_FALSE(m.found);
  m = ExtractMainContent("\xff\xfe<<<>>>\x00garbage", "http://e.test/");
  EXPECT_FALSE(m.found);
}

// An index page whose content is a short list of links (a documentation
// generator's section index): the first attempt cleans the list away as
// link-heavy and finds under 500 characters, so the relaxed attempts run
// (unlikely candidates kept, no class weights, no conditional cleaning) and
// the longest wins. The sidebar navigation stays out: <nav> is dropped in
// every attempt.
TEST(MainContentTest, ShortLinkListPageIsKeptByTheRelaxedAttempts) {
  MainContent m = ExtractMainContent(
      "<html><head><title>Early Userspace</title></head><body>"
      "<nav class=sidebar><a href=/a>Driver API</a> <a href=/b>Core API</a></nav>"
      "<div class=document><div class=body role=main><h1>Early Userspace</h1>"
      "<p>Topics for driver implementers:</p><div class=toctree-wrapper><ul>"
      "<li><a href=early_userspace_support.html>Early userspace support</a></li>"
      "<li><a href=buffer-format.html>initramfs buffer format</a></li>"
      "</ul></div></div></div></body></html>",
      "http://k.test/early-userspace/");
  ASSERT_TRUE(m.found) << m.reason;
  EXPECT_THAT(m.text, HasSubstr("Early userspace support"));
  EXPECT_THAT(m.text, HasSubstr("initramfs buffer format"));
  EXPECT_THAT(m.text, Not(HasSubstr("Driver API")));
  EXPECT_THAT(m.markdown,
              HasSubstr("- [initramfs buffer format](http://k.test/early-userspace/buffer-format.html)"));
}

TEST(MainContentTest, HugeAndDeepPagesAreBounded) {
  std::string huge = "<html><body><div class=content>";
  while (huge.size() < 3 * 1024 * 1024) {
    huge += "<p>Firewall rules decide, packet by packet, what passes the router.</p>";
  }
  MainContentOptions options;
  options.max_bytes = 1024 * 1024;
  MainContent m = ExtractMainContent(huge, "http://h.test/", options);
  EXPECT_TRUE(m.found) << m.reason;
  EXPECT_TRUE(m.truncated);
  EXPECT_THAT(m.reason, HasSubstr("input cut at 1048576 bytes"));
  EXPECT_LT(m.text.size(), options.max_bytes);
  std::string deep = "<html><body>";
  for (int i = 0; i < 100000; ++i) deep += "<div>";
  deep += "<p>Deep text about routing tables, firewalls and packet filters here.</p>";
  MainContent d = ExtractMainContent(deep, "http://d.test/");
  EXPECT_TRUE(d.found) << d.reason;
  EXPECT_THAT(d.text, HasSubstr("Deep text about routing"));
}

TEST(TokenF1Test, HandComputed) {
  EXPECT_DOUBLE_EQ(TokenF1("", ""), 1.0);
  EXPECT_DOUBLE_EQ(TokenF1("a b", ""), 0.0);
  EXPECT_DOUBLE_EQ(TokenF1("The cat, the HAT.", "the cat the hat"), 1.0);
  // candidate {a, b, c}, reference {a, b, d, e}: P = 2/3, R = 1/2, F1 = 4/7.
  EXPECT_DOUBLE_EQ(TokenF1("a b c", "a b d e"), 4.0 / 7.0);
  // CJK characters are tokens: 防火墙 vs 防火 -> P = 2/3, R = 1.
  EXPECT_DOUBLE_EQ(TokenF1("防火墙", "防火"), 0.8);
}

}  // namespace
}  // namespace topicrawl
