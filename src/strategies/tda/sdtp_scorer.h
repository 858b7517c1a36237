// SDTP page relevance of seed 002 (002_dc7a58c43ca85137 §4, "SDTP 算法"):
// a static ontology (expert terms with weights and synonyms) combined with a
// dynamic semantic vector that grows new domain terms from crawled text.
//
//   eq. 8   word weight   w(t, p) = tf(t, p) * idf(t), where each occurrence
//           of t counts tag(t) * pos(t): the HTML-tag factor of the field it
//           is in (title, meta keywords / description, h1-h6, <a>, strong/em,
//           the anchor of the link that led to p) times a position factor
//           1 + position_boost * (1 - j / n) for text block j of n (top of
//           the page weighs more). tf divides by the page's token count;
//           idf = ln(N / df) over the word vectors' training documents (1
//           for every word while no vectors exist).
//   eq. 9   DSV = the static terms plus the new domain terms, each a
//           (word, vector, weight); as one vector: sum weight * v(word).
//   eq. 10  RD(w) = (1/|S|) sum_{s in S} cos(v_w, v_s) * weight(w); w joins
//           the DSV when RD(w) > mu (at most max_new_terms, best first).
//           weight(w) (the paper's "权重信息", lost in extraction) is w's
//           topical lift: share = the tag x position weight w got in topical
//           pages of the training corpus over the weight it got in all
//           pages; weight = clamp((share - base) / (1 - base), 0, 1) with
//           base the share of all words' weight in topical pages. Generic
//           words found everywhere get 0 however similar they look;
//           candidates must occur min_term_count times in topical pages,
//           in at least min_term_pages topical pages on at least
//           min_term_sites sites: a word of one manual's prose (every page
//           of it topical, so its lift is 1) does not join on the strength
//           of that manual alone.
//   eq. 12-13 document vector C_p = sum_t w(t, p) * v(t) (unit vectors).
//   eq. 14  DynamicSim(p) = max(0, cos(C_p, DSV)).
//   StaticSim(p) = cos between the ontology weights and the page's eq.-8
//           weights of the ontology terms (a synonym counts as its term).
//   eq. 15  Sim(p) = 0 when the page contains a contradiction word, else
//           alpha * DynamicSim * g + (1 - alpha) * StaticSim, g = min(1,
//           StaticSim / gate) (combine = "gated", the default: DynamicSim
//           adds evidence only where the expert terms support the page;
//           "linear", g = 1, is the paper's form). Without word
//           vectors (the first pages of a first crawl) Sim = StaticSim.
//
// Parameters: the topic's [strategy.tda] table (SdtpOptions lists the keys
// and defaults; the paper gives no values, docs/strategies/tda.md says how they were
// chosen). Static ontology: [topic.ontology] terms, else the topic keywords
// with their weights, plus `ontology_terms` (weight 1).
//
// Cost: Score / ScoreParts tokenise the page's fields once (a heading or
// emphasis whose text is a whole earlier field reuses that field's
// occurrences) into a per-thread buffer, without a string per token or a
// WeightedTokens, then look the occurrences up in a loop of their own
// (loads ahead); one hash lookup and one add per token into thread-local
// dense arrays, then one dim-wide multiply-add per distinct word that has
// a vector. Nothing is allocated per word by the
// scorer once a thread has scored a page of the model's size; the
// tokeniser's own allocations are counted by bench/sdtp_bench.cc.
//
// Thread-safety: Score* may run on many threads at once; InstallModel swaps
// the vectors and DSV atomically (readers keep the model they started with).
#ifndef TOPICRAWL_STRATEGIES_TDA_SDTP_SCORER_H_
#define TOPICRAWL_STRATEGIES_TDA_SDTP_SCORER_H_

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "scoring/scorer.h"
#include "scoring/word_vectors.h"
#include "text/tokenizer.h"
#include "text/topic.h"

