#include "web/evolve_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "web/html_links.h"
#include "web/web_evolver.h"

namespace topicrawl::web {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A site: root 0 -> sections 1..S -> articles (leaves), articles also link
// back to their section and to the root.
PageGraph NewsSite(size_t sections, size_t per_section) {
  PageGraph g;
  g.links.resize(1 + sections + sections * per_section);
  g.roots = {0};
  uint32_t next = static_cast<uint32_t>(1 + sections);
  for (uint32_t s = 1; s <= sections; ++s) {
    g.links[0].push_back(s);
    g.links[s].push_back(0);
    for (size_t a = 0; a < per_section; ++a) {
      g.links[s].push_back(next);
      g.links[next].push_back(s);
      g.links[next].push_back(0);
      ++next;
    }
  }
  return g;
}

TEST(EvolvePlanTest, RootsFromUnlinkedPagesTakesIncludedPagesNobodyLinksTo) {
  // 0 -> 1 -> 2, 3 links only to itself, 4 is unlinked but not included.
  PageGraph graph;
  graph.links = {{1}, {2}, {}, {3}, {}};
  RootsFromUnlinkedPages({1, 1, 1, 1, 0}, &graph);
  EXPECT_THAT(graph.roots, ::testing::ElementsAre(0u, 3u));

  // A cycle: every page is linked to, so page 0 stands in.
  PageGraph cycle;
  cycle.links = {{1}, {0}};
  RootsFromUnlinkedPages({1, 1}, &cycle);
  EXPECT_THAT(cycle.roots, ::testing::ElementsAre(0u));
}

TEST(EvolvePlanTest, SameSeedSamePlanOtherSeedOtherPlan) {
  PageGraph g = NewsSite(20, 50);
  EvolveOptions o;
  o.rounds = 4;
  o.seed = 7;
  auto a = PlanEvolution(g, o), b = PlanEvolution(g, o);
  ASSERT_TRUE(a.ok() && b.ok());
  o.seed = 8;
  auto c = PlanEvolution(g, o);
  ASSERT_TRUE(c.ok());
  size_t diff_ab = 0, diff_ac = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    auto same = [](const PagePlan& x, const PagePlan& y) {
      return x.publish_round == y.publish_round && x.gone_round == y.gone_round &&
             x.gone_code == y.gone_code && x.edit_rounds == y.edit_rounds;
    };
    diff_ab += same(a->pages[i], b->pages[i]) ? 0 : 1;
    diff_ac += same(a->pages[i], c->pages[i]) ? 0 : 1;
  }
  EXPECT_EQ(diff_ab, 0u);
  EXPECT_GT(diff_ac, 50u);
}

TEST(EvolvePlanTest, RatesAreMet) {
  PageGraph g = NewsSite(40, 100);  // 4041 pages
  const size_t n = g.size();
  EvolveOptions o;
  o.rounds = 4;
  o.new_rate = 0.02;
  o.change_rate = 0.05;
  o.gone_rate = 0.005;
  o.model = EvolveModel::kLegacy;
  auto plan = PlanEvolution(g, o);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // hidden = new_rate x rounds x pages, published evenly.
  EXPECT_EQ(plan->published[0], 4 * static_cast<size_t>(std::llround(0.02 * n)));
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(plan->published[k], static_cast<size_t>(std::llround(0.02 * n))) << k;
    EXPECT_NEAR(static_cast<double>(plan->gone[k]), 0.005 * n, 3) << k;
    // Binomial: 5 % of ~3,700 present pages, +- 4 sigma.
    EXPECT_NEAR(static_cast<double>(plan->edited[k]), 0.05 * n, 60) << k;
  }
  // Volatile pages carry most of the edits.
  size_t hot = 0, all = 0;
  for (const PagePlan& p : plan->pages) {
    all += p.edit_rounds.size();
    if (p.is_volatile) hot += p.edit_rounds.size();
  }
  EXPECT_NEAR(static_cast<double>(hot) / static_cast<double>(all), 0.8, 0.06);
}

