#include "strategies/jlse/result_page_features.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "parse/html_parser.h"

namespace topicrawl {
namespace {

std::string Words(const std::string& w, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += w + std::to_string(i) + " ";
  return s;
}

TEST(ResultPageFeaturesTest, CountWordUnits) {
  EXPECT_EQ(CountWordUnits("Hello, world! tcp/ip 802.11"), 6);
  EXPECT_EQ(CountWordUnits("网络协议 is 4+1"), 7);
  EXPECT_EQ(CountWordUnits(""), 0);
  EXPECT_EQ(CountWordUnits("\xff\xfe abc"), 1);  // invalid bytes are not words
}

// A detail page: three 40-word paragraphs and two navigation links.
//   TotalWords 123, plainTexts 120, links 2, blocks >= 20 words: 3 (120 words)
//   TextDegree  = log2(120 / 100)            =  0.263034
//   LinkDegree  = log2(2 / 123)              = -5.942515
//   Aggregation = (120 / 123) * log2(1 + 3)  =  1.951220
TEST(ResultPageFeaturesTest, DetailPageFixture) {
  std::string html = "<html><body><ul><li><a href='/'>home</a></li>"
                     "<li><a href='/n.html'>next page</a></li></ul>";
  for (int p = 0; p < 3; ++p) html += "<p>" + Words("w", 40) + "</p>";
  html += "</body></html>";
  ParsedPage page = ParseHtml(html, "http://a.example/doc/x.html");
  ResultPageFeatures f = ComputeResultPageFeatures(page);
  EXPECT_EQ(f.total_words, 123);
  EXPECT_EQ(f.plain_words, 120);
  EXPECT_EQ(f.links, 2);
  EXPECT_EQ(f.big_blocks, 3);
  EXPECT_NEAR(f.text_degree, 0.263034, 1e-6);
  EXPECT_NEAR(f.link_degree, -5.942515, 1e-6);
  EXPECT_NEAR(f.aggregation, 1.951220, 1e-6);
  EXPECT_TRUE(IsDetailPageByRule(f));
}

// A link page: 60 links of two words each, one short heading.
//   TotalWords 122, plainTexts 2, links 60, no block >= 20 words
//   TextDegree  = log2(2 / 100)   = -5.643856
//   LinkDegree  = log2(60 / 122)  = -1.023847
//   Aggregation = 0
TEST(ResultPageFeaturesTest, LinkPageFixture) {
  std::string html = "<html><body><h1>All modules</h1><ul>";
  for (int i = 0; i < 60; ++i) {
    html += "<li><a href='/m" + std::to_string(i) + ".html'>module m" + std::to_string(i) +
            "</a></li>";
  }
  html += "</ul></body></html>";
  ParsedPage page = ParseHtml(html, "http://a.example/doc/modules.html");
  ResultPageFeatures f = ComputeResultPageFeatures(page);
  EXPECT_EQ(f.total_words, 122);
  EXPECT_EQ(f.plain_words, 2);
  EXPECT_EQ(f.links, 60);
  EXPECT_EQ(f.big_blocks, 0);
  EXPECT_NEAR(f.text_degree, -5.643856, 1e-6);
  EXPECT_NEAR(f.link_degree, -1.023847, 1e-6);
  EXPECT_EQ(f.aggregation, 0.0);
  EXPECT_FALSE(IsDetailPageByRule(f));
}

TEST(ResultPageFeaturesTest, EmptyPageIsFinite) {
  ParsedPage page;
  ResultPageFeatures f = ComputeResultPageFeatures(page);
  EXPECT_TRUE(std::isfinite(f.text_degree));
  EXPECT_TRUE(std::isfinite(f.link_degree));
  EXPECT_EQ(f.aggregation, 0.0);
}

TEST(ResultPageFeaturesTest, UrlLabellingRule) {
  EXPECT_TRUE(IsDetailPageUrl("http://docs.python.org/3/library/socket.html"));
  EXPECT_FALSE(IsDetailPageUrl("http://docs.python.org/3/library/index.html"));
  EXPECT_FALSE(IsDetailPageUrl("http://docs.python.org/3/genindex-S.html"));
  EXPECT_FALSE(IsDetailPageUrl("http://docs.python.org/3/py-modindex.html"));
  EXPECT_FALSE(IsDetailPageUrl("http://www.postgresql.org/docs/current/"));
  EXPECT_FALSE(IsDetailPageUrl("http://x.org/api/class-index.html?x=1"));
  EXPECT_TRUE(IsDetailPageUrl("http://x.org/api/indexing.html#top"));
  EXPECT_FALSE(IsDetailPageUrl("http://x.org"));
}

}  // namespace
}  // namespace topicrawl
