#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::Drain;
using testing::Link;
using testing::MakeFrontier;
using testing::NoPoliteness;

TEST(BestFirstLinkSelectorTest, ServesHighestScoreFirstAcrossHosts) {
  FakeClock clock;
  auto f = MakeFrontier(NoPoliteness(), &clock, "best-first");
  std::mt19937 rng(9);
  std::vector<std::pair<double, std::string>> links;
  for (int i = 0; i < 300; ++i) {
    std::string url =
        "http://h" + std::to_string(rng() % 20) + ".com/" + std::to_string(i);
    double score = (rng() % 1000) / 1000.0;
    links.emplace_back(score, url);
    f->Add(Link(url, score));
  }
  // Equal scores leave in discovery order.
  std::stable_sort(links.begin(), links.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> order = Drain(*f);
  ASSERT_EQ(order.size(), links.size());
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], links[i].second);
}

TEST(BestFirstLinkSelectorTest, LaterBetterLinksOvertake) {
  FakeClock clock;
  auto f = MakeFrontier(NoPoliteness(), &clock, "best-first");
  f->Add(Link("http://a.com/1", 0.5));
  f->Add(Link("http://b.com/1", 0.4));
  EXPECT_EQ(f->Next()->url, "http://a.com/1");
  f->Add(Link("http://c.com/1", 0.9));
  EXPECT_EQ(f->Next()->url, "http://c.com/1");
  EXPECT_EQ(f->Next()->url, "http://b.com/1");
}

}  // namespace
}  // namespace topicrawl
