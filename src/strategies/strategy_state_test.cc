// The strategy contract shared by every registered strategy (issue #17):
//   * learned state survives: save -> restore into a fresh strategy ->
//     the same scores, the same selections and the same saved bytes as the
//     uninterrupted strategy, page for page;
//   * a corrupt, truncated, foreign or other-topic state file is a clear
//     error (crawl/strategy_state.h);
//   * every topic strategy writes df.tsv at Finish();
//   * a selector name the registry does not know is an error, not BFS;
//   * ids are computed with the crawl's dedup_ignore_scheme;
//   * end to end: `crawl --resume` restores DIR/state/strategy.bin.
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "classify/naive_bayes.h"
#include "core/clock.h"
#include "crawl/crawl_config.h"
#include "crawl/crawl_strategy.h"
#include "crawl/crawler.h"
#include "crawl/dedup.h"
#include "crawl/state_blob.h"
#include "crawl/strategy_state.h"
#include "frontier/frontier.h"
#include "strategies/baselines/topic_strategy.h"
#include "strategies/strategy_registry.h"
#include "support/fake_scores_view.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/state-" + name + "-" + std::to_string(getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One topic file for every strategy: nb-link needs a link model next to it,
// wang-landau updates PageRank after every page (so the graph matters).
std::string WriteTopic(const std::string& dir, const std::string& keywords =
                                                   "\"network\" = 0.8, \"protocol\" = 0.5, "
                                                   "\"router\" = 0.3") {
  NaiveBayes model(NbModelKind::kLink, NbEventModel::kBinary);
  model.feature_group = 1;
  model.Add({"a:network", "a:protocol"}, true);
  model.Add({"a:router"}, true);
  model.Add({"a:recipes", "a:garden"}, false);
  EXPECT_TRUE(model.Save(dir + "/link.nb.json").ok());
  // jlse and ata train their page classifier from example pages.
  WriteFile(dir + "/pos.html",
            "<html><title>network protocol</title><body><p>router network protocol "
            "packets and routing tables</p></body></html>");
  WriteFile(dir + "/neg.html",
            "<html><title>garden recipes</title><body><p>weather and climate news, "
            "garden recipes</p></body></html>");
  return WriteFile(dir + "/topic.toml",
                   "[topic]\nname = \"networking\"\nkeywords = { " + keywords +
                       " }\n"
                       "[strategy.wang-landau]\npagerank_every = 1\ncheck_every = 7\n"
                       // tda trains its vectors after 8 pages (then 16): the
                       // state tests run with a trained model, not StaticSim.
                       "[strategy.tda]\nretrain_pages = 8\ndim = 8\nepoch = 2\nmin_count = 1\n"
                       "[strategy.nb-link]\nmodel = \"link.nb.json\"\n"
                       "[topic.examples]\npositive = [\"pos.html\"]\n"
                       "negative = [\"neg.html\"]\n");
}

StrategyContext Context(const std::string& dir, const std::string& topic) {
  StrategyContext ctx;
  ctx.topic_file = topic;
  ctx.out_dir = dir;
  ctx.rng_seed = 5;
  // Training a strategy does in the background is waited for: the traces
  // below must not depend on timing.
  ctx.deterministic = true;
  return ctx;
}

// Page i of a small synthetic web: five hosts; page i links to pages
// 2i+1 .. 2i+4 with anchors of graded relevance, so the pages of the
// second phase were discovered (and carry Shark-search inheritances) in
// the first.
const char* const kAnchors[] = {"network protocol", "router", "recipes", "network",
                                "garden tools", "protocol router network"};
const char* const kTexts[] = {
    "network protocol router: how a network routes packets between routers",
    "cooking recipes and gardening tips for the weekend",
    "the network protocol stack and a router table",
    "weather and climate news",
    "a protocol for every network; router configuration"};

std::string UrlOf(int i) {
  return "http://h" + std::to_string(i % 5) + ".test/p" + std::to_string(i);
}

