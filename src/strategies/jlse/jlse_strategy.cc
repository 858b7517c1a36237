// "jlse": seed 004 (004_d65f8d41b01a9f7d), joint link similarity with an
// online-learned web link graph. The learner's contract and equations are in
// jlse_learner.h; this file holds the strategy around it: the topic-file
// parameters, the page classifier from the examples, re-prioritisation
// after a Gw rebuild, the state hooks and the tables written at the end.
//
// Topic file (TOML):
//   [topic.examples] positive = [...] negative = [...]   # local HTML files
//   [strategy.jlse]                                      # seed values:
//   page_model = "FILE"         # `topicrawl train page-nb` model instead of examples
//   page_threshold = 0.5        # P(c|d) >= it: relevant (NB's decision)
//   expand_irrelevant = false   # seed: irrelevant pages are not expanded
//   expand_results = false      # seed: result pages are not expanded
//   strict = false              # true: the seed's flow to the end; false: when
//                               # the queue runs dry before --max-pages, the
//                               # links of the pages not expanded are queued
//                               # at the lowest priority (Refill)
//   anchor_negative = 0.01      # sim_anchor when NB says negative
//   cf = 150                    # rebuild Gw every cf new result pages
//   gamma = 0.9   reward = 1.0   k = 100   # Q-learning (eq. 17), k sweeps
//   k1 = 2.0   b = 0.75          # BM25 (eq. 5)
//   bm25_idf = "lucene"         # ln(1 + ...); "robertson": the seed's eq. 6 (floored at 0)
//   w_anchor = 0.5  w_url = 0.2  w_context = 0.3   # eq. 8
//   priority = "normalized"     # eq. 10; "product" = P(c|d) * sim(i)
//   max_context_terms = 64
//   result_model = "FILE"       # `topicrawl train result-svm`; default: the rule
// [strategy.ata] takes the same keys (the Gw ones are ignored).
#include "strategies/jlse/jlse_learner.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "crawl/dedup.h"
#include "crawl/state_blob.h"
#include "fetch/charset.h"
#include "frontier/link_selector.h"
#include "parse/html_parser.h"
#include "strategies/jlse/jlse_strategy.h"
#include "strategies/jlse/jlse_tables.h"
#include "strategies/jlse/result_page_svm.h"
#include "text/topic.h"

namespace topicrawl {

namespace {

// Plays the judge and learner roles around the JlseLearner.
class JlseStrategy : public PageJudge, public StrategyLearner {
 public:
  JlseStrategy(std::string name, std::unique_ptr<JlseLearner> learner, bool strict,
               const StrategyContext& context)
      : name_(std::move(name)),
        learner_(std::move(learner)),
        strict_(strict),
        rng_seed_(context.rng_seed),
        dedup_ignore_scheme_(context.dedup_ignore_scheme),
        out_dir_(context.out_dir) {}

  // A selector that cannot be made is an error, never a silent BFS (#17).
  StatusOr<std::unique_ptr<LinkSelector>> MakeSelector() {
    LinkSelectorOptions options;
    options.seed = rng_seed_;
    return MakeLinkSelector("best-first", options);
  }

  void Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) override {
    learner_->Assess(task, page, out);
  }

  // Relevant: P(c|d) >= the page threshold; best-first, so focus-gated;
  // the DOM context only with the graph (ata reads anchors alone).
  StrategyTraits Traits() const {
    StrategyTraits t;
    t.beta = learner_->params().page_threshold;
    t.focus_gated = true;
    t.link_contexts = {false, learner_->params().use_graph};
    return t;
  }

  void OnPageStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                    const PageAssessment& assessment, Frontier* frontier) override {
    learner_->OnStored(task, id, page, assessment,
                       [frontier](UrlId u) { return frontier->Seen(u); });
    HoldIfNotExpanded(task, id, page, assessment, *frontier);
    // Eq. 3 changed only for the links whose mapped vertex's V changed (or
    // that had no match yet): re-prioritise those, not the whole queue.
    for (const auto& [url_id, score] : learner_->TakeRescores()) frontier->Rescore(url_id, score);
  }

