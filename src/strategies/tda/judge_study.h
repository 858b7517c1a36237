// Seed 002's relevance experiment (§5, 图3), `topicrawl tda judge`: the
// labelled pages of one or more crawl directories (read back from their WARC
// records) are split train:test = 3:2, stratified, per RNG seed. On the
// training pages: fastText skipgram word vectors, the DSV (topical =
// labelled relevant) and the VSM document frequencies; then each method's
// threshold is the one with the best F1 on the training pages, and
// precision / recall / F1 are measured on the test pages. Methods:
//   vsm      seed 000's eq. 3-4 topic cosine (TF-IDF over the topic terms)
//   static   SDTP's StaticSim alone (ontology + eq.-8 tag/position weights)
//   sdtp     SDTP's Sim (eq. 15) with the topic's [strategy.tda] options
//            (default: raw vectors, combine = "gated")
//   sdtp-raw / sdtp-centred  the same with the other choice (ablation)
//   doc-vec  fastText document vectors alone (mean word vector vs the
//            topic terms' weighted vector): the Doc2Vec stand-in
//   sdtp-1site, sdtp-nonew, sdtp-2char, sdtp-mass1, sdtp-2c-m1  DSV
//            ablations; static-plain / sdtp-plain  without the eq.-8 tag and
//            position factors; sdtp-len*, sdtp-gate*, sdtp-df, sdtp-s4 (raw,
//            linear, cosine: the paper's forms), sdtp-linear / sdtp-cosine:
//            one rule each (judge_study.cc lists them)
// Prints one line per method and seed, the mean ± sd over seeds, and the
// new DSV terms of each seed; writes OUT/scores-SEED.tsv (every page's
// scores and DynamicSim parts, for per-host analysis) and the DSVs.
#ifndef TOPICRAWL_STRATEGIES_TDA_JUDGE_STUDY_H_
#define TOPICRAWL_STRATEGIES_TDA_JUDGE_STUDY_H_

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "text/topic.h"

namespace topicrawl::tda {

namespace judge_study_internal {
class Study;
}  // namespace judge_study_internal

// The labels the study judges against. Label files are eval's (above
// strategies/), so the caller passes them in through this interface.
class PageLabels {
 public:
  virtual ~PageLabels() = default;
  // True: relevant, false: not relevant, nullopt: `url` has no label.
  virtual std::optional<bool> Lookup(const std::string& url) const = 0;
  // The form under which URLs name one labelled page: a page crawled under
  // two such URLs is judged once.
  virtual std::string Canonical(const std::string& url) const = 0;
};

struct JudgeStudyOptions {
  std::vector<std::string> crawls;  // crawl directories
  std::vector<int> seeds = {1};     // RNG seeds of the splits
  double train_fraction = 0.6;      // seed 002: 3:2
  int max_pages = 0;                // at most this many labelled pages (0: all)
  std::string out_dir;              // corpora, DSVs, scores ("": TMP/tda-judge)
  // Keep each seed's raw word vectors in OUT/vectors-SEED.bin and load them
  // when present, so DSV and scoring rules compare on the same vectors.
  bool reuse_vectors = false;
};

class JudgeStudy {
 public:
  // The topic's SDTP options, the scorers and the ablation rows. Errors:
  // the topic's [strategy.tda] keys.
  static StatusOr<std::unique_ptr<JudgeStudy>> Create(const Topic& topic,
                                                      JudgeStudyOptions options);
  ~JudgeStudy();

  // Reads and tokenises the labelled pages once, then runs every seed,
  // printing its lines to `out` as it ends, and the summary. Errors: an
  // unreadable crawl, labelled pages of one class only, a corpus or word
  // vectors that cannot be written or trained.
  Status Run(const PageLabels& labels, std::FILE* out);

 private:
  explicit JudgeStudy(std::unique_ptr<judge_study_internal::Study> impl);
  std::unique_ptr<judge_study_internal::Study> impl_;
};

}  // namespace topicrawl::tda

#endif  // TOPICRAWL_STRATEGIES_TDA_JUDGE_STUDY_H_
