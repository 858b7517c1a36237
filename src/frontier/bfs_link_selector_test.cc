#include <deque>
#include <map>

#include <gtest/gtest.h>

#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::Drain;
using testing::Link;
using testing::MakeFrontier;
using testing::NoPoliteness;

TEST(BfsLinkSelectorTest, ServesInDiscoveryOrderAcrossHostsIgnoringScore) {
  FakeClock clock;
  auto f = MakeFrontier(NoPoliteness(), &clock, "bfs");
  std::vector<std::string> added;
  for (int i = 0; i < 50; ++i) {
    added.push_back("http://h" + std::to_string((i * 7) % 5) + ".com/" +
                    std::to_string(i));
    f->Add(Link(added.back(), (i * 37 % 11) / 11.0));
  }
  EXPECT_EQ(Drain(*f), added);
}

// A breadth-first crawl of a small link graph visits pages by depth, and
// within a depth in discovery order, exactly as a textbook BFS queue does.
TEST(BfsLinkSelectorTest, CrawlOrderEqualsTextbookBfs) {
  // Page i links to 3i+1..3i+3 on hosts i % 4 (a 3-ary tree of 121 pages).
  auto url = [](int i) {
    return "http://h" + std::to_string(i % 4) + ".com/" + std::to_string(i);
  };
  auto children = [](int i) {
    std::vector<int> c;
    for (int k = 1; k <= 3; ++k) {
      if (3 * i + k < 121) c.push_back(3 * i + k);
    }
    return c;
  };
  std::vector<std::string> expected;
  std::deque<int> queue{0};
  while (!queue.empty()) {
    int p = queue.front();
    queue.pop_front();
    expected.push_back(url(p));
    for (int c : children(p)) queue.push_back(c);
  }

  FakeClock clock;
  auto f = MakeFrontier(NoPoliteness(), &clock, "bfs");
  std::map<std::string, int> page_of;
  for (int i = 0; i < 121; ++i) page_of[url(i)] = i;
  f->Add(Link(url(0)));
  std::vector<std::string> crawled;
  while (auto t = f->Next()) {
    crawled.push_back(t->url);
    for (int c : children(page_of[t->url])) {
      f->Add(Link(url(c), 0.1 * (c % 7), t->depth + 1));
    }
    f->Complete(*t, HostFeedback{});
  }
  EXPECT_EQ(crawled, expected);
}

TEST(BfsLinkSelectorTest, SkipsHostsThatAreNotReady) {
  FakeClock clock;
  FrontierOptions o = NoPoliteness();
  o.min_delay_s = 1;
  auto f = MakeFrontier(o, &clock, "bfs");
  f->Add(Link("http://a.com/1"));
  f->Add(Link("http://a.com/2"));
  f->Add(Link("http://b.com/1"));
  EXPECT_EQ(f->Next()->url, "http://a.com/1");
  EXPECT_EQ(f->Next()->url, "http://b.com/1");
  EXPECT_FALSE(f->Next());
  clock.Advance(Seconds(1));
  EXPECT_EQ(f->Next()->url, "http://a.com/2");
}

}  // namespace
}  // namespace topicrawl
