// Seed 004's JLSE learner: refusal without a page classifier, the priority
// formula (eq. 10), Gw rebuilds, save/restore of the learned state with
// identical scores, and an end-to-end crawl on 127.0.0.1 that writes
// LinkTable / ResultTable.
#include "strategies/jlse/jlse_learner.h"

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

#include "core/clock.h"
#include "crawl/crawl_config.h"
#include "crawl/crawl_strategy.h"
#include "crawl/crawler.h"
#include "crawl/dedup.h"
#include "frontier/frontier.h"
#include "strategies/jlse/jlse_tables.h"
#include "strategies/jlse/result_page_svm.h"
#include "strategies/strategy_registry.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/jlse-" + name + "-" + std::to_string(getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

std::shared_ptr<const NaiveBayes> Model() {
  auto nb = std::make_shared<NaiveBayes>(NbModelKind::kPage, NbEventModel::kMultinomial);
  nb->Add({"network", "protocol", "tcp", "socket", "router", "packet"}, true);
  nb->Add({"network", "tcp", "ip", "routing", "packet", "socket"}, true);
  nb->Add({"cooking", "recipe", "garden", "flower", "soup", "bread"}, false);
  nb->Add({"recipe", "bread", "cake", "garden", "weather", "music"}, false);
  return nb;
}

std::string Words(const std::string& w, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += w + " ";
  return s;
}

// A relevant page (NB positive) with the given links (anchor, url).
ParsedPage Page(const std::string& words, int n,
                const std::vector<std::pair<std::string, std::string>>& links) {
  ParsedPage p;
  p.text = Words(words, n);
  p.text_blocks = {p.text};
  for (const auto& [anchor, url] : links) {
    Outlink l;
    l.url = url;
    l.anchor = anchor;
    l.dom_context = anchor + " network section";
    p.links.push_back(l);
    p.text += "\n" + anchor;
  }
  return p;
}

CrawlTask Task(const std::string& url, PageId parent, uint32_t depth,
               const std::string& anchor = "") {
  CrawlTask t;
  t.url = url;
  t.url_id = DedupId(url, true);
  t.parent_page_id = parent;
  t.depth = depth;
  t.anchor = anchor;
  return t;
}

TEST(JlseStrategyTest, RefusesATopicWithoutExamplesOrModel) {
  const std::string dir = TempDir("refuse");
  StrategyContext ctx;
  ctx.topic_file = WriteFile(dir + "/t.toml",
                             "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n");
  for (const char* name : {"jlse", "ata"}) {
    auto s = MakeCrawlStrategy(name, ctx);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.status().message().find("page classifier"), std::string::npos)
        << s.status().message();
    EXPECT_NE(s.status().message().find("train page-nb"), std::string::npos);
  }
  ctx.topic_file.clear();
  EXPECT_FALSE(MakeCrawlStrategy("jlse", ctx).ok());
  // Unknown keys and URL examples are refused with their names.
  ctx.topic_file = WriteFile(dir + "/u.toml",
                             "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                             "[strategy.jlse]\ncff = 3\n");
  auto s = MakeCrawlStrategy("jlse", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("cff"), std::string::npos);
}

TEST(JlseStrategyTest, TrainsFromExampleFilesAndUsesParameters) {
  const std::string dir = TempDir("examples");
  WriteFile(dir + "/pos.html", "<p>" + Words("network protocol tcp", 30) + "</p>");
  WriteFile(dir + "/neg.html", "<p>" + Words("cooking recipe bread", 30) + "</p>");
  StrategyContext ctx;
  ctx.out_dir = dir;
  ctx.topic_file = WriteFile(dir + "/t.toml",
                             "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                             "[topic.examples]\npositive = [\"pos.html\"]\n"
                             "negative = [\"neg.html\"]\n"
                             "[strategy.jlse]\ncf = 2\ngamma = 0.8\npriority = \"product\"\n");
  auto s = MakeCrawlStrategy("jlse", ctx);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->name, "jlse");
  PageAssessment a;
  ParsedPage page = Page("network tcp protocol", 10, {{"tcp socket", "http://a.test/x"}});
  s->judge->Assess(Task("http://a.test/", 0, 0), page, &a);
  EXPECT_GT(a.relevance, 0.5);
  ASSERT_EQ(a.links.size(), 1u);
  EXPECT_TRUE(a.links[0].admit);
  // "product": P(c|d) * sim.
  EXPECT_GT(a.links[0].score, 0.0);
  EXPECT_LE(a.links[0].score, a.relevance);
  WriteFile(dir + "/bad.toml",
            "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
            "[topic.examples]\npositive = [\"http://x.test/\"]\nnegative = [\"neg.html\"]\n");
  ctx.topic_file = dir + "/bad.toml";
  auto bad = MakeCrawlStrategy("jlse", ctx);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("is a URL"), std::string::npos);
}

