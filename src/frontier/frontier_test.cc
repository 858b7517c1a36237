// Admission (dedup, budgets, bad URLs), rescoring and bulk operations.
#include "frontier/frontier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::Drain;
using testing::Link;
using testing::MakeFrontier;
using testing::NoPoliteness;

class FrontierTest : public ::testing::Test {
 protected:
  FakeClock clock_;
};

TEST_F(FrontierTest, DeduplicatesOnUrlId) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  EXPECT_EQ(f->Add(Link("http://a.com/1")), AddResult::kAdded);
  EXPECT_EQ(f->Add(Link("http://a.com/1")), AddResult::kDuplicate);
  auto t = f->Next();
  f->Complete(*t, HostFeedback{});
  // Still a duplicate after it was crawled.
  EXPECT_EQ(f->Add(Link("http://a.com/1")), AddResult::kDuplicate);
  EXPECT_EQ(f->Queued(), 0u);
  EXPECT_EQ(f->SeenCount(), 1u);
}

TEST_F(FrontierTest, RejectsUrlsWithoutHostAndDoesNotMarkThem) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  LinkCandidate c = Link("not a url");
  EXPECT_EQ(f->Add(c), AddResult::kRejected);
  EXPECT_FALSE(f->Seen(c.url_id));
  EXPECT_EQ(AddResultName(AddResult::kRejected), "rejected");
}

TEST_F(FrontierTest, HostKeyIgnoresCaseAndDefaultPort) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  f->Add(Link("http://A.com/1"));
  f->Add(Link("http://a.com:80/2"));
  f->Add(Link("http://a.com:8080/3"));
  EXPECT_EQ(f->Hosts(), 2u);
  EXPECT_EQ(f->HostKey(0), "a.com");
  EXPECT_EQ(f->HostKey(1), "a.com:8080");
}

TEST_F(FrontierTest, PerHostBudget) {
  FrontierOptions o = NoPoliteness();
  o.max_pages_per_host = 2;
  auto f = MakeFrontier(o, &clock_, "best-first");
  EXPECT_EQ(f->Add(Link("http://a.com/1")), AddResult::kAdded);
  EXPECT_EQ(f->Add(Link("http://a.com/2")), AddResult::kAdded);
  LinkCandidate third = Link("http://a.com/3");
  EXPECT_EQ(f->Add(third), AddResult::kBudgetExceeded);
  EXPECT_FALSE(f->Seen(third.url_id));
  EXPECT_EQ(f->Add(Link("http://b.com/1")), AddResult::kAdded);
  // Crawling does not give budget back.
  Drain(*f);
  EXPECT_EQ(f->Add(third), AddResult::kBudgetExceeded);
}

// AddIf asks its admission test about new URLs only (not duplicates, not
// over the host's budget); a no leaves the URL unseen and unqueued.
TEST_F(FrontierTest, AddIfAsksOnlyAboutNewUrls) {
  FrontierOptions o = NoPoliteness();
  o.max_pages_per_host = 3;
  auto f = MakeFrontier(o, &clock_, "best-first");
  std::vector<std::string> asked;
  bool answer = true;
  auto admit = [&](std::string_view url) {
    asked.emplace_back(url);
    return answer;
  };
  EXPECT_EQ(f->AddIf(Link("http://a.com/1"), admit), AddResult::kAdded);
  EXPECT_EQ(f->AddIf(Link("http://a.com/1"), admit), AddResult::kDuplicate);
  EXPECT_EQ(f->AddIf(Link("not a url"), admit), AddResult::kRejected);
  answer = false;
  LinkCandidate no = Link("http://a.com/2");
  EXPECT_EQ(f->AddIf(no, admit), AddResult::kNotAdmitted);
  EXPECT_FALSE(f->Seen(no.url_id));
  EXPECT_EQ(f->Queued(), 1u);
  EXPECT_EQ(AddResultName(AddResult::kNotAdmitted), "not_admitted");
  answer = true;
  EXPECT_EQ(f->AddIf(no, admit), AddResult::kAdded);  // asked again: now yes
  EXPECT_EQ(f->AddIf(Link("http://a.com/3"), admit), AddResult::kAdded);
  EXPECT_EQ(f->AddIf(Link("http://a.com/4"), admit), AddResult::kBudgetExceeded);
  EXPECT_EQ(asked, (std::vector<std::string>{"http://a.com/1", "http://a.com/2",
                                             "http://a.com/2", "http://a.com/3"}));
  EXPECT_EQ(f->Queued(), 3u);
}