TEST(EvolvePlanTest, PlanGammaHasTheMomentsOfAGammaVariate) {
  for (double shape : {0.2, 1.0, 2.5}) {
    double sum = 0, sum2 = 0;
    const int n = 40000;
    for (int i = 0; i < n; ++i) {
      double g = PlanGamma(shape, 3, static_cast<uint64_t>(i), 9);
      ASSERT_GE(g, 0.0);
      sum += g;
      sum2 += g * g;
    }
    const double mean = sum / n, var = sum2 / n - mean * mean;
    // Gamma(k, 1): mean k, variance k. Standard error of the mean sqrt(k/n).
    EXPECT_NEAR(mean, shape, 5 * std::sqrt(shape / n)) << shape;
    EXPECT_NEAR(var, shape, 0.1 * shape) << shape;
  }
}

// The "news" model's statistics: rates met, edits skewed and persistent per
// page, index pages carry their share, and the hubs of new pages are the
// same sections every round.
TEST(EvolvePlanTest, NewsModelChangesAreSkewedPersistentAndHubsStable) {
  PageGraph g = NewsSite(300, 10);  // 3301 pages, 301 index pages
  const size_t n = g.size();
  EvolveOptions o;
  o.rounds = 4;
  o.seed = 11;
  ASSERT_EQ(o.model, EvolveModel::kNews) << "the default";
  auto plan = PlanEvolution(g, o);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(plan->published[k], static_cast<size_t>(std::llround(0.02 * n))) << k;
    EXPECT_NEAR(static_cast<double>(plan->edited[k]), 0.05 * n, 60) << k;
  }
  // Index pages (root + sections) carry ~70 % of the edits.
  size_t all = 0, on_index = 0;
  std::vector<double> p;
  for (uint32_t i = 0; i < n; ++i) {
    const PagePlan& page = plan->pages[i];
    all += page.edit_rounds.size();
    if (i <= 300) {
      EXPECT_TRUE(page.is_volatile) << i;
      on_index += page.edit_rounds.size();
    } else {
      EXPECT_FALSE(page.is_volatile) << i;
    }
    p.push_back(page.change_p);
  }
  EXPECT_NEAR(static_cast<double>(on_index) / static_cast<double>(all), 0.7, 0.08);
  // Skewed: the 10 % of pages with the highest probability carry more than
  // half of the expected edits (uniform rates: 10 %).
  std::sort(p.rbegin(), p.rend());
  double top = 0, sum = 0;
  for (size_t i = 0; i < p.size(); ++i) (i < p.size() / 10 ? top : sum) += p[i];
  sum += top;
  EXPECT_GT(top / sum, 0.5);
  // Persistent: a page edited in round k is edited again in round k+1 far
  // more often than a page that was not.
  double again = 0, edited = 0, fresh = 0, quiet = 0;
  for (const PagePlan& page : plan->pages) {
    for (int k = 1; k < 4; ++k) {
      if (!page.Present(k - 1) || !page.Present(k + 1)) continue;
      if (page.EditedIn(k)) {
        ++edited;
        again += page.EditedIn(k + 1);
      } else {
        ++quiet;
        fresh += page.EditedIn(k + 1);
      }
    }
  }
  ASSERT_GT(edited, 50);
  EXPECT_GT(again / edited, 4 * (fresh / quiet));
  // The same draws every time: the probability is the page's, not the round's.
  auto again_plan = PlanEvolution(g, o);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(again_plan->pages[i].change_p, plan->pages[i].change_p);
  // Hubs: the pages linking to the pages published in round k are the same
  // pages in every round; pages of one section share their linkers.
  std::vector<std::set<uint32_t>> linkers(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t t : g.links[i]) linkers[t].insert(i);
  }
  auto parents = [&](const EvolvePlan& pl, int k) {
    std::set<uint32_t> s;
    for (uint32_t i = 0; i < n; ++i) {
      if (pl.pages[i].publish_round == k) s.insert(linkers[i].begin(), linkers[i].end());
    }
    return s;
  };
  auto overlap = [](const std::set<uint32_t>& a, const std::set<uint32_t>& b) {
    size_t both = 0;
    for (uint32_t x : a) both += b.count(x);
    return static_cast<double>(both) / static_cast<double>(std::max(a.size(), b.size()));
  };
  for (int k = 1; k < 4; ++k) EXPECT_GT(overlap(parents(*plan, k), parents(*plan, k + 1)), 0.8) << k;
  std::map<uint32_t, std::set<uint32_t>> section_linkers;
  for (uint32_t i = 0; i < n; ++i) {
    const PagePlan& page = plan->pages[i];
    if (page.publish_round == 0) continue;
    ASSERT_NE(page.section, UINT32_MAX);
    auto [it, fresh] = section_linkers.emplace(page.section, linkers[i]);
    if (!fresh) {
      EXPECT_EQ(it->second, linkers[i]) << i;
    }
  }
  // The legacy model scatters them: new pages hang off other sections each round.
  o.model = EvolveModel::kLegacy;
  auto legacy = PlanEvolution(g, o);
  ASSERT_TRUE(legacy.ok());
  EXPECT_LT(overlap(parents(*legacy, 1), parents(*legacy, 2)), 0.5);
}

