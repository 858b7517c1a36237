// Chinese word segmentation quality: SIGHAN 2005 bakeoff gold (PKU, MSR;
// evaluation only, never training) and a hand-checked sample of sentences
// from real Chinese documentation pages (data/segmentation_sample.tsv).
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "text/segmentation_eval.h"
#include "text/tokenizer.h"
#include "text/word_segmenter.h"

namespace topicrawl {
namespace {

std::unique_ptr<WordSegmenter> Jieba(bool hmm = true) {
  JiebaOptions options;
  options.dict_path = DefaultJiebaDir() + "/jieba.dict.utf8";
  if (hmm) options.hmm_path = DefaultJiebaDir() + "/hmm_model.utf8";
  auto s = NewJiebaSegmenter(options);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : nullptr;
}

std::vector<std::string> Cut(const WordSegmenter& s, std::string_view text) {
  std::vector<std::string_view> words;
  s.Cut(text, &words);
  return {words.begin(), words.end()};
}

TEST(JiebaSegmenterTest, MaxProbabilityRoute) {
  auto s = Jieba(false);
  EXPECT_THAT(Cut(*s, "我来到北京清华大学"),
              ::testing::ElementsAre("我", "来到", "北京", "清华大学"));
}

TEST(JiebaSegmenterTest, HmmFindsUnknownWords) {
  // jieba's README example: 杭研 is not in the dictionary; the HMM joins it.
  auto s = Jieba(true);
  EXPECT_THAT(Cut(*s, "他来到了网易杭研大厦"),
              ::testing::ElementsAre("他", "来到", "了", "网易", "杭研", "大厦"));
  auto no_hmm = Jieba(false);
  EXPECT_THAT(Cut(*no_hmm, "他来到了网易杭研大厦"),
              ::testing::ElementsAre("他", "来到", "了", "网易", "杭", "研", "大厦"));
}

TEST(JiebaSegmenterTest, CoversEveryNonSpaceCharacter) {
  auto s = Jieba();
  EXPECT_THAT(Cut(*s, "ＴＣＰ协议, port 80。"),
              ::testing::ElementsAre("ＴＣＰ", "协议", ",", "port", "80", "。"));
}

TEST(JiebaSegmenterTest, MissingDictionaryIsAnError) {
  JiebaOptions options;
  options.dict_path = "/nonexistent/jieba.dict.utf8";
  auto s = NewJiebaSegmenter(options);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().message(), ::testing::HasSubstr("/nonexistent"));
}

TEST(SegmentationEvalTest, CountsExactSpans) {
  SegmentationScore score;
  // gold: 共同|创造|美好  predicted: 共同创造|美好  -> 1 of 2 correct, 1 of 3 gold.
  AddSegmentationLine({"共同", "创造", "美好"}, {"共同创造", "美好"}, &score);
  EXPECT_EQ(score.gold_words, 3);
  EXPECT_EQ(score.predicted_words, 2);
  EXPECT_EQ(score.correct_words, 1);
  EXPECT_DOUBLE_EQ(score.precision(), 0.5);
  EXPECT_DOUBLE_EQ(score.recall(), 1.0 / 3);
  AddSegmentationLine({"甲"}, {"乙"}, &score);
  EXPECT_EQ(score.skipped_lines, 1);
}

// Floors sit a little below the measured word F1 (jieba with HMM: PKU
// 0.8176, MSR 0.8266; ICU: PKU 0.7945), documented in docs/guides/text-and-relevance.md.
TEST(SighanBakeoffTest, PkuWordF1) {
  auto s = Jieba();
  auto score = EvaluateSegmenter(
      *s, TOPICRAWL_SHARED_DIR "/conformance/sighan2005/pku_test_gold.utf8");
  ASSERT_TRUE(score.ok()) << score.status().message();
  std::printf("PKU: P=%.4f R=%.4f F1=%.4f (%lld lines)\n", score->precision(),
              score->recall(), score->f1(), (long long)score->lines);
  EXPECT_EQ(score->skipped_lines, 0);
  EXPECT_GT(score->f1(), 0.81);
}

TEST(SighanBakeoffTest, MsrWordF1) {
  auto s = Jieba();
  auto score = EvaluateSegmenter(
      *s, TOPICRAWL_SHARED_DIR "/conformance/sighan2005/msr_test_gold.utf8");
  ASSERT_TRUE(score.ok()) << score.status().message();
  std::printf("MSR: P=%.4f R=%.4f F1=%.4f (%lld lines)\n", score->precision(),
              score->recall(), score->f1(), (long long)score->lines);
  EXPECT_EQ(score->skipped_lines, 0);
  EXPECT_GT(score->f1(), 0.82);
}

TEST(SighanBakeoffTest, IcuFallbackPkuWordF1) {
  auto s = NewIcuSegmenter();
  ASSERT_TRUE(s.ok());
  auto score = EvaluateSegmenter(
      **s, TOPICRAWL_SHARED_DIR "/conformance/sighan2005/pku_test_gold.utf8");
  ASSERT_TRUE(score.ok());
  std::printf("PKU (ICU): P=%.4f R=%.4f F1=%.4f\n", score->precision(),
              score->recall(), score->f1());
  EXPECT_GT(score->f1(), 0.78);
}

// data/segmentation_sample.tsv: source <TAB> sentence <TAB> gold words.
SegmentationScore ScoreSample(const WordSegmenter& segmenter) {
  std::ifstream in(TOPICRAWL_SOURCE_DIR "/data/segmentation_sample.tsv");
  EXPECT_TRUE(in.good());
  SegmentationScore score;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t a = line.find('\t'), b = line.find('\t', a + 1);
    std::string sentence = line.substr(a + 1, b - a - 1);
    std::string gold_text = line.substr(b + 1);
    std::vector<std::string_view> gold, predicted;
    std::string_view g = gold_text;
    for (size_t pos = 0; pos < g.size();) {
      size_t end = g.find(' ', pos);
      if (end == std::string_view::npos) end = g.size();
      if (end > pos) gold.push_back(g.substr(pos, end - pos));
      pos = end + 1;
    }
    segmenter.Cut(sentence, &predicted);
    AddSegmentationLine(gold, predicted, &score);
  }
  return score;
}

// Measured: jieba F1 0.941 (P 0.952, R 0.930) on the 30 sentences.
TEST(SegmentationSampleTest, JiebaOnRealDocumentationSentences) {
  auto s = Jieba();
  SegmentationScore score = ScoreSample(*s);
  std::printf("sample (jieba): P=%.4f R=%.4f F1=%.4f (%lld sentences)\n",
              score.precision(), score.recall(), score.f1(), (long long)score.lines);
  EXPECT_EQ(score.lines, 30);
  EXPECT_EQ(score.skipped_lines, 0);
  EXPECT_GT(score.f1(), 0.92);
}

TEST(SegmentationSampleTest, IcuFallbackOnRealDocumentationSentences) {
  auto s = NewIcuSegmenter();
  ASSERT_TRUE(s.ok());
  SegmentationScore score = ScoreSample(**s);
  std::printf("sample (ICU): P=%.4f R=%.4f F1=%.4f\n", score.precision(),
              score.recall(), score.f1());
  EXPECT_EQ(score.skipped_lines, 0);
  EXPECT_GT(score.f1(), 0.70);
}

}  // namespace
}  // namespace topicrawl
