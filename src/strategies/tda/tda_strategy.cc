// "tda": the TDA-Crawler of seed 002 (002_dc7a58c43ca85137, §4-5) inside
// one round: best-first on SDTP scores. (Between rounds, the round policy
// `topichub` re-selects the seeds with graph/topic_hub.h.)
//
//   * R(P) of a page is SDTP's Sim(p) (strategies/tda/sdtp_scorer.h, eq. 8-15),
//     with the anchor of the link that led to the page as eq. 11's field A.
//   * A link's priority (the paper gives no link formula; documented in
//     docs/strategies/tda.md):
//       score(l) = (la * Sim(anchor_l) + lc * Sim(context_l) + lp * Sim(P))
//                  / (la + lc + lp)
//     Sim(anchor) and Sim(context) are SDTP on the plain text (all factors
//     1), Sim(P) the parent page's Sim; la, lc, lp = link_anchor (0.4),
//     link_context (0.2), link_parent (0.4) of [strategy.tda]. The context
//     is the seed-001 text context (Outlink::context). A link whose text
//     holds a contradiction word scores 0 for that part.
//   * Word vectors: `vectors = "DIR"` in [strategy.tda] starts from a
//     previous round's DIR/tda-vectors.bin + DIR/tda-dsv.tsv. Otherwise (and
//     in any case, to follow the web) every page's eq.-8 tokens go to
//     OUT/tda-corpus.txt; after retrain_pages stored pages (then 2x, 4x, ...)
//     fastText skipgram is retrained on it in a background thread, the DSV
//     rebuilt (topical pages: StaticSim >= the topic's beta) and installed;
//     pages scored before that have Sim = StaticSim. A training reads at
//     most train_sample_pages corpus lines (a uniform sample), says so on
//     stderr with its progress, and ends early when the crawl is stopped
//     (SIGINT/SIGTERM); with --deterministic it is waited for. Every model
//     installed is written to OUT/tda-vectors.bin + OUT/tda-dsv.tsv, and
//     Finish() trains once more on the corpus (when it grew).
//   * Learned state (crawl --resume, kill -9, the next round of
//     `recrawl`): the page count, the retraining schedule, the corpus (its
//     length in bytes, page counts and eq.-10 statistics: the file is cut
//     back to that length and continued) and the model (reloaded from the
//     files above). A later round retrains only once retrain_pages pages
//     joined the corpus since the last training.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>

#include "crawl/state_blob.h"
#include "frontier/link_selector.h"
#include "scoring/explanation.h"
#include "strategies/baselines/topic_strategy.h"
#include "strategies/tda/sdtp_corpus.h"
#include "strategies/tda/sdtp_scorer.h"
#include "strategies/tda/tda_strategy.h"
#include "text/topic.h"
#include "url/url.h"

