#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "support/fake_round_history.h"
#include "crawl/rounds/round_policy.h"
#include "strategies/round_registry.h"

namespace topicrawl {
namespace {

constexpr int64_t kDay = 86400000;
constexpr int64_t kT0 = 1767225600000;  // 2026-01-01: the round-0 fetches' Last-Modified

std::unique_ptr<RoundPolicy> Signals() {
  auto p = MakeRoundPolicy("signals", {});
  EXPECT_TRUE(p.ok()) << p.status().message();
  return std::move(p).value();
}

// `n` pages of `host` (ids from `first`), fetched in round 0 with
// Last-Modified kT0.
void AddHost(FakeRoundHistory* h, const std::string& host, UrlId first, int n) {
  for (int i = 0; i < n; ++i) {
    KnownUrl& u = h->Add(first + i, "http://" + host + "/p" + std::to_string(i));
    u.host = host;
    u.last_modified_ms = kT0;
    u.relevance = 0.5;
  }
}

void Announce(FakeRoundHistory* h, int round, const KnownUrl& u, int64_t lastmod) {
  Announcement a;
  a.url_id = u.url_id;
  a.url = u.url;
  a.host = u.host;
  a.lastmod_ms = lastmod;
  h->announcements[round].push_back(a);
}

const HostTrust* TrustOf(const FakeRoundHistory& h, int round, const std::string& host) {
  auto it = h.host_trust.find(round);
  if (it == h.host_trust.end()) return nullptr;
  for (const HostTrust& t : it->second) {
    if (t.host == host) return &t;
  }
  return nullptr;
}

std::set<UrlId> Ids(const RoundPlan& plan) {
  std::set<UrlId> ids;
  for (const Revisit& r : plan.revisits) ids.insert(r.url_id);
  return ids;
}

TEST(SignalsPolicy, TrustedNewerLastmodsComeFirstAndCoveredPagesWait) {
  FakeRoundHistory h;
  h.summary.round = 0;
  AddHost(&h, "good.test", 1, 20);
  AddHost(&h, "plain.test", 101, 20);  // no sitemap: the estimator's
  for (int i = 0; i < 20; ++i) {
    // Pages 1, 2, 3 changed after our fetch; the others not.
    Announce(&h, 1, h.urls.at(1 + i), i < 3 ? kT0 + kDay : kT0 - 30 * kDay);
  }
  auto p = Signals();
  ASSERT_TRUE(p->OnRoundFinished(h).ok());
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({1, 8, kT0 + 2 * kDay}, h, &plan).ok());
  ASSERT_EQ(plan.revisits.size(), 8u);
  std::set<UrlId> first3 = {plan.revisits[0].url_id, plan.revisits[1].url_id, plan.revisits[2].url_id};
  EXPECT_EQ(first3, (std::set<UrlId>{1, 2, 3}));
  // The rest: plain.test pages and at most two explored good.test pages.
  int good = 0;
  for (size_t i = 3; i < plan.revisits.size(); ++i) good += plan.revisits[i].url_id < 100;
  EXPECT_LE(good, 2);
  const HostTrust* t = TrustOf(h, 1, "good.test");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->state, "trusted");
  EXPECT_EQ(TrustOf(h, 1, "plain.test"), nullptr);  // announces nothing
}

TEST(SignalsPolicy, BuildDateHostIsUntrustedWithinTwoRoundsAndFallsBackToTheEstimator) {
  FakeRoundHistory h;
  h.summary.round = 0;
  AddHost(&h, "build.test", 1, 30);
  for (const auto& [id, u] : h.urls) Announce(&h, 1, u, kT0 + kDay);  // the build date of round 1
  auto p = Signals();
  ASSERT_TRUE(p->OnRoundFinished(h).ok());
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({1, 5, kT0 + 2 * kDay}, h, &plan).ok());
  const HostTrust* t = TrustOf(h, 1, "build.test");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->state, "untrusted");
  EXPECT_NE(t->reason.find("build date"), std::string::npos) << t->reason;
  // No revisit is ranked as a lastmod claim: all are the estimator's.
  ASSERT_EQ(plan.revisits.size(), 5u);
  for (const Revisit& r : plan.revisits) EXPECT_LT(r.priority, 100.0);
  EXPECT_NE(plan.note.find("0 lastmod claims"), std::string::npos) << plan.note;
}