  // The learned state (NB counts, LinkTable, results, side tables; Gw, Q and
  // the BM25 index are rebuilt from them) rides the crawler's strategy-state
  // file, so --resume and recrawl continue where the crawl stopped.
  // The held links (below) ride along in a section of their own around the
  // learner's bytes.
  Status SaveState(std::string* blob) const override {
    StateWriter w;
    w.Section("jlse-held", 1);
    w.Str(learner_->SaveState());
    w.Var(not_expanded_);
    w.Var(held_dropped_);
    w.U64(held_.size());  // StateReader::Count
    for (const LinkCandidate& c : held_) {
      w.Str(c.url);
      w.Var(c.depth);
      w.Var(c.parent_page_id);
      w.Str(c.anchor);
    }
    *blob = w.data();
    return Status::Ok();
  }
  Status RestoreState(std::string_view blob) override {
    if (blob.empty()) return Status::Ok();
    StateReader r(blob);
    uint32_t version = 0;
    // A state saved before the held links had a section: the learner's alone.
    if (!r.Section("jlse-held", 1, &version).ok()) return learner_->RestoreState(blob);
    std::string learner;
    uint64_t n = 0;
    if (!r.Str(&learner, "learner") || !r.Var(&not_expanded_, "pages not expanded") ||
        !r.Var(&held_dropped_, "held links dropped") || !r.Count(&n, 4, "held links")) {
      return r.status();
    }
    std::vector<LinkCandidate> held(n);
    for (LinkCandidate& c : held) {
      uint64_t depth = 0, parent = 0;
      if (!r.Str(&c.url, "url") || !r.Var(&depth, "depth") || !r.Var(&parent, "parent") ||
          !r.Str(&c.anchor, "anchor")) {
        return r.status();
      }
      c.depth = static_cast<uint32_t>(depth);
      c.parent_page_id = static_cast<PageId>(parent);
      c.url_id = DedupId(c.url, dedup_ignore_scheme_);
      c.score = 0;
    }
    if (!r.AtEnd()) return Status::Error("jlse state: unexpected bytes after the held links");
    if (Status s = learner_->RestoreState(learner); !s.ok()) return s;
    held_ = std::move(held);
    held_ids_.clear();
    for (const LinkCandidate& c : held_) held_ids_.insert(c.url_id);
    return Status::Ok();
  }

  // The queue ran dry before the page budget: unless strict, the links of
  // the pages the seed's flow did not expand (judged irrelevant, or result
  // pages) go in at priority 0, below every scored link; new links of the
  // pages they lead to are scored as usual. Once: what is queued now is
  // what there is.
  std::vector<LinkCandidate> Refill() override {
    if (strict_ || held_.empty()) return {};
    std::fprintf(stderr,
                 "%s: the queue is empty; queuing %zu links of %llu pages not expanded, at the "
                 "lowest priority ([strategy.%s] strict = true keeps the seed's flow)\n",
                 name_.c_str(), held_.size(), static_cast<unsigned long long>(not_expanded_),
                 name_.c_str());
    std::vector<LinkCandidate> out;
    out.swap(held_);
    held_ids_.clear();
    return out;
  }