ParsedPage PageOf(int i) {
  ParsedPage p;
  p.text = kTexts[i % 5];
  p.text_blocks = {p.text};
  for (int k = 1; k <= 4; ++k) {
    Outlink l;
    l.url = UrlOf(2 * i + k);
    l.anchor = kAnchors[(i + k) % 6];
    l.context = l.anchor;
    p.links.push_back(l);
  }
  return p;
}

// What one page produced: everything a strategy decides about it.
struct PageTrace {
  double relevance = 0;
  std::string explanation;
  std::vector<double> scores;
  std::vector<bool> admits;
  std::vector<std::string> link_explanations;
  std::vector<UrlId> picks;  // selector choices on a fixed view after it
  bool operator==(const PageTrace&) const = default;
};

// A strategy with its selector and a frontier that knows the admitted URLs
// (wang-landau asks Frontier::Seen).
struct Run {
  Strategy strategy;
  std::unique_ptr<LinkSelector> selector;
  std::unique_ptr<Frontier> frontier;
  FakeClock clock;
};

std::unique_ptr<Run> MakeRun(const std::string& name, const StrategyContext& ctx) {
  auto run = std::make_unique<Run>();
  auto s = MakeCrawlStrategy(name, ctx);
  EXPECT_TRUE(s.ok()) << name << ": " << s.status().message();
  if (!s.ok()) return nullptr;
  run->strategy = std::move(s).value();
  // The crawler's frontier gets make_selector()'s selector; here a second
  // one drives the picks on a fixed view (same shared walk state), and the
  // frontier gets its own.
  auto sel = run->strategy.make_selector();
  EXPECT_TRUE(sel.ok()) << sel.status().message();
  run->selector = std::move(sel).value();
  auto sel2 = run->strategy.make_selector();
  EXPECT_TRUE(sel2.ok());
  auto f = Frontier::Create(FrontierOptions{}, &run->clock, std::move(sel2).value());
  EXPECT_TRUE(f.ok()) << f.status().message();
  run->frontier = std::move(f).value();
  return run;
}

PageTrace StorePage(Run* run, int i) {
  CrawlTask task;
  task.url = UrlOf(i);
  task.url_id = DedupId(task.url, true);
  task.depth = 1;
  ParsedPage page = PageOf(i);
  PageAssessment a;
  run->strategy.judge->Assess(task, page, &a);
  PageTrace t;
  t.relevance = a.relevance;
  t.explanation = a.explanation;
  for (size_t k = 0; k < a.links.size(); ++k) {
    t.scores.push_back(a.links[k].score);
    t.admits.push_back(a.links[k].admit);
    t.link_explanations.push_back(a.links[k].explanation);
    if (a.links[k].admit) {
      run->frontier->Add({page.links[k].url, DedupId(page.links[k].url, true), 2,
                          static_cast<PageId>(i), page.links[k].anchor, a.links[k].score});
    }
  }
  run->strategy.learner->OnPageStored(task, static_cast<PageId>(i), page, a, run->frontier.get());
  // The selector's learned state (walk, temperature, RNG) at work.
  testing::ScoresView view({{0.9, 0.5, 0.3, 0.1}, {0.6, 0.45, 0.2}, {0.35, 0.3}});
  for (int k = 0; k < 3; ++k) {
    auto ref = run->selector->Select(view);
    t.picks.push_back(ref ? view.At(*ref).url_id : 0);
  }
  return t;
}

std::string Save(const Strategy& s) {
  std::string blob;
  Status st = s.learner->SaveState(&blob);
  EXPECT_TRUE(st.ok()) << st.message();
  return blob;
}

constexpr int kFirst = 12;   // pages before the save (the "kill")
constexpr int kSecond = 10;  // pages after it

class EveryStrategyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryStrategyTest, ResumeContinuesWithTheSameLearnedState) {
  const std::string name = GetParam();
  const std::string dir = TempDir("resume-" + name);
  const std::string topic = WriteTopic(dir);
  fs::create_directories(dir + "/a");
  fs::create_directories(dir + "/b");
  fs::create_directories(dir + "/c");