TEST_F(FrontierTest, ResumeMarksSeenAndChargesBudget) {
  FrontierOptions o = NoPoliteness();
  o.max_pages_per_host = 2;
  auto f = MakeFrontier(o, &clock_, "best-first");
  LinkCandidate done = Link("http://a.com/done");
  f->MarkSeen(done.url_id, done.url);
  f->MarkSeen(Link("http://x.com/other").url_id);
  EXPECT_EQ(f->Add(done), AddResult::kDuplicate);
  EXPECT_EQ(f->Add(Link("http://x.com/other")), AddResult::kDuplicate);
  EXPECT_EQ(f->Add(Link("http://a.com/1")), AddResult::kAdded);
  EXPECT_EQ(f->Add(Link("http://a.com/2")), AddResult::kBudgetExceeded);
}

TEST_F(FrontierTest, DuplicateKeepsMaxScoreWhenAsked) {
  FrontierOptions o = NoPoliteness();
  o.keep_max_on_duplicate = true;
  auto f = MakeFrontier(o, &clock_, "best-first");
  f->Add(Link("http://a.com/1", 0.5));
  f->Add(Link("http://b.com/1", 0.6));
  EXPECT_EQ(f->Add(Link("http://a.com/1", 0.4)), AddResult::kDuplicate);
  EXPECT_EQ(f->Add(Link("http://a.com/1", 0.9)), AddResult::kRescored);
  auto first = f->Next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->url, "http://a.com/1");
  EXPECT_DOUBLE_EQ(first->score, 0.9);
}

TEST_F(FrontierTest, DuplicateDoesNotRescoreByDefault) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  f->Add(Link("http://a.com/1", 0.5));
  f->Add(Link("http://b.com/1", 0.6));
  EXPECT_EQ(f->Add(Link("http://a.com/1", 0.9)), AddResult::kDuplicate);
  EXPECT_EQ(f->Next()->url, "http://b.com/1");
}

TEST_F(FrontierTest, RescoreMovesAnEntryBothWays) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  for (int i = 0; i < 10; ++i) {
    f->Add(Link("http://a.com/" + std::to_string(i), i / 10.0));
  }
  EXPECT_TRUE(f->Rescore(Link("http://a.com/2").url_id, 5.0));
  EXPECT_TRUE(f->Rescore(Link("http://a.com/9").url_id, -1.0));
  EXPECT_FALSE(f->Rescore(Link("http://a.com/unknown").url_id, 1.0));
  std::vector<std::string> order = Drain(*f);
  ASSERT_EQ(order.size(), 10u);
  EXPECT_EQ(order.front(), "http://a.com/2");
  EXPECT_EQ(order.back(), "http://a.com/9");
  EXPECT_EQ(order[1], "http://a.com/8");
}

TEST_F(FrontierTest, RescoreOfAnInFlightLinkIsRefused) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  f->Add(Link("http://a.com/1"));
  auto t = f->Next();
  EXPECT_FALSE(f->Rescore(t->url_id, 1.0));
}

