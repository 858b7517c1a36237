// The tda strategy (seed 002): SDTP page scores with the contradiction rule,
// the link-score combination, and word vectors trained in the background
// from the crawled pages, then written for the next round.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "crawl/crawl_strategy.h"
#include "scoring/word_vectors.h"
#include "strategies/strategy_registry.h"
#include "strategies/tda/sdtp_scorer.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/tda-" + name + "-" + std::to_string(getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

constexpr char kTopic[] =
    "[topic]\n"
    "name = \"networking\"\n"
    "keywords = { \"network\" = 1.0, \"tcp\" = 0.8, \"udp\" = 0.6 }\n"
    "contradiction_words = [\"casino\"]\n"
    "beta = 0.3\n"
    "[strategy.tda]\n"
    "retrain_pages = 40\n"
    "dim = 16\n"
    "min_count = 2\n"
    "min_term_count = 3\n"
    "link_anchor = 0.5\n"
    "link_context = 0.0\n"
    "link_parent = 0.5\n";

ParsedPage PageWith(const std::string& text, std::vector<std::string> anchors) {
  ParsedPage p;
  p.text = text;
  p.text_blocks = {text};
  for (size_t i = 0; i < anchors.size(); ++i) {
    Outlink l;
    l.url = "http://h/" + std::to_string(i);
    l.anchor = anchors[i];
    p.links.push_back(l);
  }
  return p;
}

std::unique_ptr<Strategy> Make(const std::string& dir) {
  std::ofstream(dir + "/topic.toml") << kTopic;
  StrategyContext ctx;
  ctx.topic_file = dir + "/topic.toml";
  ctx.out_dir = dir;
  auto s = MakeCrawlStrategy("tda", ctx);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::make_unique<Strategy>(std::move(s).value()) : nullptr;
}

TEST(TdaStrategyTest, ScoresPagesAndLinksWithSdtp) {
  std::string dir = TempDir("score");
  auto s = Make(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name, "tda");
  EXPECT_DOUBLE_EQ(s->traits.beta.value_or(-1.0), 0.3);
  CrawlTask task;
  PageAssessment a;
  s->judge->Assess(task, PageWith("tcp and udp network stacks", {"tcp tuning", "cooking"}), &a);
  EXPECT_GT(a.relevance, 0.5);
  ASSERT_EQ(a.links.size(), 2u);
  // (0.5 * Sim(anchor) + 0.5 * Sim(parent)) / 1: the anchor decides.
  EXPECT_GT(a.links[0].score, a.links[1].score);
  EXPECT_NEAR(a.links[1].score, 0.5 * a.relevance, 1e-9);
  PageAssessment c;
  s->judge->Assess(task, PageWith("tcp network casino bonus", {}), &c);
  EXPECT_EQ(c.relevance, 0.0);
  EXPECT_NE(c.explanation.find("\"contradiction\":\"casino\""), std::string::npos);
  EXPECT_FALSE(s->traits.link_contexts.text);  // link_context = 0
}

TEST(TdaStrategyTest, TrainsVectorsFromTheCrawlAndWritesThemForTheNextRound) {
  std::string dir = TempDir("train");
  auto s = Make(dir);
  ASSERT_NE(s, nullptr);
  std::mt19937 rng(3);
  const std::vector<std::string> net = {"tcp", "udp", "network", "quic", "packet", "router"};
  const std::vector<std::string> other = {"flour", "oven", "sugar", "butter", "bake", "recipe"};
  CrawlTask task;
  for (int i = 0; i < 120; ++i) {
    const auto& words = i % 2 ? net : other;
    std::string text;
    for (int k = 0; k < 30; ++k) text += words[rng() % words.size()] + " ";
    PageAssessment a;
    ParsedPage page = PageWith(text, {});
    // Two sites (a new DSV term must be used on min_term_sites = 2).
    task.url = std::string("http://") + (i % 4 < 2 ? "a" : "b") + ".test/" + std::to_string(i);
    s->judge->Assess(task, page, &a);
    s->learner->OnPageStored(task, i + 1, page, a, nullptr);
  }
  ASSERT_TRUE(s->learner->Finish().ok());
  ASSERT_TRUE(fs::exists(dir + "/tda-corpus.txt"));
  auto vectors = WordVectors::Load(dir + "/tda-vectors.bin");
  ASSERT_TRUE(vectors.ok()) << vectors.status().message();
  EXPECT_NE((*vectors)->Id("quic"), WordVectors::kNoWord);
  auto dsv = ReadDsvTsv(dir + "/tda-dsv.tsv", **vectors);
  ASSERT_TRUE(dsv.ok()) << dsv.status().message();
  bool quic = false;
  for (const DsvTerm& t : dsv->terms) {
    EXPECT_TRUE(t.is_static || std::find(other.begin(), other.end(), t.term) == other.end())
        << t.term;
    quic = quic || (t.term == "quic" && !t.is_static);
  }
  EXPECT_TRUE(quic);
  // A next round starts from these vectors: DynamicSim is on at once.
  std::ofstream(dir + "/topic.toml", std::ios::app) << "vectors = \"" << dir << "\"\n";
  StrategyContext ctx;
  ctx.topic_file = dir + "/topic.toml";
  auto next = MakeCrawlStrategy("tda", ctx);
  ASSERT_TRUE(next.ok()) << next.status().message();
  PageAssessment a;
  next->judge->Assess(task, PageWith("quic packet router", {"quic packet", "flour oven"}), &a);
  EXPECT_NE(a.explanation.find("\"vectors\":true"), std::string::npos);
  // No static term at all: the page's Sim is 0 (combine = "gated", the
  // default: DynamicSim needs StaticSim's support) although its DynamicSim
  // is high; an anchor of new DSV terms still scores on DynamicSim alone
  // (link texts combine linearly), above a cooking anchor.
  EXPECT_EQ(a.relevance, 0.0);
  EXPECT_EQ(a.explanation.find("\"dynamic\":0,"), std::string::npos);
  ASSERT_EQ(a.links.size(), 2u);
  EXPECT_GT(a.links[0].score, 0.1);  // 0.5 * Sim(anchor) + 0.5 * 0
}

