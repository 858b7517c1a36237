#include "eval/oracle_crawl.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>

namespace topicrawl::eval {
namespace {

constexpr int32_t kInf = std::numeric_limits<int32_t>::max();

// d(v) for every node: hop distance to the nearest source (relevant and not
// fetched), kept exact under source removals.
class DistanceToRelevant {
 public:
  DistanceToRelevant(const LinkGraph& g, const std::vector<bool>& source)
      : g_(g), source_(source), dist_(g.node_count(), kInf), in_a_(g.node_count(), false),
        checked_(g.node_count(), false) {
    std::deque<int32_t> queue;
    for (int32_t v = 0; v < g.node_count(); ++v) {
      if (source_[v]) dist_[v] = 0, queue.push_back(v);
    }
    while (!queue.empty()) {  // BFS over the reversed edges
      int32_t x = queue.front();
      queue.pop_front();
      for (const int32_t* y = g.InBegin(x); y != g.InEnd(x); ++y) {
        if (dist_[*y] == kInf) dist_[*y] = dist_[x] + 1, queue.push_back(*y);
      }
    }
  }

  int32_t operator[](int32_t v) const { return dist_[v]; }
  bool is_source(int32_t v) const { return source_[v]; }

  // `s` stops being a source. Phase 1 collects A, the nodes that lose every
  // shortest path: in BFS order from s, an in-neighbour y one level up joins
  // A when none of its out-neighbours outside A is one level down (all of
  // that level's A members are known by then, as levels are processed in
  // order, so one check per y suffices). Phase 2 gives A's nodes their new
  // distances by Dijkstra from A's border (unit weights).
  void RemoveSource(int32_t s) {
    source_[s] = false;
    std::vector<int32_t> a = CollectAffected(s);
    Recompute(a);
    for (int32_t v : a) in_a_[v] = false;
    for (int32_t v : checked_list_) checked_[v] = false;
    checked_list_.clear();
  }

 private:
  bool HasSupport(int32_t y, int32_t level) const {
    for (const int32_t* w = g_.OutBegin(y); w != g_.OutEnd(y); ++w) {
      if (dist_[*w] == level && !in_a_[*w]) return true;
    }
    return false;
  }

  std::vector<int32_t> CollectAffected(int32_t s) {
    std::vector<int32_t> a = {s};
    in_a_[s] = true;
    for (size_t i = 0; i < a.size(); ++i) {
      const int32_t x = a[i], level = dist_[x];
      for (const int32_t* y = g_.InBegin(x); y != g_.InEnd(x); ++y) {
        if (dist_[*y] != level + 1 || in_a_[*y] || checked_[*y] || source_[*y]) continue;
        checked_[*y] = true;
        checked_list_.push_back(*y);
        if (!HasSupport(*y, level)) in_a_[*y] = true, a.push_back(*y);
      }
    }
    return a;
  }

  void Recompute(const std::vector<int32_t>& a) {
    using Item = std::pair<int32_t, int32_t>;  // (distance, node)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    for (int32_t y : a) {
      int32_t best = kInf;
      for (const int32_t* w = g_.OutBegin(y); w != g_.OutEnd(y); ++w) {
        if (!in_a_[*w] && dist_[*w] != kInf) best = std::min(best, dist_[*w] + 1);
      }
      dist_[y] = best;
      if (best != kInf) heap.emplace(best, y);
    }
    while (!heap.empty()) {
      auto [d, x] = heap.top();
      heap.pop();
      if (d != dist_[x]) continue;
      for (const int32_t* y = g_.InBegin(x); y != g_.InEnd(x); ++y) {
        if (in_a_[*y] && d + 1 < dist_[*y]) dist_[*y] = d + 1, heap.emplace(d + 1, *y);
      }
    }
  }

  const LinkGraph& g_;
  std::vector<bool> source_;
  std::vector<int32_t> dist_;
  std::vector<bool> in_a_, checked_;
  std::vector<int32_t> checked_list_;
};

class OracleCrawl {
 public:
  OracleCrawl(const LinkGraph& g, const std::vector<bool>& relevant)
      : g_(g), relevant_(relevant), dist_(g, relevant), state_(g.node_count(), kUnseen),
        seq_(g.node_count(), 0), tie_count_(g.node_count(), -1),
        tie_epoch_(g.node_count(), -1), visit_stamp_(g.node_count(), 0) {}

