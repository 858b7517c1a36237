// PlanNextRoundWith: a caller's policy (not from the registry, e.g. the
// bench-only oracle) plans a round exactly as a registered one.
#include "crawl/rounds/round_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "store/store_test_util.h"

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

}  // namespace
}  // namespace topicrawl
