#include "parse/html_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace topicrawl {
namespace {

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  for (const WordSpan& w : SplitWords(s)) out.push_back(s.substr(w.begin, w.end - w.begin));
  return out;
}

TEST(FoldedTextTest, FoldsWhitespaceAcrossAppends) {
  FoldedText f;
  f.Append("  one\t\ttwo ");
  f.Append("\n three");
  f.Append("four");
  f.Break();
  f.Append("five\xC2\xA0six\xE3\x80\x80seven  ");
  EXPECT_EQ(f.str(), "one two threefour five six seven");
}

TEST(FoldedTextTest, TrimAndUtf8Prefix) {
  EXPECT_EQ(TrimSpaces("  a b  "), "a b");
  EXPECT_EQ(Utf8Prefix("暴雨", 4), "暴");  // never cuts inside a character
  EXPECT_EQ(Utf8Prefix("abc", 10), "abc");
}

TEST(SplitWordsTest, CjkCharactersAreWords) {
  std::vector<std::string> want = {"TCP", "协", "议", "and", "UDP,", "网", "络", "。"};
  EXPECT_EQ(Words("TCP协议 and UDP,网络。"), want);
  EXPECT_TRUE(Words("").empty());
  EXPECT_EQ(Words("𠮷野").size(), 2u);  // supplementary-plane ideograph
}

TEST(HasTokenTest, CaseInsensitiveSpaceSeparated) {  // HTML §2.3.8
  EXPECT_TRUE(HasToken("external NoFollow", "nofollow"));
  EXPECT_TRUE(HasToken("\tcanonical\n", "canonical"));
  EXPECT_FALSE(HasToken("nofollowing", "nofollow"));
  EXPECT_FALSE(HasToken("", "nofollow"));
}

// HTML §4.2.5.3 shared declarative refresh steps.
TEST(MetaRefreshUrlTest, ParsesDeclarativeRefresh) {
  EXPECT_EQ(MetaRefreshUrl("0;URL=../../std/index.html"), "../../std/index.html");
  EXPECT_EQ(MetaRefreshUrl("0; url = 'a b.html' trailing"), "a b.html");
  EXPECT_EQ(MetaRefreshUrl("5, http://example.com/"), "http://example.com/");
  EXPECT_EQ(MetaRefreshUrl("3.5 ; URL=\"x.html\""), "x.html");
  EXPECT_EQ(MetaRefreshUrl("0"), std::nullopt);       // reload this page
  EXPECT_EQ(MetaRefreshUrl("0; "), std::nullopt);
  EXPECT_EQ(MetaRefreshUrl("soon; url=x"), std::nullopt);
  EXPECT_EQ(MetaRefreshUrl("0x; url=x"), std::nullopt);
}

}  // namespace
}  // namespace topicrawl