  void Queue(int32_t v) {
    if (v < 0 || v >= g_.node_count() || state_[v] != kUnseen) return;
    state_[v] = kQueued;
    seq_[v] = next_seq_++;
    if (relevant_[v]) {
      relevant_queue_.push_back(v);
    } else {
      heap_.emplace(dist_[v], seq_[v], v);
    }
  }

  // The next page to fetch, or -1 when no relevant page is reachable.
  int32_t Next() {
    while (!relevant_queue_.empty()) {
      int32_t v = relevant_queue_.front();
      relevant_queue_.pop_front();
      if (state_[v] == kQueued) return v;
    }
    return NearestCandidate();
  }

  void Fetch(int32_t v) {
    state_[v] = kFetched;
    for (const int32_t* w = g_.OutBegin(v); w != g_.OutEnd(v); ++w) Queue(*w);
    if (relevant_[v]) {
      dist_.RemoveSource(v);
      ++epoch_;
    }
  }

 private:
  enum : uint8_t { kUnseen, kQueued, kFetched };
  using Entry = std::tuple<int32_t, int64_t, int32_t>;  // (d, queue order, node)

  // Pops the heap's valid minimum entries (re-pushing those whose d grew),
  // breaks ties by c(u), and puts the others back.
  int32_t NearestCandidate() {
    std::vector<Entry> tied;
    while (!heap_.empty() && static_cast<int>(tied.size()) < kOracleTieCandidates) {
      auto [d, seq, v] = heap_.top();
      if (!tied.empty() && d > std::get<0>(tied.front())) break;
      heap_.pop();
      if (state_[v] != kQueued) continue;
      if (d != dist_[v]) {
        heap_.emplace(dist_[v], seq, v);  // d only grows: re-file it
        continue;
      }
      tied.emplace_back(d, seq, v);
    }
    if (tied.empty() || std::get<0>(tied.front()) == kInf) {
      for (const Entry& e : tied) heap_.push(e);
      return -1;
    }
    size_t best = 0;
    int64_t best_count = -1;
    for (size_t i = 0; i < tied.size(); ++i) {
      int64_t c = tied.size() == 1 ? 0 : RelevantWithin(std::get<2>(tied[i]), std::get<0>(tied[i]));
      if (c > best_count) best = i, best_count = c;  // ties: earlier queue order
    }
    for (size_t i = 0; i < tied.size(); ++i) {
      if (i != best) heap_.push(tied[i]);
    }
    return std::get<2>(tied[best]);
  }

  // c(u): unfetched relevant pages within `depth` hops of u (BFS, capped).
  int64_t RelevantWithin(int32_t u, int32_t depth) {
    if (tie_epoch_[u] == epoch_) return tie_count_[u];
    ++stamp_;
    std::vector<int32_t> frontier = {u}, next;
    visit_stamp_[u] = stamp_;
    int64_t count = 0, visited = 1;
    for (int32_t level = 0; level < depth && !frontier.empty(); ++level) {
      next.clear();
      for (int32_t x : frontier) {
        for (const int32_t* w = g_.OutBegin(x); w != g_.OutEnd(x); ++w) {
          if (visit_stamp_[*w] == stamp_ || visited >= kOracleTieVisits) continue;
          visit_stamp_[*w] = stamp_;
          ++visited;
          if (dist_.is_source(*w)) ++count;
          next.push_back(*w);
        }
      }
      frontier.swap(next);
    }
    tie_epoch_[u] = epoch_;
    tie_count_[u] = count;
    return count;
  }

  const LinkGraph& g_;
  const std::vector<bool>& relevant_;
  DistanceToRelevant dist_;
  std::vector<uint8_t> state_;
  std::vector<int64_t> seq_;
  int64_t next_seq_ = 0;
  std::deque<int32_t> relevant_queue_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  int64_t epoch_ = 0;  // relevant pages fetched: c(u) caches are per epoch
  std::vector<int64_t> tie_count_, tie_epoch_;
  std::vector<uint32_t> visit_stamp_;
  uint32_t stamp_ = 0;
};

}  // namespace