namespace topicrawl {
namespace {

struct TrainedModel {
  std::shared_ptr<const WordVectors> vectors;
  Dsv dsv;
  size_t pages = 0;  // corpus pages it was trained on
  double seconds = 0;
};

// The corpus part of the saved state (SdtpCorpusSnapshot).
void WriteCorpus(const SdtpCorpusSnapshot& c, StateWriter* w) {
  w->Var(c.bytes);
  w->Var(c.pages);
  w->Var(c.topical);
  w->U64(c.sites.size());  // counts: StateReader::Count
  for (const std::string& site : c.sites) w->Str(site);
  w->U64(c.stats.size());
  // In word order: the same statistics give the same bytes, however the
  // map was filled.
  std::vector<const std::pair<const std::string, TermStats>*> words;
  words.reserve(c.stats.size());
  for (const auto& entry : c.stats) words.push_back(&entry);
  std::sort(words.begin(), words.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : words) {
    const std::string& word = entry->first;
    const TermStats& t = entry->second;
    w->Str(word);
    w->F64(t.topical_weight);
    w->F64(t.total_weight);
    w->Var(t.topical_count);
    w->Var(t.topical_pages);
    w->Var(t.topical_sites);
    for (uint32_t k = 0; k < std::min<uint32_t>(t.topical_sites, TermStats::kMaxSites); ++k) {
      w->Var(t.site_ids[k]);
    }
    w->Var(t.last_page);
  }
}

bool ReadCorpus(StateReader* r, SdtpCorpusSnapshot* c) {
  uint64_t sites = 0, words = 0;
  if (!r->Var(&c->bytes, "corpus bytes") || !r->Var(&c->pages, "corpus pages") ||
      !r->Var(&c->topical, "topical pages") || !r->Count(&sites, 1, "corpus sites")) {
    return false;
  }
  c->sites.resize(sites);
  for (std::string& site : c->sites) {
    if (!r->Str(&site, "site")) return false;
  }
  if (!r->Count(&words, 20, "corpus words")) return false;
  c->stats.reserve(words);
  for (uint64_t i = 0; i < words; ++i) {
    std::string word;
    TermStats t;
    uint64_t count = 0, pages = 0, nsites = 0, last = 0;
    if (!r->Str(&word, "word") || !r->F64(&t.topical_weight, "topical weight") ||
        !r->F64(&t.total_weight, "total weight") || !r->Var(&count, "topical count") ||
        !r->Var(&pages, "topical pages") || !r->Var(&nsites, "topical sites")) {
      return false;
    }
    if (nsites > TermStats::kMaxSites) return r->Fail("topical sites " + std::to_string(nsites));
    for (uint64_t k = 0; k < nsites; ++k) {
      uint64_t id = 0;
      if (!r->Var(&id, "site id")) return false;
      if (id >= sites) return r->Fail("site id " + std::to_string(id));
      t.site_ids[k] = static_cast<uint32_t>(id);
    }
    if (!r->Var(&last, "last page")) return false;
    t.topical_count = static_cast<uint32_t>(count);
    t.topical_pages = static_cast<uint32_t>(pages);
    t.topical_sites = static_cast<uint32_t>(nsites);
    t.last_page = last;
    c->stats.emplace(std::move(word), t);
  }
  return true;
}

class TdaStrategy : public TopicStrategy {
 public:
  TdaStrategy(std::shared_ptr<TopicRelevance> relevance, std::shared_ptr<SdtpScorer> sdtp,
              std::unique_ptr<SdtpCorpus> corpus, const StrategyContext& context)
      : TopicStrategy("tda", "best-first", std::move(relevance), nullptr, context),
        sdtp_(std::move(sdtp)),
        corpus_(std::move(corpus)),
        next_retrain_(std::max(1, sdtp_->options().retrain_pages)),
        deterministic_(context.deterministic),
        stop_(context.stop) {}

  ~TdaStrategy() override {
    // A training still running (a crawl that failed before Finish) must not
    // outlive the scorer it trains for: it is cancelled and waited for.
    cancel_ = true;
    if (training_.valid()) training_.wait();
  }

  StrategyTraits Traits() const override {
    StrategyTraits t = TopicStrategy::Traits();
    t.link_contexts = {sdtp_->options().link_context > 0, false};
    return t;
  }

  void Assess(const CrawlTask& task, const ParsedPage& page,
              PageAssessment* out) override {
    WeightedTokens weighted = sdtp_->Weigh(page, task.anchor);
    SdtpParts parts = sdtp_->ScoreWeighted(weighted);
    // The crawl's document frequencies of the topic terms (df.tsv, and the
    // state every topic strategy keeps), from the tokens SDTP already has.
    const TopicVector& tv = relevance()->vector();
    relevance()->df().ObserveDocument(
        DistinctTopicTerms(tv, CountTopicTerms(tv, weighted.tokens)));
    if (corpus_) {
      corpus_->Add(weighted, parts.static_sim >= sdtp_->topic().beta, UrlHostPort(task.url));
    }
    out->relevance = parts.sim;
    nlohmann::json j = {{"r", parts.sim},
                        {"static", parts.static_sim},
                        {"dynamic", parts.dynamic_sim},
                        {"vectors", parts.has_vectors},
                        {"n", parts.tokens},
                        {"terms", TermsJson(parts.static_terms)}};
    if (!parts.contradiction.empty()) j["contradiction"] = parts.contradiction;
    out->explanation = DumpCompact(j);
    out->links.assign(page.links.size(), {});
    const SdtpOptions& o = sdtp_->options();
    const double total = o.link_anchor + o.link_context + o.link_parent;
    for (size_t i = 0; i < page.links.size(); ++i) {
      const Outlink& l = page.links[i];
      LinkScore ls;
      const double anchor = o.link_anchor > 0 ? sdtp_->ScoreText(l.anchor).sim : 0;
      const double context = o.link_context > 0 ? sdtp_->ScoreText(l.context).sim : 0;
      ls.parts = {{"anchor", anchor}, {"context", context}, {"parent", parts.sim}};
      ls.score = total > 0 ? (o.link_anchor * anchor + o.link_context * context +
                              o.link_parent * parts.sim) / total
                           : 0;
      out->links[i].score = ls.score;
      out->links[i].explanation = DumpCompact(ExplanationBase(ls));
    }
  }

