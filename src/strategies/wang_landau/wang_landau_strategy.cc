// Wang-Landau sampling crawler (strategy "wang-landau"), seed 000
// (000_b5a9e3e8aba53bab): Liu, Chen, Zhao 2023, Algorithm 1.
//
//   * R(P): TF-IDF cosine with the topic (eq. 3-4), TopicStrategy;
//   * R(l) = a R(anchor_l) + (1 - a) R(P_l), a = 0.3 (eq. 5),
//     RelevanceLinkScorer; R(l) is also the link's energy E;
//   * admission (Algorithm 1 step 8): children with R(l) >= 0.2 are queued;
//     children of a page with PR >= 2 are queued whatever their R(l)
//     ("potential value", section 2.2) and marked "tunnel" in the link's
//     explanation;
//   * PR (eq. 6, d = 0.85) over the graph of crawled pages and the admitted
//     URLs they link to (graph/), updated during the crawl: after the first
//     `pagerank_every` new pages and then whenever the new pages reach
//     max(pagerank_every, pagerank_growth * crawled pages), by
//     `pagerank_sweeps` warm-started Gauss-Seidel sweeps. The amortised cost
//     per page is O(sweeps * (V + E) / (growth * pages)), i.e. constant for a
//     graph growing linearly with the crawl, and the number of updates grows
//     only logarithmically past pagerank_every / pagerank_growth pages;
//   * selection: the "wang-landau" LinkSelector (regional competition +
//     WL acceptance, strategies/wang_landau/wang_landau_link_selector.cc maps the steps).
//
// Parameters: [strategy.wang-landau] in a TOML topic file (unknown keys are
// errors):
//   bins = 50              ln_f0 = 1.0          max_rejections = 5
//   check_every = 1000     flatness = "ln2"     flatness_k = 0.8
//   max_steps = 1000000    min_link_relevance = 0.2
//   tunnel_pagerank = 2.0  damping = 0.85       pagerank_every = 100
//   pagerank_growth = 0.05 pagerank_sweeps = 3  max_sample_draws = 64
//   refill_when_empty = true  reserve_max = 1000000   (not in the seed: when
//   the queue runs dry, the children cut by min_link_relevance are queued
//   instead of ending the crawl; false = Algorithm 1's stop rule)
//
// Diagnostics in the crawl directory: wl_steps.tsv (every MC step, written
// as the crawl runs; appended to on resume), and at Finish() wl_dos.tsv (ln g
// and H of the visited energy bins; energy = bin centre), wl_stats.tsv
// (counters) and df.tsv (TopicStrategy).
//
// Saved state (section "wang-landau" v2, after TopicStrategy's "topic"): the
// walk (ln g, H, S, the current iteration, ln f, counters, X1's energy, the
// RNG), the PageRank graph (URL ids in node order, then the crawled pages in
// the order their outlinks were set, with their children, so parents and
// hence the Gauss-Seidel sums come back in the same order), the PR values,
// the update schedule, and the refill reserve. v2 packs the edge lists and
// the reserve with zstd (see EncodeGraph/EncodeReserve); v1 is still read.
#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "crawl/dedup.h"
#include "frontier/frontier.h"
#include "graph/link_graph.h"
#include "graph/page_rank.h"
#include "scoring/relevance_link_scorer.h"
#include "strategies/baselines/topic_strategy.h"
#include "strategies/wang_landau/wang_landau_link_selector.h"
#include "strategies/wang_landau/wang_landau_strategy.h"
#include "text/topic.h"

