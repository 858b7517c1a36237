#include "text/tokenizer.h"

#include <algorithm>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topicrawl {
namespace {

using ::testing::ElementsAre;
using ::testing::Contains;
using ::testing::Not;

std::unique_ptr<Tokenizer> MakeTokenizer(TokenizerOptions options = {}) {
  auto t = Tokenizer::Create(options);
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(TokenizerTest, UsesJiebaWhenDictionaryPresent) {
  auto t = MakeTokenizer();
  EXPECT_EQ(t->segmenter_name(), "jieba");
}

TEST(TokenizerTest, FoldsCaseAndFullWidthWithNfkc) {
  auto t = MakeTokenizer();
  // Full-width Latin letters (U+FF34 ...) fold to ASCII; upper case folds.
  EXPECT_THAT(t->Tokenize("ＴＣＰ Socket HTTP/2 Straße"),
              ElementsAre("tcp", "socket", "http", "strasse"));
  // The ligature "ﬁ" (U+FB01) decomposes under NFKC.
  EXPECT_THAT(t->Tokenize("ﬁrewall"), ElementsAre("firewall"));
}

TEST(TokenizerTest, DropsEnglishStopWordsAndNumbers) {
  auto t = MakeTokenizer();
  EXPECT_THAT(t->Tokenize("The protocol is used in 2024 by 3.5 million of the servers."),
              ElementsAre("protocol", "used", "million", "servers"));
}

TEST(TokenizerTest, KeepsNumbersWhenAsked) {
  TokenizerOptions options;
  options.keep_numbers = true;
  auto t = MakeTokenizer(options);
  EXPECT_THAT(t->Tokenize("port 8080"), ElementsAre("port", "8080"));
}

TEST(TokenizerTest, SplitsAtConnectorsUnlessDictionaryWord) {
  TokenizerOptions options;
  options.user_words = {{"802.11", 0}, {"C++", 0}};
  auto t = MakeTokenizer(options);
  EXPECT_THAT(t->Tokenize("TCP/IP over 802.11 and e-mail in C++."),
              ElementsAre("tcp", "ip", "802.11", "mail", "c++"));
  // Without the dictionary the version-like number is dropped.
  auto plain = MakeTokenizer();
  // ... and "c++" splits into the single letter c, a stop word.
  EXPECT_THAT(plain->Tokenize("over 802.11 in C++"), ::testing::IsEmpty());
}

TEST(TokenizerTest, SegmentsChineseAndDropsChineseStopWords) {
  auto t = MakeTokenizer();
  EXPECT_THAT(t->Tokenize("我们的网络协议是安全的。"),
              ElementsAre("网络协议", "安全"));
}

TEST(TokenizerTest, KeepsLatinTokensInChineseText) {
  auto t = MakeTokenizer();
  EXPECT_THAT(t->Tokenize("TCP协议和UDP协议"),
              ElementsAre("tcp", "协议", "udp", "协议"));
}

TEST(TokenizerTest, ConvertsTraditionalPhrasesTw2sp) {
  auto t = MakeTokenizer();
  // OpenCC tw2sp converts Taiwan phrases to mainland ones, not only characters.
  EXPECT_THAT(t->Tokenize("軟體"), ElementsAre("软件"));
  EXPECT_THAT(t->Tokenize("網際網路"), ElementsAre("互联网"));
  EXPECT_EQ(t->NormalizeTerm("網路安全"), "网络安全");
}

TEST(TokenizerTest, ConvertsOnlyTextWithTraditionalCharacters) {
  auto t = MakeTokenizer();
  // 設 is Traditional, so the whole text is converted, including the Taiwan
  // phrase 程式設計 -> 编程 (程式 alone is made of characters shared by both
  // scripts).
  EXPECT_THAT(t->Tokenize("程式設計"), ElementsAre("编程"));
  // Simplified text is left as written (tw2sp alone would give 擡头, 程序).
  EXPECT_THAT(t->Tokenize("程式"), ElementsAre("程式"));
  EXPECT_THAT(t->Tokenize("抬头"), ElementsAre("抬头"));
}

TEST(TokenizerTest, UserDictionaryKeepsTopicTermsWhole) {
  TokenizerOptions options;
  options.user_words = {{"风暴潮", 0}, {"台风灾害", 0}};
  auto t = MakeTokenizer(options);
  EXPECT_THAT(t->Tokenize("台风灾害引发风暴潮"),
              ElementsAre("台风灾害", "引发", "风暴潮"));
  // Without the user word the dictionary route splits it.
  auto plain = MakeTokenizer();
  EXPECT_THAT(plain->Tokenize("台风灾害"), ElementsAre("台风", "灾害"));
}

TEST(TokenizerTest, UserWordsAreNeverStopWords) {
  TokenizerOptions options;
  options.user_words = {{"使用", 0}, {"Shell", 0}};
  auto t = MakeTokenizer(options);
  EXPECT_THAT(t->Tokenize("使用 the shell"), ElementsAre("使用", "shell"));
}

TEST(TokenizerTest, ReadsUserDictionaryFile) {
  std::string path = testing::TempDir() + "/user.dict";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("# topic terms\n台风灾害 1000 n\n\n802.11\n", f);
    std::fclose(f);
  }
  TokenizerOptions options;
  options.user_dict_path = path;
  auto t = MakeTokenizer(options);
  EXPECT_THAT(t->Tokenize("台风灾害 802.11"), ElementsAre("台风灾害", "802.11"));
}

TEST(TokenizerTest, RejectsBadUserDictionaryWithLine) {
  std::string path = testing::TempDir() + "/bad.dict";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("ok 3\nbad -1\n", f);
    std::fclose(f);
  }
  TokenizerOptions options;
  options.user_dict_path = path;
  auto t = Tokenizer::Create(options);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), ::testing::HasSubstr("bad.dict:2"));
}

TEST(TokenizerTest, FallsBackToIcuWithoutDictionary) {
  TokenizerOptions options;
  options.jieba_dir = "/nonexistent";
  auto t = MakeTokenizer(options);
  EXPECT_EQ(t->segmenter_name(), "icu");
  auto tokens = t->Tokenize("网络协议和TCP");
  EXPECT_THAT(tokens, Contains("tcp"));
  EXPECT_THAT(tokens, Not(Contains("和")));
}

TEST(TokenizerTest, MissingStopWordListIsAnError) {
  TokenizerOptions options;
  options.stopwords_dir = "/nonexistent";
  EXPECT_FALSE(Tokenizer::Create(options).ok());
}

TEST(TokenizerTest, SurvivesInvalidUtf8) {
  auto t = MakeTokenizer();
  auto tokens = t->Tokenize(std::string("abc\xff\xfe网络\xe4", 11));
  EXPECT_THAT(tokens, Contains("abc"));
  EXPECT_THAT(tokens, Contains("网络"));
}

TEST(TokenizerTest, IsThreadSafe) {
  auto t = MakeTokenizer();
  const std::string text = "網際網路上的TCP协议与风暴潮预警系统 Network Security";
  const std::vector<std::string> expected = t->Tokenize(text);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 200; ++j) {
        if (t->Tokenize(text) != expected) ++mismatches;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace topicrawl