  void OnPageStored(const CrawlTask&, PageId, const ParsedPage&,
                    const PageAssessment&, Frontier*) override {
    ++stored_;
    InstallIfReady(/*wait=*/false);
    if (corpus_ && !training_.valid() && stored_ >= next_retrain_ && WorthTraining()) {
      training_at_ = next_retrain_;
      next_retrain_ *= 2;
      StartTraining();
      // --deterministic: the pages after this one see the new model, never
      // a timing-dependent mix.
      if (deterministic_) InstallIfReady(/*wait=*/true);
    }
  }

  Status Finish() override {
    Status df = TopicStrategy::Finish();  // df.tsv
    if (!df.ok()) return df;
    InstallIfReady(/*wait=*/true);
    if (!corpus_ || corpus_->pages() == 0) return Status::Ok();
    if (!Stopped() && WorthTraining()) {
      training_at_ = next_retrain_;
      StartTraining();
      InstallIfReady(/*wait=*/true);
    }
    if (!train_error_.empty()) {
      std::fprintf(stderr, "tda: word vectors not trained: %s\n", train_error_.c_str());
    }
    return Status::Ok();  // every installed model is on disk already
  }

 protected:
  // Version 2: the page count and retraining schedule, the model's corpus
  // pages and the corpus itself. A training in flight is not in the state:
  // the schedule point it was started at is saved, so a restarted crawl
  // starts it again.
  void SaveMore(StateWriter* w) const override {
    w->Section("tda", 2);
    w->U64(stored_);
    w->U64(training_.valid() ? training_at_ : next_retrain_);
    w->U64(trained_pages_);
    w->Bool(corpus_ != nullptr);
    if (corpus_) WriteCorpus(corpus_->Snapshot(), w);
  }
  Status RestoreMore(StateReader* r) override {
    uint32_t version;
    if (Status s = r->Section("tda", 2, &version); !s.ok()) return s;
    uint64_t stored = 0, next = 0, trained = 0;
    bool has_corpus = false;
    if (!r->U64(&stored, "stored pages") || !r->U64(&next, "next retraining")) {
      return r->status();
    }
    SdtpCorpusSnapshot snapshot;
    if (version >= 2 && (!r->U64(&trained, "trained pages") || !r->Bool(&has_corpus, "corpus") ||
                         (has_corpus && !ReadCorpus(r, &snapshot)))) {
      return r->status();
    }
    stored_ = stored;
    next_retrain_ = std::max<uint64_t>(next, 1);
    trained_pages_ = trained;
    if (has_corpus && corpus_) {
      if (Status s = corpus_->Resume(std::move(snapshot)); !s.ok()) {
        // The corpus file is gone or cut: the statistics would not match
        // it. It starts again (the model below stays).
        std::fprintf(stderr, "tda: the corpus starts again: %s\n", s.message().c_str());
        trained_pages_ = 0;
      }
    }
    return LoadSavedModel();
  }

 private:
  bool Stopped() const { return stop_ != nullptr && stop_->load(); }

