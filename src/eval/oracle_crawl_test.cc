#include "eval/oracle_crawl.h"

#include <sqlite3.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "support/fake_crawl_db.h"
#include "eval/metrics.h"

namespace topicrawl::eval {
namespace {

std::string U(int i) { return "http://h.org/p" + std::to_string(i) + ".html"; }

// A graph on nodes 0..n-1 named U(i).
LinkGraph Graph(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::string> nodes;
  for (int i = 0; i < n; ++i) nodes.push_back(U(i));
  std::vector<std::pair<std::string, std::string>> e;
  for (auto [a, b] : edges) e.emplace_back(U(a), U(b));
  return LinkGraph::Build(nodes, {}, e);
}

std::vector<bool> Relevant(int n, const std::set<int>& r) {
  std::vector<bool> v(n, false);
  for (int i : r) v[i] = true;
  return v;
}

// The greedy of oracle_crawl.h written the slow, obvious way: distances
// recomputed by a full BFS at every step, c(u) by a full BFS.
std::vector<int32_t> NaiveGreedy(const LinkGraph& g, const std::vector<bool>& relevant,
                                 const std::vector<int32_t>& seeds, int budget) {
  const int n = g.node_count();
  const int inf = std::numeric_limits<int>::max();
  std::vector<int> state(n, 0);  // 0 unseen, 1 queued, 2 fetched
  std::vector<int> order_of(n, 0);
  int next = 0;
  auto queue = [&](int v) {
    if (state[v] == 0) state[v] = 1, order_of[v] = next++;
  };
  for (int s : seeds) queue(s);
  auto bfs_from = [&](int u) {  // forward distances from u
    std::vector<int> d(n, inf);
    std::deque<int> q = {u};
    d[u] = 0;
    while (!q.empty()) {
      int x = q.front();
      q.pop_front();
      for (const int32_t* w = g.OutBegin(x); w != g.OutEnd(x); ++w) {
        if (d[*w] == inf) d[*w] = d[x] + 1, q.push_back(*w);
      }
    }
    return d;
  };
  std::vector<int32_t> order;
  while (static_cast<int>(order.size()) < budget) {
    int pick = -1;
    long best_key_d = inf, best_c = -1, best_o = inf;
    for (int v = 0; v < n; ++v) {
      if (state[v] != 1 || !relevant[v]) continue;
      if (order_of[v] < best_o) pick = v, best_o = order_of[v];
    }
    if (pick < 0) {
      for (int v = 0; v < n; ++v) {
        if (state[v] != 1) continue;
        std::vector<int> d = bfs_from(v);
        long dv = inf, c = 0;
        for (int r = 0; r < n; ++r) {
          if (relevant[r] && state[r] != 2 && d[r] != inf) dv = std::min<long>(dv, d[r]);
        }
        if (dv == inf) continue;
        for (int r = 0; r < n; ++r) {
          if (relevant[r] && state[r] != 2 && d[r] <= dv) ++c;
        }
        auto key = std::make_tuple(dv, -c, order_of[v]);
        if (key < std::make_tuple(best_key_d, -best_c, best_o)) {
          pick = v, best_key_d = dv, best_c = c, best_o = order_of[v];
        }
      }
    }
    if (pick < 0) break;
    state[pick] = 2;
    order.push_back(pick);
    for (const int32_t* w = g.OutBegin(pick); w != g.OutEnd(pick); ++w) queue(*w);
  }
  return order;
}

// The best number of relevant pages any fetch order finds in `budget`
// fetches (exhaustive; tiny graphs only).
int Optimum(const LinkGraph& g, const std::vector<bool>& relevant, std::vector<int>& state,
            int budget) {
  if (budget == 0) return 0;
  int best = 0;
  for (int v = 0; v < g.node_count(); ++v) {
    if (state[v] != 1) continue;
    std::vector<int> saved = state;
    state[v] = 2;
    for (const int32_t* w = g.OutBegin(v); w != g.OutEnd(v); ++w) {
      if (state[*w] == 0) state[*w] = 1;
    }
    best = std::max(best, (relevant[v] ? 1 : 0) + Optimum(g, relevant, state, budget - 1));
    state = saved;
  }
  return best;
}

int Optimum(const LinkGraph& g, const std::vector<bool>& relevant, int seed, int budget) {
  std::vector<int> state(g.node_count(), 0);
  state[seed] = 1;
  return Optimum(g, relevant, state, budget);
}

TEST(LinkGraphTest, CanonicalisesMergesAliasesAndDropsUnknownEnds) {
  LinkGraph g = LinkGraph::Build(
      {"http://h.org/", "https://h.org/a.html", "http://h.org/b.html"},
      {{"http://h.org/old.html", "http://h.org/b.html"}},
      {{"http://h.org/index.html", "http://h.org/a.html#x"},
       {"http://h.org/", "http://h.org:8080/a.html?q=1"},  // duplicate after canonicalisation
       {"http://h.org/a.html", "http://h.org/old.html"},     // alias of b
       {"http://h.org/a.html", "http://h.org/a.html"},       // self-loop
       {"http://h.org/a.html", "http://other.org/x.html"},   // no node
       {"http://h.org/b.html", "http://h.org/index.html"}});
  ASSERT_EQ(g.node_count(), 3);
  EXPECT_EQ(g.url(0), "http://h.org/index.html");
  EXPECT_EQ(g.edge_count(), 3);
  EXPECT_EQ(g.Find("http://h.org/old.html"), g.Find("http://h.org/b.html"));
  int32_t a = *g.Find("http://h.org/a.html");
  ASSERT_EQ(g.OutEnd(0) - g.OutBegin(0), 1);
  EXPECT_EQ(*g.OutBegin(0), a);
  EXPECT_EQ(g.InEnd(0) - g.InBegin(0), 1);  // from b
}

TEST(OracleCrawlTest, RelevantFirstThenNearestThenMoreRelevantWithin) {
  // 0 seed -> 1 (hub: R 3, 4 at one hop), 2 (hub: R 5 at one hop), 6 (R).
  LinkGraph g = Graph(7, {{0, 1}, {0, 2}, {0, 6}, {1, 3}, {1, 4}, {2, 5}});
  std::vector<bool> r = Relevant(7, {3, 4, 5, 6});
  OracleRun run = RunOracleCrawl(g, r, {0}, 9);
  EXPECT_EQ(run.order, (std::vector<int32_t>{0, 6, 1, 3, 4, 2, 5}));
  EXPECT_EQ(run.found, (std::vector<int64_t>{0, 1, 1, 2, 3, 3, 4, 4, 4}));  // flat after
  for (int n = 1; n <= 7; ++n) EXPECT_EQ(run.found[n - 1], Optimum(g, r, 0, n)) << n;
}

TEST(OracleCrawlTest, PrefersTheShorterPath) {
  // 0 -> 1 -> 2 -> 3 (R) is 3 hops; 0 -> 4 -> 5 (R) is 2.
  LinkGraph g = Graph(6, {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 5}});
  OracleRun run = RunOracleCrawl(g, Relevant(6, {3, 5}), {0}, 6);
  EXPECT_EQ(run.order, (std::vector<int32_t>{0, 4, 5, 1, 2, 3}));
}

TEST(OracleCrawlTest, DistancesGrowWhenTheNearestRelevantPageIsFetched) {
  // 1 and 2 both reach R 3 in one hop (tie, 1 queued first). Once 3 is
  // fetched, 2 is two hops from R 5 and 1's child 6 three hops from R 8:
  // 2 must come before 6 although it was filed at distance 1.
  LinkGraph g = Graph(10, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {2, 4}, {4, 5}, {1, 6}, {6, 7},
                           {7, 9}, {9, 8}});
  OracleRun run = RunOracleCrawl(g, Relevant(10, {3, 5, 8}), {0}, 10);
  EXPECT_EQ(run.order, (std::vector<int32_t>{0, 1, 3, 2, 4, 5, 6, 7, 9, 8}));
  EXPECT_EQ(run.found.back(), 3);
}