TEST(SignalsPolicy, BuildDateSeenOnlyAsAMovingDateIsUntrustedInRoundTwo) {
  // The round-1 references are unknown (no Last-Modified): the date does
  // not look newer than anything, so round 1 cannot tell; round 2 sees the
  // one date move.
  FakeRoundHistory h;
  h.summary.round = 0;
  AddHost(&h, "build.test", 1, 30);
  for (auto& [id, u] : h.urls) {
    u.last_modified_ms = 0;
    u.last_fetched_at = kT0 + 10 * kDay;  // our clock is ahead of the site's dates
    Announce(&h, 1, u, kT0 + kDay);
    Announce(&h, 2, u, kT0 + 2 * kDay);
  }
  auto p = Signals();
  ASSERT_TRUE(p->OnRoundFinished(h).ok());
  RoundPlan plan1;
  ASSERT_TRUE(p->Plan({1, 5, 0}, h, &plan1).ok());
  EXPECT_EQ(TrustOf(h, 1, "build.test")->state, "trusted");
  // Round 1 ran (nothing changed), round 2 is planned by a restored policy.
  h.summary.round = 1;
  for (const Revisit& r : plan1.revisits) h.outcomes[1].push_back({r.url_id, UrlState::kUnchanged, true, 0, 0.5});
  auto p2 = Signals();
  ASSERT_TRUE(p2->RestoreState(p->SaveState()).ok());
  ASSERT_TRUE(p2->OnRoundFinished(h).ok());
  RoundPlan plan2;
  ASSERT_TRUE(p2->Plan({2, 5, 0}, h, &plan2).ok());
  const HostTrust* t = TrustOf(h, 2, "build.test");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->state, "untrusted");
  EXPECT_NE(t->reason.find("moved"), std::string::npos) << t->reason;
}

TEST(SignalsPolicy, LastmodsThatHideChangesLoseTrustFromRevisits) {
  FakeRoundHistory h;
  h.summary.round = 0;
  AddHost(&h, "stale.test", 1, 20);
  for (const auto& [id, u] : h.urls) Announce(&h, 1, u, kT0 - (id % 7 + 1) * kDay);  // never newer
  auto p = Signals();
  ASSERT_TRUE(p->OnRoundFinished(h).ok());
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({1, 20, 0}, h, &plan).ok());
  ASSERT_EQ(plan.revisits.size(), 2u);  // covered by trusted lastmods: exploration only
  // Both explored pages had changed although their lastmod said not.
  h.summary.round = 1;
  for (const Revisit& r : plan.revisits) h.outcomes[1].push_back({r.url_id, UrlState::kChanged, true, 0, 0.5});
  h.announcements[2] = h.announcements[1];
  ASSERT_TRUE(p->OnRoundFinished(h).ok());
  RoundPlan plan2;
  ASSERT_TRUE(p->Plan({2, 20, 0}, h, &plan2).ok());
  const HostTrust* t = TrustOf(h, 2, "stale.test");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->state, "untrusted");
  EXPECT_EQ(t->disagree, 2);
  EXPECT_EQ(plan2.revisits.size(), 20u);  // the estimator takes the whole budget
}

// Announced URLs the crawl does not know go to the plan's announced links
// (with their feed titles and documents, for the crawl's strategy to score),
// in the band between the lastmod claims (>= 1000) and the estimator; known
// ones are not announced links; the crawl's seeds stay the round's seeds.
TEST(SignalsPolicy, AnnouncedNewUrlsBecomeLinksInTheBandBelowClaims) {
  FakeRoundHistory h;
  h.summary.round = 0;
  h.seeds = {"http://good.test/"};
  AddHost(&h, "good.test", 1, 3);
  Announcement a;
  a.host = "good.test";
  a.url = "http://good.test/old";
  a.url_id = 900;
  a.lastmod_ms = kT0 + kDay;
  a.document = "http://good.test/sitemap.xml";
  h.announcements[1].push_back(a);
  a.url = "http://good.test/new";
  a.url_id = 901;
  a.published_ms = kT0 + 3 * kDay;
  a.title = "TCP tuning";
  a.document = "http://good.test/feed.atom";
  h.announcements[1].push_back(a);
  a = Announcement();
  a.host = "good.test";
  a.url = h.urls.begin()->second.url;  // known: a revisit candidate, no announced link
  a.url_id = h.urls.begin()->first;
  h.announcements[1].push_back(a);
  auto p = Signals();
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({1, 10, 0}, h, &plan).ok());
  EXPECT_EQ(plan.seeds, (std::vector<std::string>{"http://good.test/"}));
  ASSERT_EQ(plan.announced.size(), 2u);
  EXPECT_EQ(plan.announced[0].url, "http://good.test/new");
  EXPECT_EQ(plan.announced[0].title, "TCP tuning");
  EXPECT_EQ(plan.announced[0].document, "http://good.test/feed.atom");
  EXPECT_EQ(plan.announced[1].url, "http://good.test/old");
  EXPECT_EQ(plan.announced[1].title, "");
  EXPECT_EQ(plan.announced[1].document, "http://good.test/sitemap.xml");
  EXPECT_GT(plan.announced_floor, 1.0);      // above every estimator value
  EXPECT_LT(plan.announced_floor + 1, 1000);  // below every lastmod claim
  for (const Revisit& r : plan.revisits) {
    EXPECT_TRUE(r.priority >= 1000 || r.priority < plan.announced_floor) << r.priority;
  }
}

