// Seed 000 section 2.3: the region (host) with the highest mean R(l) wins,
// then a roulette wheel on R(l) picks the link inside it.
#include <map>

#include <gtest/gtest.h>

#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::Link;
using testing::MakeFrontier;
using testing::NoPoliteness;

std::string HostOf(const std::string& url) {
  return url.substr(7, url.find('/', 7) - 7);
}

TEST(RegionRouletteLinkSelectorTest, PicksTheRegionWithTheHighestMean) {
  FakeClock clock;
  auto f = MakeFrontier(NoPoliteness(), &clock, "region-roulette");
  // a.com holds the single best link but the lower mean (0.5 vs 0.6).
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.1));
  f->Add(Link("http://b.com/1", 0.6));
  f->Add(Link("http://b.com/2", 0.6));
  f->Add(Link("http://c.com/1", 0.3));
  auto t = f->Next();
  ASSERT_TRUE(t);
  EXPECT_EQ(HostOf(t->url), "b.com");
  f->Complete(*t, HostFeedback{});
  t = f->Next();
  EXPECT_EQ(HostOf(t->url), "b.com");
  f->Complete(*t, HostFeedback{});
  // b.com is empty: a.com (0.5) beats c.com (0.3).
  t = f->Next();
  EXPECT_EQ(HostOf(t->url), "a.com");
}

TEST(RegionRouletteLinkSelectorTest, RescoringChangesTheWinningRegion) {
  FakeClock clock;
  auto f = MakeFrontier(NoPoliteness(), &clock, "region-roulette");
  f->Add(Link("http://a.com/1", 0.2));
  f->Add(Link("http://a.com/2", 0.2));
  f->Add(Link("http://b.com/1", 0.5));
  EXPECT_TRUE(f->Rescore(Link("http://a.com/1").url_id, 1.0));  // mean 0.6
  EXPECT_EQ(HostOf(f->Next()->url), "a.com");
}

TEST(RegionRouletteLinkSelectorTest, OnlyReadyRegionsCompete) {
  FakeClock clock;
  FrontierOptions o = NoPoliteness();
  o.min_delay_s = 5;
  auto f = MakeFrontier(o, &clock, "region-roulette");
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.9));
  f->Add(Link("http://b.com/1", 0.1));
  EXPECT_EQ(HostOf(f->Next()->url), "a.com");
  EXPECT_EQ(HostOf(f->Next()->url), "b.com");  // a.com waits for its delay
}

TEST(RegionRouletteLinkSelectorTest, RouletteInsideTheRegionFollowsScores) {
  // One region with scores 0.1, 0.2, 0.7: the first pick is proportional to
  // the score. Repeat with fresh frontiers (seeds 1..3000).
  std::map<std::string, int> firsts;
  constexpr int kRuns = 3000;
  for (int run = 0; run < kRuns; ++run) {
    FakeClock clock;
    LinkSelectorOptions so;
    so.seed = run + 1;
    auto f = Frontier::Create(NoPoliteness(), &clock,
                              NewRegionRouletteLinkSelector(so));
    ASSERT_TRUE(f.ok());
    (*f)->Add(Link("http://a.com/1", 0.1));
    (*f)->Add(Link("http://a.com/2", 0.2));
    (*f)->Add(Link("http://a.com/7", 0.7));
    ++firsts[(*f)->Next()->url];
  }
  double chi2 = 0;
  for (auto [url, p] : {std::pair<std::string, double>{"http://a.com/1", 0.1},
                        {"http://a.com/2", 0.2},
                        {"http://a.com/7", 0.7}}) {
    double expected = kRuns * p;
    chi2 += (firsts[url] - expected) * (firsts[url] - expected) / expected;
  }
  EXPECT_LT(chi2, 13.82) << "chi-square(2) 99.9th percentile";
}

}  // namespace
}  // namespace topicrawl
