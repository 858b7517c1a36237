#include "crawl/announced_links.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace topicrawl {
namespace {

// Scores a link by how often "tcp" occurs in its anchor text; admits only
// links whose anchor is not "refuse"; records every page it was shown.
class WordJudge : public PageJudge {
 public:
  void Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) override {
    pages.push_back({task.url, page.base_url, page.text, page.links.size()});
    out->links.assign(page.links.size(), {});
    for (size_t i = 0; i < page.links.size(); ++i) {
      const std::string& a = page.links[i].anchor;
      anchors[page.links[i].url] = a;
      double n = 0;
      for (size_t p = a.find("tcp"); p != std::string::npos; p = a.find("tcp", p + 1)) ++n;
      out->links[i].score = n;
      out->links[i].admit = a != "refuse";
    }
  }
  struct Seen {
    std::string task_url, base_url, text;
    size_t links;
  };
  std::vector<Seen> pages;
  std::map<std::string, std::string> anchors;
};

TEST(UrlWordsTest, PathAndQueryWordsWithoutPageExtensions) {
  EXPECT_EQ(UrlWords("http://h.test/net/tcp-tuning.html?p=2"), "net tcp tuning p 2");
  EXPECT_EQ(UrlWords("http://h.test/a_b/c.d/index.php#frag"), "a b c d index");
  EXPECT_EQ(UrlWords("https://h.test:8080/%E7%BD%91%E7%BB%9C/tcp%20ip"), "网络 tcp ip");
  EXPECT_EQ(UrlWords("http://h.test/html/x.tar.gz"), "html x tar gz");  // not a page extension
  EXPECT_EQ(UrlWords("http://h.test/"), "");
  EXPECT_EQ(UrlWords("http://h.test"), "");
  EXPECT_EQ(UrlWords("http://h.test/%zz%4"), "zz 4");  // broken escapes stay as they are
}

TEST(AnnouncedPriorityTest, RawWithoutFloorAndAStrictlyRisingBandWithOne) {
  EXPECT_EQ(AnnouncedPriority(-1, 0.25), 0.25);
  EXPECT_EQ(AnnouncedPriority(-1, -3), -3);
  double last = 500;
  for (double s : {-1e9, -10.0, -0.5, 0.0, 0.01, 0.5, 1.0, 10.0, 1e9}) {
    const double p = AnnouncedPriority(500, s);
    EXPECT_GT(p, last) << s;
    EXPECT_LT(p, 501) << s;
    last = p;
  }
  const double nan = AnnouncedPriority(500, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(nan, AnnouncedPriority(500, 0));
  const double inf = AnnouncedPriority(500, std::numeric_limits<double>::infinity());
  EXPECT_GT(inf, 500.5);
  EXPECT_LE(inf, 501);
}

// One synthetic page per document (no text), its links anchored by the
// entry's title or else the URL's words; the verdicts come back in the
// order of the input.
TEST(ScoreAnnouncedLinksTest, LinksOfTheirDocumentsAnchoredByTitleOrUrlWords) {
  const std::vector<AnnouncedLink> links = {
      {"http://h.test/cooking/soup.html", "", "http://h.test/sitemap-a.xml"},
      {"http://h.test/feed-item-1", "TCP tcp congestion", "http://h.test/feed.atom"},
      {"http://h.test/net/tcp-slow-start.html", "", "http://h.test/sitemap-a.xml"},
      {"http://h.test/refused", "refuse", "http://h.test/feed.atom"},
  };
  WordJudge judge;
  std::vector<PageAssessment::Link> out = ScoreAnnouncedLinks(judge, links, true);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].score, 0);
  EXPECT_EQ(out[1].score, 1);  // "TCP" is not "tcp": the title is the judge's to read
  EXPECT_EQ(out[2].score, 1);
  EXPECT_FALSE(out[3].admit);
  EXPECT_TRUE(out[0].admit && out[1].admit && out[2].admit);
  ASSERT_EQ(judge.pages.size(), 2u);
  EXPECT_EQ(judge.pages[0].task_url, "http://h.test/sitemap-a.xml");
  EXPECT_EQ(judge.pages[0].base_url, "http://h.test/sitemap-a.xml");
  EXPECT_EQ(judge.pages[0].text, "");
  EXPECT_EQ(judge.pages[0].links, 2u);
  EXPECT_EQ(judge.pages[1].task_url, "http://h.test/feed.atom");
  EXPECT_EQ(judge.anchors["http://h.test/net/tcp-slow-start.html"], "net tcp slow start");
  EXPECT_EQ(judge.anchors["http://h.test/feed-item-1"], "TCP tcp congestion");
  EXPECT_TRUE(ScoreAnnouncedLinks(judge, {}, true).empty());
}

}  // namespace
}  // namespace topicrawl