TEST_F(FrontierTest, NonFiniteScoresDoNotBreakTheOrder) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "region-roulette");
  f->Add(Link("http://a.com/nan", std::nan("")));
  f->Add(Link("http://a.com/inf", INFINITY));
  f->Add(Link("http://b.com/1", 0.5));
  f->Add(Link("http://b.com/2", -INFINITY));
  EXPECT_EQ(Drain(*f).size(), 4u);
  EXPECT_EQ(f->selector_errors(), 0u);
}

TEST_F(FrontierTest, ForEachQueuedVisitsEveryQueuedLinkOnce) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  for (int i = 0; i < 20; ++i) {
    f->Add(Link("http://h" + std::to_string(i % 3) + ".com/" +
                    std::to_string(i),
                i));
  }
  auto t = f->Next();  // in flight: not queued
  std::multiset<std::string> seen;
  f->ForEachQueued([&](const QueuedLinkView& v) {
    seen.insert(std::string(v.url));
    EXPECT_EQ(v.url_id, Link(std::string(v.url)).url_id);
    EXPECT_EQ(v.anchor, "anchor of " + std::string(v.url));
    EXPECT_EQ(f->HostKey(v.host), "h" + std::to_string(v.seq % 3) + ".com");
  });
  EXPECT_EQ(seen.size(), 19u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 19u);
  EXPECT_EQ(seen.count(t->url), 0u);
}

TEST_F(FrontierTest, RescoreAllReordersEverything) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  for (int i = 0; i < 30; ++i) {
    f->Add(Link("http://h" + std::to_string(i % 4) + ".com/" +
                    std::to_string(i),
                i));
  }
  // Reverse the order: score = -old score.
  f->RescoreAll([](const QueuedLinkView& v) { return -v.score; });
  std::vector<std::string> order = Drain(*f);
  ASSERT_EQ(order.size(), 30u);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(order[i], "http://h" + std::to_string(i % 4) + ".com/" +
                            std::to_string(i));
  }
}

TEST_F(FrontierTest, QueueCountersFollowTheFlow) {
  auto f = MakeFrontier(NoPoliteness(), &clock_, "bfs");
  f->Add(Link("http://a.com/1"));
  f->Add(Link("http://b.com/1"));
  EXPECT_EQ(f->Queued(), 2u);
  auto t = f->Next();
  EXPECT_EQ(f->Queued(), 1u);
  EXPECT_EQ(f->InFlight(), 1u);
  f->Complete(*t, HostFeedback{});
  EXPECT_EQ(f->InFlight(), 0u);
  EXPECT_EQ(f->Hosts(), 2u);
}

// A selector that answers with a host that does not exist.
class BrokenSelector : public LinkSelector {
 public:
  std::string_view Name() const override { return "broken"; }
  double Priority(double score, uint64_t) const override { return score; }
  bool PriorityFollowsScore() const override { return true; }
  std::optional<LinkRef> Select(const SelectionView&) override {
    return LinkRef{999, 0};
  }
};

TEST_F(FrontierTest, InvalidSelectionFallsBackToTheGlobalBest) {
  auto f = Frontier::Create(NoPoliteness(), &clock_,
                            std::make_unique<BrokenSelector>());
  ASSERT_TRUE(f.ok());
  (*f)->Add(Link("http://a.com/1", 0.1));
  (*f)->Add(Link("http://b.com/1", 0.7));
  auto t = (*f)->Next();
  ASSERT_TRUE(t);
  EXPECT_EQ(t->url, "http://b.com/1");
  EXPECT_EQ((*f)->selector_errors(), 1u);
}