// Eq. 10: priority(i) = P(c|d_k) * sim(i) / sum_{v in O_k} sim(v), sim =
// max(sim_anchor, sim_predicted); an irrelevant page is not expanded.
TEST(JlseStrategyTest, PriorityFormula) {
  JlseParams p;
  auto learner = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(learner.ok()) << learner.status().message();
  JlseLearner& l = **learner;
  ParsedPage page = Page("network tcp socket", 10,
                         {{"tcp socket", "http://a.test/1"},
                          {"bread recipe", "http://a.test/2"},
                          {"", "http://a.test/3"}});
  PageAssessment a;
  l.Assess(Task("http://a.test/", 0, 0), page, &a);
  const double pc = a.relevance;
  EXPECT_GT(pc, 0.5);
  std::vector<double> sims;
  double sum = 0;
  for (const auto& link : page.links) {
    sims.push_back(l.ScoreLink(l.Fields(link.anchor, link.url, link.dom_context)).sim());
    sum += sims.back();
  }
  EXPECT_GT(sims[0], 0.5);                // NB-positive anchor: P(+|anchor)
  EXPECT_DOUBLE_EQ(sims[1], 0.01);        // NB-negative anchor
  EXPECT_DOUBLE_EQ(sims[2], 0.01);        // no anchor words
  for (size_t i = 0; i < sims.size(); ++i) {
    EXPECT_NEAR(a.links[i].score, pc * sims[i] / sum, 1e-12) << i;
    EXPECT_TRUE(a.links[i].admit);
  }
  // Irrelevant page: stored, not expanded.
  PageAssessment b;
  l.Assess(Task("http://a.test/c", 0, 0),
           Page("cooking bread recipe", 10, {{"tcp socket", "http://a.test/4"}}), &b);
  EXPECT_LT(b.relevance, 0.5);
  EXPECT_FALSE(b.links[0].admit);
}

// Feeds a small crawl: seed -> hub -> 3 result pages, all with cf = 1.
void Feed(JlseLearner* l, std::vector<UrlId>* queued_ids) {
  absl::flat_hash_set<UrlId> queued;
  auto in_queue = [&](UrlId u) { return queued.contains(u); };
  auto store = [&](const CrawlTask& t, const ParsedPage& page, PageId id) {
    PageAssessment a;
    l->Assess(t, page, &a);
    for (size_t i = 0; i < page.links.size(); ++i) {
      if (a.links[i].admit) queued.insert(DedupId(page.links[i].url, true));
    }
    l->OnStored(t, id, page, a, in_queue);
    queued.erase(t.url_id);
  };
  std::vector<std::pair<std::string, std::string>> hub_links;
  for (int i = 0; i < 6; ++i) {
    hub_links.push_back({"tcp guide part " + std::to_string(i),
                         "http://a.test/net/guide" + std::to_string(i) + ".html"});
  }
  hub_links.push_back({"cooking recipes", "http://a.test/food/recipes.html"});
  store(Task("http://a.test/", 0, 0),
        Page("network tcp", 5, {{"networking hub", "http://a.test/net/"}}), 1);
  store(Task("http://a.test/net/", 1, 1, "networking hub"), Page("network tcp", 5, hub_links),
        2);
  for (int i = 0; i < 3; ++i) {
    // Long text, one link: a detail page, i.e. a result (not expanded).
    store(Task(hub_links[i].second, 2, 2, hub_links[i].first),
          Page("network protocol tcp socket packet", 40,
               {{"next", "http://a.test/net/more" + std::to_string(i) + ".html"}}),
          3 + i);
  }
  for (UrlId u : queued) queued_ids->push_back(u);
}