TEST(OracleCrawlTest, StopsWhenNoRelevantPageIsReachable) {
  LinkGraph g = Graph(5, {{0, 1}, {1, 2}, {3, 4}});
  OracleRun run = RunOracleCrawl(g, Relevant(5, {2, 4}), {0}, 10);
  EXPECT_EQ(run.order, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(run.found.size(), 10u);
  EXPECT_EQ(run.found.back(), 1);
}

TEST(OracleCrawlTest, MyopicGreedyIsBeatenWhereTheDocsSaySo) {
  // S=0 -> A=1 -> R1=2; S -> B=3 -> C=4 -> R2..R9 = 5..12.
  std::vector<std::pair<int, int>> e = {{0, 1}, {1, 2}, {0, 3}, {3, 4}};
  for (int r = 5; r <= 12; ++r) e.emplace_back(4, r);
  LinkGraph g = Graph(13, e);
  std::vector<bool> r = Relevant(13, {2, 5, 6, 7, 8, 9, 10, 11, 12});
  OracleRun run = RunOracleCrawl(g, r, {0}, 5);
  EXPECT_EQ(run.found[4], 1);
  EXPECT_EQ(Optimum(g, r, 0, 5), 2);
}

TEST(OracleCrawlTest, IncrementalDistancesMatchTheSlowGreedyOnRandomGraphs) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 6 + static_cast<int>(rng() % 24);
    std::vector<std::pair<int, int>> e;
    const int m = n + static_cast<int>(rng() % (3 * n));
    for (int i = 0; i < m; ++i) e.emplace_back(rng() % n, rng() % n);
    LinkGraph g = Graph(n, e);
    std::set<int> rel;
    for (int i = 0; i < n; ++i) {
      if (rng() % 4 == 0) rel.insert(i);
    }
    std::vector<bool> r = Relevant(n, rel);
    std::vector<int32_t> seeds = {static_cast<int32_t>(rng() % n)};
    if (trial % 3 == 0) seeds.push_back(static_cast<int32_t>(rng() % n));
    OracleRun run = RunOracleCrawl(g, r, seeds, n);
    EXPECT_EQ(run.order, NaiveGreedy(g, r, seeds, n)) << "trial " << trial;
  }
}