// A sitemap whose lastmods never move (the first date, never updated) but
// that names a new URL dated after all of them: the page that links the new
// one was edited without a new lastmod. The host is untrusted for the round
// and its pages go to the estimator; a host whose edit moved a lastmod
// stays trusted.
TEST(SignalsPolicy, NewUrlsDatedAfterEveryUnmovedLastmodUntrustTheHost) {
  FakeRoundHistory h;
  h.summary.round = 0;
  AddHost(&h, "stale.test", 1, 20);
  AddHost(&h, "good.test", 101, 20);
  for (int i = 0; i < 20; ++i) {
    Announce(&h, 1, h.urls.at(1 + i), kT0);                            // never moves
    Announce(&h, 1, h.urls.at(101 + i), i == 0 ? kT0 + 5 * kDay : kT0);  // the hub moved
  }
  for (const std::string host : {"stale.test", "good.test"}) {
    Announcement a;
    a.host = host;
    a.url = "http://" + host + "/new";
    a.url_id = host == "stale.test" ? 900 : 901;
    a.lastmod_ms = kT0 + 5 * kDay;
    h.announcements[1].push_back(a);
  }
  auto p = Signals();
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({1, 30, kT0 + 6 * kDay}, h, &plan).ok());
  const HostTrust* stale = TrustOf(h, 1, "stale.test");
  ASSERT_NE(stale, nullptr);
  EXPECT_EQ(stale->state, "untrusted");
  EXPECT_NE(stale->reason.find("1 new URLs dated after every known URL's lastmod"),
            std::string::npos) << stale->reason;
  const HostTrust* good = TrustOf(h, 1, "good.test");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(good->state, "trusted");
  // 1 claim (good.test's hub) + 2 announced URLs + 27 estimator revisits:
  // all 20 stale.test pages (uncovered), at most 2 explored good.test pages.
  int stale_pages = 0, good_pages = 0;
  for (const Revisit& r : plan.revisits) (r.url_id < 100 ? stale_pages : good_pages) += 1;
  EXPECT_EQ(stale_pages, 20);
  EXPECT_LE(good_pages, 3);
}

// The order within one budget: claims, then announced new URLs
// (newest first), then the estimator with what is left; announced URLs
// beyond the budget wait for a later round.
TEST(SignalsPolicy, AnnouncedNewUrlsSpendTheBudgetBetweenClaimsAndTheEstimator) {
  auto announce_new = [](FakeRoundHistory* h, int n) {
    for (int i = 0; i < n; ++i) {
      Announcement a;
      a.host = "good.test";
      a.url = "http://good.test/new" + std::to_string(i);
      a.url_id = 900 + i;
      a.lastmod_ms = kT0 + (1 + i) * kDay;  // new9 is the newest
      h->announcements[1].push_back(a);
    }
  };
  auto plan_with = [&](int fresh, int64_t budget) {
    FakeRoundHistory h;
    h.summary.round = 0;
    AddHost(&h, "good.test", 1, 20);
    AddHost(&h, "plain.test", 101, 20);
    for (int i = 0; i < 20; ++i) Announce(&h, 1, h.urls.at(1 + i), i < 3 ? kT0 + kDay : kT0);
    announce_new(&h, fresh);
    auto p = Signals();
    RoundPlan plan;
    EXPECT_TRUE(p->Plan({1, budget, kT0 + 20 * kDay}, h, &plan).ok());
    return plan;
  };
  // 3 claims + 5 of the 10 announced URLs fill a budget of 8.
  RoundPlan tight = plan_with(10, 8);
  EXPECT_EQ(Ids(tight), (std::set<UrlId>{1, 2, 3}));
  ASSERT_EQ(tight.announced.size(), 5u);
  EXPECT_EQ(tight.announced[0].url, "http://good.test/new9");
  EXPECT_EQ(tight.announced[4].url, "http://good.test/new5");
  // 3 claims + 2 announced URLs leave 7 of 12 to the estimator.
  RoundPlan roomy = plan_with(2, 12);
  EXPECT_EQ(roomy.announced.size(), 2u);
  EXPECT_EQ(roomy.revisits.size(), 10u);
  // Without a budget every announced URL is kept.
  EXPECT_EQ(plan_with(10, -1).announced.size(), 10u);
}

