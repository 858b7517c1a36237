#include "strategies/naive_bayes/link_features.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "parse/html_parser.h"

namespace topicrawl {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The real pages under src/classify/testdata/ (the Debian handbook page is
// shared with bench/testdata/text/).
std::string ReadFixture(const std::string& name) {
  return ReadFile(std::string(TOPICRAWL_SOURCE_DIR) + "/src/classify/testdata/" + name);
}

const Outlink* FindLink(const ParsedPage& page, std::string_view url_suffix) {
  for (const auto& l : page.links) {
    if (l.url.size() >= url_suffix.size() &&
        l.url.compare(l.url.size() - url_suffix.size(), url_suffix.size(), url_suffix) == 0) {
      return &l;
    }
  }
  return nullptr;
}

bool Contains(const std::vector<std::string>& v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

class LinkFeaturesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto x = LinkFeatureExtractor::Create({"协议", "网络", "socket", "ethernet", "network stack", "ip"});
    ASSERT_TRUE(x.ok()) << x.status().message();
    extractor_ = std::move(x).value().release();
  }
  static void TearDownTestSuite() { delete extractor_; }
  static LinkFeatureExtractor* extractor_;
};
LinkFeatureExtractor* LinkFeaturesTest::extractor_ = nullptr;

TEST_F(LinkFeaturesTest, GroupOneIsAnchorWordsOnly) {
  LinkTokens t;
  t.anchor = {"tcp", "socket"};
  t.context = {"network"};
  t.anchor_has_dict = true;
  EXPECT_EQ(LinkFeatures(t, 1), (std::vector<std::string>{"a:tcp", "a:socket"}));
}

TEST_F(LinkFeaturesTest, GroupTwoAddsContextWordsAndBothDictionaryAnswers) {
  LinkTokens t;
  t.anchor = {"tcp"};
  t.context = {"tcp", "stack"};
  t.anchor_has_dict = true;
  t.context_has_dict = false;
  EXPECT_EQ(LinkFeatures(t, 2), (std::vector<std::string>{"a:tcp", "c:tcp", "c:stack",
                                                          "dict_a=1", "dict_c=0"}));
  EXPECT_EQ(LinkAsPageWords(t), (std::vector<std::string>{"tcp", "tcp", "stack"}));
}

TEST_F(LinkFeaturesTest, DictionaryTermsFoundInLatinChineseAndMultiWordText) {
  LinkTokens t = extractor_->Tokenize("Socket Programming", "网络协议的实现");
  EXPECT_TRUE(Contains(t.anchor, "socket"));
  EXPECT_TRUE(t.anchor_has_dict);
  EXPECT_TRUE(t.context_has_dict);  // 协议 inside the segment 网络协议
  EXPECT_FALSE(extractor_->Tokenize("zip files", "").anchor_has_dict);
  // A dictionary term the tokeniser splits is matched in the folded text.
  t = extractor_->Tokenize("The Network  Stack", "template metaprogramming");
  EXPECT_TRUE(t.anchor_has_dict);
  EXPECT_FALSE(t.context_has_dict);
  // Traditional script is normalised like the dictionary: 網絡 -> 网络.
  EXPECT_TRUE(extractor_->Tokenize("網絡設定", "").anchor_has_dict);
}

// The seed-001 context heuristic on a real page (Linux 6.1 docs, a Sphinx
// toctree): links are dense, so a link's context is the anchors of its
// nearest neighbours.
TEST_F(LinkFeaturesTest, ContextOfListedLinkIsNeighbourAnchorsOnKernelPage) {
  ParsedPage p = ParseHtml(
      ReadFixture("kernel_networking_device_drivers.html"),
      "https://www.kernel.org/doc/html/latest/networking/device_drivers/index.html");
  const Outlink* l = FindLink(p, "/latest/locking/index.html");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->anchor, "locking");
  EXPECT_EQ(l->context, "Core API Documentation Accounting");
  LinkTokens t = extractor_->Tokenize(l->anchor, l->context);
  EXPECT_EQ(LinkFeatures(t, 1), (std::vector<std::string>{"a:locking"}));
  std::vector<std::string> g2 = LinkFeatures(t, 2);
  EXPECT_TRUE(Contains(g2, "c:accounting"));
  EXPECT_TRUE(Contains(g2, "c:api"));
  EXPECT_TRUE(Contains(g2, "dict_a=0"));
  EXPECT_TRUE(Contains(g2, "dict_c=0"));
}

// ...and on a Chinese page (Debian handbook zh-CN): a cross-reference inside
// prose has no other link in its window, so its context is the nearby text.
TEST_F(LinkFeaturesTest, ContextOfLinkInProseIsNearbyTextOnChinesePage) {
  ParsedPage p = ParseHtml(
      ReadFile(std::string(TOPICRAWL_SOURCE_DIR) +
                   "/bench/testdata/text/handbook-zh-cn-network-config.html"),
      "http://debian-handbook.info/browse/zh-CN/stable/sect.network-config.html");
  const Outlink* l = FindLink(p, "/stable/sect.ipv6.html");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->anchor, "第 10.6 节 “IPV6”");
  EXPECT_EQ(l->context, "的协议。有关IPV6协议在 中讨论，其概念是相同");
  LinkTokens t = extractor_->Tokenize(l->anchor, l->context);
  EXPECT_TRUE(Contains(t.anchor, "ipv6"));
  EXPECT_TRUE(Contains(t.context, "协议"));
  EXPECT_FALSE(t.anchor_has_dict);
  EXPECT_TRUE(t.context_has_dict);
  // Navigation links sit next to each other: context = neighbour anchors.
  const Outlink* up = FindLink(p, "/stable/sect.network-config.html");
  ASSERT_NE(up, nullptr);
}

}  // namespace
}  // namespace topicrawl