  // Uninterrupted: 12 pages, save, 10 more.
  auto a = MakeRun(name, Context(dir + "/a", topic));
  ASSERT_TRUE(a);
  for (int i = 0; i < kFirst; ++i) StorePage(a.get(), i);
  const std::string saved = Save(a->strategy);
  // The crawl directory as it was at the save (a resumed crawl has the same
  // one): files a strategy keeps beside its state (tda's corpus and vectors).
  for (const auto& f : fs::directory_iterator(dir + "/a")) {
    if (f.is_regular_file()) fs::copy_file(f.path(), dir + "/b/" + f.path().filename().string());
  }
  std::vector<PageTrace> uninterrupted;
  for (int i = kFirst; i < kFirst + kSecond; ++i) uninterrupted.push_back(StorePage(a.get(), i));

  // Resumed: a fresh strategy restores the blob (its frontier is rebuilt
  // from the store in a real crawl: here the same admitted URLs).
  auto b = MakeRun(name, Context(dir + "/b", topic));
  ASSERT_TRUE(b);
  Status rs = b->strategy.learner->RestoreState(saved);
  ASSERT_TRUE(rs.ok()) << rs.message();
  EXPECT_EQ(Save(b->strategy), saved) << "save -> restore -> save is the identity";
  for (int i = 0; i < kFirst; ++i) {
    ParsedPage page = PageOf(i);
    for (const Outlink& l : page.links) {
      b->frontier->Add({l.url, DedupId(l.url, true), 2, i, l.anchor, 0.5});
    }
  }
  std::vector<PageTrace> resumed;
  for (int i = kFirst; i < kFirst + kSecond; ++i) resumed.push_back(StorePage(b.get(), i));
  ASSERT_EQ(resumed.size(), uninterrupted.size());
  for (size_t k = 0; k < resumed.size(); ++k) {
    EXPECT_EQ(resumed[k].relevance, uninterrupted[k].relevance) << name << " page " << k;
    EXPECT_EQ(resumed[k].scores, uninterrupted[k].scores) << name << " page " << k;
    EXPECT_EQ(resumed[k].admits, uninterrupted[k].admits) << name << " page " << k;
    EXPECT_EQ(resumed[k].explanation, uninterrupted[k].explanation) << name << " page " << k;
    EXPECT_EQ(resumed[k].link_explanations, uninterrupted[k].link_explanations) << name;
    EXPECT_EQ(resumed[k].picks, uninterrupted[k].picks) << name << " page " << k;
  }
  EXPECT_EQ(Save(b->strategy), Save(a->strategy)) << name;
  if (name == "tda") {
    // The state exercised holds a trained model: pages after the save are
    // scored with vectors (retrain_pages = 8 < kFirst).
    EXPECT_NE(uninterrupted.front().explanation.find("\"vectors\":true"), std::string::npos)
        << uninterrupted.front().explanation;
  }

  // Without the restore the learned state is not the same (so the checks
  // above can fail): the document frequencies alone differ.
  auto c = MakeRun(name, Context(dir + "/c", topic));
  ASSERT_TRUE(c);
  for (int i = kFirst; i < kFirst + kSecond; ++i) StorePage(c.get(), i);
  EXPECT_NE(Save(c->strategy), Save(a->strategy)) << name;
}

