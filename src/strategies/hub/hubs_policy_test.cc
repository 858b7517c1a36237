// Seed 003's round policy `hubs` on a hand-built crawl history.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "classify/svm_model.h"
#include "crawl/rounds/round_policy.h"
#include "strategies/hub/hub_dataset.h"
#include "strategies/hub/hub_site_relative.h"
#include "strategies/round_registry.h"
#include "support/fake_round_history.h"

namespace topicrawl {
namespace {

// Four sites s0..s3.test, each: a home page (seed) linking to two section
// directories /docs/secK/, each linking to six content pages
// /docs/secK/page-N.html that link back to their section only. The
// structural label makes the eight section directories the hubs.
FakeRoundHistory Sites() {
  FakeRoundHistory h;
  h.summary.round = 0;
  UrlId id = 0;
  for (int s = 0; s < 4; ++s) {
    const std::string host = "s" + std::to_string(s) + ".test";
    const std::string home = "http://" + host + "/";
    h.seeds.push_back(home);
    const UrlId home_id = ++id;
    KnownUrl& hu = h.Add(home_id, home);
    hu.host = host;
    for (int k = 0; k < 2; ++k) {
      const std::string sec = home + "docs/sec" + std::to_string(k) + "/";
      const UrlId sec_id = ++id;
      KnownUrl& su = h.Add(sec_id, sec);
      su.host = host;
      su.depth = 1;
      su.anchor = "Section";
      h.links.push_back({home_id, sec_id});
      for (int n = 0; n < 6; ++n) {
        const UrlId page_id = ++id;
        KnownUrl& pu = h.Add(page_id, sec + "page-" + std::to_string(n) + ".html");
        pu.host = host;
        pu.depth = 2;
        pu.anchor = "A longer title of content page number " + std::to_string(n);
        h.links.push_back({sec_id, page_id});
        h.links.push_back({page_id, sec_id});
      }
    }
  }
  return h;
}

std::set<std::string> RevisitedUrls(const FakeRoundHistory& h, const RoundPlan& plan) {
  std::set<std::string> out;
  for (const Revisit& r : plan.revisits) out.insert(h.urls.at(r.url_id).url);
  return out;
}

bool IsSection(const std::string& url) {
  return url.find("/docs/sec") != std::string::npos && url.back() == '/';
}

TEST(HubsPolicyTest, RoundOneRevisitsThePredictedHubsWithoutAModelFile) {
  FakeRoundHistory h = Sites();
  auto p = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(p.ok()) << p.status().message();
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, -1, 0}, h, &plan).ok());
  std::set<std::string> got = RevisitedUrls(h, plan);
  int sections = 0;
  for (const auto& u : got) {
    EXPECT_EQ(u.find("page-"), std::string::npos) << "content page revisited: " << u;
    sections += IsSection(u);
  }
  EXPECT_EQ(sections, 8);
  EXPECT_EQ(plan.seeds, h.seeds);
  EXPECT_TRUE(plan.follow_new_links);
  EXPECT_NE(plan.note.find("structural labels of round 0 (8 hubs"), std::string::npos)
      << plan.note;
  // Highest probability first.
  EXPECT_TRUE(std::is_sorted(plan.revisits.begin(), plan.revisits.end(),
                             [](const Revisit& a, const Revisit& b) {
                               return a.priority > b.priority;
                             }));
}

TEST(HubsPolicyTest, TheBudgetCutsTheRevisits) {
  FakeRoundHistory h = Sites();
  auto p = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(p.ok());
  // The four home pages (the seeds) are revisited within the budget, first:
  // a budget of 7 leaves 3 revisits for the sections.
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, 7, 0}, h, &plan).ok());
  EXPECT_EQ(plan.revisits.size(), 7u);
  int homes = 0;
  for (const auto& u : RevisitedUrls(h, plan)) {
    if (std::find(h.seeds.begin(), h.seeds.end(), u) != h.seeds.end()) {
      ++homes;
    } else {
      EXPECT_TRUE(IsSection(u)) << u;
    }
  }
  EXPECT_EQ(homes, 4);
  // A budget smaller than the seeds: no more revisits than the budget.
  RoundPlan tight;
  ASSERT_TRUE((*p)->Plan({1, 2, 0}, h, &tight).ok());
  EXPECT_EQ(tight.revisits.size(), 2u);
  // A budget above the predicted hubs ranks the other pages below them.
  RoundPlan wide;
  ASSERT_TRUE((*p)->Plan({1, 20, 0}, h, &wide).ok());
  ASSERT_EQ(wide.revisits.size(), 20u);
  for (size_t i = 4; i < 12; ++i) {
    EXPECT_TRUE(IsSection(h.urls.at(wide.revisits[i].url_id).url)) << i;
  }
}

