// Each encoder of seed 003 §3.3 (2) against the seed's table.
#include "strategies/hub/hub_features.h"

#include <gtest/gtest.h>

namespace topicrawl::hub {
namespace {

TEST(HubFeaturesTest, SplitUrl) {
  UrlParts p = SplitUrl("http://a.cn/news/list.php?id=3&x=1#top");
  EXPECT_EQ(p.path, "/news/list.php");
  EXPECT_EQ(p.query, "id=3&x=1");
  EXPECT_EQ(p.file, "list.php");
  p = SplitUrl("http://a.cn");
  EXPECT_EQ(p.path, "/");
  EXPECT_EQ(p.file, "");
  p = SplitUrl("http://a.cn?x=1");
  EXPECT_EQ(p.path, "/");
  EXPECT_EQ(p.query, "x=1");
}

// ① anchor-text length
TEST(HubFeaturesTest, AnchorTextLengthCountsCodePoints) {
  EXPECT_EQ(AnchorTextLength(""), 0);
  EXPECT_EQ(AnchorTextLength("more"), 4);
  EXPECT_EQ(AnchorTextLength("  新闻 目录\n"), 5);  // 新闻 + one space + 目录
  EXPECT_EQ(AnchorTextLength("a \t\n b"), 3);
}

// ② URL length
TEST(HubFeaturesTest, UrlLength) {
  EXPECT_EQ(UrlLength("http://a.cn/"), 12);
  EXPECT_EQ(UrlLength("http://a.cn/%E6%96%B0.html"), 26);
}

// ③ contains a date
TEST(HubFeaturesTest, ContainsDate) {
  EXPECT_EQ(ContainsDate("http://a.cn/2021/10/11/x.html"), 1);
  EXPECT_EQ(ContainsDate("http://a.cn/news/2021-10-11.html"), 1);
  EXPECT_EQ(ContainsDate("http://a.cn/news/t20211011_123.html"), 1);
  EXPECT_EQ(ContainsDate("http://a.cn/news/202110/x.html"), 1);
  EXPECT_EQ(ContainsDate("http://a.cn/show.php?date=2019_03"), 1);
  EXPECT_EQ(ContainsDate("http://2021.cn/"), 0);  // host is not read
  EXPECT_EQ(ContainsDate("http://a.cn/docs/2.4/en/index.html"), 0);
  EXPECT_EQ(ContainsDate("http://a.cn/id/1234567890.html"), 0);  // long number
  EXPECT_EQ(ContainsDate("http://a.cn/2021/13/x.html"), 0);      // no month 13
  EXPECT_EQ(ContainsDate("http://a.cn/x20211341.html"), 0);      // bad month
  EXPECT_EQ(ContainsDate("http://a.cn/rfc2616.html"), 0);
}

// ④ file-name class: empty 60.4 / index-like 30.6 / article-like 0 / other 9
TEST(HubFeaturesTest, FileNameClassMatchesSeedTable) {
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/"), 60.4);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/news/"), 60.4);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn"), 60.4);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/index.html"), 30.6);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/news/Class_3.asp"), 30.6);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/default.aspx"), 30.6);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/newslist.php?p=2"), 30.6);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/article.php?id=3"), 0);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/content_1234.htm"), 0);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/article_list.html"), 30.6);  // index-like first
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/socket.html"), 9);
  EXPECT_DOUBLE_EQ(FileNameClass("http://a.cn/README"), 9);
}