  // The model the crawl (or its previous round) last installed, from
  // OUT/tda-vectors.bin + OUT/tda-dsv.tsv: a resumed crawl scores with it
  // instead of StaticSim alone until the next retraining.
  Status LoadSavedModel(bool replace = false) {
    if (out_dir().empty() || (sdtp_->vectors() && !replace)) return Status::Ok();
    const std::string dir = out_dir();
    if (!std::filesystem::exists(dir + "/tda-vectors.bin") ||
        !std::filesystem::exists(dir + "/tda-dsv.tsv")) {
      return Status::Ok();
    }
    auto vectors = WordVectors::Load(dir + "/tda-vectors.bin");
    if (!vectors.ok()) return vectors.status();
    auto dsv = ReadDsvTsv(dir + "/tda-dsv.tsv", **vectors);
    if (!dsv.ok()) return dsv.status();
    sdtp_->InstallModel(*vectors, std::move(*dsv));
    resumed_model_ = true;
    return Status::Ok();
  }

  // Training pays when the corpus grew since the last model; after a
  // restored model (a later round, a restart) only once retrain_pages pages
  // joined it: vectors of a few new pages would not beat the old ones.
  bool WorthTraining() const {
    const size_t pages = corpus_->pages();
    if (pages <= trained_pages_) return false;
    return !resumed_model_ ||
           pages - trained_pages_ >= static_cast<size_t>(std::max(1, sdtp_->options().retrain_pages));
  }

  void StartTraining() {
    Status flushed = corpus_->Flush();
    if (!flushed.ok()) {
      train_error_ = flushed.message();
      return;
    }
    const size_t pages = corpus_->pages();
    const size_t cap = static_cast<size_t>(sdtp_->options().train_sample_pages);
    const bool sampled = cap > 0 && pages > cap;
    const std::string of = sampled ? " (a sample of the corpus's " + std::to_string(pages) + ")" : "";
    std::fprintf(stderr, "tda: training word vectors on %zu pages%s in the background\n",
                 sampled ? cap : pages, of.c_str());
    auto stats = std::make_shared<StringMap<TermStats>>(corpus_->Stats());
    std::shared_ptr<SdtpScorer> sdtp = sdtp_;
    const SdtpCorpus* corpus = corpus_.get();
    const std::string sample = out_dir() + "/tda-train-sample.txt";
    WordVectorOptions options = sdtp->options().training;
    options.cancel = &cancel_;
    options.progress = ProgressPrinter();
    const uint64_t seed = rng_seed() + stored_;
    // fastText reads the file as it is now; lines appended meanwhile are
    // for the next training.
    training_ = std::async(std::launch::async, [sdtp, stats, corpus, sample, options, seed, cap,
                                                pages]() -> StatusOr<TrainedModel> {
      const auto t0 = std::chrono::steady_clock::now();
      std::string input = corpus->path();
      if (cap > 0 && pages > cap) {
        auto n = corpus->WriteSample(sample, cap, seed);
        if (!n.ok()) return n.status();
        input = sample;
      }
      auto vectors = WordVectors::Train(input, options);
      if (!vectors.ok()) return vectors.status();
      TrainedModel m;
      m.vectors = *vectors;
      m.dsv = sdtp->BuildDsv(**vectors, *stats);
      m.pages = pages;
      m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return m;
    });
  }

  // stderr every 10 s of a training: share done, estimate left.
  std::function<void(double, double)> ProgressPrinter() {
    auto last = std::make_shared<std::atomic<int64_t>>(0);
    const auto t0 = std::chrono::steady_clock::now();
    return [last, t0, this](double done, double eta_s) {
      // The crawl's stop flag ends the training (Train checks cancel_).
      if (stop_ != nullptr && stop_->load()) cancel_ = true;
      const int64_t s =
          std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0)
              .count();
      int64_t prev = last->load();
      if (s < prev + 10 || !last->compare_exchange_strong(prev, s)) return;
      std::fprintf(stderr, "tda: training %.0f %% (%lld s, ~%.0f s left)\n", 100 * done,
                   static_cast<long long>(s), eta_s);
    };
  }

