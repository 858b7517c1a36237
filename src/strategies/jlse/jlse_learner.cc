// The JLSE learner (seed 004_d65f8d41b01a9f7d): page judgement, link
// scores (eq. 3, eq. 9-10), LinkTable / ResultTable bookkeeping and the Gw
// rebuilds. The contract and equations are in jlse_learner.h; the saved
// state is in jlse_learner_state.cc, the strategy around it in
// jlse_strategy.cc.
#include "strategies/jlse/jlse_learner.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "absl/container/flat_hash_set.h"
#include "core/hash.h"
#include "crawl/dedup.h"
#include "parse/html_parser.h"
#include "strategies/jlse/result_page_features.h"
#include "strategies/jlse/result_page_svm.h"

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

// The fields as a query of views into `f` (no copies; `f` must outlive it).
Bm25Query ToQuery(const JlseLinkFields& f) {
  Bm25Query q;
  for (int i = 0; i < kBm25Fields; ++i) {
    const std::string& joined = f.terms[i];
    size_t at = 0;
    while (at < joined.size()) {
      size_t end = joined.find(' ', at);
      if (end == std::string::npos) end = joined.size();
      if (end > at) q[i].emplace_back(joined.data() + at, end - at);
      at = end + 1;
    }
  }
  return q;
}

// printf's "%.<precision>g" of `v` appended to `out` (std::to_chars with
// chars_format::general and a precision is specified to give the same
// text; non-finite values as printf writes them).
void AppendG(std::string* out, double v, int precision) {
  if (!std::isfinite(v)) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    *out += buf;
    return;
  }
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::general, precision);
  out->append(buf, r.ptr);
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

}  // namespace

// ---------------------------------------------------------------- learner

JlseLearner::JlseLearner(JlseParams params, std::shared_ptr<const NaiveBayes> model,
                         std::unique_ptr<LinkFeatureExtractor> words,
                         std::shared_ptr<const SvmModel> result_model, uint64_t fingerprint)
    : params_(params),
      model_(std::move(model)),
      words_(std::move(words)),
      result_model_(std::move(result_model)),
      fingerprint_(fingerprint),
      snapshot_(std::make_shared<Snapshot>(Snapshot{Bm25Index(params.bm25), {}, 0, {}})) {}

StatusOr<std::unique_ptr<JlseLearner>> JlseLearner::Create(
    JlseParams params, std::shared_ptr<const NaiveBayes> page_model,
    const std::vector<std::string>& dictionary, std::shared_ptr<const SvmModel> result_model) {
  if (!page_model || !page_model->Trainable()) {
    return Status::Error("jlse: the page classifier has no examples of one class");
  }
  if (params.cf < 1) return Status::Error("jlse: cf must be >= 1");
  if (!(params.q.gamma >= 0 && params.q.gamma < 1)) {
    return Status::Error("jlse: gamma must be in [0, 1)");
  }
  if (result_model) {
    if (Status s = result_model->CheckFeatures(ResultPageFeatureNames()); !s.ok()) {
      return Status::Error("jlse: result model: " + s.message());
    }
  }
  auto words = LinkFeatureExtractor::Create(dictionary);
  if (!words.ok()) return words.status();
  // The topic, as far as jlse/ata are concerned: what judges pages and
  // splits words. Hashing the serialised models keeps the state small.
  std::string topic = page_model->ToJson();
  topic += '\n';
  for (const auto& d : dictionary) topic += d + '\n';
  topic += result_model ? result_model->Serialize() : std::string("rule");
  return std::unique_ptr<JlseLearner>(new JlseLearner(params, std::move(page_model),
                                                      std::move(words).value(),
                                                      std::move(result_model), Hash64(topic)));
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
  return ScoreAgainst(fields, *snapshot());
}