  std::string EndNote() const override {
    if (not_expanded_ == 0) return {};
    return name_ + ": " + std::to_string(not_expanded_) +
           " pages judged irrelevant or result pages were not expanded" +
           (strict_ ? " ([strategy." + name_ + "] strict = true: the seed's flow)"
                    : std::string(" (their links were queued too)"));
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
          << ",\"cache_hits\":" << st.cache_hits << ",\"cache_scored\":" << st.cache_scored
          << ",\"rescored\":" << st.rescored << ",\"rescore_lookups\":" << st.rescore_lookups
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
  // A page whose links the learner did not admit (not expanded) keeps them
  // for Refill(), up to kMaxHeld links (~100 bytes each): each URL once,
  // and none the frontier has seen (queued or fetched: Refill would drop
  // it). Navigation links repeat on every page of a site: holding every
  // link, a 5,000-page jlse crawl of the dev web reached the 10^6 cap after
  // 2,140 pages not expanded, in memory and in every state save.
  void HoldIfNotExpanded(const CrawlTask& task, PageId id, const ParsedPage& page,
                         const PageAssessment& assessment, const Frontier& frontier) {
    bool any = false, admitted = false;
    for (size_t i = 0; i < page.links.size() && i < assessment.links.size(); ++i) {
      if (page.links[i].url.empty() || page.links[i].nofollow) continue;
      any = true;
      admitted = admitted || assessment.links[i].admit;
    }
    if (!any || admitted) return;
    ++not_expanded_;
    for (const Outlink& l : page.links) {
      if (l.url.empty() || l.nofollow) continue;
      const UrlId url_id = DedupId(l.url, dedup_ignore_scheme_);
      if (frontier.Seen(url_id) || held_ids_.contains(url_id)) continue;
      if (held_.size() >= kMaxHeld) {
        ++held_dropped_;
        continue;
      }
      held_ids_.insert(url_id);
      held_.push_back({l.url, url_id, task.depth + 1, id, l.anchor, 0.0});
    }
  }

  static constexpr size_t kMaxHeld = 1'000'000;
  std::string name_;
  std::unique_ptr<JlseLearner> learner_;
  const bool strict_;
  uint64_t rng_seed_;
  bool dedup_ignore_scheme_;
  std::string out_dir_;
  std::vector<LinkCandidate> held_;  // links of pages not expanded
  absl::flat_hash_set<UrlId> held_ids_;  // the url_ids in held_
  uint64_t not_expanded_ = 0;
  uint64_t held_dropped_ = 0;  // over kMaxHeld
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

// The JlseParams keys of a [strategy.jlse] / [strategy.ata] table and
// `strict` (the strategy's own); `where` ("FILE: [strategy.NAME]") starts
// every error.
StatusOr<JlseParams> ReadJlseParams(const StrategyParams& sp, const std::string& where,
                                    bool use_graph, bool* strict) {
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
                   flag("expand_results", &p.expand_results), flag("strict", strict),
                   num("anchor_negative", &p.anchor_negative), num("cf", &cf),
                   num("gamma", &p.q.gamma), num("reward", &p.q.reward), num("k", &k),
                   num("k1", &p.bm25.k1), num("b", &p.bm25.b),
                   num("w_anchor", &p.bm25.weights[0]), num("w_url", &p.bm25.weights[1]),
                   num("w_context", &p.bm25.weights[2]), num("max_context_terms", &ctx)}) {
    if (!s.ok()) return Status::Error(where + ": " + s.message());
  }
  p.cf = static_cast<int>(cf);
  p.q.max_sweeps = std::max(1, static_cast<int>(k));
  p.max_context_terms = static_cast<size_t>(std::max(1.0, ctx));
  auto priority = sp.String("priority", "normalized");
  if (!priority.ok()) return priority.status();
  if (*priority != "normalized" && *priority != "product") {
    return Status::Error(where + " priority must be \"normalized\" or \"product\"");
  }
  p.normalized_priority = *priority == "normalized";
  auto idf = sp.String("bm25_idf", "lucene");
  if (!idf.ok()) return idf.status();
  if (*idf != "lucene" && *idf != "robertson") {
    return Status::Error(where + " bm25_idf must be \"lucene\" or \"robertson\"");
  }
  p.bm25.robertson_idf = *idf == "robertson";
  return p;
}

}  // namespace

StatusOr<Strategy> NewJlseFamilyStrategy(const StrategyContext& context,
                                         const std::string& name, bool use_graph) {
  if (context.topic_file.empty()) {
    return Status::Error(name + " needs a topic: pass --topic FILE (a TOML topic with "
                         "[topic.examples] or [strategy." + name + "] page_model)");
  }
  auto topic = LoadTopicFile(context.topic_file);
  if (!topic.ok()) return topic.status();
  const StrategyParams& sp = topic->Strategy(name);
  const std::vector<std::string_view> known = {
      "page_model", "page_threshold", "expand_irrelevant", "expand_results", "strict",
      "anchor_negative",
      "cf", "gamma", "reward", "k", "k1", "b", "w_anchor", "w_url", "w_context", "priority",
      "max_context_terms", "result_model", "bm25_idf"};
  auto unknown = sp.UnknownKeys(known);
  if (!unknown.empty()) {
    std::string list;
    for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Status::Error(context.topic_file + ": [strategy." + name + "]: unknown key '" +
                         unknown.front() + "' (known: " + list + ")");
  }
  bool strict = false;
  auto params = ReadJlseParams(sp, context.topic_file + ": [strategy." + name + "]", use_graph,
                               &strict);
  if (!params.ok()) return params.status();
  JlseParams p = std::move(params).value();
  // The result-page SVM (`topicrawl train result-svm`); without it the
  // documented rule IsDetailPageByRule.
  std::shared_ptr<const SvmModel> result_svm;
  auto result_model = sp.String("result_model", "");
  if (!result_model.ok()) return result_model.status();
  if (!result_model->empty()) {
    auto m = LoadResultPageModel(ResolveNextTo(context.topic_file, *result_model));
    if (!m.ok()) return Status::Error(name + ": result_model: " + m.status().message());
    result_svm = std::make_shared<SvmModel>(std::move(m).value());
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
  auto learner = JlseLearner::Create(p, model, FeatureDictionary(*topic), std::move(result_svm));
  if (!learner.ok()) return learner.status();
  auto strategy = std::make_shared<JlseStrategy>(name, std::move(learner).value(),
                                                 strict, context);
  const StrategyTraits traits = strategy->Traits();
  return ComposeStrategy(name, traits, std::move(strategy));
}

StatusOr<Strategy> NewJlseStrategy(const StrategyContext& context) {
  return NewJlseFamilyStrategy(context, "jlse", /*use_graph=*/true);
}

}  // namespace topicrawl