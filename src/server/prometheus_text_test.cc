#include "server/prometheus_text.h"

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

TEST(PrometheusTextTest, WriterOutputParses) {
  PrometheusWriter w;
  w.Family("x_pages_total", "counter", "Pages.\nSecond line \\ backslash");
  w.Sample(12);
  w.Family("x_ratio", "gauge", "A ratio.");
  w.Sample(0.25, {{"crawl", "a\"b\\c\nd"}});
  w.Sample(0.5, {{"crawl", "other"}});
  auto f = ParsePrometheusText(w.text());
  ASSERT_TRUE(f.ok()) << f.status().message() << "\n" << w.text();
  EXPECT_EQ(f->at("x_pages_total").type, "counter");
  EXPECT_EQ(f->at("x_pages_total").samples.at(0).value, 12);
  ASSERT_EQ(f->at("x_ratio").samples.size(), 2u);
  EXPECT_EQ(f->at("x_ratio").samples[0].labels.at("crawl"), "a\"b\\c\nd");
  EXPECT_NE(w.text().find("x_pages_total 12\n"), std::string::npos);
}

TEST(PrometheusTextTest, StrictParserRejectsWriterBugs) {
  const char* bad[] = {
      "x 1\n",                                                   // no TYPE
      "# TYPE x_count counter\nx_count 1\n",                     // counter without _total
      "# TYPE x gauge\nx 1\nx 2\n",                              // duplicate series
      "# TYPE x gauge\nx one\n",                                 // bad value
      "# TYPE x gauge\nx{a=\"b\\q\"} 1\n",                       // bad escape
      "# TYPE x gauge\nx{a=b} 1\n",                              // unquoted label
      "# TYPE x gauge\nx 1",                                     // no final newline
      "# TYPE x gauge\n# TYPE x gauge\nx 1\n",                   // second TYPE
      "# TYPE x_total counter\nx_total -1\n",                    // negative counter
      "# TYPE 1x gauge\n1x 1\n",                                 // bad name
      "# TYPE x gauge\ny 1\n",                                   // sample of another family
      "# HELP x help\n",                                         // HELP without TYPE
      "# TYPE x gauge\nx{__a=\"1\"} 1\n",                        // reserved label name
  };
  for (const char* text : bad) {
    EXPECT_FALSE(ParsePrometheusText(text).ok()) << text;
  }
}

TEST(PrometheusTextTest, AcceptsCommentsTimestampsAndSpecialValues) {
  auto f = ParsePrometheusText(
      "# a comment\n# HELP x_total Things.\n# TYPE x_total counter\nx_total 3 1700000000000\n"
      "# TYPE y gauge\ny{a=\"1\"} NaN\ny{a=\"2\"} +Inf\n");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->at("x_total").help, "Things.");
  EXPECT_EQ(f->at("y").samples.size(), 2u);
}

}  // namespace
}  // namespace topicrawl