TEST_P(EveryStrategyTest, StateFileRoundTripsAndRejectsDamage) {
  const std::string name = GetParam();
  const std::string dir = TempDir("file-" + name);
  const std::string topic = WriteTopic(dir);
  auto a = MakeRun(name, Context(dir, topic));
  ASSERT_TRUE(a);
  for (int i = 0; i < 6; ++i) StorePage(a.get(), i);
  ASSERT_TRUE(SaveStrategyState(a->strategy, dir).ok());
  const std::string path = StrategyStatePath(dir);
  EXPECT_EQ(path, dir + "/state/strategy.bin");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const std::string file = ReadFile(path);

  auto restore = [&](const std::string& bytes) {
    WriteFile(path, bytes);
    auto b = MakeRun(name, Context(dir, topic));
    bool found = false;
    Status s = RestoreStrategyState(b->strategy, dir, &found);
    if (s.ok()) {
      EXPECT_EQ(Save(b->strategy), Save(a->strategy));
    }
    return std::make_pair(s, found);
  };
  auto [ok, found] = restore(file);
  EXPECT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(found);

  auto expect_error = [&](const std::string& bytes, const std::string& needle) {
    auto [s, f] = restore(bytes);
    ASSERT_FALSE(s.ok()) << needle;
    EXPECT_NE(s.message().find(needle), std::string::npos) << needle << " / " << s.message();
    EXPECT_NE(s.message().find("strategy.bin"), std::string::npos) << s.message();
  };
  std::string flipped = file;
  flipped[flipped.size() - 3] ^= 0x40;
  expect_error(flipped, "checksum");
  expect_error(file.substr(0, file.size() - 5), "truncated");
  expect_error(file.substr(0, 10), "truncated");
  expect_error("SQLite format 3\n" + file, "not a topicrawl strategy state file");
  expect_error("", "not a topicrawl strategy state file");
  const std::string other = name == "bfs" ? "best-first" : "bfs";
  std::string payload;
  ASSERT_TRUE(a->strategy.learner->SaveState(&payload).ok());
  expect_error(PackStrategyState(other, payload), "state of strategy '" + other + "'");
  std::string v2 = file;
  v2[8] = 2;  // format version, right after the magic
  expect_error(v2, "format version 2");
  // A payload whose checksum is right but whose content is not this
  // strategy's: the strategy's own checks name the problem.
  expect_error(PackStrategyState(name, payload + "xyz"), "unexpected bytes");
  expect_error(PackStrategyState(name, payload.substr(0, payload.size() / 2)),
               "truncated");

  // No file: nothing to restore, not an error.
  fs::remove(path);
  auto b = MakeRun(name, Context(dir, topic));
  bool f = true;
  EXPECT_TRUE(RestoreStrategyState(b->strategy, dir, &f).ok());
  EXPECT_FALSE(f);
}

TEST_P(EveryStrategyTest, StateOfAnotherTopicIsRefused) {
  const std::string name = GetParam();
  const std::string dir = TempDir("topic-" + name);
  auto a = MakeRun(name, Context(dir, WriteTopic(dir)));
  ASSERT_TRUE(a);
  StorePage(a.get(), 0);
  const std::string other_dir = dir + "/other";
  fs::create_directories(other_dir);
  auto b = MakeRun(name, Context(other_dir, WriteTopic(other_dir, "\"weather\" = 1.0")));
  ASSERT_TRUE(b);
  Status s = b->strategy.learner->RestoreState(Save(a->strategy));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("another topic"), std::string::npos) << s.message();
}

