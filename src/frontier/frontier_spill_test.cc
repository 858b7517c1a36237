// Spill to disk with a small RAM allowance: every URL comes back exactly
// once, order is kept where the header promises it, rescoring reaches
// spilled links.
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::Drain;
using testing::Link;
using testing::MakeFrontier;
using testing::NoPoliteness;

class FrontierSpillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/frontier_spill_testXXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::string cmd = "rm -rf '" + dir_ + "'";
    ASSERT_EQ(system(cmd.c_str()), 0);
  }
  FrontierOptions SmallRam(size_t per_host, size_t total) {
    FrontierOptions o = NoPoliteness();
    o.spill_dir = dir_;
    o.max_in_ram_per_host = per_host;
    o.max_in_ram_total = total;
    return o;
  }
  static std::string Url(int host, int i) {
    return "http://h" + std::to_string(host) + ".com/p" + std::to_string(i);
  }

  FakeClock clock_;
  std::string dir_;
};

TEST_F(FrontierSpillTest, BestFirstOrderIsExactWhenAddsPrecedeDraining) {
  auto f = MakeFrontier(SmallRam(8, 1'000'000), &clock_, "best-first");
  std::mt19937 rng(5);
  std::vector<std::pair<double, std::string>> expected;
  for (int i = 0; i < 500; ++i) {
    double score = (rng() % 100000) / 100000.0;
    std::string url = Url(i % 3, i);
    ASSERT_EQ(f->Add(Link(url, score)), AddResult::kAdded);
    expected.emplace_back(-score, url);
  }
  EXPECT_GT(f->Spilled(), 400u);
  EXPECT_EQ(f->Queued(), 500u);
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> order = Drain(*f);
  ASSERT_EQ(order.size(), 500u);
  for (size_t i = 0; i < order.size(); ++i) {
    ASSERT_EQ(order[i], expected[i].second) << "at " << i;
  }
  EXPECT_EQ(f->Spilled(), 0u);
  EXPECT_TRUE(f->spill_status().ok()) << f->spill_status().message();
}

// A tight global cap: one host collects dozens of segments and each reload
// has room for a link or two, so Reload opens segments lazily by their
// stored heads (frontier_spill.cc); the order must still be exact.
TEST_F(FrontierSpillTest, ManySegmentsAndOneLinkReloadsKeepTheExactOrder) {
  auto f = MakeFrontier(SmallRam(1000, 8), &clock_, "best-first");
  std::mt19937 rng(11);
  std::vector<std::pair<double, std::string>> expected;
  for (int i = 0; i < 400; ++i) {
    double score = (rng() % 100000) / 100000.0;
    std::string url = Url(0, i);
    ASSERT_EQ(f->Add(Link(url, score)), AddResult::kAdded);
    expected.emplace_back(-score, url);
  }
  EXPECT_GT(f->Spilled(), 380u);
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> order = Drain(*f);
  ASSERT_EQ(order.size(), 400u);
  for (size_t i = 0; i < order.size(); ++i) {
    ASSERT_EQ(order[i], expected[i].second) << "at " << i;
  }
  EXPECT_EQ(f->Spilled(), 0u);
  EXPECT_TRUE(f->spill_status().ok()) << f->spill_status().message();
}

TEST_F(FrontierSpillTest, BfsOrderIsExactWhenAddsPrecedeDraining) {
  auto f = MakeFrontier(SmallRam(4, 1'000'000), &clock_, "bfs");
  std::vector<std::string> added;
  for (int i = 0; i < 200; ++i) {
    added.push_back(Url(i % 7, i));
    f->Add(Link(added.back(), 0.5));
  }
  EXPECT_GT(f->Spilled(), 100u);
  EXPECT_EQ(Drain(*f), added);
}

TEST_F(FrontierSpillTest, InterleavedTrafficReturnsEveryUrlExactlyOnce) {
  auto f = MakeFrontier(SmallRam(6, 20), &clock_, "region-roulette");
  std::mt19937 rng(11);
  std::set<std::string> added;
  std::multiset<std::string> served;
  size_t max_spilled = 0;
  int next = 0;
  for (int round = 0; round < 400; ++round) {
    int adds = rng() % 8;
    for (int k = 0; k < adds; ++k, ++next) {
      std::string url = Url(rng() % 5, next);
      LinkCandidate c = Link(url, (rng() % 1000) / 1000.0);
      ASSERT_EQ(f->Add(c), AddResult::kAdded);
      added.insert(url);
    }
    max_spilled = std::max(max_spilled, f->Spilled());
    int takes = rng() % 6;
    for (int k = 0; k < takes; ++k) {
      auto t = f->Next();
      if (!t) break;
      served.insert(t->url);
      f->Complete(*t, HostFeedback{});
    }
  }
  for (const std::string& url : Drain(*f)) served.insert(url);
  EXPECT_GT(max_spilled, 20u);
  EXPECT_EQ(served.size(), added.size());
  EXPECT_EQ(std::set<std::string>(served.begin(), served.end()), added);
  EXPECT_EQ(f->Queued(), 0u);
  EXPECT_TRUE(f->spill_status().ok()) << f->spill_status().message();
}

