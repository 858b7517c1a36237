#include "sitemap/feed_links.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TEST(FeedLinksTest, RssAutodiscoveryExample) {
  // https://www.rssboard.org/rss-autodiscovery, "Example".
  std::string html =
      "<html><head><title>Workbench</title>\n"
      "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"RSS\" "
      "href=\"http://www.rssboard.org/files/sample-rss-2.xml\">\n"
      "</head><body></body></html>";
  EXPECT_EQ(FindFeedLinks(html, "http://www.rssboard.org/"),
            std::vector<std::string>{"http://www.rssboard.org/files/sample-rss-2.xml"});
}

TEST(FeedLinksTest, AtomRelativeUnquotedAndOtherRelsIgnored) {
  std::string html =
      "<!-- <link rel=alternate type=application/atom+xml href=/commented.atom> -->"
      "<LINK REL='Alternate home' TYPE='application/atom+xml; charset=utf-8' HREF=feed.atom />"
      "<link rel=stylesheet type=text/css href=a.css>"
      "<link rel=alternate type=text/html href=/fr/>"
      "<link rel=alternate type=application/rss+xml href=feed.atom>"
      "<body><link rel=alternate type=application/rss+xml href=/late.xml>";
  // rel values are case-insensitive tokens; the second feed link is a
  // duplicate; nothing after <body> counts.
  EXPECT_EQ(FindFeedLinks(html, "http://h.test/news/index.html"),
            std::vector<std::string>{"http://h.test/news/feed.atom"});
}

TEST(FeedLinksTest, BrokenMarkupIsHarmless) {
  EXPECT_TRUE(FindFeedLinks("<link rel=\"alternate type=", "http://h.test/").empty());
  EXPECT_TRUE(FindFeedLinks("<link", "http://h.test/").empty());
  EXPECT_TRUE(FindFeedLinks("<!-- unterminated", "http://h.test/").empty());
  EXPECT_TRUE(FindFeedLinks("<link rel=alternate type=application/rss+xml href=javascript:x>",
                            "http://h.test/").empty());
}

}  // namespace
}  // namespace topicrawl