OracleRun RunOracleCrawl(const LinkGraph& graph, const std::vector<bool>& relevant,
                         const std::vector<int32_t>& seeds, int64_t budget) {
  OracleRun run;
  if (static_cast<int32_t>(relevant.size()) != graph.node_count() || budget <= 0) return run;
  OracleCrawl crawl(graph, relevant);
  for (int32_t s : seeds) crawl.Queue(s);
  run.found.reserve(budget);
  int64_t found = 0;
  while (static_cast<int64_t>(run.found.size()) < budget) {
    int32_t v = crawl.Next();
    if (v < 0) break;
    crawl.Fetch(v);
    run.order.push_back(v);
    if (relevant[v]) ++found;
    run.found.push_back(found);
  }
  run.found.resize(budget, found);
  return run;
}

OracleCurve ComputeOracleCurve(const LinkGraph& graph, const LabelSet& labels,
                               const std::vector<std::string>& seed_urls, int64_t budget) {
  OracleCurve curve;
  curve.graph_nodes = graph.node_count();
  curve.graph_edges = graph.edge_count();
  std::vector<bool> relevant(graph.node_count(), false);
  for (const std::string& url : labels.relevant()) {
    if (std::optional<int32_t> v = graph.Find(url); v && !relevant[*v]) {
      relevant[*v] = true;
      ++curve.relevant_in_graph;
    }
  }
  std::vector<int32_t> seeds;
  for (const std::string& url : seed_urls) {
    if (std::optional<int32_t> v = graph.Find(url)) seeds.push_back(*v);
  }
  curve.seeds_in_graph = static_cast<int64_t>(seeds.size());
  const int64_t total = static_cast<int64_t>(labels.relevant_count());
  if (curve.relevant_in_graph < total) {
    curve.notes.push_back("oracle: " + std::to_string(total - curve.relevant_in_graph) + " of " +
                          std::to_string(total) +
                          " relevant pages are not in the link graph (not reached by its crawl)");
  }
  if (curve.seeds_in_graph < static_cast<int64_t>(seed_urls.size())) {
    curve.notes.push_back("oracle: " +
                          std::to_string(seed_urls.size() - curve.seeds_in_graph) + " of " +
                          std::to_string(seed_urls.size()) + " seeds are not in the link graph");
  }
  OracleRun run = RunOracleCrawl(graph, relevant, seeds, budget);
  curve.recall.reserve(run.found.size());
  for (int64_t f : run.found) {
    curve.recall.push_back(total == 0 ? 0.0 : static_cast<double>(f) / static_cast<double>(total));
  }
  return curve;
}

}  // namespace topicrawl::eval

namespace topicrawl::eval {

Status AddOracleFromGraph(const std::string& graph_dir, const std::string& crawl_dir,
                          const LabelSet& labels, int64_t budget, CrawlMetrics* m) {
  StatusOr<LinkGraph> graph = ReadLinkGraph(graph_dir);
  if (!graph.ok()) return Status::Error("oracle graph: " + graph.status().message());
  StatusOr<std::vector<std::string>> seeds = ReadCrawlSeeds(crawl_dir);
  if (!seeds.ok()) return Status::Error("oracle seeds: " + seeds.status().message());
  OracleCurve curve = ComputeOracleCurve(*graph, labels, *seeds, std::max<int64_t>({m->dp, budget, 1}));
  for (std::string& note : curve.notes) m->notes.push_back(std::move(note));
  AddOracleCurve(curve.recall,
                 "greedy over the graph of " + graph_dir + " (" +
                     std::to_string(curve.graph_nodes) + " pages, " +
                     std::to_string(curve.graph_edges) + " links; " +
                     std::to_string(curve.relevant_in_graph) + " relevant, " +
                     std::to_string(curve.seeds_in_graph) + " seeds in it)",
                 m);
  return Status::Ok();
}

}  // namespace topicrawl::eval