TEST(HubsPolicyTest, LearnsFromWhatTheRevisitsYieldedAndKeepsItInItsState) {
  FakeRoundHistory h = Sites();
  auto p = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, -1, 0}, h, &plan).ok());
  // Round 1 ran: the sections of sites 0 and 1 yielded new pages, those of
  // sites 2 and 3 did not; the homes and the first content page of every
  // section were revisited
  // too and yielded nothing: 20 revisits.
  h.summary.round = 1;
  std::vector<UrlOutcome>& out = h.outcomes[1];
  for (const auto& [id, u] : h.urls) {
    UrlOutcome o;
    o.url_id = id;
    o.revisit = true;
    o.state = UrlState::kUnchanged;
    if (IsSection(u.url)) {
      const bool yields = u.host == "s0.test" || u.host == "s1.test";
      o.new_links = yields ? 3 : 0;
      o.state = yields ? UrlState::kTriviallyChanged : UrlState::kUnchanged;
      out.push_back(o);
    } else if (u.url.back() == '/' || u.url.find("page-0") != std::string::npos) {
      out.push_back(o);
    }
  }
  ASSERT_TRUE((*p)->OnRoundFinished(h).ok());
  const std::string state = (*p)->SaveState();
  EXPECT_NE(state.find("retrained after round 1 on 20 revisits (4 yielded new pages)"),
            std::string::npos)
      << state.substr(0, 200);

  RoundPlan second;
  ASSERT_TRUE((*p)->Plan({2, -1, 0}, h, &second).ok());
  // Another process restores the state and plans the same round.
  auto q = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE((*q)->RestoreState(state).ok());
  RoundPlan again;
  ASSERT_TRUE((*q)->Plan({2, -1, 0}, h, &again).ok());
  ASSERT_EQ(again.revisits.size(), second.revisits.size());
  for (size_t i = 0; i < again.revisits.size(); ++i) {
    EXPECT_EQ(again.revisits[i].url_id, second.revisits[i].url_id);
    EXPECT_DOUBLE_EQ(again.revisits[i].priority, second.revisits[i].priority);
  }
  EXPECT_EQ(again.note, second.note);
  EXPECT_EQ((*q)->SaveState(), state);
}

TEST(HubsPolicyTest, CorruptStateIsRefused) {
  FakeRoundHistory h = Sites();
  auto p = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, -1, 0}, h, &plan).ok());
  std::string state = (*p)->SaveState();
  auto q = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(q.ok());
  Status s = (*q)->RestoreState("something else\n");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("hubs round policy state is corrupt"), std::string::npos);
  // A flipped byte in the model's support vectors fails its checksum.
  const size_t at = state.rfind("sv ");
  ASSERT_NE(at, std::string::npos) << state;
  const size_t digit = state.find_first_of("123456789", state.find('\n', at) + 1);
  ASSERT_NE(digit, std::string::npos);
  state[digit] = state[digit] == '1' ? '2' : '1';
  EXPECT_FALSE((*q)->RestoreState(state).ok());
}

TEST(HubsPolicyTest, AModelFileThatIsMissingOrForeignIsAClearError) {
  FakeRoundHistory h = Sites();
  RoundPolicyContext ctx;
  ctx.model_file = ::testing::TempDir() + "/no-such-hub-model";
  auto p = MakeRoundPolicy("hubs", ctx);
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  Status s = (*p)->Plan({1, -1, 0}, h, &plan);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no-such-hub-model"), std::string::npos) << s.message();

  ctx.model_file = ::testing::TempDir() + "/foreign-hub-model";
  std::ofstream(ctx.model_file) << "<html>not a model</html>\n";
  auto q = MakeRoundPolicy("hubs", ctx);
  ASSERT_TRUE(q.ok());
  s = (*q)->Plan({1, -1, 0}, h, &plan);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("foreign-hub-model"), std::string::npos) << s.message();
}