namespace topicrawl {

// [strategy.tda] keys (same names) and their defaults.
struct SdtpOptions {
  double alpha = 0.5;           // eq. 15: weight of DynamicSim
  double mu = 0.15;             // eq. 10: RD threshold for a new term
  int max_new_terms = 40;       // cap on the DSV's new terms
  int min_term_count = 5;       // a candidate must occur >= this often in topical pages
  int min_term_pages = 3;       // ... in >= this many topical pages
  int min_term_sites = 2;       // ... on >= this many sites (hosts; <= TermStats::kMaxSites)
  int min_term_chars = 1;       // ... of at least this many characters (code points)
  // Cap on the new terms' summed weight in the DSV vector, as a multiple of
  // the static terms' summed weight (0: no cap). With 40 new terms of RD
  // 0.4-0.85 the new terms otherwise outweigh a 12-term ontology ~3:1.
  double new_terms_mass = 0;
  // DSV candidates must be in at most this share of ALL training documents
  // (document frequency from the vectors' IDF, df / N = exp(-idf)); 1: no
  // ceiling. Generic prose of the topical pages (譬如, 机构) is in many
  // irrelevant pages too.
  double max_term_df = 1.0;
  // Eq. 14 as measured: "cosine" (the paper: cos(C_p, DSV)) or "length":
  // the projection of C_p on the DSV's direction divided by the page's
  // summed eq.-8 weight of the words with vectors, i.e. the weighted mean
  // cos(v_t, DSV) of the page's words (docs/notebook/tda.md "SDTP vs VSM").
  enum class DynamicNorm { kCosine, kLength };
  DynamicNorm dynamic_norm = DynamicNorm::kCosine;
  // Eq. 15 as combined: "linear" (the paper: alpha D + (1 - alpha) S) or
  // "gated": alpha D g(S) + (1 - alpha) S with g(S) = min(1, S / gate):
  // DynamicSim adds evidence only in proportion to the static support, up
  // to full weight at StaticSim >= gate (docs/notebook/tda.md "SDTP vs VSM"). gate 0
  // (default): the StaticSim of a page holding the ontology's heaviest
  // term alone, w_max / |w| (0.44 for zh-security, 0.43 for
  // dev-networking), so it follows the topic, not the labels.
  enum class Combine { kLinear, kGated };
  Combine combine = Combine::kGated;
  double gate = 0;
  double tag_title = 3.0;       // eq. 8 tag factors
  double tag_meta = 2.0;        // <meta name=keywords|description>
  double tag_heading = 2.0;     // h1..h6
  double tag_anchor = 1.0;      // the page's own <a> texts (1: no boost)
  double tag_emphasis = 1.5;    // strong, em, b
  double tag_parent_anchor = 2.0;  // anchor of the link that led here
  double position_boost = 0.5;  // pos factor 1 + boost * (1 - j / n)
  // Link score (strategy tda): anchor / context / parent Sim weights.
  double link_anchor = 0.4;
  double link_context = 0.2;
  double link_parent = 0.4;
  // Training between rounds / during a crawl (strategy tda).
  int retrain_pages = 500;      // first training after this many pages, then doubling
  // A training reads at most this many corpus pages (a uniform sample of
  // the lines when the corpus holds more; 0 = all): fastText's time grows
  // with the tokens read, so each training stays within a bound however
  // large the crawl instead of growing with every round (docs/strategies/tda.md).
  int train_sample_pages = 10000;
  std::string vectors;          // a TDAWV1 file to start from (previous round)
  WordVectorOptions training;   // keys dim, epoch, min_count, window, threads, seed
  // Not a topic key: Weigh tokenises one call a field (false, default) or
  // the whole page in one call with marks between the fields (true; the
  // same tokens). bench/sdtp_bench's A/B: one call a page was slower
  // (English 325 vs 234 us, Chinese 737 vs 659 us; docs/strategies/tda.md).
  bool join_fields = false;
};

// Reads [strategy.tda]; unknown keys and wrong types are errors.
StatusOr<SdtpOptions> SdtpOptionsFromTopic(const Topic& topic);

// One entry of the DSV (eq. 9).
struct DsvTerm {
  std::string term;
  uint32_t id = WordVectors::kNoWord;
  double weight = 0;   // static: the ontology weight; new: RD
  double rd = 0;       // eq. 10 (static terms too, for reports)
  bool is_static = false;
};

struct Dsv {
  std::vector<DsvTerm> terms;  // static first, then new terms by RD
  std::vector<float> vector;   // sum weight * v, length dim (empty: no vectors)
  size_t NewTerms() const;
};

// The DSV as text: `term<TAB>weight<TAB>rd<TAB>static|new` per line after a
// `#` header (a crawl writes DIR/tda-dsv.tsv next to DIR/tda-vectors.bin).
Status WriteDsvTsv(const Dsv& dsv, const std::string& path);
// Reads the terms and rebuilds the vector from `vectors` (terms without a
// vector are kept with id kNoWord). Errors name the file and line.
StatusOr<Dsv> ReadDsvTsv(const std::string& path, const WordVectors& vectors);

// Per-word weight totals gathered while building the training corpus, for
// eq. 10's weight(w).
struct TermStats {
  double topical_weight = 0;  // eq.-8 weight summed over topical pages
  double total_weight = 0;    // over all pages
  uint32_t topical_count = 0;  // occurrences in topical pages
  uint32_t topical_pages = 0;  // topical pages that hold it (document frequency)
  // Distinct sites among those pages, counted up to kMaxSites (enough for
  // any min_term_sites; SdtpCorpus keeps the ids while counting).
  static constexpr size_t kMaxSites = 8;
  uint32_t topical_sites = 0;
  uint32_t site_ids[kMaxSites] = {};
  uint64_t last_page = 0;      // SdtpCorpus: the last topical page counted (1-based)
};

// A page as eq. 8 sees it: the tokens in reading order (title, meta, body:
// what a training corpus line holds), then extra entries that only add tag
// weight to words already counted (headings, anchors, emphasis).
struct WeightedTokens {
  std::vector<std::string> tokens;
  std::vector<float> factors;  // tag * position, parallel to tokens
  size_t sequence_end = 0;     // tokens[0, sequence_end) are the text
};

struct SdtpParts {
  double sim = 0;          // eq. 15
  double static_sim = 0;
  double dynamic_sim = 0;  // 0 without vectors
  bool has_vectors = false;
  std::string contradiction;  // the contradiction word found, if any
  int tokens = 0;
  std::vector<TermWeight> static_terms;  // ontology terms present
};

class SdtpScorer : public PageScorer {
 public:
  static StatusOr<std::shared_ptr<SdtpScorer>> Create(
      const Topic& topic, const SdtpOptions& options,
      const TokenizerOptions& tokenizer = {});