JlseLinkScore JlseLearner::ScoreAgainst(const JlseLinkFields& fields, const Snapshot& snap) const {
  JlseLinkScore ls;
  ls.sim_anchor = SimAnchorWords(Split(fields.terms[0]));
  if (!params_.use_graph) return ls;
  if (snap.index.size() == 0) return ls;
  // Only a vertex with s_j > sim_anchor can make sim_predicted win (V <= 1),
  // so the search starts at that threshold.
  Bm25Hit hit = snap.index.Top1(ToQuery(fields), ls.sim_anchor);
  ls.mapped = hit.shares_term;
  if (hit.doc < 0) return ls;
  ls.vertex = hit.doc;
  ls.vertex_page = snap.page[static_cast<size_t>(hit.doc)];
  ls.bm25 = hit.normalized;
  ls.value = std::min(1.0, snap.value[static_cast<size_t>(hit.doc)]);
  ls.sim_predicted = ls.bm25 * ls.value;
  return ls;
}

int JlseLearner::ScoreCached(std::string_view anchor, std::string_view url,
                              std::string_view context, const Snapshot& snap,
                              std::shared_ptr<const JlseLinkFields>* fields,
                              JlseLinkScore* score) const {
  if (!use_cache_) {
    auto f = std::make_shared<JlseLinkFields>(Fields(anchor, url, context));
    *score = ScoreAgainst(*f, snap);
    *fields = std::move(f);
    return 0;
  }
  std::string key;
  key.reserve(anchor.size() + url.size() + context.size() + 2);
  key.append(anchor).append(1, '\0').append(url).append(1, '\0').append(context);
  const uint64_t h = Hash64(key);
  CacheShard& shard = cache_[h % kCacheShards];
  std::shared_ptr<const CachedLink> hit;
  {
    std::lock_guard<std::mutex> lock(shard.mu);
    auto it = shard.map.find(h);
    if (it != shard.map.end() && it->second->key == key) hit = it->second;
  }
  if (hit && hit->generation == snap.generation) {
    *fields = std::shared_ptr<const JlseLinkFields>(hit, &hit->fields);  // aliasing
    *score = hit->score;
    return 2;
  }
  auto entry = std::make_shared<CachedLink>();
  entry->fields = hit ? hit->fields : Fields(anchor, url, context);
  entry->score = ScoreAgainst(entry->fields, snap);
  entry->generation = snap.generation;
  *fields = std::shared_ptr<const JlseLinkFields>(entry, &entry->fields);
  *score = entry->score;
  entry->key = std::move(key);
  std::lock_guard<std::mutex> lock(shard.mu);
  if (shard.map.size() >= kCacheShardCapacity) shard.map.clear();
  shard.map[h] = std::move(entry);
  return hit ? 1 : 0;
}

double JlseLearner::Priority(double p_page, double sim, double denominator) const {
  if (!params_.normalized_priority) return p_page * sim;
  return denominator > 0 ? p_page * sim / denominator : 0.0;
}

namespace {

std::string PageAssessmentText(double p_page, bool relevant, bool result, const ResultPageFeatures& rf) {
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "{\"p\":%.6g,\"relevant\":%d,\"result\":%d,\"td\":%.3f,\"ld\":%.3f,\"ag\":%.3f}",
                p_page, relevant ? 1 : 0, result ? 1 : 0, rf.text_degree, rf.link_degree, rf.aggregation);
  return buf;
}

// A link's explanation: the same text as snprintf("%.6g" / "%.4g" /
// "%lld"), through std::to_chars (one per link: snprintf was ~2 % of a
// crawl's CPU).
void SetLinkExplanation(const JlseLinkScore& s, double score, double p_page, double denominator,
                        std::string* e) {
  e->clear();
  e->reserve(160);
  *e += "{\"s\":";
  AppendG(e, score, 6);
  *e += ",\"parts\":{\"anchor\":";
  AppendG(e, s.sim_anchor, 4);
  *e += ",\"pred\":";
  AppendG(e, s.sim_predicted, 4);
  *e += ",\"bm25\":";
  AppendG(e, s.bm25, 4);
  *e += ",\"q\":";
  AppendG(e, s.value, 4);
  *e += ",\"page\":";
  AppendG(e, p_page, 4);
  *e += ",\"denom\":";
  AppendG(e, denominator, 4);
  *e += "},\"v\":";
  *e += std::to_string(static_cast<long long>(s.vertex));
  *e += '}';
}

}  // namespace

