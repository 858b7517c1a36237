// Seed 000 eq. 3-5 end to end on hand-made pages; expected values computed
// by hand (python3, math.log10).
#include "scoring/relevance_scorer.h"

#include <cmath>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "scoring/relevance_link_scorer.h"

namespace topicrawl {
namespace {

std::shared_ptr<TopicRelevance> Relevance(
    const Topic& topic, std::shared_ptr<DocumentFrequencies> df = nullptr) {
  auto r = TopicRelevance::Create(topic, {}, std::move(df));
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : nullptr;
}

ParsedPage Page(std::string title, std::string text) {
  ParsedPage p;
  p.title = std::move(title);
  p.text = std::move(text);
  p.text_blocks = {p.text};
  return p;
}

Topic NetworkSocket() { return MakeTopic("net", {{"Network", 1.0}, {"socket", 0.5}}); }

TEST(RelevancePageScorerTest, FirstPageUsesTermFrequenciesOnly) {
  auto rel = Relevance(NetworkSocket());
  RelevancePageScorer scorer(rel);
  // Tokens: network sockets | network socket api socket endpoint (7).
  // D = 1 after observing: every IDF is clamped, so the cosine is that of
  // the counts (2, 2) with the weights (1, 0.5): 3 / sqrt(10).
  PageScore s = scorer.Score(Page("Network sockets",
                                  "The network socket API. A socket is an endpoint."));
  EXPECT_NEAR(s.relevance, 3 / std::sqrt(10.0), 1e-12);
  EXPECT_EQ(s.total_terms, 7);
  ASSERT_EQ(s.terms.size(), 2u);
  EXPECT_EQ(s.terms[0].term, "network");
  EXPECT_EQ(s.terms[0].count, 2);
  EXPECT_EQ(rel->df().documents(), 1);
  auto j = nlohmann::json::parse(s.ExplanationJson());
  EXPECT_EQ(j["terms"][0][0], "network");
  EXPECT_EQ(j["n"], 7);
}

TEST(RelevancePageScorerTest, UsesCrawlTimeDocumentFrequencies) {
  auto df = std::make_shared<DocumentFrequencies>();
  df->ObserveDocument({"network"});
  for (int i = 0; i < 8; ++i) df->ObserveDocument({"other"});
  auto rel = Relevance(NetworkSocket(), df);
  RelevancePageScorer scorer(rel);
  // After observing this page: D = 10, D_network = 2, D_socket = 1.
  // cos = (lg(10/3) + 0.5 lg(10/2)) / sqrt(1.25 (lg(10/3)^2 + lg(10/2)^2))
  //     = 0.8938737 (the tf factor 2/7 cancels).
  PageScore s = scorer.Score(Page("Network sockets",
                                  "The network socket API. A socket is an endpoint."));
  EXPECT_NEAR(s.relevance, 0.8938737019, 1e-9);
  EXPECT_EQ(df->documents(), 10);
  EXPECT_NEAR(s.terms[0].idf, std::log10(10.0 / 3), 1e-12);
}

TEST(RelevancePageScorerTest, OffTopicPageScoresZero) {
  auto rel = Relevance(NetworkSocket());
  RelevancePageScorer scorer(rel);
  EXPECT_EQ(scorer.Score(Page("Cooking", "Boil the pasta for ten minutes.")).relevance, 0);
  EXPECT_EQ(scorer.Score(Page("", "")).relevance, 0);
}

TEST(RelevancePageScorerTest, ChineseTopicTermsStayWhole) {
  // Seed 000 typhoon topic: 风暴潮 would be cut into 风暴 + 潮 without the
  // topic terms in the tokeniser's user dictionary.
  auto rel = Relevance(MakeTopic("typhoon", {{"台风", 0.8}, {"风暴潮", 0.5}, {"暴雨", 0.3},
                                             {"气压", 0.2}, {"風力", 0.2}}));
  RelevancePageScorer scorer(rel);
  PageScore s = scorer.Score(Page("台风预警", "强台风引发风暴潮，沿海风力达到十二级。"));
  std::vector<std::string> terms;
  for (const auto& t : s.terms) terms.push_back(t.term);
  // 風力 (Traditional in the topic) matches 风力 in the page.
  EXPECT_THAT(terms, ::testing::UnorderedElementsAre("台风", "风暴潮", "风力"));
  EXPECT_GT(s.relevance, 0.5);
}

TEST(RelevancePageScorerTest, WarnsAboutKeywordsThatCannotMatch) {
  auto rel = Relevance(MakeTopic("t", {{"storm surge", 1.0}, {"typhoon", 1.0}}));
  ASSERT_EQ(rel->warnings().size(), 1u);
  EXPECT_THAT(rel->warnings()[0], ::testing::HasSubstr("[storm surge]"));
}

TEST(RelevancePageScorerTest, ScoresFromManyThreads) {
  auto rel = Relevance(NetworkSocket());
  RelevancePageScorer scorer(rel);
  const ParsedPage page = Page("网络 Network", "The socket API; 網際網路 and sockets.");
  std::vector<std::thread> threads;
  std::atomic<int> zero{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 50; ++j) {
        if (scorer.Score(page).relevance <= 0) ++zero;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(rel->df().documents(), 200);
  EXPECT_EQ(rel->df().DocumentsWith("socket"), 200);
  EXPECT_EQ(zero.load(), 0);
}

TEST(PageTextTest, IsTitleThenTextWithoutRepeatingHeadings) {
  ParsedPage p = Page("T", "H1 text\nbody");
  p.headings = {"H1 text"};
  EXPECT_EQ(PageText(p), "T\nH1 text\nbody");
}

TEST(RelevanceLinkScorerTest, CombinesAnchorAndParentByEquation5) {
  auto rel = Relevance(NetworkSocket());
  RelevanceLinkScorer scorer(rel);  // alpha = 0.3 (topic default)
  PageScore parent;
  parent.relevance = 0.6;
  Outlink link;
  link.anchor = "TCP Socket";
  // R(anchor) = cos((0, w), (1, 0.5)) = 0.5 / sqrt(1.25);
  // R(l) = 0.3 * 0.4472136 + 0.7 * 0.6 = 0.5541641.
  LinkScore s = scorer.Score(link, {&parent, nullptr, {}});
  EXPECT_NEAR(s.score, 0.5541640786, 1e-9);
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].name, "anchor");
  EXPECT_NEAR(s.parts[0].value, 0.5 / std::sqrt(1.25), 1e-12);
  EXPECT_EQ(s.parts[1].name, "parent");
  EXPECT_DOUBLE_EQ(s.parts[1].value, 0.6);
  auto j = nlohmann::json::parse(s.explanation);
  EXPECT_DOUBLE_EQ(j["parts"]["parent"], 0.6);
  EXPECT_DOUBLE_EQ(j["alpha"], 0.3);
  EXPECT_EQ(j["anchor_terms"][0][0], "socket");
}

TEST(RelevanceLinkScorerTest, AlphaComesFromTheTopic) {
  Topic topic = NetworkSocket();
  topic.alpha = 1.0;
  RelevanceLinkScorer scorer(Relevance(topic));
  PageScore parent;
  parent.relevance = 0.9;
  Outlink link;
  link.anchor = "download";
  EXPECT_EQ(scorer.Score(link, {&parent, nullptr, {}}).score, 0.0);
}

}  // namespace
}  // namespace topicrawl