  // Eq. 8's occurrences of a page; `parent_anchor` (may be empty) is the
  // anchor text of the link that led to it.
  WeightedTokens Weigh(const ParsedPage& page, std::string_view parent_anchor = {}) const;
  SdtpParts ScoreParts(const ParsedPage& page, std::string_view parent_anchor = {}) const;
  SdtpParts ScoreWeighted(const WeightedTokens& weighted) const;
  // A plain text (an anchor, a link context): every token factor 1, and
  // eq. 15 linear whatever `combine` says: an anchor of a few words rarely
  // holds an ontology term, and the DSV's new terms in anchors are what
  // the crawl follows them for (strategy tda's link scores).
  SdtpParts ScoreText(std::string_view text) const;
  PageScore Score(const ParsedPage& page) const override;

  // Builds the DSV (eq. 9-10) for `vectors` from corpus statistics.
  Dsv BuildDsv(const WordVectors& vectors, const StringMap<TermStats>& stats) const;
  // Makes `vectors` + `dsv` the model of every following Score call.
  void InstallModel(std::shared_ptr<const WordVectors> vectors, Dsv dsv);
  // The installed DSV (empty terms before InstallModel).
  std::shared_ptr<const Dsv> dsv() const;
  std::shared_ptr<const WordVectors> vectors() const;

  const SdtpOptions& options() const { return options_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  const Topic& topic() const { return topic_; }
  // The gate of combine = "gated" in use (options().gate, or w_max / |w|).
  double gate() const { return gate_; }
  // The static ontology in normal form: terms and weights.
  const std::vector<std::pair<std::string, double>>& ontology() const { return ontology_; }

 private:
  struct Entry {
    uint32_t vec = WordVectors::kNoWord;  // word-vector id
    int32_t onto = -1;                    // ontology term index
    int32_t contradiction = -1;           // index in contradiction_list_
    float idf = 1;                        // eq. 8 idf (1 without vectors)
  };
  struct Model {  // immutable once installed
    std::shared_ptr<const WordVectors> vectors;
    std::shared_ptr<const Dsv> dsv;
    double dsv_norm = 0;
    StringMap<uint32_t> lookup;  // token -> entries index
    std::vector<Entry> entries;
    uint64_t generation = 0;     // unique per built model (the scorers' front caches key on it)
  };

  SdtpScorer() = default;
  // Adds `raw` (normalised) with `weight` to the ontology, or raises its
  // weight to `weight` when present; returns its index.
  int32_t AddOntologyTerm(const std::string& raw, double weight);
  // The ontology: the topic's [[ontology]] terms and synonyms, else its
  // keywords; then its ontology_terms at weight 1.
  void BuildOntology(const Topic& topic);
  // Whether `word` (its corpus statistics `st`, null when unseen) may
  // become a new DSV term: not a term or contradiction, seen often enough
  // on enough topical pages and sites, long enough.
  bool DsvCandidate(const std::string& word, const TermStats* st) const;
  // Eq. 10: the new DSV terms with RD > mu, strongest first, at most
  // max_new_terms.
  std::vector<DsvTerm> NewDsvTerms(const WordVectors& vectors, const StringMap<TermStats>& stats,
                                   const std::vector<uint32_t>& static_ids) const;
  std::shared_ptr<const Model> BuildModel(std::shared_ptr<const WordVectors> vectors,
                                          std::shared_ptr<const Dsv> dsv) const;
  std::shared_ptr<const Model> model() const;
  SdtpParts ScoreWeightedAs(const WeightedTokens& weighted, SdtpOptions::Combine combine) const;
  // Eq. 8-15 over the occurrences `feed` hands to an accumulator
  // (sdtp_scorer.cc): feed(acc) calls acc.Token(token, factor,
  // in_sequence) per occurrence, in the order of Weigh's tokens.
  template <typename Feed>
  SdtpParts ScoreFeed(Feed&& feed, SdtpOptions::Combine combine) const;

  Topic topic_;
  SdtpOptions options_;
  double gate_ = 1;
  std::unique_ptr<Tokenizer> tokenizer_;
  std::vector<std::pair<std::string, double>> ontology_;  // normalised term, weight
  StringMap<int32_t> ontology_index_;                     // term or synonym -> index
  StringSet contradictions_;
  std::vector<std::string> contradiction_list_;
  mutable std::mutex model_mu_;
  std::shared_ptr<const Model> model_;  // guarded by model_mu_
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_SDTP_SCORER_H_
