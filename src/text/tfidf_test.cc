// Seed 000 eq. 3 (TF-IDF with crawl-time DF) and eq. 4 (cosine), checked
// against answers computed by hand (python3: math.log10).
#include "text/tfidf.h"

#include <cmath>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topicrawl {
namespace {

TopicVector AB() {
  TopicVector t;
  t.Add("a", 1.0);
  t.Add("b", 0.5);
  return t;
}

// D = 4: {a b c} {a} {c} {d}  ->  D_a = 2, D_b = 1, D_c = 2.
void SmallCorpus(DocumentFrequencies* df) {
  df->ObserveDocument({"a", "b", "c", "a"});  // duplicates count once
  df->ObserveDocument({"a"});
  df->ObserveDocument({"c"});
  df->ObserveDocument({"d"});
}

TEST(DocumentFrequenciesTest, CountsDocumentsAndTerms) {
  DocumentFrequencies df;
  SmallCorpus(&df);
  EXPECT_EQ(df.documents(), 4);
  EXPECT_EQ(df.DocumentsWith("a"), 2);
  EXPECT_EQ(df.DocumentsWith("b"), 1);
  EXPECT_EQ(df.DocumentsWith("zzz"), 0);
  EXPECT_DOUBLE_EQ(df.Idf("b"), std::log10(4.0 / 2.0));  // eq. 3, lg(D/(1+D_i))
  EXPECT_DOUBLE_EQ(df.Idf("zzz"), std::log10(4.0 / 1.0));
}

TEST(DocumentFrequenciesTest, ClampsNonPositiveIdf) {
  DocumentFrequencies df(0.01);
  EXPECT_DOUBLE_EQ(df.Idf("a"), 0.01);  // D = 0
  df.ObserveDocument({"a"});
  // D = 1, D_a = 1: lg(1/2) < 0 -> clamped.
  EXPECT_DOUBLE_EQ(df.Idf("a"), 0.01);
  df.ObserveDocument({"a"});
  df.ObserveDocument({"b"});
  // D = 3, D_a = 2: lg(3/3) = 0 -> clamped; D_b = 1: lg(3/2) > 0.
  EXPECT_DOUBLE_EQ(df.Idf("a"), 0.01);
  EXPECT_DOUBLE_EQ(df.Idf("b"), std::log10(1.5));
}

TEST(TopicCosineTest, MatchesHandComputedValue) {
  DocumentFrequencies df;
  SmallCorpus(&df);
  // Page: a a b c -> sum_k n = 4; w_a = 2/4 lg(4/3) = 0.0624694,
  // w_b = 1/4 lg(4/2) = 0.0752575; cos = (w_a*1 + w_b*0.5) /
  // sqrt((1 + 0.25)(w_a^2 + w_b^2)) = 0.9153836.
  CosineResult r = TopicCosine(AB(), {"a", "a", "b", "c"}, df);
  EXPECT_NEAR(r.cosine, 0.9153836447, 1e-9);
  EXPECT_EQ(r.total_terms, 4);
  ASSERT_EQ(r.terms.size(), 2u);
  EXPECT_EQ(r.terms[0].term, "a");  // larger contribution first
  EXPECT_EQ(r.terms[0].count, 2);
  EXPECT_NEAR(r.terms[0].weight, 0.0624693683, 1e-9);
  EXPECT_NEAR(r.terms[1].weight, 0.0752574989, 1e-9);
  EXPECT_DOUBLE_EQ(r.terms[1].topic_weight, 0.5);
}

TEST(TopicCosineTest, AllIdfsClampedGivesCosineOfTermFrequencies) {
  DocumentFrequencies df;
  df.ObserveDocument({"a", "b"});  // the first page of a crawl: D = 1
  // tf 2:1 equals the topic weights 1:0.5, so the cosine is exactly 1.
  CosineResult r = TopicCosine(AB(), {"a", "a", "b", "x"}, df);
  EXPECT_NEAR(r.cosine, 1.0, 1e-12);
}

TEST(TopicCosineTest, ClampedCommonTermCountsLittle) {
  DocumentFrequencies df(0.01);
  df.ObserveDocument({"a"});
  df.ObserveDocument({"a"});  // D = 2, D_a = 2 (clamped), D_b = 0 (lg 2)
  // w_a = 0.5*0.01, w_b = 0.25*lg 2: cos = 0.5055236 (hand-computed).
  CosineResult r = TopicCosine(AB(), {"a", "a", "b", "x"}, df);
  EXPECT_NEAR(r.cosine, 0.5055235689, 1e-9);
}

TEST(TopicCosineTest, NoTopicTermGivesZero) {
  DocumentFrequencies df;
  SmallCorpus(&df);
  EXPECT_EQ(TopicCosine(AB(), {"c", "d"}, df).cosine, 0.0);
  EXPECT_EQ(TopicCosine(AB(), std::vector<std::string>{}, df).cosine, 0.0);
}

TEST(TopicCosineTest, RepeatedTopicTermKeepsLargerWeight) {
  TopicVector t = AB();
  t.Add("b", 0.2);
  t.Add("a", 2.0);
  EXPECT_EQ(t.terms.size(), 2u);
  EXPECT_DOUBLE_EQ(t.weights[0], 2.0);
  EXPECT_DOUBLE_EQ(t.weights[1], 0.5);
}

TEST(DocumentFrequenciesTest, SnapshotRoundTripsAndRejectsBadLines) {
  DocumentFrequencies df;
  SmallCorpus(&df);
  std::string path = testing::TempDir() + "/df.tsv";
  ASSERT_TRUE(df.WriteSnapshot(path).ok());
  DocumentFrequencies copy;
  ASSERT_TRUE(copy.ReadSnapshot(path).ok());
  EXPECT_EQ(copy.documents(), 4);
  EXPECT_EQ(copy.DocumentsWith("c"), 2);
  std::string bad = testing::TempDir() + "/bad_df.tsv";
  FILE* f = std::fopen(bad.c_str(), "w");
  std::fputs("#documents\t10\nnet\tmany\n", f);
  std::fclose(f);
  Status s = copy.ReadSnapshot(bad);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), ::testing::HasSubstr("bad_df.tsv:2:"));
  EXPECT_EQ(copy.documents(), 4);  // unchanged on error
}

TEST(DocumentFrequenciesTest, ObserveIsThreadSafe) {
  DocumentFrequencies df;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 1000; ++j) {
        df.ObserveDocument({"a", "b"});
        (void)df.Idf("a");
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(df.documents(), 4000);
  EXPECT_EQ(df.DocumentsWith("b"), 4000);
}

}  // namespace
}  // namespace topicrawl