// jlse and ata score pages with their Naive Bayes page classifier, not
// TF-IDF: they keep no document frequencies, and write no df.tsv.
TEST_P(EveryStrategyTest, WritesDfTsvAtFinish) {
  const std::string name = GetParam();
  const std::string dir = TempDir("df-" + name);
  auto a = MakeRun(name, Context(dir, WriteTopic(dir)));
  ASSERT_TRUE(a);
  for (int i = 0; i < 3; ++i) StorePage(a.get(), i);
  Status s = a->strategy.learner->Finish();
  ASSERT_TRUE(s.ok()) << s.message();
  if (name == "jlse" || name == "ata") {
    EXPECT_FALSE(fs::exists(dir + "/df.tsv")) << name;
    return;
  }
  const std::string df = ReadFile(dir + "/df.tsv");
  EXPECT_EQ(df.rfind("#documents\t3\n", 0), 0u) << name << ": " << df;
  EXPECT_NE(df.find("network\t"), std::string::npos) << name;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryStrategyTest,
                         ::testing::ValuesIn(CrawlStrategyNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

TEST(StrategyContractTest, EveryRegisteredStrategyIsCovered) {
  // The parameterised tests above run over CrawlStrategyNames(): every
  // registered name has its instance of each contract test, whatever the
  // registry holds.
  const std::vector<std::string> names = CrawlStrategyNames();
  ASSERT_FALSE(names.empty());
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (const std::string& name : names) {
    std::string suffix = "/" + name;
    for (char& ch : suffix) {
      if (ch == '-') ch = '_';
    }
    int instances = 0;
    for (int i = 0; i < unit.total_test_suite_count(); ++i) {
      const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
      if (std::string(suite.name()) != "Registry/EveryStrategyTest") continue;
      for (int k = 0; k < suite.total_test_count(); ++k) {
        const std::string test = suite.GetTestInfo(k)->name();
        instances += test.size() > suffix.size() &&
                     test.compare(test.size() - suffix.size(), suffix.size(), suffix) == 0;
      }
    }
    EXPECT_EQ(instances, 4) << name << ": not covered by every contract test";
  }
}

TEST(StrategyContractTest, UnknownSelectorIsAnErrorNotBfs) {
  const std::string dir = TempDir("selector");
  StrategyContext ctx = Context(dir, WriteTopic(dir));
  auto rel = TopicStrategy::LoadRelevance(ctx, true);
  ASSERT_TRUE(rel.ok());
  TopicStrategy s("custom", "no-such-selector", *rel, nullptr, ctx);
  auto sel = s.MakeSelector();
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.status().message().find("no-such-selector"), std::string::npos)
      << sel.status().message();
  EXPECT_NE(sel.status().message().find("custom"), std::string::npos);
}

TEST(StrategyContractTest, DefaultStateIsEmptyAndRefusesBytes) {
  StrategyLearner plain;
  std::string blob = "junk";
  ASSERT_TRUE(plain.SaveState(&blob).ok());
  EXPECT_TRUE(blob.empty());
  EXPECT_TRUE(plain.RestoreState("").ok());
  Status s = plain.RestoreState("abc");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("keeps no state"), std::string::npos);
}

TEST(StrategyContractTest, IdsFollowTheCrawlsDedupSetting) {
  // wang-landau's graph edges go to the outlinks the frontier has seen; the
  // frontier's ids come from the crawl's dedup_ignore_scheme. With https
  // links and dedup_ignore_scheme = false, ids computed with `true` instead
  // of the crawl's setting would never match and the graph would have no
  // edge.
  const std::string dir = TempDir("dedup");
  StrategyContext ctx = Context(dir, WriteTopic(dir));
  ctx.dedup_ignore_scheme = false;
  auto s = MakeCrawlStrategy("wang-landau", ctx);
  ASSERT_TRUE(s.ok());
  FakeClock clock;
  auto f = Frontier::Create(FrontierOptions{}, &clock, std::move(s->make_selector()).value());
  ASSERT_TRUE(f.ok());
  ParsedPage page;
  page.text = "network protocol";
  page.text_blocks = {page.text};
  for (int k = 0; k < 3; ++k) {
    Outlink l;
    l.url = "https://s.test/" + std::to_string(k);
    l.anchor = "network";
    page.links.push_back(l);
    (*f)->Add({l.url, DedupId(l.url, false), 1, 1, l.anchor, 0.5});
  }
  CrawlTask task;
  task.url = "https://s.test/";
  task.url_id = DedupId(task.url, false);
  PageAssessment a;
  s->judge->Assess(task, page, &a);
  s->learner->OnPageStored(task, 1, page, a, f->get());
  ASSERT_TRUE(s->learner->Finish().ok());
  EXPECT_NE(ReadFile(dir + "/wl_stats.tsv").find("graph_edges\t3\n"), std::string::npos)
      << ReadFile(dir + "/wl_stats.tsv");
}

