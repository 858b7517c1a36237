#include "parse/depth_limiter.h"

#include <gtest/gtest.h>

#include <string>

namespace topicrawl {
namespace {

std::string Nested(const std::string& tag, int n, const std::string& inner) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "<" + tag + ">";
  s += inner;
  for (int i = 0; i < n; ++i) s += "</" + tag + ">";
  return s;
}

TEST(DepthLimiterTest, ShallowDocumentIsUntouched) {
  std::string out = "sentinel";
  DepthLimitResult r = LimitNestingDepth(Nested("div", 100, "x"), 512, &out);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.max_depth_seen, 100);
  EXPECT_EQ(out, "sentinel");
}

TEST(DepthLimiterTest, ExcessNestingIsFlattenedKeepingText) {
  std::string out;
  DepthLimitResult r = LimitNestingDepth(Nested("div", 1000, "deep"), 10, &out);
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.dropped_tags, 2u * 990);
  EXPECT_NE(out.find("deep"), std::string::npos);
  // What is left nests exactly 10 deep.
  DepthLimitResult again = LimitNestingDepth(out, 10, &out);
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.max_depth_seen, 10);
}

TEST(DepthLimiterTest, ImpliedEndTagsDoNotAccumulate) {
  std::string html;
  for (int i = 0; i < 2000; ++i) html += "<p>para<li>item<option>o<tr><td>cell";
  for (int i = 0; i < 2000; ++i) html += "<a href=x>unclosed anchor ";
  std::string out;
  DepthLimitResult r = LimitNestingDepth(html, 64, &out);
  EXPECT_FALSE(r.changed);
  EXPECT_LT(r.max_depth_seen, 10);
}

TEST(DepthLimiterTest, QuotedGreaterThanAndRawTextAreNotTags) {
  std::string html = "<div title='a>b<div>'>" + std::string("<script>") +
                     Nested("div", 50, "") + "</script><textarea><div><div><div></textarea>" +
                     "<!-- <div><div> --></div>";
  std::string out;
  DepthLimitResult r = LimitNestingDepth(html, 2, &out);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.max_depth_seen, 1);
}

TEST(DepthLimiterTest, UnterminatedInputIsSafe) {
  std::string out;
  for (const char* s : {"<", "<div", "<div title='x", "<!--", "<script>", "</", "<a href=\""}) {
    DepthLimitResult r = LimitNestingDepth(s, 4, &out);
    EXPECT_FALSE(r.changed) << s;
  }
}

}  // namespace
}  // namespace topicrawl