double JlseLearner::ScorePageLinks(const ParsedPage& page, PendingPage* pp, std::vector<JlseLinkScore>* scores) {
  const size_t n = page.links.size();
  pp->fields.resize(n);
  pp->sim_anchor.assign(n, 0.0);
  pp->vertex.assign(n, 0);
  pp->mapped.assign(n, 0);
  pp->bm25.assign(n, 0.0);
  scores->assign(n, {});
  // One snapshot for the whole page: its links are scored against the
  // same Gw even if a rebuild lands meanwhile.
  const std::shared_ptr<const Snapshot> snap = snapshot();
  pp->generation = snap->generation;
  double denominator = 0;
  int64_t predictions = 0, wins = 0, cache_hits = 0, cache_scored = 0;
  for (size_t i = 0; i < n; ++i) {
    const Outlink& link = page.links[i];
    if (link.url.empty()) continue;
    JlseLinkScore& score = (*scores)[i];
    const int cached = ScoreCached(link.anchor, link.url, link.dom_context, *snap, &pp->fields[i], &score);
    if (cached > 0) ++cache_hits;
    if (cached > 1) ++cache_scored;
    pp->sim_anchor[i] = score.sim_anchor;
    pp->vertex[i] = score.vertex_page;
    pp->mapped[i] = score.mapped ? 1 : 0;
    pp->bm25[i] = score.bm25;
    denominator += score.sim();
    if (score.vertex >= 0) ++predictions;
    if (score.sim_predicted > score.sim_anchor) ++wins;
  }
  pp->denominator = denominator;
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.predictions += predictions;
  stats_.predicted_wins += wins;
  stats_.cache_hits += cache_hits;
  stats_.cache_scored += cache_scored;
  return denominator;
}

void JlseLearner::Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) {
  out->links.assign(page.links.size(), {});
  PendingPage pp;
  std::vector<std::string> words = words_->PageWords(page.title + "\n" + page.text);
  NbScore page_score = model_->Score(words);
  pp.p_page = page_score.p_positive;
  pp.relevant = pp.p_page >= params_.page_threshold;
  ResultPageFeatures rf = ComputeResultPageFeatures(page);
  pp.result = pp.relevant && (result_model_ ? IsDetailPageBySvm(*result_model_, rf)
                                             : IsDetailPageByRule(rf));
  out->relevance = pp.p_page;
  out->explanation = PageAssessmentText(pp.p_page, pp.relevant, pp.result, rf);
  const bool expand =
      (pp.relevant || params_.expand_irrelevant) && (!pp.result || params_.expand_results);
  if (!expand) {
    for (auto& l : out->links) l.admit = false;
  } else {
    std::vector<JlseLinkScore> scores;
    const double denominator = ScorePageLinks(page, &pp, &scores);
    for (size_t i = 0; i < page.links.size(); ++i) {
      if (page.links[i].url.empty()) continue;
      auto& l = out->links[i];
      l.score = Priority(pp.p_page, scores[i].sim(), denominator);
      SetLinkExplanation(scores[i], l.score, pp.p_page, denominator, &l.explanation);
    }
  }
  std::lock_guard<std::mutex> lock(pending_mu_);
  pending_[task.url_id] = std::move(pp);
}

JlseLearner::PendingPage JlseLearner::TakePending(UrlId url_id) {
  PendingPage pp;
  std::lock_guard<std::mutex> lock(pending_mu_);
  auto it = pending_.find(url_id);
  if (it != pending_.end()) {
    pp = std::move(it->second);
    pending_.erase(it);
  }
  return pp;
}

void JlseLearner::RecordPage(const CrawlTask& task, PageId id, const PendingPage& pp) {
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
    unmapped_.erase(task.url_id);
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
}