TEST(HubsPolicyTest, AGraphWithoutHubsAsksForAModel) {
  FakeRoundHistory h;
  h.summary.round = 0;
  for (UrlId i = 1; i <= 6; ++i) {
    h.Add(i, "http://x.test/p" + std::to_string(i) + ".html").host = "x.test";
  }
  auto p = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  Status s = (*p)->Plan({1, -1, 0}, h, &plan);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--model"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

// Four sites whose pages all have one URL shape (/h/NNN.html, one depth,
// one anchor length): site s's directory /h/9NN.html is the only linker of
// six pages /h/1NN.html, which link back to the home. The URL features
// cannot tell the directory from its entries; with a budget, the link
// structure of the crawl (parenthood) must rank it first. The directories
// get the highest url ids, so a tie broken by id would drop them.
TEST(HubsPolicyTest, WithABudgetTheLinkStructureFindsDirectoriesTheUrlCannot) {
  FakeRoundHistory h;
  h.summary.round = 0;
  UrlId id = 0;
  std::vector<UrlId> homes, dirs;
  std::vector<std::vector<UrlId>> entries(4);
  for (int s = 0; s < 4; ++s) {
    const std::string host = "s" + std::to_string(s) + ".test";
    h.seeds.push_back("http://" + host + "/");
    homes.push_back(++id);
    h.Add(homes.back(), h.seeds.back()).host = host;
  }
  for (int s = 0; s < 4; ++s) {
    const std::string host = "s" + std::to_string(s) + ".test";
    for (int n = 0; n < 6; ++n) {
      entries[s].push_back(++id);
      KnownUrl& u = h.Add(id, "http://" + host + "/h/1" + std::to_string(s) + std::to_string(n) +
                                  ".html");
      u.host = host;
      u.depth = 2;
      u.anchor = "Entry";
      h.links.push_back({id, homes[s]});
    }
  }
  for (int s = 0; s < 4; ++s) {
    const std::string host = "s" + std::to_string(s) + ".test";
    dirs.push_back(++id);
    KnownUrl& u = h.Add(id, "http://" + host + "/h/9" + std::to_string(s) + "0.html");
    u.host = host;
    u.depth = 2;
    u.anchor = "Entry";
    h.links.push_back({homes[s], id});
    for (UrlId e : entries[s]) h.links.push_back({id, e});
  }
  auto p = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, 8, 0}, h, &plan).ok()) ;
  std::set<UrlId> got;
  for (const Revisit& r : plan.revisits) got.insert(r.url_id);
  for (UrlId d : dirs) EXPECT_TRUE(got.count(d)) << h.urls.at(d).url;
  for (const auto& e : entries) {
    for (UrlId u : e) EXPECT_FALSE(got.count(u)) << h.urls.at(u).url;
  }
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

// Sites() with a different URL scale per site: site s's paths start with
// 40 s bytes of prefix, so a section URL of s3 is longer than any content
// URL of s0. Within a site the sections are still the shorter, shallower
// URLs: what the site-relative features read.
FakeRoundHistory ScaledSites() {
  FakeRoundHistory h = Sites();
  for (auto& [id, u] : h.urls) {
    const int s = u.host[1] - '0';
    const size_t slash = u.url.find('/', 8);
    if (u.url.compare(slash, 5, "/docs") == 0) {
      u.url.insert(slash, "/" + std::string(40 * s, 'p'));
    }
  }
  return h;
}

// A site-relative model file (train hub-svm --features url-site) trained on
// sites s0 and s1 of `h`, with the percentiles among all stored pages of
// each host: what the policy computes at scoring time.
std::string SiteRelativeModelFile(const FakeRoundHistory& h, hub::HubFeatureSpec spec,
                                  const std::string& name) {
  std::vector<hub::HubExample> rows;
  for (const auto& [id, u] : h.urls) {
    hub::HubExample e;
    e.url = u.url;
    e.host = u.host;
    e.anchor = u.anchor;
    e.crawl_depth = u.depth;
    e.page_size = 1000;
    e.label = IsSection(u.url) ? 1 : 0;
    rows.push_back(e);
  }
  const auto encoded = hub::EncodeHubRows(spec, rows);
  std::vector<size_t> train;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].host == "s0.test" || rows[i].host == "s1.test") train.push_back(i);
  }
  SvmGridOptions g;
  g.log2c_min = 1, g.log2c_max = 5, g.log2c_step = 4;
  g.log2g_min = -3, g.log2g_max = 1, g.log2g_step = 4;
  g.folds = 3;
  g.threads = 1;
  auto m = SvmModel::Train(hub::SpecDataset(spec, rows, encoded, train),
                           std::string(hub::HubSpecModelKind(spec)), g);
  EXPECT_TRUE(m.ok()) << m.status().message();
  const std::string path = ::testing::TempDir() + "/" + name;
  EXPECT_TRUE(m->Save(path).ok());
  return path;
}