namespace topicrawl {
namespace {

struct WlParams {
  WangLandauOptions walk;
  double min_link_relevance = 0.2;
  double tunnel_pagerank = 2.0;
  PageRankOptions pagerank;
  int64_t pagerank_every = 100;
  double pagerank_growth = 0.05;
  int max_sample_draws = 64;
  // Not in Algorithm 1 (which stops when the queue is empty): keep the
  // children cut by min_link_relevance in a reserve and queue them, best
  // first by the frontier's order, when the queue runs dry. Without it the
  // crawl can end with most of its budget unspent (zh web: 417 of 3,000).
  bool refill_when_empty = true;
  int64_t reserve_max = 1'000'000;
};

StatusOr<WlParams> ReadParams(const StrategyParams& p) {
  static const std::vector<std::string_view> kKnown = {
      "bins", "ln_f0", "max_rejections", "check_every", "flatness",
      "flatness_k", "max_steps", "min_link_relevance", "tunnel_pagerank",
      "damping", "pagerank_every", "pagerank_growth", "pagerank_sweeps",
      "max_sample_draws", "refill_when_empty", "reserve_max"};
  auto unknown = p.UnknownKeys(kKnown);
  if (!unknown.empty()) {
    return Status::Error("[strategy.wang-landau]: unknown key '" + unknown[0] + "'");
  }
  WlParams w;
  Status err = Status::Ok();
  auto num = [&](const char* key, double fallback) {
    auto v = p.Number(key, fallback);
    if (!v.ok() && err.ok()) err = v.status();
    return v.ok() ? *v : fallback;
  };
  auto integer = [&](const char* key, int64_t fallback) {
    auto v = p.Integer(key, fallback);
    if (!v.ok() && err.ok()) err = v.status();
    return v.ok() ? *v : fallback;
  };
  w.walk.bins = static_cast<int>(integer("bins", w.walk.bins));
  w.walk.ln_f0 = num("ln_f0", w.walk.ln_f0);
  w.walk.max_rejections = static_cast<int>(integer("max_rejections", w.walk.max_rejections));
  w.walk.check_every = integer("check_every", w.walk.check_every);
  w.walk.flatness_k = num("flatness_k", w.walk.flatness_k);
  w.walk.max_steps = integer("max_steps", w.walk.max_steps);
  w.min_link_relevance = num("min_link_relevance", w.min_link_relevance);
  w.tunnel_pagerank = num("tunnel_pagerank", w.tunnel_pagerank);
  w.pagerank.damping = num("damping", w.pagerank.damping);
  w.pagerank.sweeps_per_update = static_cast<int>(integer("pagerank_sweeps", 3));
  w.pagerank_every = integer("pagerank_every", w.pagerank_every);
  w.pagerank_growth = num("pagerank_growth", w.pagerank_growth);
  w.max_sample_draws = static_cast<int>(integer("max_sample_draws", w.max_sample_draws));
  w.reserve_max = integer("reserve_max", w.reserve_max);
  auto refill = p.Bool("refill_when_empty", w.refill_when_empty);
  if (!refill.ok()) return refill.status();
  w.refill_when_empty = *refill;
  auto rule = p.String("flatness", "ln2");
  if (!rule.ok()) return rule.status();
  if (!err.ok()) return err;
  auto parsed = ParseFlatnessRule(*rule);
  if (!parsed.ok()) return Status::Error("[strategy.wang-landau]: " + parsed.status().message());
  w.walk.flatness = *parsed;
  if (Status s = w.walk.Validate(); !s.ok()) return s;
  if (!(w.pagerank.damping > 0 && w.pagerank.damping < 1)) {
    return Status::Error("wang-landau: damping must be in (0, 1)");
  }
  if (w.pagerank.sweeps_per_update < 1 || w.pagerank_every < 1 || w.pagerank_growth < 0 ||
      w.max_sample_draws < 1) {
    return Status::Error(
        "wang-landau: pagerank_sweeps, pagerank_every, max_sample_draws must be >= 1 "
        "and pagerank_growth >= 0");
  }
  return w;
}

class WangLandauStrategy : public TopicStrategy {
 public:
  WangLandauStrategy(std::shared_ptr<TopicRelevance> rel, WlParams params,
                     const StrategyContext& context)
      : TopicStrategy("wang-landau", "wang-landau", rel,
                      std::make_unique<RelevanceLinkScorer>(rel), context),
        params_(params),
        state_(std::make_shared<WangLandauState>(params.walk, context.rng_seed)),
        pagerank_(params.pagerank) {}

  ~WangLandauStrategy() override {
    if (steps_file_) std::fclose(steps_file_);
  }

  StatusOr<std::unique_ptr<LinkSelector>> MakeSelector() override {
    if (!out_dir().empty() && !steps_file_) {
      // Appended to: a resumed crawl continues the log of its first part.
      const std::string path = out_dir() + "/wl_steps.tsv";
      steps_file_ = std::fopen(path.c_str(), "a");
      if (!steps_file_) return Status::Error("cannot write " + path);
      if (std::ftell(steps_file_) == 0) {
        std::fputs("L\tE1\tE2\taccepted\tln_f\tflat\n", steps_file_);
      }
    }
    FILE* f = steps_file_;
    if (f) {
      state_->on_step = [f](const WangLandauStep& s) {
        std::fprintf(f, "%lld\t%.6f\t%.6f\t%d\t%.10g\t%d\n",
                     static_cast<long long>(s.step), s.e1, s.e2, s.accepted ? 1 : 0,
                     s.ln_f, s.flat ? 1 : 0);
      };
    }
    LinkSelectorOptions so;
    so.seed = rng_seed();
    so.max_sample_draws = params_.max_sample_draws;
    return NewWangLandauLinkSelector(so, state_);
  }