TEST(EvolvePlanTest, TruePageRateCombinesEditsAndLinkGains) {
  // Hand-built plan: 0 -> {1, 2, 3}; 1 -> 2. Page 2 is published in round 2,
  // page 3 in round 4 (after the last round: never), page 1 is gone from
  // round 3 on.
  PageGraph g;
  g.links = {{1, 2, 3}, {2}, {}, {}};
  g.roots = {0};
  EvolvePlan plan;
  plan.rounds = 3;
  plan.pages.resize(4);
  plan.pages[0].change_p = 0.2;
  plan.pages[1].change_p = 0.5;
  plan.pages[1].gone_round = 3;
  plan.pages[2].publish_round = 2;
  plan.pages[3].publish_round = kNever;
  // Page 0: present in rounds 0..3, gains a link in round 2 of 3 rounds.
  PageRate r0 = TruePageRate(plan, g, 0);
  EXPECT_DOUBLE_EQ(r0.edit_p, 0.2);
  EXPECT_DOUBLE_EQ(r0.hub_share, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(r0.change_p, 1.0 - 0.8 * (2.0 / 3.0));
  // Page 1: rounds 1 and 2 count (round 3: gone), gains in round 2.
  PageRate r1 = TruePageRate(plan, g, 1);
  EXPECT_DOUBLE_EQ(r1.hub_share, 0.5);
  EXPECT_DOUBLE_EQ(r1.change_p, 0.75);
  // Page 2: can change in round 3 only; links to nothing.
  EXPECT_DOUBLE_EQ(TruePageRate(plan, g, 2).change_p, 0.0);
  EXPECT_DOUBLE_EQ(TruePageRate(plan, g, 3).hub_share, 0.0);
}

TEST(EvolvePlanTest, HiddenAndGonePagesAreLeavesWhoseBfsParentStays) {
  PageGraph g = NewsSite(10, 30);
  EvolveOptions o;
  o.rounds = 3;
  o.new_rate = 0.05;
  o.gone_rate = 0.02;
  auto plan = PlanEvolution(g, o);
  ASSERT_TRUE(plan.ok());
  size_t hidden = 0, gone = 0;
  for (uint32_t i = 0; i < g.size(); ++i) {
    const PagePlan& p = plan->pages[i];
    if (p.publish_round > 0) {
      ++hidden;
      EXPECT_GT(i, 10u) << "sections and the root are never hidden";
      uint32_t parent = plan->bfs_parent[i];
      ASSERT_NE(parent, UINT32_MAX);
      EXPECT_EQ(plan->pages[parent].publish_round, 0);
      EXPECT_EQ(plan->pages[parent].gone_round, kNever);
      EXPECT_EQ(p.gone_round, kNever) << "a hidden page never goes";
    }
    if (p.gone_round != kNever) {
      ++gone;
      EXPECT_GT(i, 10u);
      EXPECT_TRUE(p.gone_code == 404 || p.gone_code == 410);
      EXPECT_TRUE(p.edit_rounds.empty() || p.edit_rounds.back() < p.gone_round);
    }
    for (int r : p.edit_rounds) {
      EXPECT_TRUE(p.Present(r - 1) && p.Present(r)) << "edits only on pages existing in both rounds";
    }
  }
  EXPECT_GT(hidden, 0u);
  EXPECT_GT(gone, 0u);
}

TEST(EvolvePlanTest, HiddenPagesAreMostlyThoseWithFewLinkers) {
  // Root 0 -> hubs 1..20; leaves 21..220: the even ones are linked from
  // every hub, the odd ones from one (even) hub only. Odd hubs other than
  // 1 have no BFS child: they are leaves with one linker too.
  PageGraph g;
  g.links.resize(221);
  g.roots = {0};
  for (uint32_t h = 1; h <= 20; ++h) {
    g.links[0].push_back(h);
    for (uint32_t leaf = 21; leaf <= 220; ++leaf) {
      if (leaf % 2 == 0 || (leaf % 20) + 1 == h) g.links[h].push_back(leaf);
    }
  }
  EvolveOptions o;
  o.rounds = 2;
  o.new_rate = 0.1;  // 44 hidden of 200 leaves
  o.model = EvolveModel::kLegacy;  // news: the same weights, grouped by section
  auto plan = PlanEvolution(g, o);
  ASSERT_TRUE(plan.ok());
  size_t odd = 0, even = 0;
  for (uint32_t i = 21; i <= 220; ++i) {
    if (plan->pages[i].publish_round > 0) (i % 2 == 0 ? even : odd)++;
  }
  size_t hubs = 0;
  for (uint32_t i = 1; i <= 20; ++i) hubs += plan->pages[i].publish_round > 0 ? 1 : 0;
  EXPECT_EQ(odd + even + hubs, 44u);
  EXPECT_LE(even, 8u) << "pages with 20 linkers are rarely drawn (uniform: about 21)";
}

TEST(EvolvePlanTest, UnreachablePagesNeverEvolve) {
  PageGraph g = NewsSite(5, 20);
  g.links.resize(g.size() + 30);  // 30 orphans
  EvolveOptions o;
  o.rounds = 5;
  o.new_rate = 0.1;
  o.change_rate = 0.5;
  o.gone_rate = 0.05;
  auto plan = PlanEvolution(g, o);
  ASSERT_TRUE(plan.ok());
  for (size_t i = g.size() - 30; i < g.size(); ++i) {
    const PagePlan& p = plan->pages[i];
    EXPECT_FALSE(p.reachable);
    EXPECT_EQ(p.publish_round, 0);
    EXPECT_EQ(p.gone_round, kNever);
    EXPECT_TRUE(p.edit_rounds.empty());
  }
}

TEST(EvolvePlanTest, LeftoverHiddenPagesStayHidden) {
  PageGraph g = NewsSite(4, 25);
  EvolveOptions o;
  o.rounds = 2;
  o.new_rate = 0.01;
  o.hidden_at_start = 0.2;
  auto plan = PlanEvolution(g, o);
  ASSERT_TRUE(plan.ok());
  size_t never = 0;
  for (const PagePlan& p : plan->pages) never += p.publish_round == kNever ? 1 : 0;
  EXPECT_EQ(plan->published[0], 21u);
  EXPECT_EQ(never, 21u - 2u * 1u);
}

TEST(EvolvePlanTest, BadOptionsAreErrors) {
  PageGraph g = NewsSite(2, 2);
  EvolveOptions o;
  o.rounds = 0;
  EXPECT_THAT(PlanEvolution(g, o).status().message(), HasSubstr("--rounds"));
  o.rounds = 4;
  o.new_rate = 1.5;
  EXPECT_THAT(PlanEvolution(g, o).status().message(), HasSubstr("--new-rate"));
  o.new_rate = 0.3;  // hidden = 1.2
  EXPECT_THAT(PlanEvolution(g, o).status().message(), HasSubstr("--hidden-at-start"));
  o.new_rate = 0.02;
  g.roots = {999};
  EXPECT_THAT(PlanEvolution(g, o).status().message(), HasSubstr("out of range"));
}

TEST(HtmlLinksTest, ResolvesToLabelForm) {
  EXPECT_EQ(ResolveLabelUrl("http://a.test/docs/x.html", "y%20z.html"), "http://a.test/docs/y%20z.html");
  EXPECT_EQ(ResolveLabelUrl("http://a.test/docs/x.html", "sub/"), "http://a.test/docs/sub/index.html");
  EXPECT_EQ(ResolveLabelUrl("http://a.test/docs/x.html", "https://B.test:8443/p?q=1#f"),
            "http://b.test/p");
  EXPECT_EQ(ResolveLabelUrl("http://a.test/docs/x.html", "../o=.html#top"), "http://a.test/o=.html");
  EXPECT_EQ(ResolveLabelUrl("http://a.test/", "mailto:x@y"), "");
  EXPECT_EQ(ResolveLabelUrl("http://a.test/", "javascript:void(0)"), "");
}

TEST(HtmlLinksTest, PageLinksSkipCommentsScriptsAndHonourBase) {
  std::string html =
      "<html><head><base href='http://c.test/b/'><script>var s='<a href=\"no.html\">';</script>"
      "</head><body><!-- <a href='nope.html'> --><A HREF=one.html>1</A>"
      "<area href=\"two.html\"><iframe src='f.html'></iframe><img src='i.png'>"
      "<a name=x>no href</a><a href=\"a&amp;b.html\">amp</a></body></html>";
  EXPECT_THAT(PageLinks(html, "http://a.test/x.html"),
              ElementsAre("http://c.test/b/one.html", "http://c.test/b/two.html",
                          "http://c.test/b/f.html", "http://c.test/b/a&b.html"));
}

TEST(HtmlLinksTest, RemoveLinksDropsOnlyTheAttribute) {
  std::string html = "<p><a class=k href=\"gone.html\">Gone</a> <a href='stay.html'>Stay</a> "
                     "<a href=gone.html>Again</a></p>";
  size_t removed = RemoveLinks(&html, "http://a.test/d/x.html",
                               [](const std::string& u) { return u == "http://a.test/d/gone.html"; });
  EXPECT_EQ(removed, 2u);
  EXPECT_EQ(html, "<p><a class=k >Gone</a> <a href='stay.html'>Stay</a> <a >Again</a></p>");
  EXPECT_THAT(PageLinks(html, "http://a.test/d/x.html"), ElementsAre("http://a.test/d/stay.html"));
}

TEST(HtmlLinksTest, TextBlocksAndParagraphs) {
  std::string html = "<body><p>Short.</p><p class=x>A <b>long</b> enough\nparagraph of text here.</p>"
                     "<p>With <a href=l.html>a link</a> inside it, also long enough.</p></body>";
  EXPECT_THAT(TextBlocks(html, 20),
              ElementsAre("A long enough paragraph of text here.",
                          "With a link inside it, also long enough."));
  auto spans = LinklessParagraphs(html);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(html.substr(spans[0].first, spans[0].second - spans[0].first), "<p>Short.</p>");
  EXPECT_EQ(CountParagraphEnds(html), 3u);
  EXPECT_EQ(InsertionPoint(html, 1), html.find("</p>") + 4);
  EXPECT_EQ(InsertionPoint("<body>x</body>", 1), 7u);
  EXPECT_EQ(InsertionPoint("plain", 1), 5u);
}

TEST(ApplyEditTest, MovesTextFromAnotherPageDeterministically) {
  std::vector<std::string> pages = {
      "<body><p>Page zero has its own paragraph of moderately long text.</p></body>",
      "<body><p>Donor paragraph one about routers and their many tables.</p>"
      "<p>Donor paragraph two about switches and spanning tree protocol.</p></body>",
  };
  auto read = [&](uint32_t i) { return pages[i]; };
  EditContext ctx{42, 0, 1, {0, 1}};
  std::string a = ApplyEdit(pages[0], ctx, read);
  std::string b = ApplyEdit(pages[0], ctx, read);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, pages[0]);
  EXPECT_THAT(a, HasSubstr("Donor paragraph"));
  EXPECT_THAT(a, Not(HasSubstr("<a ")));
  ctx.round = 2;
  EXPECT_NE(ApplyEdit(pages[0], ctx, read), pages[0]);
  // A host with one page: its own text moves.
  EditContext alone{42, 0, 1, {0}};
  std::string c = ApplyEdit(pages[0], alone, read);
  EXPECT_NE(c, pages[0]);
  EXPECT_THAT(c, HasSubstr("<p>Page zero has its own paragraph of moderately long text.</p>\n"));
}

}  // namespace
}  // namespace topicrawl::web
