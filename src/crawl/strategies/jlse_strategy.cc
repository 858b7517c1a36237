// "jlse": seed 004 (004_d65f8d41b01a9f7d), joint link similarity with an
// online-learned web link graph. The learner's contract and equations are in
// jlse_strategy.h; this file holds the reasons and the strategy around it.
//
// Topic file (TOML):
//   [topic.examples] positive = [...] negative = [...]   # local HTML files
//   [strategy.jlse]                                      # seed values:
//   page_model = "FILE"         # `topicrawl train page-nb` model instead of examples
//   page_threshold = 0.5        # P(c|d) >= it: relevant (NB's decision)
//   expand_irrelevant = false   # seed: irrelevant pages are not expanded
//   expand_results = false      # seed: result pages are not expanded
//   anchor_negative = 0.01      # sim_anchor when NB says negative
//   cf = 150                    # rebuild Gw every cf new result pages
//   gamma = 0.9   reward = 1.0   k = 100   # Q-learning (eq. 17), k sweeps
//   k1 = 2.0   b = 0.75          # BM25 (eq. 5)
//   w_anchor = 0.5  w_url = 0.2  w_context = 0.3   # eq. 8
//   priority = "normalized"     # eq. 10; "product" = P(c|d) * sim(i)
//   max_context_terms = 64
// [strategy.ata] takes the same keys (the Gw ones are ignored).
#include "crawl/strategies/jlse_strategy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "classify/result_page_features.h"
#include "crawl/dedup.h"
#include "crawl/strategies/strategies.h"
#include "fetch/charset.h"
#include "frontier/link_selector.h"
#include "parse/html_parser.h"
#include "store/jlse_tables.h"
#include "text/topic.h"

namespace topicrawl {
namespace {

std::string Join(const std::vector<std::string>& terms, size_t max_terms) {
  std::string out;
  size_t n = std::min(terms.size(), max_terms);
  for (size_t i = 0; i < n; ++i) {
    if (terms[i].find(' ') != std::string::npos) continue;  // keeps Split exact
    if (!out.empty()) out += ' ';
    out += terms[i];
  }
  return out;
}

std::vector<std::string> Split(const std::string& joined) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < joined.size()) {
    size_t j = joined.find(' ', i);
    if (j == std::string::npos) j = joined.size();
    if (j > i) out.emplace_back(joined, i, j - i);
    i = j + 1;
  }
  return out;
}

Bm25Doc ToDoc(const JlseLinkFields& f) {
  Bm25Doc d;
  for (int i = 0; i < kBm25Fields; ++i) d[i] = Split(f.terms[i]);
  return d;
}

// URL words: lower-case alphanumeric runs of host and path, without the
// scheme and the words every URL of a web shares.
std::vector<std::string> UrlTerms(std::string_view url) {
  size_t at = url.find("://");
  if (at != std::string_view::npos) url.remove_prefix(at + 3);
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty() && cur != "www" && cur != "html" && cur != "htm" && cur != "index") {
      out.push_back(cur);
    }
    cur.clear();
  };
  for (char c : url) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      flush();
    }
  }
  flush();
  return out;
}