TEST(StateBlobTest, VarintsZigZagAndPackedPartsRoundTripAndRejectDamage) {
  StateWriter w;
  const std::vector<uint64_t> vars = {0, 1, 127, 128, 16383, 16384, uint64_t{1} << 35,
                                      UINT64_MAX};
  const std::vector<int64_t> zz = {0, -1, 1, -64, 64, INT64_MIN, INT64_MAX};
  for (uint64_t v : vars) w.Var(v);
  for (int64_t v : zz) w.ZigZag(v);
  std::string raw;
  for (int i = 0; i < 5000; ++i) raw += "http://h.test/docs/page" + std::to_string(i % 97);
  w.Packed(raw);
  w.Packed("");
  EXPECT_LT(w.data().size(), raw.size() / 10) << "repetitive bytes compress";
  StateReader r(w.data());
  for (uint64_t v : vars) {
    uint64_t got = 0;
    ASSERT_TRUE(r.Var(&got, "var"));
    EXPECT_EQ(got, v);
  }
  for (int64_t v : zz) {
    int64_t got = 0;
    ASSERT_TRUE(r.ZigZag(&got, "zz"));
    EXPECT_EQ(got, v);
  }
  std::string back, empty = "x";
  ASSERT_TRUE(r.Packed(&back, "packed"));
  EXPECT_EQ(back, raw);
  ASSERT_TRUE(r.Packed(&empty, "empty"));
  EXPECT_EQ(empty, "");
  EXPECT_TRUE(r.AtEnd());
  // An 11-byte varint and a damaged zstd frame are errors naming the field
  // (the file envelope checksums the whole payload; this is the frame check).
  // (StateReader views its bytes: they must outlive it.)
  const std::string long_varint(11, '\xff');
  StateReader bad_var(long_varint);
  uint64_t v = 0;
  EXPECT_FALSE(bad_var.Var(&v, "long"));
  EXPECT_NE(bad_var.status().message().find("long"), std::string::npos);
  StateWriter p;
  p.Packed(raw);
  std::string damaged = p.data();
  damaged[16] ^= 0x40;  // the zstd frame magic (after u64 size, u64 length)
  StateReader bad_frame(damaged);
  EXPECT_FALSE(bad_frame.Packed(&back, "frame"));
  EXPECT_NE(bad_frame.status().message().find("frame"), std::string::npos);
  // A recorded size above the limit is refused before allocating.
  StateReader limited(p.data());
  EXPECT_FALSE(limited.Packed(&back, "limited", 100));
}

TEST(StateBlobTest, ReaderNamesTheSectionAndFieldAndNeverOverreads) {
  StateWriter w;
  w.Section("demo", 2);
  w.I64(-7);
  w.F64(0.25);
  w.Str("zh 中文");
  w.Bools({true, false, true});
  StateReader r(w.data());
  uint32_t v = 0;
  ASSERT_TRUE(r.Section("demo", 2, &v).ok());
  EXPECT_EQ(v, 2u);
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<bool> b;
  ASSERT_TRUE(r.I64(&i, "i") && r.F64(&d, "d") && r.Str(&s, "s") && r.Bools(&b, "b"));
  EXPECT_EQ(i, -7);
  EXPECT_EQ(d, 0.25);
  EXPECT_EQ(s, "zh 中文");
  EXPECT_EQ(b, (std::vector<bool>{true, false, true}));
  EXPECT_TRUE(r.AtEnd());
  EXPECT_FALSE(r.U8(nullptr, "past the end"));
  EXPECT_NE(r.status().message().find("section 'demo': truncated at 'past the end'"),
            std::string::npos)
      << r.status().message();

  StateReader newer(w.data());
  EXPECT_NE(newer.Section("demo", 1, &v).message().find("version 2 not readable"),
            std::string::npos);
  StateReader other(w.data());
  EXPECT_NE(other.Section("topic", 1, &v).message().find("expected section 'topic'"),
            std::string::npos);
  // A damaged count cannot make the reader allocate beyond its input.
  StateWriter huge;
  huge.U64(uint64_t{1} << 60);
  StateReader hr(huge.data());
  std::vector<double> out;
  EXPECT_FALSE(hr.F64s(&out, "values"));
  EXPECT_NE(hr.status().message().find("exceeds the data left"), std::string::npos);
}