TEST_F(FrontierSpillTest, SpilledLinksKeepTheirFields) {
  auto f = MakeFrontier(SmallRam(2, 1'000'000), &clock_, "bfs");
  for (int i = 0; i < 10; ++i) {
    LinkCandidate c = Link(Url(0, i), i / 10.0, /*depth=*/i);
    c.parent_page_id = 100 + i;
    f->Add(c);
  }
  ASSERT_GT(f->Spilled(), 5u);
  for (int i = 0; i < 10; ++i) {
    auto t = f->Next();
    ASSERT_TRUE(t);
    EXPECT_EQ(t->url, Url(0, i));
    EXPECT_EQ(t->url_id, Link(Url(0, i)).url_id);
    EXPECT_EQ(t->depth, static_cast<uint32_t>(i));
    EXPECT_EQ(t->parent_page_id, 100 + i);
    EXPECT_EQ(t->anchor, "anchor of " + Url(0, i));
    EXPECT_DOUBLE_EQ(t->score, i / 10.0);
    f->Complete(*t, HostFeedback{});
  }
}

TEST_F(FrontierSpillTest, RescoreReachesSpilledLinks) {
  FrontierOptions o = SmallRam(4, 1'000'000);
  o.keep_max_on_duplicate = true;
  auto f = MakeFrontier(o, &clock_, "best-first");
  for (int i = 0; i < 40; ++i) f->Add(Link(Url(0, i), 0.5 + i / 100.0));
  // The lowest links are on disk; raise one by Rescore, one by re-discovery.
  ASSERT_GT(f->Spilled(), 30u);
  EXPECT_TRUE(f->Rescore(Link(Url(0, 0)).url_id, 0.75));
  EXPECT_EQ(f->Add(Link(Url(0, 1), 0.25)), AddResult::kDuplicate);
  EXPECT_EQ(f->Add(Link(Url(0, 1), 0.7)), AddResult::kRescored);
  std::map<std::string, double> scores;
  while (auto t = f->Next()) {
    scores[t->url] = t->score;
    f->Complete(*t, HostFeedback{});
  }
  ASSERT_EQ(scores.size(), 40u);
  EXPECT_FLOAT_EQ(scores[Url(0, 0)], 0.75);
  EXPECT_FLOAT_EQ(scores[Url(0, 1)], 0.7);
  EXPECT_DOUBLE_EQ(scores[Url(0, 2)], 0.52);
}

TEST_F(FrontierSpillTest, ForEachQueuedAndRescoreAllSeeSpilledLinks) {
  auto f = MakeFrontier(SmallRam(4, 10), &clock_, "best-first");
  for (int i = 0; i < 100; ++i) f->Add(Link(Url(i % 4, i), i));
  ASSERT_GT(f->Spilled(), 50u);
  std::set<std::string> visited;
  f->ForEachQueued([&](const QueuedLinkView& v) {
    EXPECT_TRUE(visited.insert(std::string(v.url)).second);
  });
  EXPECT_EQ(visited.size(), 100u);
  f->RescoreAll([](const QueuedLinkView& v) { return 1000.0 - v.score; });
  EXPECT_TRUE(f->spill_status().ok()) << f->spill_status().message();
  std::map<std::string, double> scores;
  while (auto t = f->Next()) {
    scores[t->url] = t->score;
    f->Complete(*t, HostFeedback{});
  }
  ASSERT_EQ(scores.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_DOUBLE_EQ(scores[Url(i % 4, i)], 1000.0 - i);
}

TEST_F(FrontierSpillTest, GlobalRamCapSpillsTheLargestHost) {
  auto f = MakeFrontier(SmallRam(1000, 50), &clock_, "best-first");
  for (int i = 0; i < 200; ++i) f->Add(Link(Url(i % 10, i), 0.5));
  EXPECT_GE(f->Spilled(), 150u - 10u);
  const Frontier::SpillCounts before = f->spill_counts();
  EXPECT_GT(before.spills, 0u);
  // Every link on disk was written by some spill (a reload may have brought
  // some back and a later spill written them again).
  EXPECT_GE(before.links_spilled, f->Spilled());
  EXPECT_EQ(before.links_spilled - before.links_reloaded, f->Spilled());
  EXPECT_EQ(Drain(*f).size(), 200u);
  // Draining brought every spilled link back, in counted reloads.
  const Frontier::SpillCounts& after = f->spill_counts();
  EXPECT_EQ(f->Spilled(), 0u);
  EXPECT_EQ(after.links_reloaded, after.links_spilled);
  EXPECT_GT(after.reloads, before.reloads);
}

TEST_F(FrontierSpillTest, FailsClearlyWhenTheSpillDirIsMissing) {
  FrontierOptions o = NoPoliteness();
  o.spill_dir = dir_ + "/does/not/exist";
  auto f = Frontier::Create(o, &clock_, NewBfsLinkSelector());
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("spill"), std::string::npos);
}

TEST_F(FrontierSpillTest, TruncatesTheFileWhenEverythingWasReloaded) {
  auto f = MakeFrontier(SmallRam(2, 1'000'000), &clock_, "bfs");
  for (int i = 0; i < 20; ++i) f->Add(Link(Url(0, i)));
  Drain(*f);
  std::string path = dir_ + "/frontier.spill";
  FILE* file = fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  fseek(file, 0, SEEK_END);
  EXPECT_EQ(ftell(file), 0);
  fclose(file);
}

}  // namespace
}  // namespace topicrawl
