// PlanNextRoundWith: a caller's policy (not from the registry, e.g. the
// bench-only oracle) plans a round exactly as a registered one.
#include "crawl/rounds/round_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/hash.h"
#include "crawl/rounds/round_graph.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;

// Revisits the known pages in descending url_id order; counts its calls.
class ProbePolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "probe"; }
  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    ++plans;
    budget_seen = request.budget;
    round_seen = request.round;
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      if (u.page_id != 0) plan->revisits.push_back({u.url_id, static_cast<double>(u.url_id)});
      return true;
    });
    plan->note = "probe";
    return s;
  }
  Status OnRoundFinished(RoundHistory&) override {
    ++fed;
    return Status::Ok();
  }
  std::string SaveState() const override { return "probe-state"; }
  Status RestoreState(std::string_view state) override {
    restored = std::string(state);
    return Status::Ok();
  }
  int plans = 0, fed = 0;
  int64_t budget_seen = -2;
  int round_seen = -1;
  std::string restored = "unset";
};

TEST(RoundRunnerTest, PlanNextRoundWithUsesTheCallersPolicyAndKeepsItsStateUnderItsName) {
  const std::string dir = MakeTempDir();
  std::vector<UrlId> ok_ids;
  {
    auto store = CrawlStore::Open(dir, OpenMode::kCreate);
    ASSERT_TRUE(store.ok()) << store.status().message();
    for (int k = 1; k <= 6; ++k) {
      PageRecord p = MakeTestPage(k);
      ASSERT_TRUE((*store)->AddPage(PageRecord(p)).ok());
    }
    ASSERT_TRUE((*store)->SetMeta(RoundFinishedKey(0), "1").ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  RecrawlOptions options;
  options.dir = dir;
  options.policy = "probe";
  options.budget = 2;
  ProbePolicy policy;
  auto planned = PlanNextRoundWith(options, policy);
  ASSERT_TRUE(planned.ok()) << planned.status().message();
  EXPECT_EQ(planned->round, 1);
  EXPECT_EQ(planned->revisits, 2);
  EXPECT_EQ(planned->note, "probe");
  EXPECT_EQ(policy.plans, 1);
  EXPECT_EQ(policy.fed, 1) << "round 0 is fed before the first plan";
  EXPECT_EQ(policy.restored, "") << "a fresh policy restores nothing";
  EXPECT_EQ(policy.budget_seen, 2);
  EXPECT_EQ(policy.round_seen, 1);

  auto store = CrawlStore::Open(dir, OpenMode::kResume);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ(**(*store)->GetMeta(PolicyStateKey("probe")), "probe-state");
  EXPECT_EQ(**(*store)->GetMeta("round_policy.1"), "probe");
  std::vector<RevisitRecord> pending;
  ASSERT_TRUE((*store)->LoadPendingRevisits(1, [&](const RevisitRecord& r) {
                         pending.push_back(r);
                         return true;
                       }).ok());
  ASSERT_EQ(pending.size(), 2u);
  // The two highest url ids of the pages with a stored version.
  std::vector<UrlId> ids;
  ASSERT_TRUE((*store)->ForEachUrlHistory([&](const FrontierRecord& row, const std::vector<FetchRow>& f) {
                         if (!f.empty() && f.back().page_id != 0) ids.push_back(row.url_id);
                         return true;
                       }).ok());
  std::sort(ids.rbegin(), ids.rend());
  ASSERT_GE(ids.size(), 2u);
  std::vector<UrlId> got = {pending[0].url_id, pending[1].url_id};
  std::sort(got.rbegin(), got.rend());
  EXPECT_EQ(got, std::vector<UrlId>(ids.begin(), ids.begin() + 2));
  ASSERT_TRUE((*store)->Close().ok());
  RemoveTree(dir);
}

// Admission: which fetch first admitted each URL. Round 0: a (seed) admits
// b, b admits d. Round 1: a revisit of a finds a new link to c; d is
// fetched for the first time (an old page the crawl had not reached); c
// admits e (a new page's new page).
TEST(StoreRoundHistoryTest, KnownUrlsSayWhichFetchAdmittedThem) {
  const std::string dir = MakeTempDir();
  auto store = CrawlStore::Open(dir, OpenMode::kCreate);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto page = [](const std::string& name, int round, bool revisit, PageId parent,
                 std::vector<std::string> admits, PageId own_id) {
    PageRecord p = MakeTestPage(1, 0, 0);
    p.url = "http://s.test/" + name;
    p.url_id = Hash64(p.url);
    p.round = round;
    p.revisit = revisit;
    p.fetch_state = revisit ? UrlState::kChanged : UrlState::kNew;
    p.parent_id = parent;
    for (const std::string& a : admits) {
      FrontierRecord row;
      row.url = "http://s.test/" + a;
      row.url_id = Hash64(row.url);
      row.parent_id = own_id;
      p.admitted.push_back(row);
    }
    return p;
  };
  // Page ids are given out in AddPage order: 1, 2, ...
  ASSERT_EQ(*(*store)->AddPage(page("a", 0, false, 0, {"b"}, 1)), 1);
  ASSERT_EQ(*(*store)->AddPage(page("b", 0, false, 1, {"d"}, 2)), 2);
  ASSERT_TRUE((*store)->SetMeta(RoundFinishedKey(0), "1").ok());
  ASSERT_EQ(*(*store)->AddPage(page("a", 1, true, 0, {"c"}, 3)), 3);
  ASSERT_EQ(*(*store)->AddPage(page("d", 1, false, 2, {}, 4)), 4);
  ASSERT_EQ(*(*store)->AddPage(page("c", 1, false, 3, {"e"}, 5)), 5);
  ASSERT_EQ(*(*store)->AddPage(page("e", 1, false, 5, {}, 6)), 6);
  ASSERT_TRUE((*store)->SetMeta(RoundFinishedKey(1), "1").ok());
  ASSERT_TRUE((*store)->Flush().ok());

  auto history = StoreRoundHistory::Make(store->get(), 1, false);
  ASSERT_TRUE(history.ok()) << history.status().message();
  std::map<std::string, KnownUrl> known;
  ASSERT_TRUE((*history)->ReadAdmissions().ok());
  ASSERT_TRUE((*history)->ForEachUrl([&](const KnownUrl& u) {
                 known[u.url.substr(std::string("http://s.test/").size())] = u;
                 return true;
               }).ok());
  ASSERT_EQ(known.size(), 5u);
  const UrlId a = Hash64("http://s.test/a"), b = Hash64("http://s.test/b"),
              c = Hash64("http://s.test/c");
  EXPECT_EQ(known["b"].parent_url, a);
  EXPECT_EQ(known["b"].admitted_round, 0);
  EXPECT_FALSE(known["b"].admitted_by_revisit);
  EXPECT_EQ(known["c"].parent_url, a);
  EXPECT_EQ(known["c"].parent_page, 3);
  EXPECT_EQ(known["c"].admitted_round, 1);
  EXPECT_TRUE(known["c"].admitted_by_revisit);
  EXPECT_EQ(known["d"].parent_url, b);
  EXPECT_EQ(known["d"].admitted_round, 0);
  EXPECT_FALSE(known["d"].admitted_by_revisit);
  EXPECT_EQ(known["e"].parent_url, c);
  EXPECT_EQ(known["e"].admitted_round, 1);
  EXPECT_FALSE(known["e"].admitted_by_revisit);
  EXPECT_EQ(known["a"].parent_url, 0u);
  EXPECT_EQ(known["a"].admitted_round, -1);

  // Fresh pages of round 1 for seed 002's Sfreq: new to the web = c (a
  // revisit found its link) and e (linked from c); d is old.
  for (auto reading : {RoundGraph::Fresh::kNewToWeb, RoundGraph::Fresh::kFirstFetched}) {
    auto g = RoundGraph::Read(**history, reading);
    ASSERT_TRUE(g.ok()) << g.status().message();
    auto fresh = [&](const std::string& name) {
      return bool(g->hub.pages[g->dense.at(Hash64("http://s.test/" + name))].fresh);
    };
    const bool by_first_fetch = reading == RoundGraph::Fresh::kFirstFetched;
    EXPECT_TRUE(fresh("c"));
    EXPECT_TRUE(fresh("e"));
    EXPECT_EQ(fresh("d"), by_first_fetch);
    EXPECT_FALSE(fresh("a"));
    EXPECT_FALSE(fresh("b"));
  }
  ASSERT_TRUE((*store)->Close().ok());
  RemoveTree(dir);
}

}  // namespace
}  // namespace topicrawl