  // Parse pool: TopicStrategy scores R(P) and R(l); admission is step 8's
  // R(l) >= 0.2 plus the PR >= 2 exception of section 2.2.
  void Assess(const CrawlTask& task, const ParsedPage& page,
              PageAssessment* out) override {
    TopicStrategy::Assess(task, page, out);
    const double pr = PageRankOf(task.url_id);
    const bool potential = pr >= params_.tunnel_pagerank;
    for (PageAssessment::Link& link : out->links) {
      if (link.score >= params_.min_link_relevance) continue;
      link.admit = potential;
      if (potential && !link.explanation.empty() && link.explanation.back() == '}') {
        char buf[48];
        std::snprintf(buf, sizeof buf, ",\"tunnel_pr\":%.3f}", pr);
        link.explanation.pop_back();
        link.explanation += buf;
      }
      if (potential) tunnelled_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // Crawl thread: the page joins the graph with edges to every outlink
  // target the crawl knows (crawled or queued, i.e. seen by the frontier).
  void OnPageStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                    const PageAssessment& assessment, Frontier* frontier) override {
    KeepInReserve(task, id, page, assessment);
    std::lock_guard<std::mutex> lock(graph_mu_);
    const NodeId node = graph_.AddNode(task.url_id);
    std::vector<NodeId> targets;
    targets.reserve(page.links.size());
    for (const Outlink& link : page.links) {
      if (link.url.empty()) continue;
      const UrlId id = Dedup(link.url);
      if (frontier->Seen(id)) targets.push_back(graph_.AddNode(id));
    }
    graph_.SetOutlinks(node, targets);
    outlinks_order_.push_back(node);
    ++pages_;
    ++pages_since_update_;
    const double due = std::max<double>(static_cast<double>(params_.pagerank_every),
                                        params_.pagerank_growth * pages_);
    if (pages_since_update_ >= due) {
      pagerank_.Update(graph_);
      ++pagerank_updates_;
      pages_since_update_ = 0;
    }
  }

  // The reserve (see WlParams::refill_when_empty), handed over once.
  std::vector<LinkCandidate> Refill() override {
    std::vector<LinkCandidate> out;
    out.swap(reserve_);
    return out;
  }

  Status Finish() override {
    Status df = TopicStrategy::Finish();
    if (steps_file_) {
      std::fclose(steps_file_);
      steps_file_ = nullptr;
    }
    if (out_dir().empty()) return df;
    Status s = WriteDos();
    Status t = WriteStats();
    return !s.ok() ? s : !t.ok() ? t : df;
  }

 protected:
  void SaveMore(StateWriter* w) const override {
    w->Section("wang-landau", 2);
    const WangLandauDensity::Raw dos = state_->density.raw();
    w->F64(dos.ln_f);
    w->I64(dos.refinements);
    w->F64s(dos.ln_g);
    w->F64s(dos.h);
    w->Bools(dos.visited);
    w->Bools(dos.in_iteration);
    const WangLandauStats& s = state_->stats;
    for (int64_t v : {s.steps, s.accepted, s.rejected, s.forced_best, s.flat_checks,
                      s.refinements, s.after_walk}) {
      w->I64(v);
    }
    w->Bool(state_->started);
    w->F64(state_->e1);
    std::ostringstream rng;
    rng << state_->rng;
    w->Str(rng.str());
    w->I64(tunnelled_.load());
    std::lock_guard<std::mutex> lock(graph_mu_);
    w->U64(graph_.NodeCount());
    w->Packed(EncodeGraph());
    const auto pr = pagerank_.values();
    w->F64s(std::vector<double>(pr.begin(), pr.end()));
    w->I64(pages_);
    w->I64(pages_since_update_);
    w->I64(pagerank_updates_);
    w->Packed(EncodeReserve());
  }

  Status RestoreMore(StateReader* r) override {
    uint32_t version;
    if (Status s = r->Section("wang-landau", 2, &version); !s.ok()) return s;
    WangLandauDensity::Raw dos;
    int64_t refinements = 0;
    if (!r->F64(&dos.ln_f, "ln_f") || !r->I64(&refinements, "refinements") ||
        !r->F64s(&dos.ln_g, "ln_g") || !r->F64s(&dos.h, "H") ||
        !r->Bools(&dos.visited, "S") || !r->Bools(&dos.in_iteration, "iteration")) {
      return r->status();
    }
    dos.refinements = static_cast<int>(refinements);
    WangLandauStats st;
    for (int64_t* v : {&st.steps, &st.accepted, &st.rejected, &st.forced_best,
                       &st.flat_checks, &st.refinements, &st.after_walk}) {
      if (!r->I64(v, "walk counters")) return r->status();
    }
    bool started = false;
    double e1 = 0;
    std::string rng_text;
    int64_t tunnelled = 0;
    uint64_t nodes = 0;
    if (!r->Bool(&started, "started") || !r->F64(&e1, "E1") || !r->Str(&rng_text, "rng") ||
        !r->I64(&tunnelled, "tunnelled") || !r->Count(&nodes, 8, "graph nodes")) {
      return r->status();
    }
    std::mt19937_64 rng;
    std::istringstream rng_in(rng_text);
    rng_in >> rng;
    if (!rng_in) return Status::Error("wang-landau: bad RNG state");
    LinkGraph graph;
    std::vector<NodeId> order;
    std::vector<std::vector<NodeId>> children;
    if (version == 1) {
      if (Status s = ReadGraphV1(r, nodes, &graph, &order, &children); !s.ok()) return s;
    } else {
      std::string packed;
      if (!r->Packed(&packed, "graph")) return r->status();
      StateReader g(packed);
      if (Status s = ReadGraphV2(&g, nodes, &graph, &order, &children); !s.ok()) return s;
    }
    const uint64_t order_size = order.size();
    // Replay SetOutlinks in the original order (a node set twice counts at
    // its last position, as LinkGraph re-appends it to its children's
    // parents).
    std::vector<uint64_t> last(nodes, UINT64_MAX);
    for (uint64_t i = 0; i < order_size; ++i) last[order[i]] = i;
    for (uint64_t i = 0; i < order_size; ++i) {
      if (last[order[i]] == i) graph.SetOutlinks(order[i], children[i]);
    }
    std::vector<double> pr;
    int64_t pages = 0, since = 0, updates = 0;
    if (!r->F64s(&pr, "PageRank") || !r->I64(&pages, "pages") ||
        !r->I64(&since, "pages since update") || !r->I64(&updates, "pagerank updates")) {
      return r->status();
    }
    if (pr.size() > nodes) return Status::Error("wang-landau: more PageRank values than nodes");
    std::vector<LinkCandidate> reserve;
    if (version == 1) {
      if (Status s = ReadReserveV1(r, &reserve); !s.ok()) return s;
    } else {
      std::string packed;
      if (!r->Packed(&packed, "reserve")) return r->status();
      if (Status s = DecodeReserve(packed, &reserve); !s.ok()) return s;
    }
    if (Status s = state_->density.SetRaw(std::move(dos)); !s.ok()) return s;
    state_->stats = st;
    state_->started = started;
    state_->e1 = e1;
    state_->rng = rng;
    tunnelled_ = tunnelled;
    std::lock_guard<std::mutex> lock(graph_mu_);
    graph_ = std::move(graph);
    pagerank_.SetValues(std::move(pr));
    outlinks_order_ = std::move(order);
    pages_ = pages;
    pages_since_update_ = since;
    pagerank_updates_ = updates;
    reserve_ = std::move(reserve);
    return Status::Ok();
  }

 private:
  // ---- saved-state encoding ------------------------------------------------
  // Version 2 (this build writes it; version 1 is still read) packs the two
  // bulky parts with zstd: the graph's edge lists (children as ZigZag deltas
  // of node ids, which are mostly small: a page's new targets get
  // consecutive ids) and the refill reserve, column by column (runs of one
  // parent page and depth; URLs front-coded against the previous URL;
  // anchors; scores; url_id only where it is not Dedup(url)). A 15,000-page
  // dev crawl's state went from ~100 MB (v1, fixed-width fields) to a few MB.

  std::string EncodeGraph() const {  // REQUIRES: graph_mu_ held
    StateWriter g;
    for (NodeId n = 0; n < graph_.NodeCount(); ++n) g.U64(graph_.UrlOf(n));
    g.Var(outlinks_order_.size());
    for (NodeId n : outlinks_order_) {
      g.Var(n);
      g.Var(graph_.OutDegree(n));
      int64_t prev = n;
      for (NodeId c : graph_.Children(n)) {
        g.ZigZag(static_cast<int64_t>(c) - prev);
        prev = c;
      }
    }
    return g.Take();
  }

  static Status ReadGraphV2(StateReader* g, uint64_t nodes, LinkGraph* graph,
                            std::vector<NodeId>* order,
                            std::vector<std::vector<NodeId>>* children) {
    if (nodes > g->remaining() / 8) return Status::Error("wang-landau: graph truncated");
    for (uint64_t i = 0; i < nodes; ++i) {
      uint64_t url_id;
      if (!g->U64(&url_id, "graph node")) return g->status();
      if (graph->AddNode(url_id) != i) return Status::Error("wang-landau: duplicate graph node");
    }
    uint64_t order_size = 0;
    if (!g->Var(&order_size, "crawled pages")) return g->status();
    if (order_size > g->remaining() / 2) return Status::Error("wang-landau: graph truncated");
    order->resize(order_size);
    children->resize(order_size);
    for (uint64_t i = 0; i < order_size; ++i) {
      uint64_t node, degree;
      if (!g->Var(&node, "page node") || !g->Var(&degree, "outlinks")) return g->status();
      if (node >= nodes) return Status::Error("wang-landau: graph node out of range");
      if (degree > g->remaining()) return Status::Error("wang-landau: graph truncated");
      (*order)[i] = static_cast<NodeId>(node);
      std::vector<NodeId>& kids = (*children)[i];
      kids.resize(degree);
      int64_t prev = static_cast<int64_t>(node);
      for (NodeId& c : kids) {
        int64_t d;
        if (!g->ZigZag(&d, "outlink")) return g->status();
        prev += d;
        if (prev < 0 || static_cast<uint64_t>(prev) >= nodes) {
          return Status::Error("wang-landau: graph edge out of range");
        }
        c = static_cast<NodeId>(prev);
      }
    }
    if (!g->AtEnd()) return Status::Error("wang-landau: trailing bytes after the graph");
    return Status::Ok();
  }

  static Status ReadGraphV1(StateReader* r, uint64_t nodes, LinkGraph* graph,
                            std::vector<NodeId>* order,
                            std::vector<std::vector<NodeId>>* children) {
    for (uint64_t i = 0; i < nodes; ++i) {
      uint64_t url_id;
      if (!r->U64(&url_id, "graph node")) return r->status();
      if (graph->AddNode(url_id) != i) return Status::Error("wang-landau: duplicate graph node");
    }
    uint64_t order_size = 0;
    if (!r->Count(&order_size, 12, "crawled pages")) return r->status();
    order->resize(order_size);
    children->resize(order_size);
    for (uint64_t i = 0; i < order_size; ++i) {
      uint64_t degree;
      if (!r->U32(&(*order)[i], "page node") || !r->Count(&degree, 4, "outlinks")) {
        return r->status();
      }
      if ((*order)[i] >= nodes) return Status::Error("wang-landau: graph node out of range");
      (*children)[i].resize(degree);
      for (NodeId& c : (*children)[i]) {
        if (!r->U32(&c, "outlink")) return r->status();
        if (c >= nodes) return Status::Error("wang-landau: graph edge out of range");
      }
    }
    return Status::Ok();
  }

  std::string EncodeReserve() const {
    StateWriter runs, urls, anchors, scores, ids;
    size_t i = 0;
    uint64_t exceptions = 0;
    int64_t prev_parent = 0;
    std::string_view prev_url;
    while (i < reserve_.size()) {
      size_t j = i;
      while (j < reserve_.size() && reserve_[j].parent_page_id == reserve_[i].parent_page_id &&
             reserve_[j].depth == reserve_[i].depth) {
        ++j;
      }
      runs.Var(j - i);
      runs.ZigZag(reserve_[i].parent_page_id - prev_parent);
      runs.Var(reserve_[i].depth);
      prev_parent = reserve_[i].parent_page_id;
      i = j;
    }
    size_t last_exception = 0;
    for (size_t k = 0; k < reserve_.size(); ++k) {
      const LinkCandidate& c = reserve_[k];
      size_t common = 0;
      const size_t limit = std::min(prev_url.size(), c.url.size());
      while (common < limit && prev_url[common] == c.url[common]) ++common;
      urls.Var(common);
      urls.Str(std::string_view(c.url).substr(common));
      prev_url = c.url;
      anchors.Str(c.anchor);
      scores.F64(c.score);
      if (c.url_id != Dedup(c.url)) {
        ids.Var(k - last_exception);
        ids.U64(c.url_id);
        last_exception = k;
        ++exceptions;
      }
    }
    StateWriter out;
    out.Var(reserve_.size());
    out.Str(runs.data());
    out.Str(urls.data());
    out.Str(anchors.data());
    out.Str(scores.data());
    out.Var(exceptions);
    out.Str(ids.data());
    return out.Take();
  }

  Status DecodeReserve(const std::string& packed, std::vector<LinkCandidate>* reserve) const {
    StateReader in(packed);
    uint64_t count = 0, exceptions = 0;
    std::string runs_s, urls_s, anchors_s, scores_s, ids_s;
    if (!in.Var(&count, "reserve size") || !in.Str(&runs_s, "reserve runs") ||
        !in.Str(&urls_s, "reserve urls") || !in.Str(&anchors_s, "reserve anchors") ||
        !in.Str(&scores_s, "reserve scores") || !in.Var(&exceptions, "reserve ids") ||
        !in.Str(&ids_s, "reserve ids")) {
      return in.status();
    }
    if (!in.AtEnd() || count > scores_s.size() / 8) {
      return Status::Error("wang-landau: damaged reserve");
    }
    reserve->assign(count, LinkCandidate{});
    StateReader runs(runs_s), urls(urls_s), anchors(anchors_s), scores(scores_s), ids(ids_s);
    uint64_t k = 0;
    int64_t parent = 0;
    while (k < count) {
      uint64_t n, depth;
      int64_t d;
      if (!runs.Var(&n, "reserve run") || !runs.ZigZag(&d, "reserve parent") ||
          !runs.Var(&depth, "reserve depth")) {
        return runs.status();
      }
      if (n == 0 || n > count - k || depth > UINT32_MAX) {
        return Status::Error("wang-landau: damaged reserve runs");
      }
      parent += d;
      for (uint64_t e = 0; e < n; ++e, ++k) {
        (*reserve)[k].parent_page_id = parent;
        (*reserve)[k].depth = static_cast<uint32_t>(depth);
      }
    }
    std::string prev_url;
    for (LinkCandidate& c : *reserve) {
      uint64_t common;
      std::string suffix;
      if (!urls.Var(&common, "reserve url") || !urls.Str(&suffix, "reserve url") ||
          !anchors.Str(&c.anchor, "reserve anchor") || !scores.F64(&c.score, "reserve score")) {
        return !urls.status().ok() ? urls.status()
               : !anchors.status().ok() ? anchors.status()
                                        : scores.status();
      }
      if (common > prev_url.size()) return Status::Error("wang-landau: damaged reserve url");
      c.url = prev_url.substr(0, common) + suffix;
      c.url_id = Dedup(c.url);
      prev_url = c.url;
    }
    uint64_t at = 0;
    for (uint64_t e = 0; e < exceptions; ++e) {
      uint64_t delta, id;
      if (!ids.Var(&delta, "reserve id") || !ids.U64(&id, "reserve id")) return ids.status();
      at += delta;
      if (at >= count) return Status::Error("wang-landau: damaged reserve ids");
      (*reserve)[at].url_id = id;
    }
    if (!runs.AtEnd() || !urls.AtEnd() || !anchors.AtEnd() || !scores.AtEnd() || !ids.AtEnd()) {
      return Status::Error("wang-landau: trailing bytes in the reserve");
    }
    return Status::Ok();
  }

  static Status ReadReserveV1(StateReader* r, std::vector<LinkCandidate>* reserve) {
    uint64_t reserve_size = 0;
    if (!r->Count(&reserve_size, 40, "reserve")) return r->status();
    reserve->resize(reserve_size);
    for (LinkCandidate& c : *reserve) {
      if (!r->Str(&c.url, "reserve url") || !r->U64(&c.url_id, "reserve url_id") ||
          !r->U32(&c.depth, "reserve depth") ||
          !r->I64(&c.parent_page_id, "reserve parent") ||
          !r->Str(&c.anchor, "reserve anchor") || !r->F64(&c.score, "reserve score")) {
        return r->status();
      }
    }
    return Status::Ok();
  }

  void KeepInReserve(const CrawlTask& task, PageId id, const ParsedPage& page,
                     const PageAssessment& assessment) {
    if (!params_.refill_when_empty || page.nofollow) return;
    for (size_t i = 0; i < page.links.size() && i < assessment.links.size(); ++i) {
      const Outlink& link = page.links[i];
      if (assessment.links[i].admit || link.url.empty() || link.nofollow) continue;
      if (static_cast<int64_t>(reserve_.size()) >= params_.reserve_max) return;
      reserve_.push_back({link.url, Dedup(link.url), task.depth + 1, id, link.anchor,
                          assessment.links[i].score});
    }
  }

  double PageRankOf(UrlId url_id) {
    std::lock_guard<std::mutex> lock(graph_mu_);
    auto node = graph_.FindNode(url_id);
    return node ? pagerank_.Value(*node) : 1.0;
  }

  Status WriteDos() const {
    const std::string path = out_dir() + "/wl_dos.tsv";
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return Status::Error("cannot write " + path);
    std::fputs("bin\tenergy\tln_g\tH\n", f);
    const WangLandauDensity& dos = state_->density;
    for (int b = 0; b < dos.bins(); ++b) {
      if (!dos.Visited(b)) continue;  // S only: g is unknown elsewhere
      std::fprintf(f, "%d\t%.4f\t%.10g\t%.0f\n", b, dos.Energy(b) + dos.width() / 2,
                   dos.ln_g(b), dos.h(b));
    }
    return std::fclose(f) == 0 ? Status::Ok() : Status::Error("cannot write " + path);
  }

  Status WriteStats() {
    const std::string path = out_dir() + "/wl_stats.tsv";
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return Status::Error("cannot write " + path);
    const WangLandauStats& s = state_->stats;
    std::lock_guard<std::mutex> lock(graph_mu_);
    double max_pr = 0;
    size_t potential = 0;
    for (double v : pagerank_.values()) {
      max_pr = std::max(max_pr, v);
      potential += v >= params_.tunnel_pagerank;
    }
    std::fprintf(f,
                 "key\tvalue\nsteps\t%lld\naccepted\t%lld\nrejected\t%lld\n"
                 "forced_best\t%lld\nflat_checks\t%lld\nrefinements\t%lld\n"
                 "after_walk\t%lld\nfinal_ln_f\t%.10g\nflatness_rule\t%s\n"
                 "tunnelled_links\t%lld\npagerank_updates\t%lld\ngraph_nodes\t%zu\n"
                 "graph_edges\t%zu\nmax_pagerank\t%.4f\npotential_value_pages\t%zu\n",
                 static_cast<long long>(s.steps), static_cast<long long>(s.accepted),
                 static_cast<long long>(s.rejected), static_cast<long long>(s.forced_best),
                 static_cast<long long>(s.flat_checks), static_cast<long long>(s.refinements),
                 static_cast<long long>(s.after_walk), state_->density.ln_f(),
                 std::string(FlatnessRuleName(params_.walk.flatness)).c_str(),
                 static_cast<long long>(tunnelled_.load()),
                 static_cast<long long>(pagerank_updates_), graph_.NodeCount(),
                 graph_.EdgeCount(), max_pr, potential);
    return std::fclose(f) == 0 ? Status::Ok() : Status::Error("cannot write " + path);
  }

  WlParams params_;
  std::shared_ptr<WangLandauState> state_;
  FILE* steps_file_ = nullptr;
  std::atomic<int64_t> tunnelled_{0};

  mutable std::mutex graph_mu_;  // guards graph_, pagerank_ (Assess reads PR)
  std::vector<LinkCandidate> reserve_;  // crawl thread only
  LinkGraph graph_;
  std::vector<NodeId> outlinks_order_;  // nodes in SetOutlinks call order
  PageRank pagerank_;
  int64_t pages_ = 0;
  int64_t pages_since_update_ = 0;
  int64_t pagerank_updates_ = 0;
};

}  // namespace

StatusOr<Strategy> NewWangLandauStrategy(
    const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/true);
  if (!rel.ok()) return rel.status();
  auto params = ReadParams((*rel)->topic().Strategy("wang-landau"));
  if (!params.ok()) return params.status();
  return ComposeTopicStrategy(std::make_shared<WangLandauStrategy>(*rel, *params, context));
}

}  // namespace topicrawl