TEST(JlseStrategyTest, GraphLearningAndSaveRestoreGiveIdenticalScores) {
  JlseParams p;
  p.cf = 1;
  auto learner = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(learner.ok());
  std::vector<UrlId> queued;
  Feed(learner->get(), &queued);
  const auto st = (*learner)->stats();
  EXPECT_EQ(st.result_pages, 3);
  EXPECT_EQ(st.rebuilds, 3);
  EXPECT_EQ(st.gw_vertices, 5);  // seed, hub, 3 results
  ASSERT_EQ((*learner)->results().size(), 3u);
  // An unseen guide link with an NB-negative anchor maps onto a guide
  // vertex (a result: value r_d = 1).
  JlseLinkFields f = (*learner)->Fields("bread guide part 9", "http://a.test/net/guide9.html", "");
  JlseLinkScore s = (*learner)->ScoreLink(f);
  EXPECT_DOUBLE_EQ(s.sim_anchor, 0.01);
  EXPECT_GE(s.vertex, 0);
  EXPECT_TRUE(s.mapped);
  EXPECT_DOUBLE_EQ(s.value, 1.0);
  EXPECT_GT(s.sim_predicted, 0.2);
  // With an NB-positive anchor above every vertex's s_j, the search stops
  // at that threshold: mapped, no vertex, sim = sim_anchor.
  JlseLinkScore t = (*learner)->ScoreLink(
      (*learner)->Fields("tcp socket packet", "http://a.test/net/guide9.html", ""));
  EXPECT_GT(t.sim_anchor, 0.9);
  EXPECT_TRUE(t.mapped);
  if (t.vertex < 0) {
    EXPECT_EQ(t.sim(), t.sim_anchor);
  }
  // The queued guide links (3..5) now rank above the queued food link: their
  // nearest Gw vertices are results (V = 1), the food link's is not.
  ASSERT_FALSE(queued.empty());
  const double guide = (*learner)->Rescore(DedupId("http://a.test/net/guide4.html", true), -1);
  const double food = (*learner)->Rescore(DedupId("http://a.test/food/recipes.html", true), -1);
  EXPECT_GT(guide, 0.0);
  EXPECT_GT(guide, 2 * food);

  const std::string bytes = (*learner)->SaveState();
  auto fresh = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(fresh.ok());
  Status rs = (*fresh)->RestoreState(bytes);
  ASSERT_TRUE(rs.ok()) << rs.message();
  EXPECT_EQ((*fresh)->SaveState(), bytes);
  for (const char* anchor : {"tcp guide part 9", "cooking recipes", "networking hub", "x"}) {
    JlseLinkFields q = (*learner)->Fields(anchor, "http://a.test/net/x.html", "tcp context");
    JlseLinkScore a = (*learner)->ScoreLink(q);
    JlseLinkScore b = (*fresh)->ScoreLink(q);
    EXPECT_EQ(a.sim_anchor, b.sim_anchor) << anchor;
    EXPECT_EQ(a.sim_predicted, b.sim_predicted) << anchor;
    EXPECT_EQ(a.vertex, b.vertex) << anchor;
  }
  for (UrlId u : queued) EXPECT_EQ((*learner)->Rescore(u, -1), (*fresh)->Rescore(u, -1));
  EXPECT_EQ((*learner)->Rescore(12345, -7), -7);  // unknown: keeps its score
  // Malformed state is an error, never a crash.
  EXPECT_FALSE((*fresh)->RestoreState("garbage").ok());
  EXPECT_FALSE((*fresh)->RestoreState(bytes.substr(0, bytes.size() / 2)).ok());
}

// A result-page SVM that calls every page with a low TextDegree a result:
// it, not the rule, decides (the rule would call the short page a link page).
std::shared_ptr<const SvmModel> InvertedResultModel() {
  SvmDataset d;
  d.feature_names = ResultPageFeatureNames();
  for (int i = 0; i < 20; ++i) {
    const double j = 0.05 * i;
    d.Add({-3.0 + j, -2.0 + j, 0.1 + j}, 1);  // short pages: "result"
    d.Add({3.0 + j, -6.0 + j, 2.0 + j}, 0);   // long pages: not
  }
  SvmGridOptions g;
  g.log2c_min = g.log2c_max = 1;
  g.log2g_min = g.log2g_max = -1;
  g.folds = 2;
  g.threads = 1;
  auto m = SvmModel::Train(d, kResultPageModelKind, g);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return std::make_shared<SvmModel>(std::move(m).value());
}

