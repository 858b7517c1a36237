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

// The run-copying fast path against a byte-by-byte reference, on random
// mixes of words, single and repeated spaces, tabs, NBSP, U+3000, other
// C2/E3 characters and appends split anywhere.
TEST(FoldedTextTest, MatchesByteByByteReference) {
  const std::vector<std::string> parts = {"a", "bc", " ", "  ", "\t", "\n", "\xC2\xA0",
                                          "\xE3\x80\x80", "\xC2\xA9", "\xE3\x81\x82",
                                          "\xE6\x9A\xB4", "x y", " z "};
  auto reference = [](const std::vector<std::string>& appends) {
    std::string out;
    bool pending = false;
    for (const std::string& t : appends) {
      for (size_t i = 0; i < t.size();) {
        size_t sp = 0;
        unsigned char c = static_cast<unsigned char>(t[i]);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r') sp = 1;
        else if (t.compare(i, 2, "\xC2\xA0") == 0) sp = 2;
        else if (t.compare(i, 3, "\xE3\x80\x80") == 0) sp = 3;
        if (sp > 0) {
          pending = true;
          i += sp;
          continue;
        }
        if (pending && !out.empty()) out.push_back(' ');
        pending = false;
        out.push_back(t[i++]);
      }
    }
    return out;
  };
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7FFF; };
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> appends(1 + next() % 3);
    for (std::string& a : appends) {
      int k = static_cast<int>(next() % 12);
      for (int i = 0; i < k; ++i) a += parts[next() % parts.size()];
    }
    FoldedText f;
    for (const std::string& a : appends) f.Append(a);
    ASSERT_EQ(f.str(), reference(appends)) << "round " << round;
  }
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