// ⑤ file type: empty 60.4 / asp,jsp,aspx,php 24.6 / shtml,html,htm 15 / other 0
TEST(HubFeaturesTest, FileTypeMatchesSeedTable) {
  EXPECT_DOUBLE_EQ(FileType("http://a.cn/"), 60.4);
  EXPECT_DOUBLE_EQ(FileType("http://a.cn/news/list"), 60.4);
  for (const char* u : {"http://a.cn/x.asp", "http://a.cn/x.JSP", "http://a.cn/x.aspx",
                        "http://a.cn/x.php?id=1"}) {
    EXPECT_DOUBLE_EQ(FileType(u), 24.6) << u;
  }
  for (const char* u : {"http://a.cn/x.shtml", "http://a.cn/x.html", "http://a.cn/x.HTM"}) {
    EXPECT_DOUBLE_EQ(FileType(u), 15) << u;
  }
  EXPECT_DOUBLE_EQ(FileType("http://a.cn/x.pdf"), 0);
  EXPECT_DOUBLE_EQ(FileType("http://a.cn/x.tar.gz"), 0);
}

// ⑥ parameter name: none 82.4 / id 10.4 / other 7.2
TEST(HubFeaturesTest, ParameterNameMatchesSeedTable) {
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/list.php"), 82.4);
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/list.php?"), 82.4);
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/show.php?id=3"), 10.4);
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/show.php?page=2&ArticleID=3"), 10.4);
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/show.php?news_id=3"), 10.4);
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/list.php?page=2"), 7.2);
  EXPECT_DOUBLE_EQ(ParameterName("http://a.cn/list.php?sid=0123abcd"), 7.2);  // session, not id
}

// ⑦ parameter count
TEST(HubFeaturesTest, ParameterCount) {
  EXPECT_EQ(ParameterCount("http://a.cn/"), 0);
  EXPECT_EQ(ParameterCount("http://a.cn/x?a=1"), 1);
  EXPECT_EQ(ParameterCount("http://a.cn/x?a=1&b=2;c&&"), 3);
  EXPECT_EQ(ParameterCount("http://a.cn/x?a=1#b=2&c=3"), 1);
}

// ⑧ directory depth
TEST(HubFeaturesTest, DirectoryDepth) {
  EXPECT_EQ(DirectoryDepth("http://a.cn"), 0);
  EXPECT_EQ(DirectoryDepth("http://a.cn/"), 0);
  EXPECT_EQ(DirectoryDepth("http://a.cn/index.html"), 0);
  EXPECT_EQ(DirectoryDepth("http://a.cn/a/"), 1);
  EXPECT_EQ(DirectoryDepth("http://a.cn/a/b.html"), 1);
  EXPECT_EQ(DirectoryDepth("http://a.cn/a/b/c"), 2);
  EXPECT_EQ(DirectoryDepth("http://a.cn/a//b/c.html?x=/y/z"), 2);
}

// ⑨ page size, ⑩ crawl depth
TEST(HubFeaturesTest, PageSizeAndCrawlDepth) {
  EXPECT_DOUBLE_EQ(PageSizeKib(2048), 2);
  EXPECT_DOUBLE_EQ(PageSizeKib(-1), 0);
  EXPECT_EQ(CrawlDepth(3), 3);
  EXPECT_EQ(CrawlDepth(-1), 0);
}

TEST(HubFeaturesTest, VectorsInNameOrder) {
  UrlObservation o{"http://a.cn/news/index.php?id=7", "新闻", 2, 10240};
  auto full = HubFeatures(o, HubFeatureSet::kFull);
  ASSERT_EQ(full.size(), HubFeatureNames(HubFeatureSet::kFull).size());
  EXPECT_EQ(full, (std::vector<double>{2, 31, 0, 30.6, 24.6, 10.4, 1, 1, 10, 2}));
  auto before = HubFeatures(o, HubFeatureSet::kBeforeDownload);
  EXPECT_EQ(before, (std::vector<double>{2, 31, 0, 30.6, 24.6, 10.4, 1, 1, 2}));
  EXPECT_EQ(HubFeatureNames(HubFeatureSet::kBeforeDownload).size(), 9u);
  HubFeatureSet s;
  EXPECT_TRUE(ParseHubFeatureSet("url", &s));
  EXPECT_EQ(s, HubFeatureSet::kBeforeDownload);
  EXPECT_FALSE(ParseHubFeatureSet("bogus", &s));
}

}  // namespace
}  // namespace topicrawl::hub