// Binary state encoding: varints, length-prefixed strings, raw doubles.
class Writer {
 public:
  void U(uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  void I(int64_t v) { U(static_cast<uint64_t>(v)); }
  void S(std::string_view s) {
    U(s.size());
    out_.append(s);
  }
  void D(double d) {
    char b[8];
    std::memcpy(b, &d, 8);
    out_.append(b, 8);
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool U(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) return false;
      const uint8_t b = static_cast<uint8_t>(in_[pos_++]);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool I(int64_t* v) {
    uint64_t u;
    if (!U(&u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }
  bool S(std::string* s) {
    uint64_t n;
    if (!U(&n) || n > in_.size() - pos_) return false;
    s->assign(in_.substr(pos_, n));
    pos_ += n;
    return true;
  }
  bool D(double* d) {
    if (in_.size() - pos_ < 8) return false;
    std::memcpy(d, in_.data() + pos_, 8);
    pos_ += 8;
    return true;
  }
  bool done() const { return pos_ == in_.size(); }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

constexpr char kStateMagic[] = "topicrawl-jlse-state-1";

void PutFields(Writer* w, const JlseLinkFields& f) {
  w->S(f.anchor_raw);
  for (const auto& t : f.terms) w->S(t);
}
bool GetFields(Reader* r, JlseLinkFields* f) {
  if (!r->S(&f->anchor_raw)) return false;
  for (auto& t : f->terms) {
    if (!r->S(&t)) return false;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------- learner

JlseLearner::JlseLearner(JlseParams params, std::shared_ptr<const NaiveBayes> model,
                         std::unique_ptr<LinkFeatureExtractor> words)
    : params_(params),
      model_(std::move(model)),
      words_(std::move(words)),
      snapshot_(std::make_shared<Snapshot>(Snapshot{Bm25Index(params.bm25), {}})) {}

StatusOr<std::unique_ptr<JlseLearner>> JlseLearner::Create(
    JlseParams params, std::shared_ptr<const NaiveBayes> page_model,
    const std::vector<std::string>& dictionary) {
  if (!page_model || !page_model->Trainable()) {
    return Status::Error("jlse: the page classifier has no examples of one class");
  }
  if (params.cf < 1) return Status::Error("jlse: cf must be >= 1");
  if (!(params.q.gamma >= 0 && params.q.gamma < 1)) {
    return Status::Error("jlse: gamma must be in [0, 1)");
  }
  auto words = LinkFeatureExtractor::Create(dictionary);
  if (!words.ok()) return words.status();
  return std::unique_ptr<JlseLearner>(
      new JlseLearner(params, std::move(page_model), std::move(words).value()));
}

std::shared_ptr<const JlseLearner::Snapshot> JlseLearner::snapshot() const {
  std::lock_guard<std::mutex> lock(snapshot_mu_);
  return snapshot_;
}

JlseLearner::Stats JlseLearner::stats() const {
  std::lock_guard<std::mutex> lock(stats_mu_);
  return stats_;
}

JlseLinkFields JlseLearner::Fields(std::string_view anchor, std::string_view url,
                                   std::string_view context) const {
  JlseLinkFields f;
  f.anchor_raw = std::string(anchor.substr(0, 200));
  f.terms[0] = Join(words_->tokenizer().Tokenize(anchor), params_.max_context_terms);
  if (params_.use_graph) {
    f.terms[1] = Join(UrlTerms(url), params_.max_context_terms);
    if (!context.empty()) {
      f.terms[2] = Join(words_->tokenizer().Tokenize(context), params_.max_context_terms);
    }
  }
  return f;
}

double JlseLearner::SimAnchor(std::string_view anchor) const {
  return SimAnchorWords(words_->tokenizer().Tokenize(anchor));
}

double JlseLearner::SimAnchorWords(const std::vector<std::string>& words) const {
  // Algorithm 1 (GTSAT): NB on the anchor's words; a negative verdict
  // gives the small constant.
  if (words.empty()) return params_.anchor_negative;
  NbScore s = model_->Score(words);
  return s.positive() ? s.p_positive : params_.anchor_negative;
}

JlseLinkScore JlseLearner::ScoreLink(const JlseLinkFields& fields) const {
  JlseLinkScore ls;
  ls.sim_anchor = SimAnchorWords(Split(fields.terms[0]));
  if (!params_.use_graph) return ls;
  auto snap = snapshot();
  if (snap->index.size() == 0) return ls;
  Bm25Hit hit = snap->index.Top1(ToDoc(fields));
  if (hit.doc < 0) return ls;
  ls.vertex = hit.doc;
  ls.bm25 = hit.normalized;
  ls.value = std::min(1.0, snap->value[static_cast<size_t>(hit.doc)]);
  ls.sim_predicted = ls.bm25 * ls.value;
  return ls;
}

double JlseLearner::Priority(double p_page, double sim, double denominator) const {
  if (!params_.normalized_priority) return p_page * sim;
  return denominator > 0 ? p_page * sim / denominator : 0.0;
}

void JlseLearner::Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) {
  out->links.assign(page.links.size(), {});
  PendingPage pp;
  std::vector<std::string> words = words_->PageWords(page.title + "\n" + page.text);
  NbScore page_score = model_->Score(words);
  pp.p_page = page_score.p_positive;
  pp.relevant = pp.p_page >= params_.page_threshold;
  ResultPageFeatures rf = ComputeResultPageFeatures(page);
  pp.result = pp.relevant && IsDetailPageByRule(rf);
  out->relevance = pp.p_page;
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "{\"p\":%.6g,\"relevant\":%d,\"result\":%d,\"td\":%.3f,\"ld\":%.3f,\"ag\":%.3f}",
                pp.p_page, pp.relevant ? 1 : 0, pp.result ? 1 : 0, rf.text_degree,
                rf.link_degree, rf.aggregation);
  out->explanation = buf;
  const bool expand =
      (pp.relevant || params_.expand_irrelevant) && (!pp.result || params_.expand_results);
  if (!expand) {
    for (auto& l : out->links) l.admit = false;
  } else {
    const size_t n = page.links.size();
    pp.fields.resize(n);
    pp.sim_anchor.assign(n, 0.0f);
    std::vector<JlseLinkScore> scores(n);
    double denominator = 0;
    int64_t predictions = 0, wins = 0;
    for (size_t i = 0; i < n; ++i) {
      const Outlink& link = page.links[i];
      if (link.url.empty()) continue;
      pp.fields[i] = Fields(link.anchor, link.url, link.dom_context);
      scores[i] = ScoreLink(pp.fields[i]);
      pp.sim_anchor[i] = static_cast<float>(scores[i].sim_anchor);
      denominator += scores[i].sim();
      if (scores[i].vertex >= 0) ++predictions;
      if (scores[i].sim_predicted > scores[i].sim_anchor) ++wins;
    }
    pp.denominator = denominator;
    for (size_t i = 0; i < n; ++i) {
      if (page.links[i].url.empty()) continue;
      const JlseLinkScore& s = scores[i];
      auto& l = out->links[i];
      l.score = Priority(pp.p_page, s.sim(), denominator);
      std::snprintf(buf, sizeof(buf),
                    "{\"s\":%.6g,\"parts\":{\"anchor\":%.4g,\"pred\":%.4g,\"bm25\":%.4g,"
                    "\"q\":%.4g,\"page\":%.4g,\"denom\":%.4g},\"v\":%lld}",
                    l.score, s.sim_anchor, s.sim_predicted, s.bm25, s.value, pp.p_page,
                    denominator, static_cast<long long>(s.vertex));
      l.explanation = buf;
    }
    std::lock_guard<std::mutex> lock(stats_mu_);
    stats_.predictions += predictions;
    stats_.predicted_wins += wins;
  }
  std::lock_guard<std::mutex> lock(pending_mu_);
  pending_[task.url_id] = std::move(pp);
}

bool JlseLearner::OnStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                           const PageAssessment& assessment,
                           const std::function<bool(UrlId)>& queued) {
  PendingPage pp;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    auto it = pending_.find(task.url_id);
    if (it != pending_.end()) {
      pp = std::move(it->second);
      pending_.erase(it);
    }
  }
  PageNode node;
  node.id = id;
  node.parent = task.parent_page_id;
  node.depth = task.depth;
  node.result = pp.result;
  node.url = task.url;
  auto q = queued_.find(task.url_id);
  if (q != queued_.end()) {
    node.fields = std::move(q->second.fields);
    queued_.erase(q);
  } else {
    node.fields = Fields(task.anchor, task.url, "");  // a seed: URL words only
  }
  page_index_[id] = pages_.size();
  pages_.push_back(std::move(node));
  {
    std::lock_guard<std::mutex> lock(stats_mu_);
    if (pp.relevant) ++stats_.relevant_pages;
    if (pp.result) ++stats_.result_pages;
  }
  if (pp.result) {
    results_.push_back(id);
    ++results_since_rebuild_;
  }
  if (!pp.fields.empty()) {
    bool any = false;
    for (size_t i = 0; i < page.links.size() && i < pp.fields.size(); ++i) {
      const Outlink& link = page.links[i];
      if (link.url.empty() || !assessment.links[i].admit) continue;
      const UrlId uid = DedupId(link.url, true);
      if (uid == task.url_id || !queued(uid)) continue;
      auto [it, inserted] = queued_.try_emplace(uid);
      if (!inserted) continue;  // the frontier keeps the first parent too
      it->second.parent = id;
      it->second.sim_anchor = pp.sim_anchor[i];
      it->second.fields = std::move(pp.fields[i]);
      any = true;
    }
    if (any) parents_[id] = {pp.p_page, pp.denominator, 0};
  }
  if (params_.use_graph && results_since_rebuild_ >= params_.cf) {
    Rebuild();
    return true;
  }
  return false;
}

void JlseLearner::Rebuild() {
  const auto t0 = std::chrono::steady_clock::now();
  results_since_rebuild_ = 0;
  // Definition 5: the vertices on the paths from every result page back to
  // a seed (parents are found through LinkTable's parentID).
  absl::flat_hash_set<PageId> members;
  std::vector<PageId> order;
  for (PageId r : results_) {
    PageId p = r;
    while (p != 0 && !members.contains(p)) {
      auto it = page_index_.find(p);
      if (it == page_index_.end()) break;
      members.insert(p);
      order.push_back(p);
      p = pages_[it->second].parent;
    }
  }
  // Parents before children (page ids follow download order): Q's sweeps
  // run from the last vertex back and settle a tree in one pass.
  std::sort(order.begin(), order.end());
  QGraph g;
  absl::flat_hash_map<PageId, int32_t> vid;
  for (PageId p : order) vid[p] = g.AddVertex(pages_[page_index_[p]].result);
  for (PageId p : order) {
    auto parent = vid.find(pages_[page_index_[p]].parent);
    if (parent != vid.end()) g.AddEdge(parent->second, vid[p]);
  }
  QLearningStats qs = g.Solve(params_.q);
  auto snap = std::make_shared<Snapshot>(Snapshot{Bm25Index(params_.bm25), {}});
  snap->value.reserve(order.size());
  for (PageId p : order) {
    snap->index.Add(ToDoc(pages_[page_index_[p]].fields));
    snap->value.push_back(g.LinkValue(vid[p], params_.q));
  }
  {
    std::lock_guard<std::mutex> lock(snapshot_mu_);
    snapshot_ = std::move(snap);
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(stats_mu_);
  ++stats_.rebuilds;
  stats_.gw_vertices = static_cast<int64_t>(order.size());
  stats_.gw_results = static_cast<int64_t>(results_.size());
  stats_.q_sweeps = qs.sweeps;
  stats_.rebuild_seconds += secs;
}

double JlseLearner::Rescore(UrlId url_id, double old_score) const {
  auto it = queued_.find(url_id);
  if (it == queued_.end()) return old_score;
  auto parent = parents_.find(it->second.parent);
  if (parent == parents_.end()) return old_score;
  JlseLinkScore s;
  s.sim_anchor = it->second.sim_anchor;
  if (params_.use_graph) {
    auto snap = snapshot();
    Bm25Hit hit = snap->index.Top1(ToDoc(it->second.fields));
    if (hit.doc >= 0) {
      s.sim_predicted = hit.normalized * std::min(1.0, snap->value[static_cast<size_t>(hit.doc)]);
    }
  }
  return Priority(parent->second.p_page, s.sim(), parent->second.denominator);
}

std::string JlseLearner::SaveState() const {
  Writer w;
  w.S(kStateMagic);
  w.S(model_->ToJson());
  w.U(pages_.size());
  for (const auto& p : pages_) {
    w.I(p.id);
    w.I(p.parent);
    w.U(p.depth);
    w.U(p.result ? 1 : 0);
    w.S(p.url);
    PutFields(&w, p.fields);
  }
  w.U(results_.size());
  for (PageId r : results_) w.I(r);
  w.I(results_since_rebuild_);
  // Side tables, sorted so that equal states give equal bytes.
  std::vector<UrlId> ids;
  for (const auto& [u, q] : queued_) ids.push_back(u);
  std::sort(ids.begin(), ids.end());
  w.U(ids.size());
  for (UrlId u : ids) {
    const QueuedLink& q = queued_.at(u);
    w.U(u);
    w.I(q.parent);
    w.D(q.sim_anchor);
    PutFields(&w, q.fields);
  }
  std::vector<PageId> pids;
  for (const auto& [p, info] : parents_) pids.push_back(p);
  std::sort(pids.begin(), pids.end());
  w.U(pids.size());
  for (PageId p : pids) {
    const ParentInfo& info = parents_.at(p);
    w.I(p);
    w.D(info.p_page);
    w.D(info.denominator);
  }
  // Whether a snapshot exists (rebuilt at least once), to redo it on restore.
  w.U(snapshot()->index.size() > 0 ? 1 : 0);
  return std::move(w.out());
}

Status JlseLearner::RestoreState(std::string_view bytes) {
  Reader r(bytes);
  // A field that cannot be read means the bytes end early: "truncated".
  auto bad = [](const char* what) {
    return Status::Error(std::string("jlse: malformed saved state (truncated at ") + what +
                         ")");
  };
  std::string magic, model_json;
  if (!r.S(&magic) || magic != kStateMagic) return bad("header");
  if (!r.S(&model_json)) return bad("model");
  auto model = NaiveBayes::FromJson(model_json, "jlse saved state");
  if (!model.ok()) return model.status();
  // The page classifier is the topic of jlse/ata (trained from the topic's
  // example pages, never changed by the crawl): a state whose classifier
  // differs was learned for another topic, and its rewards, LinkTable and Q
  // values mean nothing here.
  if (model_json != model_->ToJson()) {
    return Status::Error(
        "jlse: the saved state was learned for another topic (its page classifier differs "
        "from the one trained from this crawl's topic); start a new crawl directory");
  }
  std::vector<PageNode> pages;
  uint64_t n;
  if (!r.U(&n)) return bad("pages");
  for (uint64_t i = 0; i < n; ++i) {
    PageNode p;
    uint64_t depth, result;
    if (!r.I(&p.id) || !r.I(&p.parent) || !r.U(&depth) || !r.U(&result) || !r.S(&p.url) ||
        !GetFields(&r, &p.fields)) {
      return bad("page");
    }
    p.depth = static_cast<uint32_t>(depth);
    p.result = result != 0;
    pages.push_back(std::move(p));
  }
  std::vector<PageId> results;
  if (!r.U(&n)) return bad("results");
  for (uint64_t i = 0; i < n; ++i) {
    int64_t id;
    if (!r.I(&id)) return bad("result");
    results.push_back(id);
  }
  int64_t since;
  if (!r.I(&since)) return bad("counter");
  absl::flat_hash_map<UrlId, QueuedLink> queued;
  if (!r.U(&n)) return bad("queued");
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t u;
    QueuedLink q;
    double sim;
    if (!r.U(&u) || !r.I(&q.parent) || !r.D(&sim) || !GetFields(&r, &q.fields)) {
      return bad("queued link");
    }
    q.sim_anchor = static_cast<float>(sim);
    queued[u] = std::move(q);
  }
  absl::flat_hash_map<PageId, ParentInfo> parents;
  if (!r.U(&n)) return bad("parents");
  for (uint64_t i = 0; i < n; ++i) {
    int64_t p;
    ParentInfo info;
    if (!r.I(&p) || !r.D(&info.p_page) || !r.D(&info.denominator)) return bad("parent");
    parents[p] = info;
  }
  uint64_t had_snapshot;
  if (!r.U(&had_snapshot)) return bad("trailer");
  if (!r.done()) return Status::Error("jlse: malformed saved state (unexpected bytes after it)");

  model_ = std::make_shared<NaiveBayes>(std::move(model).value());
  pages_ = std::move(pages);
  page_index_.clear();
  for (size_t i = 0; i < pages_.size(); ++i) page_index_[pages_[i].id] = i;
  results_ = std::move(results);
  queued_ = std::move(queued);
  parents_ = std::move(parents);
  if (had_snapshot && params_.use_graph) Rebuild();
  results_since_rebuild_ = since;
  return Status::Ok();
}

// ---------------------------------------------------------------- strategy

namespace {

class JlseStrategy : public CrawlStrategy {
 public:
  JlseStrategy(std::string name, std::unique_ptr<JlseLearner> learner, uint64_t rng_seed,
               std::string out_dir)
      : name_(std::move(name)),
        learner_(std::move(learner)),
        rng_seed_(rng_seed),
        out_dir_(std::move(out_dir)) {}

  std::string_view Name() const override { return name_; }

  // A selector that cannot be made is an error, never a silent BFS (#17).
  StatusOr<std::unique_ptr<LinkSelector>> MakeSelector() override {
    LinkSelectorOptions options;
    options.seed = rng_seed_;
    return MakeLinkSelector("best-first", options);
  }

  void Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) override {
    learner_->Assess(task, page, out);
  }

  double Beta() const override { return learner_->params().page_threshold; }
  bool FocusGated() const override { return true; }
  LinkContextNeeds NeededLinkContexts() const override {
    return {false, learner_->params().use_graph};
  }

  void OnPageStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                    const PageAssessment& assessment, Frontier* frontier) override {
    const bool rebuilt = learner_->OnStored(task, id, page, assessment,
                                            [frontier](UrlId u) { return frontier->Seen(u); });
    if (!rebuilt) return;
    // Eq. 3 changed for every link whose nearest Gw vertex or its Q did:
    // re-prioritise the queue from the side table.
    frontier->RescoreAll(
        [this](const QueuedLinkView& v) { return learner_->Rescore(v.url_id, v.score); });
  }

  // The learned state (NB counts, LinkTable, results, side tables; Gw, Q and
  // the BM25 index are rebuilt from them) rides the crawler's strategy-state
  // file, so --resume and recrawl continue where the crawl stopped.
  Status SaveState(std::string* blob) const override {
    *blob = learner_->SaveState();
    return Status::Ok();
  }
  Status RestoreState(std::string_view blob) override {
    if (blob.empty()) return Status::Ok();
    return learner_->RestoreState(blob);
  }

  Status Finish() override {
    if (out_dir_.empty()) return Status::Ok();
    const auto st = learner_->stats();
    std::ofstream stats(out_dir_ + "/" + name_ + "_stats.json");
    stats << "{\"rebuilds\":" << st.rebuilds << ",\"gw_vertices\":" << st.gw_vertices
          << ",\"gw_results\":" << st.gw_results << ",\"q_sweeps\":" << st.q_sweeps
          << ",\"relevant_pages\":" << st.relevant_pages
          << ",\"result_pages\":" << st.result_pages << ",\"predictions\":" << st.predictions
          << ",\"predicted_wins\":" << st.predicted_wins
          << ",\"rebuild_seconds\":" << st.rebuild_seconds << "}\n";
    if (!learner_->params().use_graph) return Status::Ok();
    {
      std::ofstream state(out_dir_ + "/jlse_state.bin", std::ios::binary);
      state << learner_->SaveState();
    }
    // LinkTable / ResultTable in crawl.db (the crawler closes its store
    // before Finish()).
    const std::string db = out_dir_ + "/crawl.db";
    if (!std::filesystem::exists(db)) return Status::Ok();
    std::vector<JlseLinkRow> rows;
    rows.reserve(learner_->pages().size());
    for (const auto& p : learner_->pages()) {
      rows.push_back({p.id, p.url, p.parent, p.depth, p.fields.anchor_raw});
    }
    Status s = WriteJlseTables(db, rows, learner_->results());
    if (!s.ok()) return Status::Error("jlse: LinkTable/ResultTable: " + s.message());
    return Status::Ok();
  }

 private:
  std::string name_;
  std::unique_ptr<JlseLearner> learner_;
  uint64_t rng_seed_;
  std::string out_dir_;
};

std::string ResolveNextTo(const std::string& topic_file, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_absolute() || topic_file.empty()) return path;
  return (std::filesystem::path(topic_file).parent_path() / p).string();
}

// The page classifier from the topic's example pages (local HTML files).
StatusOr<std::shared_ptr<const NaiveBayes>> TrainFromExamples(const Topic& topic,
                                                              const std::string& name) {
  auto words = LinkFeatureExtractor::Create(FeatureDictionary(topic));
  if (!words.ok()) return words.status();
  auto nb = std::make_shared<NaiveBayes>(NbModelKind::kPage, NbEventModel::kMultinomial);
  nb->dictionary = FeatureDictionary(topic);
  for (int positive = 1; positive >= 0; --positive) {
    const auto& list = positive ? topic.positive_examples : topic.negative_examples;
    for (const auto& ex : list) {
      if (ex.rfind("http://", 0) == 0 || ex.rfind("https://", 0) == 0) {
        return Status::Error(name + ": example " + ex +
                             " is a URL; this build reads example pages from local files "
                             "(save the page, or train a model with `topicrawl train page-nb` "
                             "and set [strategy." + name + "] page_model)");
      }
      const std::string path = ResolveNextTo(topic.source, ex);
      std::ifstream in(path, std::ios::binary);
      if (!in) return Status::Error(name + ": cannot read example page " + path);
      std::stringstream body;
      body << in.rdbuf();
      const std::string html = DecodeToUtf8(body.str(), "text/html").utf8;
      ParsedPage page = ParseHtml(html, "http://example.invalid/");
      nb->Add((*words)->PageWords(page.title + "\n" + page.text), positive == 1);
    }
  }
  if (!nb->Trainable()) {
    return Status::Error(name + ": [topic.examples] needs at least one positive and one "
                         "negative page");
  }
  return std::shared_ptr<const NaiveBayes>(std::move(nb));
}

}  // namespace