TEST(JlseStrategyTest, ResultModelDecidesResultPagesAndIsPartOfTheTopic) {
  JlseParams p;
  auto rule = JlseLearner::Create(p, Model(), {});
  auto svm = JlseLearner::Create(p, Model(), {}, InvertedResultModel());
  ASSERT_TRUE(rule.ok() && svm.ok());
  EXPECT_FALSE((*rule)->has_result_model());
  EXPECT_TRUE((*svm)->has_result_model());
  auto verdict = [](JlseLearner* l, const ParsedPage& page) {
    PageAssessment a;
    l->Assess(Task("http://a.test/p", 0, 0), page, &a);
    return a.explanation.find("\"result\":1") != std::string::npos;
  };
  // Relevant, 200 words, one link: a DetailPage by the rule; short: not.
  const ParsedPage long_page = Page("network protocol tcp socket packet", 40,
                                    {{"next", "http://a.test/n"}});
  const ParsedPage short_page = Page("network tcp", 5, {{"next", "http://a.test/n"},
                                                       {"tcp", "http://a.test/m"}});
  EXPECT_TRUE(verdict(rule->get(), long_page));
  EXPECT_FALSE(verdict(rule->get(), short_page));
  EXPECT_FALSE(verdict(svm->get(), long_page));
  EXPECT_TRUE(verdict(svm->get(), short_page));
  // The result model is part of the topic: the other learner's state is refused.
  EXPECT_NE((*rule)->TopicFingerprint(), (*svm)->TopicFingerprint());
  Status s = (*svm)->RestoreState((*rule)->SaveState());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("another topic"), std::string::npos) << s.message();
  EXPECT_TRUE((*rule)->RestoreState((*rule)->SaveState()).ok());
}

// [strategy.jlse] result_model loads a `train result-svm` model next to the
// topic file; a model of another kind is refused with the key's name.
TEST(JlseStrategyTest, ResultModelKeyLoadsTheSvm) {
  const std::string dir = TempDir("result-model");
  WriteFile(dir + "/pos.html", "<p>" + Words("network protocol tcp", 30) + "</p>");
  WriteFile(dir + "/neg.html", "<p>" + Words("cooking recipe bread", 30) + "</p>");
  ASSERT_TRUE(InvertedResultModel()->Save(dir + "/result.svm").ok());
  SvmDataset d;
  d.feature_names = ResultPageFeatureNames();
  for (int i = 0; i < 6; ++i) d.Add({1.0 * i, 0.0, 0.0}, i % 2);
  SvmGridOptions g;
  g.log2c_min = g.log2c_max = 0;
  g.log2g_min = g.log2g_max = 0;
  g.folds = 2;
  g.threads = 1;
  auto hub = SvmModel::Train(d, "hub-url", g);
  ASSERT_TRUE(hub.ok());
  ASSERT_TRUE(hub->Save(dir + "/hub.svm").ok());
  StrategyContext ctx;
  ctx.out_dir = dir;
  auto topic = [&](const std::string& model) {
    return WriteFile(dir + "/t-" + model + ".toml",
                     "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                     "[topic.examples]\npositive = [\"pos.html\"]\nnegative = [\"neg.html\"]\n"
                     "[strategy.jlse]\nresult_model = \"" + model + "\"\n");
  };
  ctx.topic_file = topic("result.svm");
  auto ok = MakeCrawlStrategy("jlse", ctx);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  ctx.topic_file = topic("hub.svm");
  auto bad = MakeCrawlStrategy("jlse", ctx);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("result_model"), std::string::npos)
      << bad.status().message();
  ctx.topic_file = topic("missing.svm");
  EXPECT_FALSE(MakeCrawlStrategy("jlse", ctx).ok());
}

