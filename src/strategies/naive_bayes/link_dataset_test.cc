#include "strategies/naive_bayes/link_dataset.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

TEST(StratifiedSplitTest, SevenToThreeWithinEachClass) {
  std::vector<int> labels;
  for (int i = 0; i < 1000; ++i) labels.push_back(1);
  for (int i = 0; i < 333; ++i) labels.push_back(0);
  for (int i = 0; i < 50; ++i) labels.push_back(-1);
  auto split = StratifiedSplit(labels, 0.7, 42);
  int train[2] = {0, 0}, test[2] = {0, 0}, none = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] < 0) {
      EXPECT_EQ(split[i], Split::kNone);
      ++none;
      continue;
    }
    ASSERT_NE(split[i], Split::kNone);
    ++(split[i] == Split::kTrain ? train : test)[labels[i]];
  }
  EXPECT_EQ(train[1], 700);
  EXPECT_EQ(test[1], 300);
  EXPECT_EQ(train[0], 233);  // round(0.7 * 333) = 233
  EXPECT_EQ(test[0], 100);
  EXPECT_EQ(none, 50);
}

TEST(StratifiedSplitTest, DeterministicPerSeedAndShuffled) {
  std::vector<int> labels(200, 1);
  auto a = StratifiedSplit(labels, 0.7, 7);
  EXPECT_EQ(a, StratifiedSplit(labels, 0.7, 7));
  EXPECT_NE(a, StratifiedSplit(labels, 0.7, 8));
  // Not simply the first 140: the test set reaches into the first half.
  int test_in_first_half = 0;
  for (int i = 0; i < 100; ++i) test_in_first_half += a[i] == Split::kTest;
  EXPECT_GT(test_in_first_half, 10);
  EXPECT_LT(test_in_first_half, 50);
}

TEST(StratifiedSplitTest, EdgeFractionsAndTinyClasses) {
  std::vector<int> labels = {1, 0};
  auto all = StratifiedSplit(labels, 1.0, 1);
  EXPECT_EQ(all, (std::vector<Split>{Split::kTrain, Split::kTrain}));
  auto none = StratifiedSplit(labels, 0.0, 1);
  EXPECT_EQ(none, (std::vector<Split>{Split::kTest, Split::kTest}));
  EXPECT_TRUE(StratifiedSplit({}, 0.7, 1).empty());
}

TEST(SplitMix64Test, BelowIsInRangeAndCoversIt) {
  SplitMix64 rng(3);
  int seen[7] = {};
  for (int i = 0; i < 7000; ++i) {
    uint64_t x = rng.Below(7);
    ASSERT_LT(x, 7u);
    ++seen[x];
  }
  for (int c : seen) EXPECT_GT(c, 800);
}

class LinkTsvTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) {
    return ::testing::TempDir() + "/linktsv_" + std::to_string(getpid()) + "_" + name;
  }
};

TEST_F(LinkTsvTest, RoundTripKeepsFieldsAndCleansSeparators) {
  LinkExample a;
  a.label = 1;
  a.split = Split::kTrain;
  a.from_url = "http://a/";
  a.to_url = "http://b/x";
  a.anchor = "TCP\tsockets";
  a.context = "网络\n协议";
  a.tokens.anchor = {"tcp", "sockets"};
  a.tokens.context = {"网络", "协议"};
  a.tokens.context_has_dict = true;
  LinkExample b;
  b.label = -1;
  b.to_url = "http://c/";
  const std::string path = Path("links.tsv");
  ASSERT_TRUE(WriteLinkTsv(path, {a, b}).ok());
  auto rows = ReadLinkTsv(path);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 2u);
  const LinkExample& r = (*rows)[0];
  EXPECT_EQ(r.label, 1);
  EXPECT_EQ(r.split, Split::kTrain);
  EXPECT_EQ(r.anchor, "TCP sockets");
  EXPECT_EQ(r.context, "网络 协议");
  EXPECT_EQ(r.tokens.anchor, a.tokens.anchor);
  EXPECT_EQ(r.tokens.context, a.tokens.context);
  EXPECT_FALSE(r.tokens.anchor_has_dict);
  EXPECT_TRUE(r.tokens.context_has_dict);
  EXPECT_EQ((*rows)[1].label, -1);
  EXPECT_EQ((*rows)[1].split, Split::kNone);
  EXPECT_TRUE((*rows)[1].tokens.anchor.empty());
  std::filesystem::remove(path);
}

TEST_F(LinkTsvTest, ReadErrorsNameFileAndLine) {
  const std::string path = Path("bad.tsv");
  {
    std::ofstream out(path);
    out << "label\tsplit\tfrom_url\tto_url\tanchor\tcontext\tanchor_tokens\tcontext_tokens\t"
           "anchor_dict\tcontext_dict\n";
    out << "1\ttrain\ta\tb\tc\td\te\tf\t0\t0\n";
    out << "2\ttrain\ta\tb\tc\td\te\tf\t0\t0\n";
  }
  auto rows = ReadLinkTsv(path);
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find(":3: label must be"), std::string::npos)
      << rows.status().message();
  {
    std::ofstream out(path);
    out << "url\tlabel\n";
  }
  EXPECT_FALSE(ReadLinkTsv(path).ok());
  EXPECT_FALSE(ReadLinkTsv(Path("missing.tsv")).ok());
  std::filesystem::remove(path);
}

TEST_F(LinkTsvTest, PageRoundTrip) {
  PageExample p;
  p.label = 0;
  p.split = Split::kTest;
  p.url = "http://x/";
  p.title = "Title";
  p.tokens = {"a", "b", "a"};
  const std::string path = Path("pages.tsv");
  ASSERT_TRUE(WritePageTsv(path, {p}).ok());
  auto rows = ReadPageTsv(path);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].tokens, p.tokens);
  EXPECT_EQ((*rows)[0].split, Split::kTest);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace topicrawl