// ---- End to end: crawl, stop, --resume ------------------------------------

std::string Html(const std::string& body) {
  return "<!doctype html><html><head><title>t</title></head><body>" + body +
         "</body></html>";
}

class ResumeCrawlTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    // A chain of 40 networking pages, each linking to the next two.
    for (int i = 0; i < 40; ++i) {
      server_.Set("/p" + std::to_string(i),
                  testing::HtmlResponse(Html(
                      "<p>network protocol router page " + std::to_string(i) + "</p>" +
                      "<a href='/p" + std::to_string(i + 1) + "'>network router</a> " +
                      "<a href='/p" + std::to_string(i + 2) + "'>protocol</a>")));
    }
  }

  CrawlConfig Config(const std::string& dir, int64_t max_pages) {
    CrawlConfig c;
    c.seeds = {"http://r.test/p0"};
    c.out_dir = dir;
    c.strategy = GetParam();
    c.topic_file = WriteTopic(dir + ".topicdir");
    c.max_pages = max_pages;
    c.delay_s = 0;
    c.concurrency = 1;
    c.per_host_connections = 1;
    c.parse_threads = 1;
    c.respect_robots = false;
    c.progress_interval_ms = 0;
    c.total_timeout_s = 5;
    c.connect_to = {"r.test:80:127.0.0.1:" + std::to_string(server_.port())};
    return c;
  }

  static int64_t DfDocuments(const std::string& dir) {
    std::istringstream in(ReadFile(dir + "/df.tsv"));
    std::string tag;
    int64_t n = -1;
    in >> tag >> n;
    return tag == "#documents" ? n : -1;
  }

  testing::TestHttpServer server_;
};

TEST_P(ResumeCrawlTest, ResumeRestoresTheSavedStateAndRefusesADamagedOne) {
  const std::string base = TempDir("crawl-" + GetParam());
  fs::create_directories(base + "/run.topicdir");
  fs::create_directories(base + "/fresh.topicdir");
  const std::string dir = base + "/run";
  {
    Crawler first(Config(dir, 8), nullptr, MakeCrawlStrategy);
    Status s = first.Run();
    ASSERT_TRUE(s.ok()) << s.message();
  }
  ASSERT_TRUE(fs::exists(dir + "/state/strategy.bin"));
  // jlse and ata keep no document frequencies (their NB classifier scores).
  const bool df = GetParam() != "jlse" && GetParam() != "ata";
  if (df) {
    EXPECT_EQ(DfDocuments(dir), 8);
  }
  const std::string state8 = ReadFile(dir + "/state/strategy.bin");

  // A damaged state file stops the resume before any fetch, naming it.
  std::string bad = state8;
  bad[bad.size() / 2] ^= 0x20;
  WriteFile(dir + "/state/strategy.bin", bad);
  {
    CrawlConfig c = Config(dir, 16);
    c.resume = true;
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    Status s = crawler.Run();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("strategy.bin"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("checksum"), std::string::npos) << s.message();
  }
  WriteFile(dir + "/state/strategy.bin", state8);
  {
    CrawlConfig c = Config(dir, 16);
    c.resume = true;
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    Status s = crawler.Run();
    ASSERT_TRUE(s.ok()) << s.message();
  }
  // D counts the first run's pages too: the statistics were restored, not
  // restarted (a fresh start would give 8 again).
  if (df) {
    EXPECT_EQ(DfDocuments(dir), 16);
  }
  EXPECT_NE(ReadFile(dir + "/state/strategy.bin"), state8);
}

INSTANTIATE_TEST_SUITE_P(Strategies, ResumeCrawlTest, ::testing::ValuesIn(CrawlStrategyNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace topicrawl