// The link cache changes nothing: two learners, one without it, see the same
// crawl (every page assessed twice, so repeated links hit the cache, also
// across Gw rebuilds) and give the same scores and the same state.
TEST(JlseStrategyTest, LinkCacheGivesIdenticalScores) {
  JlseParams p;
  p.cf = 1;
  auto cached = JlseLearner::Create(p, Model(), {});
  auto plain = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(cached.ok() && plain.ok());
  (*plain)->set_link_cache(false);
  std::vector<UrlId> q1, q2;
  Feed(cached->get(), &q1);
  Feed(plain->get(), &q2);
  EXPECT_EQ((*cached)->SaveState(), (*plain)->SaveState());
  const ParsedPage page = Page("network tcp", 5,
                               {{"tcp guide part 7", "http://a.test/net/guide7.html"},
                                {"cooking recipes", "http://a.test/food/recipes.html"},
                                {"tcp guide part 1", "http://a.test/net/guide1.html"}});
  for (int round = 0; round < 4; ++round) {  // odd rounds: the same snapshot again
    PageAssessment a, b;
    (*cached)->Assess(Task("http://a.test/z", 2, 2), page, &a);
    (*plain)->Assess(Task("http://a.test/z", 2, 2), page, &b);
    ASSERT_EQ(a.links.size(), b.links.size());
    for (size_t i = 0; i < a.links.size(); ++i) {
      EXPECT_EQ(a.links[i].score, b.links[i].score) << round << " " << i;
      EXPECT_EQ(a.links[i].explanation, b.links[i].explanation);
    }
    if (round % 2 == 1) {
      (*cached)->Rebuild();
      (*plain)->Rebuild();
    }
  }
  EXPECT_GT((*cached)->stats().cache_scored, 0);
  EXPECT_GT((*cached)->stats().cache_hits, (*cached)->stats().cache_scored);  // after rebuilds
  EXPECT_EQ((*plain)->stats().cache_hits, 0);
}

// A synthetic site crawled in pairs (two pages assessed before either is
// stored, so the second is scored against a snapshot older than the one
// current when it is stored): after every stored page, the priorities of
// the selective re-prioritisation (TakeRescores applied to the previous
// priorities) equal the full re-score of every queued link, bit for bit.
TEST(JlseStrategyTest, SelectiveRescoreEqualsFullRescore) {
  JlseParams p;
  p.cf = 1;
  auto sel = JlseLearner::Create(p, Model(), {});
  auto full = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(sel.ok() && full.ok());
  std::vector<std::string> topics = {"tcp guide", "socket howto", "bread recipe", "router faq",
                                     "garden notes", "packet filter"};
  auto url_of = [](int i) { return "http://s" + std::to_string(i % 3) + ".test/p" +
                                   std::to_string(i) + ".html"; };
  auto page_of = [&](int i) {
    std::vector<std::pair<std::string, std::string>> links;
    for (int k = 1; k <= 5; ++k) {
      const int j = (i * 7 + k * 13) % 97;
      links.push_back({topics[j % topics.size()] + " " + std::to_string(j), url_of(j)});
    }
    // Pages 3k+1 are long (result pages when relevant), others are hubs.
    const bool cooking = i % 5 == 4;
    return Page(cooking ? "cooking bread recipe garden" : "network tcp socket packet",
                i % 3 == 1 ? 40 : 5, links);
  };
  absl::flat_hash_set<UrlId> queued;
  absl::flat_hash_map<UrlId, double> prio;  // the frontier of `sel`
  std::vector<int> order;
  absl::flat_hash_set<int> seen = {0};
  order.push_back(0);
  PageId next_id = 1;
  int checked = 0, rescored = 0;
  for (size_t at = 0; at + 1 < order.size() || at == 0; at += 2) {
    if (at >= order.size()) break;
    const int batch = std::min<int>(2, static_cast<int>(order.size() - at));
    std::vector<CrawlTask> tasks;
    std::vector<ParsedPage> pages;
    std::vector<PageAssessment> sa(batch), fa(batch);
    for (int b = 0; b < batch; ++b) {
      const int i = order[at + b];
      tasks.push_back(Task(url_of(i), i == 0 ? 0 : 1, i == 0 ? 0 : 1, "a"));
      pages.push_back(page_of(i));
      (*sel)->Assess(tasks[b], pages[b], &sa[b]);
      (*full)->Assess(tasks[b], pages[b], &fa[b]);
    }
    for (int b = 0; b < batch; ++b) {
      for (size_t k = 0; k < pages[b].links.size(); ++k) {
        ASSERT_EQ(sa[b].links[k].score, fa[b].links[k].score);
        if (!sa[b].links[k].admit) continue;
        const UrlId u = DedupId(pages[b].links[k].url, true);
        if (queued.insert(u).second) prio[u] = sa[b].links[k].score;
      }
      auto in_queue = [&](UrlId u) { return queued.contains(u); };
      const PageId id = next_id++;
      (*sel)->OnStored(tasks[b], id, pages[b], sa[b], in_queue);
      (*full)->OnStored(tasks[b], id, pages[b], fa[b], in_queue);
      queued.erase(tasks[b].url_id);
      prio.erase(tasks[b].url_id);
      for (const auto& [u, sc] : (*sel)->TakeRescores()) {
        if (prio.contains(u)) prio[u] = sc;
        ++rescored;
      }
      for (const auto& [u, sc] : (*full)->RescoreAllQueued()) {
        ASSERT_TRUE(prio.contains(u));
        EXPECT_EQ(prio[u], sc) << "page " << id << " link " << u;
        ++checked;
      }
    }
    for (int b = 0; b < batch; ++b) {
      for (const auto& l : pages[b].links) {
        const int j = std::stoi(l.url.substr(l.url.rfind("/p") + 2));
        if (seen.insert(j).second && order.size() < 60) order.push_back(j);
      }
    }
  }
  const auto st = (*sel)->stats();
  EXPECT_GE(st.rebuilds, 3);
  EXPECT_GT(st.predictions, 0);
  EXPECT_GT(checked, 200);
  EXPECT_GT(rescored, 0);
  // Selective: fewer re-prioritisations than full re-scores.
  EXPECT_LT(rescored, checked);
  // The saved state carries the mappings: a restored learner gives the same
  // priorities.
  auto fresh = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(fresh.ok());
  ASSERT_TRUE((*fresh)->RestoreState((*sel)->SaveState()).ok());
  for (UrlId u : queued) EXPECT_EQ((*fresh)->Rescore(u, -1), prio[u]) << u;
}