TEST(HubsPolicyTest, ASiteRelativeModelFileScoresWithTheCrawlsSitePercentiles) {
  FakeRoundHistory h = ScaledSites();
  RoundPolicyContext ctx;
  ctx.model_file = SiteRelativeModelFile(
      h, {hub::HubFeatureSet::kBeforeDownload, hub::HubFeatureReading::kSiteRelative},
      "site-hub-model");
  auto p = MakeRoundPolicy("hubs", ctx);
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, -1, 0}, h, &plan).ok());
  EXPECT_NE(plan.note.find("url-site features"), std::string::npos) << plan.note;
  // The sections of all four sites, also of s2 and s3 whose URL scale the
  // model never saw, and no content page.
  int sections = 0;
  for (const auto& u : RevisitedUrls(h, plan)) {
    EXPECT_EQ(u.find("page-"), std::string::npos) << "content page revisited: " << u;
    sections += IsSection(u);
  }
  EXPECT_EQ(sections, 8);

  // The state says which features the model reads; another process plans
  // the same round from it.
  const std::string state = (*p)->SaveState();
  EXPECT_NE(state.find("\nfeatures url-site\n"), std::string::npos) << state.substr(0, 120);
  auto q = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE((*q)->RestoreState(state).ok());
  RoundPlan again;
  ASSERT_TRUE((*q)->Plan({1, -1, 0}, h, &again).ok());
  ASSERT_EQ(again.revisits.size(), plan.revisits.size());
  for (size_t i = 0; i < again.revisits.size(); ++i) {
    EXPECT_EQ(again.revisits[i].url_id, plan.revisits[i].url_id);
    EXPECT_DOUBLE_EQ(again.revisits[i].priority, plan.revisits[i].priority);
  }

  // Learning keeps the reading: the examples are site percentiles too.
  h.summary.round = 1;
  for (const auto& [id, u] : h.urls) {
    if (u.url.back() != '/') continue;
    UrlOutcome o;
    o.url_id = id;
    o.revisit = true;
    o.state = UrlState::kUnchanged;
    o.new_links = IsSection(u.url) && (u.host == "s0.test" || u.host == "s3.test") ? 2 : 0;
    h.outcomes[1].push_back(o);
  }
  ASSERT_TRUE((*q)->OnRoundFinished(h).ok());
  const std::string learned = (*q)->SaveState();
  EXPECT_NE(learned.find("\nfeatures url-site\n"), std::string::npos);
  EXPECT_NE(learned.find("hub-url-site-relative"), std::string::npos);
  // The url length (2nd value) is the mid-rank percentile among the 15
  // pages of its site: (pages shorter + half of those as long) / 15. The
  // home is the shortest: (0 + 0.5) / 15; the two sections are as long as
  // each other and longer only than the home: (1 + 1) / 15. The examples
  // are the 4 homes and 8 sections; the positives are the 4 sections that
  // yielded links.
  std::istringstream in(learned.substr(learned.find("examples ")));
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line, "examples 12");
  int homes = 0, learned_sections = 0, positives = 0;
  for (int i = 0; i < 12; ++i) {
    std::getline(in, line);
    std::istringstream row(line);
    double label, anchor, url_length;
    ASSERT_TRUE(row >> label >> anchor >> url_length) << line;
    if (std::abs(url_length - 0.5 / 15) < 1e-6) {
      ++homes;
      EXPECT_LE(label, 0.0) << line;
    } else {
      EXPECT_NEAR(url_length, 2.0 / 15, 1e-6) << line;
      ++learned_sections;
      positives += label > 0;
    }
  }
  EXPECT_EQ(homes, 4);
  EXPECT_EQ(learned_sections, 8);
  EXPECT_EQ(positives, 4);
}

TEST(HubsPolicyTest, AModelOfAnotherFeatureReadingIsRefused) {
  FakeRoundHistory h = ScaledSites();
  // A full-set model (page size): the policy scores before-download features.
  RoundPolicyContext ctx;
  ctx.model_file = SiteRelativeModelFile(
      h, {hub::HubFeatureSet::kFull, hub::HubFeatureReading::kSiteRelative}, "full-site-model");
  auto p = MakeRoundPolicy("hubs", ctx);
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  Status s = (*p)->Plan({1, -1, 0}, h, &plan);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("before-download hub URL model"), std::string::npos) << s.message();

  // A state that says url-site but holds a raw model (or the reverse) is
  // refused: its kind does not match.
  auto raw = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE((*raw)->Plan({1, -1, 0}, h, &plan).ok());
  std::string state = (*raw)->SaveState();
  const size_t at = state.find("\nfeatures url\n");
  ASSERT_NE(at, std::string::npos) << state.substr(0, 120);
  state.replace(at, 14, "\nfeatures url-site\n");
  auto q = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(q.ok());
  s = (*q)->RestoreState(state);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("hub-url-site-relative"), std::string::npos) << s.message();
  // A version-1 state (no features line) is a raw one and still loads.
  std::string v1 = (*raw)->SaveState();
  v1.replace(v1.find("topicrawl-hubs-policy 2\nfeatures url\n"), 37, "topicrawl-hubs-policy 1\n");
  auto old = MakeRoundPolicy("hubs", {});
  ASSERT_TRUE(old.ok());
  ASSERT_TRUE((*old)->RestoreState(v1).ok());
  EXPECT_EQ((*old)->SaveState(), (*raw)->SaveState());
  // An unknown reading is refused by name.
  state.replace(at, 19, "\nfeatures url-xyz\n");
  s = (*q)->RestoreState(state);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("features"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace topicrawl