TEST(TdaStrategyTest, ANextRoundResumesWithThePreviousVectors) {
  std::string dir = TempDir("resume");
  auto s = Make(dir);
  ASSERT_NE(s, nullptr);
  std::mt19937 rng(5);
  const std::vector<std::string> net = {"tcp", "udp", "network", "quic", "packet", "router"};
  const std::vector<std::string> other = {"flour", "oven", "sugar", "butter", "bake", "recipe"};
  CrawlTask task;
  for (int i = 0; i < 120; ++i) {
    const auto& words = i % 2 ? net : other;
    std::string text;
    for (int k = 0; k < 30; ++k) text += words[rng() % words.size()] + " ";
    PageAssessment a;
    ParsedPage page = PageWith(text, {});
    // Two sites (a new DSV term must be used on min_term_sites = 2).
    task.url = std::string("http://") + (i % 4 < 2 ? "a" : "b") + ".test/" + std::to_string(i);
    s->judge->Assess(task, page, &a);
    s->learner->OnPageStored(task, i + 1, page, a, nullptr);
  }
  ASSERT_TRUE(s->learner->Finish().ok());
  std::string blob;
  ASSERT_TRUE(s->learner->SaveState(&blob).ok());
  fs::copy_file(dir + "/tda-vectors.bin", dir + "/before.bin");
  // The next round: a new strategy on the same directory, restored.
  auto next = Make(dir);
  ASSERT_NE(next, nullptr);
  PageAssessment cold;
  next->judge->Assess(task, PageWith("quic packet router", {}), &cold);
  EXPECT_NE(cold.explanation.find("\"vectors\":false"), std::string::npos);
  Status restored = next->learner->RestoreState(blob);
  ASSERT_TRUE(restored.ok()) << restored.message();
  PageAssessment warm;
  next->judge->Assess(task, PageWith("quic packet router", {"quic packet router"}), &warm);
  EXPECT_NE(warm.explanation.find("\"vectors\":true"), std::string::npos) << warm.explanation;
  // DynamicSim is on: the new-term anchor scores on it (the page itself has
  // no static term, so its gated Sim is 0).
  ASSERT_EQ(warm.links.size(), 1u);
  EXPECT_GT(warm.links[0].score, 0.1);
  // A round that parses fewer than retrain_pages (40) pages keeps them.
  for (int i = 0; i < 10; ++i) {
    PageAssessment a;
    ParsedPage page = PageWith("flour oven sugar tcp", {});
    next->judge->Assess(task, page, &a);
    next->learner->OnPageStored(task, 200 + i, page, a, nullptr);
  }
  ASSERT_TRUE(next->learner->Finish().ok());
  auto before = WordVectors::Load(dir + "/before.bin");
  auto after = WordVectors::Load(dir + "/tda-vectors.bin");
  ASSERT_TRUE(before.ok() && after.ok());
  ASSERT_EQ((*after)->size(), (*before)->size());  // 13 words, not the round's few
  EXPECT_EQ((*after)->documents(), 120u);
  EXPECT_FLOAT_EQ((*after)->Similarity((*after)->Id("quic"), (*after)->Id("tcp")),
                  (*before)->Similarity((*before)->Id("quic"), (*before)->Id("tcp")));
}

}  // namespace
}  // namespace topicrawl