// "Newer than what we fetched" compares the site's dates with the site's
// dates: the lastmod must be later (by more than a second: HTTP dates have
// one-second granularity) than the fetched version's Last-Modified and than
// the lastmod announced before the round of that fetch; our own fetch time
// is the reference only when the site gave neither (an evolved benchmark
// web dates its rounds days before our clock). An edit dated before the
// version it replaces (the stale seed-2 web: round K's edits dated
// 2026-01-0K, base pages Last-Modified 2026-11-16) is not newer.
TEST(SignalsPolicy, NewerMeansLaterThanTheFetchedVersionOnTheSitesClock) {
  FakeRoundHistory h;
  h.summary.round = 1;
  constexpr int64_t kHour = 3600000;
  const int64_t version = kT0 + 10 * kHour;  // Last-Modified of the fetched version
  const int64_t fetched = kT0 + 30 * kDay;   // our clock, ahead of the site's
  AddHost(&h, "good.test", 1, 12);
  for (auto& [id, u] : h.urls) {
    u.last_modified_ms = id >= 9 && id <= 10 ? 0 : version;
    u.last_fetched_at = fetched;
  }
  const std::map<UrlId, std::pair<int64_t, bool>> cases = {
      {1, {version, false}},                 // equal
      {2, {version + 500, false}},           // the same second
      {3, {version + 2000, true}},           // two seconds later
      {4, {kT0, false}},                     // a date-only lastmod of the version's day
      {5, {version - kDay, false}},          // dated before the version we have
      {6, {version + kDay, true}},           // later, though before our fetch time
      {7, {version + 5 * kDay, false}},      // what the site said before our fetch
      {8, {version + 6 * kDay, true}},       // later than that
      {9, {fetched - kHour, false}},         // no Last-Modified: our fetch time
      {10, {fetched + kHour, true}},
      {11, {version - 2 * kDay, false}},
      {12, {version - 3 * kDay, false}},
  };
  for (const auto& [id, c] : cases) Announce(&h, 2, h.urls.at(id), c.first);
  Announce(&h, 1, h.urls.at(7), version + 5 * kDay);  // the collection before round 1
  Announce(&h, 1, h.urls.at(8), version + 5 * kDay);
  auto p = Signals();
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({2, 100, 0}, h, &plan).ok());
  ASSERT_EQ(TrustOf(h, 2, "good.test")->state, "trusted");
  std::set<UrlId> claimed;
  for (const Revisit& r : plan.revisits) {
    if (r.priority >= 1000) claimed.insert(r.url_id);
  }
  std::set<UrlId> newer;
  for (const auto& [id, c] : cases) {
    if (c.second) newer.insert(id);
  }
  EXPECT_EQ(claimed, newer);
}

TEST(SignalsPolicy, StateRoundTripsAndCorruptStateIsAnError) {
  FakeRoundHistory h;
  h.summary.round = 0;
  AddHost(&h, "good.test", 1, 12);
  for (const auto& [id, u] : h.urls) Announce(&h, 1, u, kT0 + (id == 1 ? kDay : -kDay * id));
  auto p = Signals();
  RoundPlan plan;
  ASSERT_TRUE(p->Plan({1, 4, 0}, h, &plan).ok());
  const std::string saved = p->SaveState();
  auto q = Signals();
  ASSERT_TRUE(q->RestoreState(saved).ok());
  EXPECT_EQ(q->SaveState(), saved);
  EXPECT_FALSE(Signals()->RestoreState("H good.test 1 2 3 0.5\n").ok());  // no estimator part
  EXPECT_FALSE(Signals()->RestoreState("X what\nE\n").ok());
  EXPECT_FALSE(Signals()->RestoreState("H good.test one\nE\n").ok());
}

}  // namespace
}  // namespace topicrawl
