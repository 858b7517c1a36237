#include "crawl/progress_eta.h"

#include <gtest/gtest.h>

#include "crawl/crawler.h"

namespace topicrawl {
namespace {

// Hand-computed rates over a 10 s window fed at exact times.
TEST(PageRateTest, RateOverTheWindow) {
  PageRate r(10);
  EXPECT_FALSE(r.Rate().has_value());
  r.Add(0, 0);
  EXPECT_FALSE(r.Rate().has_value());
  r.Add(5, 50);
  EXPECT_DOUBLE_EQ(*r.Rate(), 10.0);  // (50 - 0) / 5
  r.Add(10, 100);
  EXPECT_DOUBLE_EQ(*r.Rate(), 10.0);
  // The crawl slows down: only the last 10 s count.
  r.Add(15, 110);
  EXPECT_DOUBLE_EQ(*r.Rate(), 6.0);  // (110 - 50) / (15 - 5)
  r.Add(20, 120);
  EXPECT_DOUBLE_EQ(*r.Rate(), 2.0);  // (120 - 100) / (20 - 10)
  r.Add(45, 120);
  EXPECT_DOUBLE_EQ(*r.Rate(), 0.0);  // (120 - 120) / (45 - 20): stalled
}

TEST(PageRateTest, NoTimeBetweenSamplesIsNoRate) {
  PageRate r(10);
  r.Add(3, 0);
  r.Add(3, 5);
  EXPECT_FALSE(r.Rate().has_value());
}

TEST(PageRateTest, EtaToTheBudget) {
  EXPECT_DOUBLE_EQ(*EtaSeconds(400, 1000, 20.0), 30.0);
  EXPECT_DOUBLE_EQ(*EtaSeconds(1000, 1000, 20.0), 0.0);
  EXPECT_DOUBLE_EQ(*EtaSeconds(1200, 1000, std::nullopt), 0.0);
  EXPECT_FALSE(EtaSeconds(400, 0, 20.0).has_value());  // no budget
  EXPECT_FALSE(EtaSeconds(400, 1000, std::nullopt).has_value());
  EXPECT_FALSE(EtaSeconds(400, 1000, 0.0).has_value());
  PageRate r(30);
  r.Add(0, 0);
  r.Add(2, 10);
  EXPECT_DOUBLE_EQ(*EtaSeconds(10, 100, r.Rate()), 18.0);  // 90 pages at 5 pages/s
}

TEST(PageRateTest, FormatDuration) {
  EXPECT_EQ(FormatDuration(0), "0s");
  EXPECT_EQ(FormatDuration(44.6), "45s");
  EXPECT_EQ(FormatDuration(725), "12m05s");
  EXPECT_EQ(FormatDuration(3 * 3600 + 7 * 60 + 20), "3h07m");
  EXPECT_EQ(FormatDuration(2 * 86400 + 4 * 3600 + 59), "2d04h");
  EXPECT_EQ(FormatDuration(-3), "0s");
}

TEST(ContentTypesTest, CountsByMediaType) {
  EXPECT_EQ(ContentTypeKey("Text/HTML; charset=UTF-8"), "text/html");
  EXPECT_EQ(ContentTypeKey(" application/pdf "), "application/pdf");
  EXPECT_EQ(ContentTypeKey(""), "unknown");
  EXPECT_EQ(ContentTypeKey(";charset=x"), "unknown");
  ContentTypeCounts c;
  for (const char* t : {"text/html", "text/html; charset=utf-8", "application/pdf",
                        "application/xhtml+xml", "TEXT/HTML", "application/pdf", "text/plain",
                        "image/png"}) {
    ++c[ContentTypeKey(t)];
  }
  EXPECT_EQ(c["text/html"], 3);
  // Ties by media type: application/xhtml+xml, image/png, text/plain.
  EXPECT_EQ(FormatContentTypes(c), "html 3, pdf 2, xhtml+xml 1, png 1");
  EXPECT_EQ(FormatContentTypes(c, 2), "html 3, pdf 2");
  EXPECT_EQ(FormatContentTypes({}), "");
}

TEST(ProgressLineTest, EtaAndContentTypeParts) {
  CrawlStats st;
  EXPECT_EQ(EtaText(st), "");  // no budget
  st.max_pages = 10000;
  EXPECT_EQ(EtaText(st), "");  // no rate yet
  st.eta_s = 725;
  EXPECT_EQ(EtaText(st), " | ETA 12m05s to 10000");
  EXPECT_EQ(ContentTypesText(st), "");
  st.content_types = {{"text/html", 950}, {"application/pdf", 3}};
  EXPECT_EQ(ContentTypesText(st), " | html 950, pdf 3");
}

}  // namespace
}  // namespace topicrawl
