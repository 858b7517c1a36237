// "tda": the TDA-Crawler of seed 002 (002_dc7a58c43ca85137, §4-5) inside
// one round: best-first on SDTP scores. (Between rounds, the round policy
// `topichub` re-selects the seeds with graph/topic_hub.h.)
//
//   * R(P) of a page is SDTP's Sim(p) (strategies/tda/sdtp_scorer.h, eq. 8-15),
//     with the anchor of the link that led to the page as eq. 11's field A.
//   * A link's priority (the paper gives no link formula; documented in
//     docs/tda.md):
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
//     pages scored before that have Sim = StaticSim. Finish() trains once
//     more on the whole corpus and writes OUT/tda-vectors.bin and
//     OUT/tda-dsv.tsv for the next round. A resumed crawl (the next round
//     of `recrawl`) starts from those files; its corpus holds only the
//     round's parsed (new or changed) pages, so Finish() retrains only when
//     they are at least retrain_pages, else keeps the previous model.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <memory>

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
};

class TdaStrategy : public TopicStrategy {
 public:
  TdaStrategy(std::shared_ptr<TopicRelevance> relevance, std::shared_ptr<SdtpScorer> sdtp,
              std::unique_ptr<SdtpCorpus> corpus, const StrategyContext& context)
      : TopicStrategy("tda", "best-first", std::move(relevance), nullptr, context),
        sdtp_(std::move(sdtp)),
        corpus_(std::move(corpus)),
        next_retrain_(std::max(1, sdtp_->options().retrain_pages)) {}

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
      next_retrain_ *= 2;
      StartTraining();
    }
  }

  Status Finish() override {
    Status df = TopicStrategy::Finish();  // df.tsv
    if (!df.ok()) return df;
    InstallIfReady(/*wait=*/true);
    if (!corpus_ || corpus_->pages() == 0) return Status::Ok();
    if (WorthTraining()) {
      StartTraining();
      InstallIfReady(/*wait=*/true);
    }
    if (!train_error_.empty()) {
      std::fprintf(stderr, "tda: word vectors not trained: %s\n", train_error_.c_str());
      return Status::Ok();  // the crawl itself is fine
    }
    auto vectors = sdtp_->vectors();
    if (!vectors || out_dir().empty()) return Status::Ok();
    Status s = vectors->Save(out_dir() + "/tda-vectors.bin");
    if (s.ok()) s = WriteDsvTsv(*sdtp_->dsv(), out_dir() + "/tda-dsv.tsv");
    return s;
  }

 protected:
  // Resume keeps the page count and the retraining schedule; the corpus
  // file starts again and the vectors come back at the next retraining
  // (or from `vectors = DIR`).
  void SaveMore(StateWriter* w) const override {
    w->Section("tda", 1);
    w->U64(stored_);
    w->U64(next_retrain_);
  }
  Status RestoreMore(StateReader* r) override {
    uint32_t version;
    if (Status s = r->Section("tda", 1, &version); !s.ok()) return s;
    uint64_t stored = 0, next = 0;
    if (!r->U64(&stored, "stored pages") || !r->U64(&next, "next retraining")) {
      return r->status();
    }
    stored_ = stored;
    next_retrain_ = std::max<uint64_t>(next, 1);
    // "Retrained between rounds": a resumed crawl (the next round of
    // `recrawl`, or a restart) scores with the model its last Finish()
    // wrote, instead of StaticSim alone until the next retraining.
    if (!out_dir().empty() && !sdtp_->vectors()) {
      const std::string dir = out_dir();
      if (std::filesystem::exists(dir + "/tda-vectors.bin") &&
          std::filesystem::exists(dir + "/tda-dsv.tsv")) {
        auto vectors = WordVectors::Load(dir + "/tda-vectors.bin");
        if (!vectors.ok()) return vectors.status();
        auto dsv = ReadDsvTsv(dir + "/tda-dsv.tsv", **vectors);
        if (!dsv.ok()) return dsv.status();
        sdtp_->InstallModel(*vectors, std::move(*dsv));
        resumed_model_ = true;
      }
    }
    return Status::Ok();
  }

 private:
  // A later round parses only its new and changed pages; vectors trained
  // on a few of them would be worse than the previous round's, which stay
  // installed (and are saved again) until this round's corpus holds
  // retrain_pages pages.
  bool WorthTraining() const {
    const size_t pages = corpus_->pages();
    if (pages <= trained_pages_) return false;
    return !resumed_model_ ||
           pages >= static_cast<size_t>(std::max(1, sdtp_->options().retrain_pages));
  }

  void StartTraining() {
    Status flushed = corpus_->Flush();
    if (!flushed.ok()) {
      train_error_ = flushed.message();
      return;
    }
    const size_t pages = corpus_->pages();
    auto stats = std::make_shared<StringMap<TermStats>>(corpus_->Stats());
    std::shared_ptr<SdtpScorer> sdtp = sdtp_;
    const std::string path = corpus_->path();
    // fastText reads the file as it is now; lines appended meanwhile are
    // for the next training.
    training_ = std::async(std::launch::async, [sdtp, stats, path, pages]()
                                                   -> StatusOr<TrainedModel> {
      auto vectors = WordVectors::Train(path, sdtp->options().training);
      if (!vectors.ok()) return vectors.status();
      TrainedModel m;
      m.vectors = *vectors;
      m.dsv = sdtp->BuildDsv(**vectors, *stats);
      m.pages = pages;
      return m;
    });
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
    std::fprintf(stderr, "tda: word vectors from %zu pages: %zu words, DSV +%zu new terms\n",
                 m->pages, m->vectors->size(), m->dsv.NewTerms());
    sdtp_->InstallModel(m->vectors, std::move(m->dsv));
  }

  std::shared_ptr<SdtpScorer> sdtp_;
  std::unique_ptr<SdtpCorpus> corpus_;  // null: no training (no out dir)
  size_t stored_ = 0;
  size_t next_retrain_;
  size_t trained_pages_ = 0;
  bool resumed_model_ = false;  // the model came from OUT/tda-vectors.bin
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