void JlseLearner::RecordQueuedLinks(const CrawlTask& task, PageId id, const ParsedPage& page,
                                    const PageAssessment& assessment,
                                    const std::function<bool(UrlId)>& queued, const PendingPage& pp) {
  // Links scored against an older snapshot than the current one: their
  // V (or, unmapped, their match) may differ now.
  const bool stale = params_.use_graph && pp.generation != snapshot()->generation;
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
    it->second.mapped = pp.mapped[i] != 0;
    it->second.vertex = pp.vertex[i];
    it->second.bm25 = pp.bm25[i];
    it->second.fields = *pp.fields[i];
    if (params_.use_graph) {
      IndexQueued(uid, it->second);
      if (stale) to_rescore_.insert(uid);
    }
    any = true;
  }
  if (any) parents_[id] = {pp.p_page, pp.denominator, 0};
}

bool JlseLearner::OnStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                           const PageAssessment& assessment,
                           const std::function<bool(UrlId)>& queued) {
  const PendingPage pp = TakePending(task.url_id);
  RecordPage(task, id, pp);
  if (!pp.fields.empty()) RecordQueuedLinks(task, id, page, assessment, queued, pp);
  if (params_.use_graph && results_since_rebuild_ >= params_.cf) {
    Rebuild();
    return true;
  }
  return false;
}