StatusOr<std::unique_ptr<CrawlStrategy>> NewJlseFamilyStrategy(const StrategyContext& context,
                                                               const std::string& name,
                                                               bool use_graph) {
  if (context.topic_file.empty()) {
    return Status::Error(name + " needs a topic: pass --topic FILE (a TOML topic with "
                         "[topic.examples] or [strategy." + name + "] page_model)");
  }
  auto topic = LoadTopicFile(context.topic_file);
  if (!topic.ok()) return topic.status();
  const StrategyParams& sp = topic->Strategy(name);
  const std::vector<std::string_view> known = {
      "page_model", "page_threshold", "expand_irrelevant", "expand_results", "anchor_negative",
      "cf", "gamma", "reward", "k", "k1", "b", "w_anchor", "w_url", "w_context", "priority",
      "max_context_terms", "result_model"};
  auto unknown = sp.UnknownKeys(known);
  if (!unknown.empty()) {
    std::string list;
    for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Status::Error(context.topic_file + ": [strategy." + name + "]: unknown key '" +
                         unknown.front() + "' (known: " + list + ")");
  }
  JlseParams p;
  p.use_graph = use_graph;
  auto num = [&](const char* key, double* v) -> Status {
    auto r = sp.Number(key, *v);
    if (!r.ok()) return r.status();
    *v = *r;
    return Status::Ok();
  };
  auto flag = [&](const char* key, bool* v) -> Status {
    auto r = sp.Bool(key, *v);
    if (!r.ok()) return r.status();
    *v = *r;
    return Status::Ok();
  };
  double cf = p.cf, k = p.q.max_sweeps, ctx = static_cast<double>(p.max_context_terms);
  for (Status s : {num("page_threshold", &p.page_threshold),
                   flag("expand_irrelevant", &p.expand_irrelevant),
                   flag("expand_results", &p.expand_results),
                   num("anchor_negative", &p.anchor_negative), num("cf", &cf),
                   num("gamma", &p.q.gamma), num("reward", &p.q.reward), num("k", &k),
                   num("k1", &p.bm25.k1), num("b", &p.bm25.b),
                   num("w_anchor", &p.bm25.weights[0]), num("w_url", &p.bm25.weights[1]),
                   num("w_context", &p.bm25.weights[2]), num("max_context_terms", &ctx)}) {
    if (!s.ok()) return Status::Error(context.topic_file + ": [strategy." + name + "]: " +
                                      s.message());
  }
  p.cf = static_cast<int>(cf);
  p.q.max_sweeps = std::max(1, static_cast<int>(k));
  p.max_context_terms = static_cast<size_t>(std::max(1.0, ctx));
  auto priority = sp.String("priority", "normalized");
  if (!priority.ok()) return priority.status();
  if (*priority != "normalized" && *priority != "product") {
    return Status::Error(context.topic_file + ": [strategy." + name +
                         "] priority must be \"normalized\" or \"product\"");
  }
  p.normalized_priority = *priority == "normalized";
  auto result_model = sp.String("result_model", "");
  if (!result_model.ok()) return result_model.status();
  if (!result_model->empty()) {
    return Status::Error(name + ": result_model needs the result-page SVM, which this build "
                         "does not have yet; leave it out to use the documented rule "
                         "(docs/jlse.md)");
  }

  std::shared_ptr<const NaiveBayes> model;
  auto model_path = sp.String("page_model", "");
  if (!model_path.ok()) return model_path.status();
  if (!model_path->empty()) {
    auto m = NaiveBayes::Load(ResolveNextTo(context.topic_file, *model_path));
    if (!m.ok()) return Status::Error(name + ": page_model: " + m.status().message());
    if (m->kind() != NbModelKind::kPage) {
      return Status::Error(name + ": page_model " + *model_path + " is a " +
                           std::string(NbModelKindName(m->kind())) +
                           " model, expected a page model (`topicrawl train page-nb`)");
    }
    model = std::make_shared<NaiveBayes>(std::move(m).value());
  } else if (!topic->positive_examples.empty() || !topic->negative_examples.empty()) {
    auto m = TrainFromExamples(*topic, name);
    if (!m.ok()) return m.status();
    model = *m;
  } else {
    return Status::Error(
        name + " needs a page classifier and the topic " + context.topic_file +
        " has none: give example pages in [topic.examples] positive = [...] negative = "
        "[...] (local HTML files), or a model: [strategy." + name +
        "] page_model = \"FILE\" (train one with `topicrawl train page-nb`)");
  }
  auto learner = JlseLearner::Create(p, model, FeatureDictionary(*topic));
  if (!learner.ok()) return learner.status();
  return std::unique_ptr<CrawlStrategy>(std::make_unique<JlseStrategy>(
      name, std::move(learner).value(), context.rng_seed, context.out_dir));
}

StatusOr<std::unique_ptr<CrawlStrategy>> NewJlseStrategy(const StrategyContext& context) {
  return NewJlseFamilyStrategy(context, "jlse", /*use_graph=*/true);
}

}  // namespace topicrawl