TEST(JlseStrategyTest, AtaHasNoPrediction) {
  JlseParams p;
  p.use_graph = false;
  p.cf = 1;
  auto learner = JlseLearner::Create(p, Model(), {});
  ASSERT_TRUE(learner.ok());
  std::vector<UrlId> queued;
  Feed(learner->get(), &queued);
  EXPECT_EQ((*learner)->stats().rebuilds, 0);
  JlseLinkScore s = (*learner)->ScoreLink((*learner)->Fields("tcp guide part 9", "", ""));
  EXPECT_EQ(s.sim_predicted, 0.0);
  EXPECT_EQ(s.vertex, -1);
}

// The links of pages not expanded are held for Refill() once each, never
// when the frontier has seen them, ride the saved state, and are handed out
// once; strict = true hands out nothing.
TEST(JlseStrategyTest, HeldLinksOfPagesNotExpandedAreDistinctAndUnseen) {
  const std::string dir = TempDir("held");
  WriteFile(dir + "/pos.html", "<p>" + Words("network protocol tcp", 30) + "</p>");
  WriteFile(dir + "/neg.html", "<p>" + Words("cooking recipe bread garden", 30) + "</p>");
  auto topic = [&](const std::string& extra) {
    return WriteFile(dir + "/t" + std::to_string(extra.size()) + ".toml",
                     "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                     "[topic.examples]\npositive = [\"pos.html\"]\nnegative = [\"neg.html\"]\n" +
                         extra);
  };
  for (const bool strict : {false, true}) {
    StrategyContext ctx;
    ctx.topic_file = topic(strict ? "[strategy.jlse]\nstrict = true\n" : "");
    auto s = MakeCrawlStrategy("jlse", ctx);
    ASSERT_TRUE(s.ok()) << s.status().message();
    FakeClock clock;
    auto f = Frontier::Create(FrontierOptions{}, &clock, std::move(s->make_selector()).value());
    ASSERT_TRUE(f.ok());
    (*f)->Add({"http://g.test/seen", DedupId("http://g.test/seen", true), 1, 0, "", 1.0});
    // Two irrelevant pages (garden words) linking the same URLs, one of them
    // already queued.
    for (int i = 1; i <= 2; ++i) {
      ParsedPage page = Page("cooking recipe bread garden", 20,
                             {{"a", "http://g.test/a"}, {"b", "http://g.test/b"},
                              {"seen", "http://g.test/seen"}, {"a again", "http://g.test/a"}});
      CrawlTask task = Task("http://g.test/p" + std::to_string(i), 0, 1);
      PageAssessment a;
      s->judge->Assess(task, page, &a);
      ASSERT_LT(a.relevance, 0.5);
      for (const auto& l : a.links) ASSERT_FALSE(l.admit);
      s->learner->OnPageStored(task, i, page, a, f->get());
    }
    EXPECT_NE(s->learner->EndNote().find("2 pages"), std::string::npos) << s->learner->EndNote();
    std::string blob;
    ASSERT_TRUE(s->learner->SaveState(&blob).ok());
    auto restored = MakeCrawlStrategy("jlse", ctx);
    ASSERT_TRUE(restored.ok());
    ASSERT_TRUE(restored->learner->RestoreState(blob).ok());
    for (StrategyLearner* learner : {s->learner.get(), restored->learner.get()}) {
      std::vector<std::string> urls;
      for (const LinkCandidate& c : learner->Refill()) urls.push_back(c.url);
      if (strict) {
        EXPECT_TRUE(urls.empty());
      } else {
        EXPECT_EQ(urls, (std::vector<std::string>{"http://g.test/a", "http://g.test/b"}));
      }
      EXPECT_TRUE(learner->Refill().empty()) << "handed out once";
    }
  }
}

// ---- End to end ------------------------------------------------------------

std::string Html(const std::string& body) {
  return "<!doctype html><html><head><title>t</title></head><body>" + body + "</body></html>";
}

TEST(JlseCrawlTest, CrawlWritesLinkAndResultTables) {
  testing::TestHttpServer server;
  ASSERT_TRUE(server.Start().ok());
  std::string hub = "<p>network tcp protocol overview</p>";
  for (int i = 0; i < 8; ++i) {
    const std::string path = "/net/guide" + std::to_string(i) + ".html";
    hub += "<a href='" + path + "'>tcp guide part " + std::to_string(i) + "</a> ";
    server.Set(path, testing::HtmlResponse(Html(
                         "<p>" + Words("network protocol tcp socket packet", 30) + "</p>")));
  }
  hub += "<a href='/food.html'>cooking recipes</a>";
  server.Set("/", testing::HtmlResponse(Html(hub)));
  server.Set("/food.html", testing::HtmlResponse(Html(
                               "<p>" + Words("cooking bread recipe", 30) +
                               "</p><a href='/food2.html'>more bread</a>")));
  const std::string dir = TempDir("e2e");
  WriteFile(dir + "/pos.html", "<p>" + Words("network protocol tcp socket", 30) + "</p>");
  WriteFile(dir + "/neg.html", "<p>" + Words("cooking recipe bread garden", 30) + "</p>");
  const std::string topic =
      WriteFile(dir + "/t.toml",
                "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                "[topic.examples]\npositive = [\"pos.html\"]\nnegative = [\"neg.html\"]\n"
                "[strategy.jlse]\ncf = 2\n");
  CrawlConfig c;
  c.seeds = {"http://a.test/"};
  c.out_dir = dir + "/crawl";
  c.strategy = "jlse";
  c.topic_file = topic;
  c.max_pages = 20;
  c.delay_s = 0;
  c.respect_robots = false;
  c.progress_interval_ms = 0;
  c.total_timeout_s = 5;
  c.connect_to.push_back("a.test:80:127.0.0.1:" + std::to_string(server.port()));
  Crawler crawler(c, nullptr, MakeCrawlStrategy);
  Status s = crawler.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<JlseLinkRow> rows;
  std::vector<int64_t> results;
  s = ReadJlseTables(c.out_dir + "/crawl.db", &rows, &results);
  ASSERT_TRUE(s.ok()) << s.message();
  // Home, 8 guides, food page (irrelevant: stored, its link not followed).
  EXPECT_EQ(rows.size(), 10u);
  EXPECT_EQ(results.size(), 8u);
  for (const auto& r : rows) {
    EXPECT_EQ(r.url.find("food2"), std::string::npos) << "irrelevant page was expanded";
    if (r.url.find("guide") != std::string::npos) {
      EXPECT_EQ(r.depth, 1u);
      EXPECT_EQ(r.anchor.rfind("tcp guide part", 0), 0u) << r.anchor;
    }
  }
  EXPECT_TRUE(fs::exists(c.out_dir + "/jlse_state.bin"));
  EXPECT_TRUE(fs::exists(c.out_dir + "/jlse_stats.json"));
}

}  // namespace
}  // namespace topicrawl