std::vector<PageId> JlseLearner::ResultPaths(size_t n_results) const {
  // Definition 5: the vertices on the paths from every result page back to
  // a seed (parents are found through LinkTable's parentID).
  absl::flat_hash_set<PageId> members;
  std::vector<PageId> order;
  for (size_t i = 0; i < n_results; ++i) {
    PageId p = results_[i];
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
  return order;
}

void JlseLearner::MarkRescores(const absl::flat_hash_map<PageId, double>& values) {
  // Queued links whose sim_predicted may change: those mapped to a vertex
  // whose V changed (Gw only grows, so every mapped vertex is still in it)
  // and those not mapped yet (the new snapshot may match them).
  for (const auto& [p, v] : values) {
    auto old = value_by_page_.find(p);
    if (old != value_by_page_.end() && old->second == v) continue;
    auto links = by_vertex_.find(p);
    if (links == by_vertex_.end()) continue;
    // Links that left the queue are dropped from the list here.
    std::vector<UrlId>& list = links->second;
    size_t kept = 0;
    for (UrlId u : list) {
      if (!queued_.contains(u)) continue;
      list[kept++] = u;
      to_rescore_.insert(u);
    }
    list.resize(kept);
  }
  for (UrlId u : unmapped_) to_rescore_.insert(u);
}

void JlseLearner::RebuildFrom(size_t n_results) {
  const auto t0 = std::chrono::steady_clock::now();
  results_since_rebuild_ = 0;
  n_results = std::min(n_results, results_.size());
  const std::vector<PageId> order = ResultPaths(n_results);
  QGraph g;
  absl::flat_hash_map<PageId, int32_t> vid;
  for (PageId p : order) vid[p] = g.AddVertex(pages_[page_index_[p]].result);
  for (PageId p : order) {
    auto parent = vid.find(pages_[page_index_[p]].parent);
    if (parent != vid.end()) g.AddEdge(parent->second, vid[p]);
  }
  QLearningStats qs = g.Solve(params_.q);
  auto snap = std::make_shared<Snapshot>(Snapshot{Bm25Index(params_.bm25), {}, 0, {}});
  snap->generation = snapshot()->generation + 1;
  snap->value.reserve(order.size());
  snap->page = order;
  absl::flat_hash_map<PageId, double> values;
  values.reserve(order.size());
  for (PageId p : order) {
    snap->index.Add(ToQuery(pages_[page_index_[p]].fields));
    snap->value.push_back(g.LinkValue(vid[p], params_.q));
    values[p] = std::min(1.0, snap->value.back());
  }
  MarkRescores(values);
  value_by_page_ = std::move(values);
  snap->index.Finalize();
  {
    std::lock_guard<std::mutex> lock(snapshot_mu_);
    snapshot_ = std::move(snap);
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(stats_mu_);
  ++stats_.rebuilds;
  stats_.gw_vertices = static_cast<int64_t>(order.size());
  stats_.gw_results = static_cast<int64_t>(n_results);
  stats_.q_sweeps = qs.sweeps;
  stats_.rebuild_seconds += secs;
}

double JlseLearner::Rescore(UrlId url_id, double old_score) const {
  auto it = queued_.find(url_id);
  if (it == queued_.end()) return old_score;
  auto parent = parents_.find(it->second.parent);
  if (parent == parents_.end()) return old_score;
  const QueuedLink& q = it->second;
  JlseLinkScore s;
  s.sim_anchor = q.sim_anchor;
  if (params_.use_graph) {
    if (q.vertex != 0) {
      auto v = value_by_page_.find(q.vertex);
      if (v != value_by_page_.end()) s.sim_predicted = q.bm25 * v->second;
    } else if (!q.mapped) {
      auto snap = snapshot();
      if (snap->index.size() > 0) {
        Bm25Hit hit = snap->index.Top1(ToQuery(q.fields), q.sim_anchor);
        if (hit.doc >= 0) {
          s.sim_predicted =
              hit.normalized * std::min(1.0, snap->value[static_cast<size_t>(hit.doc)]);
        }
      }
    }
  }
  return Priority(parent->second.p_page, s.sim(), parent->second.denominator);
}

void JlseLearner::IndexQueued(UrlId url_id, const QueuedLink& q) {
  if (q.vertex != 0) {
    by_vertex_[q.vertex].push_back(url_id);
  } else if (!q.mapped) {
    unmapped_.insert(url_id);
  }
}

double JlseLearner::QueuedPriority(UrlId url_id, QueuedLink* q, bool map, bool* looked_up) {
  *looked_up = false;
  if (map && params_.use_graph && !q->mapped) {
    auto snap = snapshot();
    if (snap->index.size() > 0) {
      *looked_up = true;
      Bm25Hit hit = snap->index.Top1(ToQuery(q->fields), q->sim_anchor);
      q->mapped = hit.shares_term;
      if (q->mapped) unmapped_.erase(url_id);
      if (hit.doc >= 0) {
        q->vertex = snap->page[static_cast<size_t>(hit.doc)];
        q->bm25 = hit.normalized;
        by_vertex_[q->vertex].push_back(url_id);
      }
    }
  }
  return Rescore(url_id, 0.0);
}

std::vector<std::pair<UrlId, double>> JlseLearner::TakeRescores() {
  std::vector<std::pair<UrlId, double>> out;
  if (to_rescore_.empty()) return out;
  // Sorted: the frontier sees the same sequence of updates in every run.
  std::vector<UrlId> ids(to_rescore_.begin(), to_rescore_.end());
  to_rescore_.clear();
  std::sort(ids.begin(), ids.end());
  int64_t lookups = 0;
  out.reserve(ids.size());
  for (UrlId u : ids) {
    auto it = queued_.find(u);
    if (it == queued_.end()) {
      unmapped_.erase(u);
      continue;
    }
    if (!parents_.contains(it->second.parent)) continue;
    bool looked_up = false;
    out.emplace_back(u, QueuedPriority(u, &it->second, true, &looked_up));
    if (looked_up) ++lookups;
  }
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.rescored += static_cast<int64_t>(out.size());
  stats_.rescore_lookups += lookups;
  return out;
}

std::vector<std::pair<UrlId, double>> JlseLearner::RescoreAllQueued() {
  std::vector<UrlId> ids;
  ids.reserve(queued_.size());
  for (const auto& [u, q] : queued_) ids.push_back(u);
  std::sort(ids.begin(), ids.end());
  std::vector<std::pair<UrlId, double>> out;
  for (UrlId u : ids) {
    QueuedLink& q = queued_[u];
    if (!parents_.contains(q.parent)) continue;
    bool looked_up = false;
    out.emplace_back(u, QueuedPriority(u, &q, true, &looked_up));
  }
  return out;
}

}  // namespace topicrawl