  void InstallIfReady(bool wait) {
    if (!training_.valid()) return;
    if (!wait && training_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      return;
    }
    StatusOr<TrainedModel> m = training_.get();
    if (!m.ok()) {
      train_error_ = m.status().message();
      return;
    }
    trained_pages_ = m->pages;
    std::fprintf(stderr, "tda: word vectors from %zu pages in %.1f s: %zu words, DSV +%zu new terms\n",
                 m->pages, m->seconds, m->vectors->size(), m->dsv.NewTerms());
    // The model installed is the one read back from its files, so a crawl
    // resumed from them scores with the very same bits (loading renormalises
    // the rows).
    if (Status s = SaveModel(*m->vectors, m->dsv); !s.ok()) {
      std::fprintf(stderr, "warning: tda: %s\n", s.message().c_str());
      sdtp_->InstallModel(m->vectors, std::move(m->dsv));
    } else if (Status l = LoadSavedModel(/*replace=*/true); !l.ok()) {
      std::fprintf(stderr, "warning: tda: %s\n", l.message().c_str());
      sdtp_->InstallModel(m->vectors, std::move(m->dsv));
    }
    resumed_model_ = false;
  }

  // OUT/tda-vectors.bin + OUT/tda-dsv.tsv of the installed model, each
  // written beside and renamed into place (a kill -9 leaves the old pair or
  // the new one, and the state file names the pages it was trained on).
  Status SaveModel(const WordVectors& vectors, const Dsv& dsv) const {
    if (out_dir().empty()) return Status::Error("no crawl directory for the model");
    const std::string v = out_dir() + "/tda-vectors.bin", d = out_dir() + "/tda-dsv.tsv";
    Status s = vectors.Save(v + ".tmp");
    if (s.ok()) s = WriteDsvTsv(dsv, d + ".tmp");
    if (!s.ok()) return s;
    std::error_code ec;
    std::filesystem::rename(v + ".tmp", v, ec);
    if (!ec) std::filesystem::rename(d + ".tmp", d, ec);
    return ec ? Status::Error("saving the word vectors: " + ec.message()) : Status::Ok();
  }

  std::shared_ptr<SdtpScorer> sdtp_;
  std::unique_ptr<SdtpCorpus> corpus_;  // null: no training (no out dir)
  size_t stored_ = 0;
  size_t next_retrain_;
  size_t training_at_ = 0;  // next_retrain_ when the training in flight started
  size_t trained_pages_ = 0;
  bool resumed_model_ = false;  // the model came from OUT/tda-vectors.bin
  const bool deterministic_;
  const std::atomic<bool>* const stop_;
  // Ends a training: the strategy is going away or the crawl was stopped.
  std::atomic<bool> cancel_{false};
  std::future<StatusOr<TrainedModel>> training_;
  std::string train_error_;
};

}  // namespace

StatusOr<Strategy> NewTdaStrategy(const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/true);
  if (!rel.ok()) return rel.status();
  const Topic& topic = (*rel)->topic();
  auto options = SdtpOptionsFromTopic(topic);
  if (!options.ok()) return options.status();
  auto sdtp = SdtpScorer::Create(topic, *options);
  if (!sdtp.ok()) return sdtp.status();
  if (!options->vectors.empty()) {
    // A previous round's model: DIR/tda-vectors.bin + DIR/tda-dsv.tsv.
    std::string dir = options->vectors;
    auto vectors = WordVectors::Load(dir + "/tda-vectors.bin");
    if (!vectors.ok()) return vectors.status();
    auto dsv = ReadDsvTsv(dir + "/tda-dsv.tsv", **vectors);
    if (!dsv.ok()) return dsv.status();
    (*sdtp)->InstallModel(*vectors, std::move(*dsv));
  }
  // alpha = 0 gives DynamicSim no weight (Sim = StaticSim: the static-
  // ontology crawler), so no corpus is kept and no vectors are trained;
  // before, Finish() trained fastText (dim 64, epoch 5) for nothing.
  std::unique_ptr<SdtpCorpus> corpus;
  if (!context.out_dir.empty() && options->alpha > 0) {
    auto c = SdtpCorpus::Create(context.out_dir + "/tda-corpus.txt");
    if (!c.ok()) return c.status();
    corpus = std::move(*c);
  }
  return ComposeTopicStrategy(std::make_shared<TdaStrategy>(*rel, *sdtp, std::move(corpus), context));
}

}  // namespace topicrawl