TEST_F(FrontierTest, RescoreStaysExactAcrossManyTakes) {
  // Thousands of takes exercise the lazily purged url_id index: taken links
  // must never be found again, queued ones always.
  auto f = MakeFrontier(NoPoliteness(), &clock_, "best-first");
  for (int i = 0; i < 5000; ++i) {
    f->Add(Link("http://h" + std::to_string(i % 7) + ".com/" +
                    std::to_string(i),
                i));
  }
  std::vector<UrlId> taken;
  for (int i = 0; i < 4000; ++i) {
    auto t = f->Next();
    ASSERT_TRUE(t);
    taken.push_back(t->url_id);
    f->Complete(*t, HostFeedback{});
  }
  for (UrlId id : taken) ASSERT_FALSE(f->Rescore(id, 1e6));
  // The remaining links are 0..999 (lowest scores); reverse them.
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(f->Rescore(Link("http://h" + std::to_string(i % 7) + ".com/" +
                                std::to_string(i))
                               .url_id,
                           2000 - i));
  }
  std::vector<std::string> order = Drain(*f);
  ASSERT_EQ(order.size(), 1000u);
  EXPECT_EQ(order.front(), "http://h0.com/0");
  EXPECT_EQ(order.back(), "http://h5.com/999");
}

TEST_F(FrontierTest, CreateFailsWithoutClockOrSelector) {
  EXPECT_FALSE(Frontier::Create({}, nullptr, NewBfsLinkSelector()).ok());
  EXPECT_FALSE(Frontier::Create({}, &clock_, nullptr).ok());
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

using testing::Link;
using testing::MakeFrontier;
using testing::NoPoliteness;

TEST(FrontierFocusGateTest, WaitsForABusyHostsBetterLinkInsteadOfAWorseOne) {
  FakeClock clock;
  FrontierOptions o = NoPoliteness();
  o.max_connections_per_host = 1;
  o.focus_tolerance = 0.05;
  auto f = MakeFrontier(o, &clock, "best-first");
  f->Add(Link("http://a.test/1", 0.9));
  f->Add(Link("http://a.test/2", 0.8));
  f->Add(Link("http://b.test/1", 0.1));
  auto first = f->Next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->url, "http://a.test/1");
  // a.test is at its connection cap; its 0.8 link beats b.test's 0.1 by more
  // than the tolerance: nothing now.
  EXPECT_FALSE(f->Next().has_value());
  EXPECT_EQ(f->focus_waits(), 1u);
  f->Complete(*first, HostFeedback{});
  auto second = f->Next();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->url, "http://a.test/2");
  // a.test is now empty: b.test's link is the best anywhere.
  auto third = f->Next();
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(third->url, "http://b.test/1");
}

TEST(FrontierFocusGateTest, LinksWithinToleranceRunInParallel) {
  FakeClock clock;
  FrontierOptions o = NoPoliteness();
  o.max_connections_per_host = 1;
  o.focus_tolerance = 0.05;
  auto f = MakeFrontier(o, &clock, "best-first");
  f->Add(Link("http://a.test/1", 0.9));
  f->Add(Link("http://a.test/2", 0.88));
  f->Add(Link("http://b.test/1", 0.87));
  ASSERT_TRUE(f->Next().has_value());
  auto b = f->Next();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->url, "http://b.test/1");
}

TEST(FrontierFocusGateTest, OffByDefaultAndNeverForFifo) {
  FakeClock clock;
  FrontierOptions o = NoPoliteness();
  o.max_connections_per_host = 1;
  auto f = MakeFrontier(o, &clock, "best-first");
  f->Add(Link("http://a.test/1", 0.9));
  f->Add(Link("http://a.test/2", 0.8));
  f->Add(Link("http://b.test/1", 0.1));
  ASSERT_TRUE(f->Next().has_value());
  EXPECT_TRUE(f->Next().has_value());  // gate off: b.test's link goes out

  o.focus_tolerance = 0.0;
  auto g = MakeFrontier(o, &clock, "bfs");  // priority is not the score
  g->Add(Link("http://a.test/1", 0.9));
  g->Add(Link("http://a.test/2", 0.8));
  g->Add(Link("http://b.test/1", 0.1));
  ASSERT_TRUE(g->Next().has_value());
  EXPECT_TRUE(g->Next().has_value());
}

}  // namespace
}  // namespace topicrawl