TEST(OracleCrawlTest, CurveUsesTheLabelDenominatorAndNotesMissingPages) {
  LinkGraph g = Graph(3, {{0, 1}, {1, 2}});
  LabelSet labels = LabelSet::Parse(U(0) + "\t0\t\n" + U(2) + "\t1\t\n" +
                                    "http://h.org/gone.html\t1\t\n")
                        .value();
  OracleCurve c = ComputeOracleCurve(g, labels, {U(0), "http://x.org/"}, 4);
  EXPECT_EQ(c.recall, (std::vector<double>{0, 0, 0.5, 0.5}));
  EXPECT_EQ(c.relevant_in_graph, 1);
  EXPECT_EQ(c.seeds_in_graph, 1);
  EXPECT_EQ(c.notes.size(), 2u);
}

TEST(OracleCrawlTest, CheckpointsGetOracleRecallAndShare) {
  CrawlMetrics m;
  m.checkpoints.resize(2);
  m.checkpoints[0].n = 2, m.checkpoints[0].recall = 0.25;
  m.checkpoints[1].n = 6, m.checkpoints[1].recall = 0.25;
  AddOracleCurve({0, 0.5, 0.5, 1.0}, "g", &m);
  EXPECT_DOUBLE_EQ(*m.checkpoints[0].oracle_recall, 0.5);
  EXPECT_DOUBLE_EQ(*m.checkpoints[0].share_of_oracle, 0.5);
  EXPECT_DOUBLE_EQ(*m.checkpoints[1].oracle_recall, 1.0);  // past the curve: its end
  EXPECT_DOUBLE_EQ(*m.checkpoints[1].share_of_oracle, 0.25);
}

TEST(OracleCrawlTest, ReadsGraphAndSeedsFromACrawlDirectory) {
  std::string dir = testing::MakeTempDir("oracle_graph");
  testing::WriteFakeCrawl(
      dir,
      {{U(0), "ok", 0.1, 1}, {U(9), "ok", 0.1, 2, U(1)}, {U(2), "ok", 0.1, 3},
       {U(3), "http_error", std::nullopt, 4}},
      {});
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir + "/crawl.db").c_str(), &db), SQLITE_OK);
  std::string sql = "UPDATE pages SET depth = 0 WHERE id = 1; UPDATE pages SET depth = 1 "
                    "WHERE id > 1; INSERT INTO links(from_id, to_url) VALUES (1, '" + U(9) +
                    "'), (2, '" + U(2) + "'), (2, '" + U(3) + "');";
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  StatusOr<LinkGraph> g = ReadLinkGraph(dir);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->node_count(), 3);  // p0, p1 (reached through p9), p2; p3 failed
  EXPECT_EQ(g->edge_count(), 2);  // p0 -> p1 via the alias p9, p1 -> p2
  StatusOr<std::vector<std::string>> seeds = ReadCrawlSeeds(dir);
  ASSERT_TRUE(seeds.ok()) << seeds.status().message();
  EXPECT_EQ(*seeds, std::vector<std::string>{U(0)});
  EXPECT_FALSE(ReadLinkGraph(dir + "/missing").ok());
}

}  // namespace
}  // namespace topicrawl::eval
