// SDTP (seed 002 §4). Equations and the reconstructed parts are in the
// header; this file keeps the reasons for the mechanics.
#include "strategies/tda/sdtp_scorer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>

namespace topicrawl {
namespace {

// The per-thread accumulators of one scored page: dense over the model's
// entries, reset entry by entry after use, so scoring a page allocates
// nothing per word once a thread has seen a page of the model's size.
struct Scratch {
  struct Acc {
    float factor = 0;     // summed occurrence factors of the entry
    uint32_t count = 0;   // occurrences in reading order
  };
  std::vector<Acc> acc;            // per entry (one cache line touched, not two)
  std::vector<uint32_t> touched;   // entries with an occurrence
  // Front cache of the token -> entry lookup, direct-mapped by the token's
  // 64-bit hash (64 KiB: stays in L2 while the model's table of 10^5 words
  // does not). Pages repeat their words and share the frequent ones, so
  // most tokens hit; a miss asks the model's table. A slot holds the hash
  // (| 1; 0 = empty) and the entry (kAbsent: no entry). Two tokens with the
  // same 64-bit hash would share a slot's answer: ~2^-64 per pair, ignored.
  struct Front {
    uint64_t key = 0;
    uint32_t entry = 0;
  };
  static constexpr uint32_t kAbsent = UINT32_MAX;
  static constexpr size_t kFrontSlots = 4096;
  std::vector<Front> front;
  uint64_t front_model = 0;        // generation of the model the cache is for
  std::vector<float> doc;          // document vector C_p
  std::vector<double> onto;        // eq.-8 weight per ontology term
  std::vector<uint32_t> onto_count;
};

Scratch& ThreadScratch() {
  thread_local Scratch s;
  return s;
}

double Cosine(std::span<const float> a, std::span<const float> b, double norm_b) {
  double dot = 0, na = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double(a[i]) * b[i];
    na += double(a[i]) * a[i];
  }
  if (na <= 0 || norm_b <= 0) return 0;
  return std::clamp(dot / std::sqrt(na * norm_b), 0.0, 1.0);
}

// doc += w * v over n floats, four lanes at a time. Each element gets the
// scalar loop's operations (one multiply, then one add: no fused
// multiply-add under -std=c++20's -ffp-contract=off), so the sums are the
// same bits; GCC -O2 does not vectorise the plain loop (its runtime alias
// check is over the very-cheap cost model).
void AddScaled(float* doc, const float* v, float w, size_t n) {
  typedef float F4 __attribute__((vector_size(16)));
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    F4 a, b;
    std::memcpy(&a, doc + k, sizeof a);
    std::memcpy(&b, v + k, sizeof b);
    a += w * b;
    std::memcpy(doc + k, &a, sizeof a);
  }
  for (; k < n; ++k) doc[k] += w * v[k];
}

// Adds a page's occurrences into the thread's Scratch: token -> entry
// through the front cache, then the entry's factor and count.
class Accumulator {
 public:
  Accumulator(Scratch& s, const StringMap<uint32_t>& lookup) : s_(s), lookup_(lookup) {}

  // One occurrence of `token` with `factor`; in_sequence: it is in the
  // page's reading order (counts for tf's denominator and the term
  // counts). Returns the token's entry, Scratch::kAbsent when the model
  // has none.
  uint32_t Token(std::string_view token, float factor, bool in_sequence) {
    return Token(token, Hash(token), factor, in_sequence);
  }
  // The same with the token's Hash() known.
  uint32_t Token(std::string_view token, uint64_t h, float factor, bool in_sequence) {
    sequence_ += in_sequence;
    Scratch::Front& f = s_.front[(h >> 1) & (Scratch::kFrontSlots - 1)];
    if (f.key != h) {
      auto it = lookup_.find(token);
      f.key = h;
      f.entry = it == lookup_.end() ? Scratch::kAbsent : it->second;
    }
    if (f.entry != Scratch::kAbsent) Entry(f.entry, factor, in_sequence);
    return f.entry;
  }
  // One occurrence of a token already looked up (its entry).
  void Entry(uint32_t e, float factor, bool in_sequence) {
    Scratch::Acc& a = s_.acc[e];
    if (a.factor == 0 && a.count == 0) s_.touched.push_back(e);
    a.factor += factor;
    a.count += in_sequence;
  }
  size_t sequence() const { return sequence_; }

  uint64_t Hash(std::string_view token) const {
    return static_cast<uint64_t>(hash_(token)) | 1;
  }
  // Loads ahead: the front-cache slot of hash h; the model table's group
  // for `token` when that slot (already loaded) does not hold it.
  void PrefetchFront(uint64_t h) const {
    __builtin_prefetch(&s_.front[(h >> 1) & (Scratch::kFrontSlots - 1)]);
  }
  void PrefetchTable(std::string_view token, uint64_t h) const {
    if (s_.front[(h >> 1) & (Scratch::kFrontSlots - 1)].key != h) lookup_.prefetch(token);
  }

 private:
  Scratch& s_;
  const StringMap<uint32_t>& lookup_;
  const StringHash hash_{};
  size_t sequence_ = 0;
};

}  // namespace

namespace {
// UTF-8 code points of a word (continuation bytes 10xxxxxx not counted).
int CodePoints(std::string_view w) {
  int n = 0;
  for (unsigned char c : w) n += (c & 0xC0) != 0x80;
  return n;
}
}  // namespace

size_t Dsv::NewTerms() const {
  return std::count_if(terms.begin(), terms.end(),
                       [](const DsvTerm& t) { return !t.is_static; });
}

namespace {

// The non-negative numbers of [strategy.tda].
Status ReadSdtpNumbers(const StrategyParams& p, SdtpOptions* o) {
  struct D { const char* key; double* v; };
  for (D d : {D{"alpha", &o->alpha}, D{"mu", &o->mu}, D{"new_terms_mass", &o->new_terms_mass},
              D{"max_term_df", &o->max_term_df}, D{"gate", &o->gate},
              D{"tag_title", &o->tag_title},
              D{"tag_meta", &o->tag_meta}, D{"tag_heading", &o->tag_heading},
              D{"tag_anchor", &o->tag_anchor}, D{"tag_emphasis", &o->tag_emphasis},
              D{"tag_parent_anchor", &o->tag_parent_anchor},
              D{"position_boost", &o->position_boost}, D{"link_anchor", &o->link_anchor},
              D{"link_context", &o->link_context}, D{"link_parent", &o->link_parent}}) {
    auto v = p.Number(d.key, *d.v);
    if (!v.ok()) return v.status();
    if (!(*v >= 0) || !std::isfinite(*v)) {
      return Status::Error("[strategy.tda] " + std::string(d.key) + " must be >= 0");
    }
    *d.v = *v;
  }
  if (o->alpha > 1) return Status::Error("[strategy.tda] alpha must be in [0, 1]");
  if (o->max_term_df > 1) return Status::Error("[strategy.tda] max_term_df must be in [0, 1]");
  return Status::Ok();
}

// dynamic_norm ("cosine" | "length") and combine ("linear" | "gated").
Status ReadSdtpModes(const StrategyParams& p, SdtpOptions* o) {
  auto norm = p.String("dynamic_norm", o->dynamic_norm == SdtpOptions::DynamicNorm::kLength
                                             ? "length" : "cosine");
  if (!norm.ok()) return norm.status();
  if (*norm == "cosine") {
    o->dynamic_norm = SdtpOptions::DynamicNorm::kCosine;
  } else if (*norm == "length") {
    o->dynamic_norm = SdtpOptions::DynamicNorm::kLength;
  } else {
    return Status::Error("[strategy.tda] dynamic_norm must be \"cosine\" or \"length\"");
  }
  auto combine = p.String("combine", o->combine == SdtpOptions::Combine::kGated ? "gated" : "linear");
  if (!combine.ok()) return combine.status();
  if (*combine == "linear") {
    o->combine = SdtpOptions::Combine::kLinear;
  } else if (*combine == "gated") {
    o->combine = SdtpOptions::Combine::kGated;
  } else {
    return Status::Error("[strategy.tda] combine must be \"linear\" or \"gated\"");
  }
  return Status::Ok();
}

// The integers of [strategy.tda], each with its minimum.
Status ReadSdtpIntegers(const StrategyParams& p, SdtpOptions* o) {
  struct I { const char* key; int* v; int min; };
  for (I i : {I{"max_new_terms", &o->max_new_terms, 0}, I{"min_term_count", &o->min_term_count, 1},
              I{"min_term_pages", &o->min_term_pages, 1}, I{"min_term_sites", &o->min_term_sites, 1},
              I{"min_term_chars", &o->min_term_chars, 1},
              I{"retrain_pages", &o->retrain_pages, 0},
              I{"train_sample_pages", &o->train_sample_pages, 0}, I{"dim", &o->training.dim, 2},
              I{"epoch", &o->training.epoch, 1}, I{"min_count", &o->training.min_count, 1},
              I{"window", &o->training.window, 1}, I{"threads", &o->training.threads, 1},
              I{"seed", &o->training.seed, 0}}) {
    auto v = p.Integer(i.key, *i.v);
    if (!v.ok()) return v.status();
    if (*v < i.min || *v > 1'000'000'000) {
      return Status::Error("[strategy.tda] " + std::string(i.key) + " must be >= " +
                           std::to_string(i.min));
    }
    *i.v = static_cast<int>(*v);
  }
  if (o->min_term_sites > static_cast<int>(TermStats::kMaxSites)) {
    return Status::Error("[strategy.tda] min_term_sites must be <= " +
                         std::to_string(TermStats::kMaxSites));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<SdtpOptions> SdtpOptionsFromTopic(const Topic& topic) {
  const StrategyParams& p = topic.Strategy("tda");
  SdtpOptions o;
  static const std::vector<std::string_view> kKnown = {
      "alpha", "mu", "max_new_terms", "min_term_count", "min_term_pages",
      "min_term_sites", "min_term_chars", "new_terms_mass", "max_term_df", "dynamic_norm",
      "combine", "gate", "tag_title", "tag_meta",
      "tag_heading", "tag_anchor", "tag_emphasis", "tag_parent_anchor",
      "position_boost", "link_anchor", "link_context", "link_parent",
      "retrain_pages", "train_sample_pages", "vectors", "dim", "epoch", "min_count", "window",
      "threads", "seed", "center",
      // read by the topichub round policy (strategies/tda/topichub_policy.cc)
      "seeds_per_round", "hub_alpha", "hub_a", "hub_beta", "hub_budget", "hub_fresh"};
  auto unknown = p.UnknownKeys(kKnown);
  if (!unknown.empty()) {
    return Status::Error("[strategy.tda] unknown key `" + unknown[0] + "`");
  }
  if (Status s = ReadSdtpNumbers(p, &o); !s.ok()) return s;
  if (Status s = ReadSdtpModes(p, &o); !s.ok()) return s;
  if (Status s = ReadSdtpIntegers(p, &o); !s.ok()) return s;
  auto center = p.Bool("center", o.training.center);
  if (!center.ok()) return center.status();
  o.training.center = *center;
  auto vectors = p.String("vectors", "");
  if (!vectors.ok()) return vectors.status();
  o.vectors = *vectors;
  return o;
}

namespace {

// Every ontology term, synonym and contradiction word stays one token.
TokenizerOptions SdtpTokenizerOptions(const Topic& topic, const TokenizerOptions& tokenizer_options) {
  TokenizerOptions tok = tokenizer_options;
  for (const TopicKeyword& k : topic.keywords) tok.user_words.push_back({k.term, 0});
  for (const std::string& w : topic.dictionary) tok.user_words.push_back({w, 0});
  for (const std::string& w : topic.ontology_terms) tok.user_words.push_back({w, 0});
  for (const std::string& w : topic.contradiction_words) tok.user_words.push_back({w, 0});
  for (const OntologyTerm& t : topic.ontology) {
    tok.user_words.push_back({t.term, 0});
    for (const std::string& syn : t.synonyms) tok.user_words.push_back({syn, 0});
  }
  return tok;
}

}  // namespace

int32_t SdtpScorer::AddOntologyTerm(const std::string& raw, double weight) {
  std::string term = tokenizer_->NormalizeTerm(raw);
  auto it = ontology_index_.find(term);
  if (it != ontology_index_.end()) {
    auto& w = ontology_[it->second].second;
    w = std::max(w, weight);
    return it->second;
  }
  const auto idx = static_cast<int32_t>(ontology_.size());
  ontology_.emplace_back(term, weight);
  ontology_index_.emplace(term, idx);
  return idx;
}

void SdtpScorer::BuildOntology(const Topic& topic) {
  if (!topic.ontology.empty()) {
    for (const OntologyTerm& t : topic.ontology) {
      int32_t idx = AddOntologyTerm(t.term, t.weight);
      for (const std::string& syn : t.synonyms) {
        ontology_index_.emplace(tokenizer_->NormalizeTerm(syn), idx);
      }
    }
  } else {
    for (const TopicKeyword& k : topic.keywords) AddOntologyTerm(k.term, k.weight);
  }
  for (const std::string& t : topic.ontology_terms) AddOntologyTerm(t, 1.0);
}

StatusOr<std::shared_ptr<SdtpScorer>> SdtpScorer::Create(
    const Topic& topic, const SdtpOptions& options,
    const TokenizerOptions& tokenizer_options) {
  std::shared_ptr<SdtpScorer> s(new SdtpScorer());
  s->topic_ = topic;
  s->options_ = options;
  auto tokenizer = Tokenizer::Create(SdtpTokenizerOptions(topic, tokenizer_options));
  if (!tokenizer.ok()) return tokenizer.status();
  s->tokenizer_ = std::move(*tokenizer);
  s->BuildOntology(topic);
  if (s->ontology_.empty()) {
    return Status::Error("topic " + topic.name + " has no ontology terms or keywords");
  }
  s->gate_ = options.gate;
  if (!(s->gate_ > 0)) {  // auto: StaticSim of a page with the heaviest term alone
    double norm = 0, top = 0;
    for (const auto& [term, w] : s->ontology_) {
      norm += w * w;
      top = std::max(top, w);
    }
    s->gate_ = norm > 0 ? top / std::sqrt(norm) : 1;
  }
  for (const std::string& w : topic.contradiction_words) {
    std::string term = s->tokenizer_->NormalizeTerm(w);
    if (s->contradictions_.insert(term).second) s->contradiction_list_.push_back(term);
  }
  std::lock_guard<std::mutex> lock(s->model_mu_);
  s->model_ = s->BuildModel(nullptr, std::make_shared<Dsv>());
  return s;
}

std::shared_ptr<const SdtpScorer::Model> SdtpScorer::BuildModel(
    std::shared_ptr<const WordVectors> vectors, std::shared_ptr<const Dsv> dsv) const {
  static std::atomic<uint64_t> generations{0};
  auto m = std::make_shared<Model>();
  m->generation = ++generations;
  auto entry = [&](std::string_view token) -> Entry& {
    auto [it, inserted] = m->lookup.try_emplace(token, m->entries.size());
    if (inserted) m->entries.emplace_back();
    return m->entries[it->second];
  };
  if (vectors) {
    m->lookup.reserve(vectors->size() + ontology_index_.size());
    for (uint32_t i = 0; i < vectors->size(); ++i) entry(vectors->Word(i)).vec = i;
  }
  for (const auto& [term, idx] : ontology_index_) entry(term).onto = idx;
  for (size_t i = 0; i < contradiction_list_.size(); ++i) {
    entry(contradiction_list_[i]).contradiction = static_cast<int32_t>(i);
  }
  // IDF from the vectors' training documents, kept in the entry (one
  // memory access a distinct word less); 1 before any training, and ln(N)
  // (as rare as can be) for an ontology term without a vector.
  if (vectors) {
    const float rare = static_cast<float>(std::log(std::max<double>(vectors->documents(), 2)));
    for (Entry& e : m->entries) {
      e.idf = e.vec != WordVectors::kNoWord ? static_cast<float>(vectors->Idf(e.vec)) : rare;
    }
  }
  m->vectors = std::move(vectors);
  m->dsv = std::move(dsv);
  for (float x : m->dsv->vector) m->dsv_norm += double(x) * x;
  return m;
}

std::shared_ptr<const SdtpScorer::Model> SdtpScorer::model() const {
  std::lock_guard<std::mutex> lock(model_mu_);
  return model_;
}

void SdtpScorer::InstallModel(std::shared_ptr<const WordVectors> vectors, Dsv dsv) {
  auto m = BuildModel(std::move(vectors), std::make_shared<Dsv>(std::move(dsv)));
  std::lock_guard<std::mutex> lock(model_mu_);
  model_ = std::move(m);
}

std::shared_ptr<const Dsv> SdtpScorer::dsv() const { return model()->dsv; }
std::shared_ptr<const WordVectors> SdtpScorer::vectors() const { return model()->vectors; }

namespace {

// Separates the segments of a page in one tokeniser call (13 bytes: inside
// std::string's small-string buffer, no allocation a mark). A word run of
// ASCII letters: never split, never a stop word, and no page of ours holds
// it (if one does, Weigh notices the count and tokenises segment by
// segment instead).
constexpr std::string_view kSegmentMark = "qxzsdtpsegqxz";

struct Segment {
  std::string_view text;
  float factor;
};

// The page's fields as (text, factor) segments: reading order first
// (title, meta, the link's anchor, then the body blocks), then the extras
// that only add tag weight. Visible tagged text (headings, emphasis,
// anchors) is already in the body once, so an extra carries the excess of
// its tag factor over 1 (factor 1: nothing to add). Returns the number of
// reading-order segments (the first ones).
size_t PageSegments(const SdtpOptions& o, const ParsedPage& page,
                    std::string_view parent_anchor, std::vector<Segment>* segs) {
  segs->clear();
  auto seg = [&](std::string_view text, double factor) {
    if (!text.empty() && factor != 0) segs->push_back({text, static_cast<float>(factor)});
  };
  seg(page.title, o.tag_title);
  seg(page.keywords, o.tag_meta);
  seg(page.description, o.tag_meta);
  seg(parent_anchor, o.tag_parent_anchor);
  const size_t n = page.text_blocks.size();
  for (size_t j = 0; j < n; ++j) seg(page.text_blocks[j], 1 + o.position_boost * (1 - double(j) / n));
  const size_t sequence_segs = segs->size();
  if (o.tag_heading != 1) {
    for (const std::string& t : page.headings) seg(t, o.tag_heading - 1);
  }
  if (o.tag_emphasis != 1) {
    for (const std::string& t : page.emphasis) seg(t, o.tag_emphasis - 1);
  }
  if (o.tag_anchor != 1) {
    for (const Outlink& l : page.links) seg(l.anchor, o.tag_anchor - 1);
  }
  return sequence_segs;
}

// An earlier segment with the same text as segs[k] (k when none). The
// search starts after the last match (*cursor): headings and emphasis come
// in page order, and most are a whole block of their own.
size_t EarlierEqual(const std::vector<Segment>& segs, size_t k, size_t* cursor) {
  const std::string_view text = segs[k].text;
  for (size_t i = 0; i < k; ++i) {
    size_t j = *cursor + i;
    if (j >= k) j -= k;
    if (segs[j].text.size() == text.size() && segs[j].text == text) {
      *cursor = j + 1;
      return j;
    }
  }
  return k;
}

}  // namespace

namespace {

// join_fields: one Tokenize call for the whole page, the segments joined
// with a mark token between them. False (and `out` untouched) when a
// segment holds the mark itself.
bool WeighJoined(const Tokenizer& tokenizer, const std::vector<Segment>& segs, size_t sequence_segs,
                 WeightedTokens* out) {
  thread_local std::string joined;
  thread_local std::vector<std::string> tokens;
  joined.clear();
  tokens.clear();
  for (const Segment& g : segs) {
    joined += g.text;
    joined += '\n';
    joined += kSegmentMark;
    joined += '\n';
  }
  tokenizer.Tokenize(joined, &tokens);
  size_t marks = 0;
  for (const std::string& t : tokens) marks += t == kSegmentMark;
  if (marks != segs.size()) return false;
  size_t k = 0;
  for (std::string& t : tokens) {
    if (t == kSegmentMark) {
      if (++k == sequence_segs) out->sequence_end = out->tokens.size();
      continue;
    }
    out->tokens.push_back(std::move(t));
    out->factors.push_back(segs[k].factor);
  }
  if (sequence_segs == 0) out->sequence_end = 0;
  return true;
}

// One Tokenize call per segment. An extra whose text is a whole earlier
// segment (a heading is its own block, so are most emphasis texts) copies
// that segment's tokens: the same tokens a Tokenize call of its own gives.
void WeighPerSegment(const Tokenizer& tokenizer, const std::vector<Segment>& segs, size_t sequence_segs,
                     WeightedTokens* out) {
  thread_local std::vector<std::pair<size_t, size_t>> ranges;  // tokens per segment
  ranges.clear();
  size_t cursor = 0;
  for (size_t k = 0; k < segs.size(); ++k) {
    if (k == sequence_segs) out->sequence_end = out->tokens.size();
    const size_t begin = out->tokens.size();
    const size_t j = k >= sequence_segs ? EarlierEqual(segs, k, &cursor) : k;
    if (j != k) {
      out->tokens.reserve(begin + (ranges[j].second - ranges[j].first));
      for (size_t i = ranges[j].first; i < ranges[j].second; ++i) {
        out->tokens.push_back(out->tokens[i]);
      }
    } else {
      tokenizer.Tokenize(segs[k].text, &out->tokens);
    }
    out->factors.resize(out->tokens.size(), segs[k].factor);
    ranges.emplace_back(begin, out->tokens.size());
  }
  if (sequence_segs == segs.size()) out->sequence_end = out->tokens.size();
}

}  // namespace

WeightedTokens SdtpScorer::Weigh(const ParsedPage& page,
                                 std::string_view parent_anchor) const {
  thread_local std::vector<Segment> segs;
  const size_t sequence_segs = PageSegments(options_, page, parent_anchor, &segs);
  WeightedTokens out;
  out.tokens.reserve(page.text.size() / 6 + 16);
  // join_fields: one Tokenize call for the whole page (each call pays its
  // own case folding); measured slower than one call a field (the joined
  // copy and a mark token a field cost more than the calls), so off by
  // default (docs/strategies/tda.md, the join_fields measurement).
  if (!options_.join_fields || !WeighJoined(*tokenizer_, segs, sequence_segs, &out)) {
    WeighPerSegment(*tokenizer_, segs, sequence_segs, &out);
  }
  return out;
}

SdtpParts SdtpScorer::ScoreWeighted(const WeightedTokens& w) const {
  return ScoreWeightedAs(w, options_.combine);
}

SdtpParts SdtpScorer::ScoreWeightedAs(const WeightedTokens& w,
                                      SdtpOptions::Combine combine) const {
  return ScoreFeed(
      [&](Accumulator& acc) {
        for (size_t i = 0; i < w.tokens.size(); ++i) {
          acc.Token(w.tokens[i], w.factors[i], i < w.sequence_end);
        }
      },
      combine);
}

namespace {

// The touched entries are scattered over the model (10^5 words: entries,
// accumulators and vector rows far apart), so a page of new words waits on
// memory per word; prefetching a few words ahead of touched entry i
// overlaps the misses (loads only: the sums are unchanged).
template <typename ModelT>
inline void PrefetchTouched(const ModelT& m, const Scratch& s, size_t i, bool vectors) {
  constexpr size_t kAheadEntry = 8, kAheadRow = 4;
  const size_t touched = s.touched.size();
  if (i + kAheadEntry < touched) {
    const uint32_t a = s.touched[i + kAheadEntry];
    __builtin_prefetch(&m.entries[a]);
    __builtin_prefetch(&s.acc[a]);
  }
  if (vectors && i + kAheadRow < touched) {
    const uint32_t id = m.entries[s.touched[i + kAheadRow]].vec;
    if (id != WordVectors::kNoWord) {
      const float* row = m.vectors->Vector(id).data();
      for (size_t b = 0; b < m.vectors->dim() * sizeof(float); b += 64) {
        __builtin_prefetch(reinterpret_cast<const char*>(row) + b);
      }
    }
  }
}

// Eq. 8 over the touched entries, in the order they were touched: each
// word's weight goes to its ontology term (s.onto, s.onto_count) and, with
// vectors, its vector into C_p (s.doc, eq. 12-13); the first contradiction
// found is recorded. Resets the accumulators; returns the summed weight of
// the words with vectors.
template <typename ModelT>
double SumTouched(const ModelT& m, Scratch& s, double total, const std::vector<std::string>& contradiction_list,
                  SdtpParts* parts) {
  const WordVectors* vec = m.vectors.get();
  double vector_weight = 0;
  const size_t touched = s.touched.size();
  for (size_t i = 0; i < touched; ++i) {
    PrefetchTouched(m, s, i, parts->has_vectors);
    const uint32_t e = s.touched[i];
    const auto& entry = m.entries[e];
    const double tf = s.acc[e].factor / total;
    const uint32_t occurrences = s.acc[e].count;
    s.acc[e] = {};
    if (entry.contradiction >= 0 && parts->contradiction.empty()) {
      parts->contradiction = contradiction_list[entry.contradiction];
    }
    // IDF from the vectors' training documents; 1 before any training, and
    // ln(N) (as rare as can be) for an ontology term without a vector.
    const double weight = tf * entry.idf;  // eq. 8
    if (entry.onto >= 0) {
      s.onto[entry.onto] += weight;
      s.onto_count[entry.onto] += occurrences;
    }
    if (parts->has_vectors && entry.vec != WordVectors::kNoWord) {
      auto v = vec->Vector(entry.vec);  // eq. 12-13
      AddScaled(s.doc.data(), v.data(), static_cast<float>(weight), v.size());
      vector_weight += weight;
    }
  }
  s.touched.clear();
  return vector_weight;
}

// StaticSim: cosine over the ontology terms; the page's terms, strongest
// first, into parts->static_terms.
void StaticSimilarity(const std::vector<std::pair<std::string, double>>& ontology, const Scratch& s,
                      SdtpParts* parts) {
  double dot = 0, nt = 0, nd = 0;
  for (size_t i = 0; i < ontology.size(); ++i) {
    const double tw = ontology[i].second;
    nt += tw * tw;
    if (s.onto[i] == 0) continue;
    dot += tw * s.onto[i];
    nd += s.onto[i] * s.onto[i];
    TermWeight t;
    t.term = ontology[i].first;
    t.count = static_cast<int>(s.onto_count[i]);
    t.weight = s.onto[i];
    t.topic_weight = tw;
    parts->static_terms.push_back(std::move(t));
  }
  std::sort(parts->static_terms.begin(), parts->static_terms.end(),
            [](const TermWeight& a, const TermWeight& b) {
              return a.weight * a.topic_weight > b.weight * b.topic_weight;
            });
  parts->static_sim = nd > 0 ? std::clamp(dot / std::sqrt(nt * nd), 0.0, 1.0) : 0.0;
}

// DynamicSim of C_p (s.doc) and the DSV.
double DynamicSimilarity(const Scratch& s, const Dsv& dsv, double dsv_norm, double vector_weight,
                         SdtpOptions::DynamicNorm norm) {
  if (norm == SdtpOptions::DynamicNorm::kLength) {
    // The projection of C_p on the DSV's direction per unit of word
    // weight: sum_t w_t cos(v_t, DSV) / sum_t w_t (unit v_t). A page is
    // as close as the weighted mean of its words, so a long page of
    // generic prose with a few topical words stays low, where the cosine
    // of the summed vector follows the common direction of all words.
    double dot = 0;
    for (size_t k = 0; k < s.doc.size(); ++k) dot += double(s.doc[k]) * dsv.vector[k];
    return vector_weight > 0 && dsv_norm > 0 ? std::clamp(dot / (std::sqrt(dsv_norm) * vector_weight), 0.0, 1.0)
                                             : 0.0;
  }
  return Cosine(s.doc, dsv.vector, dsv_norm);  // eq. 14
}

// Eq. 15 from StaticSim and DynamicSim.
double CombinedSim(const SdtpParts& parts, double alpha, SdtpOptions::Combine combine, double gate) {
  double support = 1;  // eq. 15 linear: DynamicSim counts in full
  if (combine == SdtpOptions::Combine::kGated) {
    // DynamicSim adds evidence only as far as StaticSim supports the
    // page: a page without the expert terms cannot be relevant on
    // semantic closeness alone (zh: security-minded pages outside the
    // labelled chapters have the highest DynamicSim; docs/strategies/tda.md).
    support = std::min(1.0, parts.static_sim / gate);
  }
  return alpha * parts.dynamic_sim * support + (1 - alpha) * parts.static_sim;  // eq. 15
}

}  // namespace

template <typename Feed>
SdtpParts SdtpScorer::ScoreFeed(Feed&& feed, SdtpOptions::Combine combine) const {
  const std::shared_ptr<const Model> m = model();
  const WordVectors* vec = m->vectors.get();
  Scratch& s = ThreadScratch();
  if (s.acc.size() < m->entries.size()) s.acc.resize(m->entries.size());
  if (s.front_model != m->generation || s.front.empty()) {
    s.front.assign(Scratch::kFrontSlots, {});
    s.front_model = m->generation;
  }
  SdtpParts parts;
  parts.has_vectors = vec != nullptr && !m->dsv->vector.empty();
  Accumulator acc(s, m->lookup);
  feed(acc);
  parts.tokens = static_cast<int>(acc.sequence());
  const double total = std::max<size_t>(acc.sequence(), 1);
  s.onto.assign(ontology_.size(), 0);
  if (parts.has_vectors) s.doc.assign(vec->dim(), 0);
  s.onto_count.assign(ontology_.size(), 0);
  const double vector_weight = SumTouched(*m, s, total, contradiction_list_, &parts);
  StaticSimilarity(ontology_, s, &parts);
  if (parts.has_vectors) {
    parts.dynamic_sim = DynamicSimilarity(s, *m->dsv, m->dsv_norm, vector_weight, options_.dynamic_norm);
    parts.sim = CombinedSim(parts, options_.alpha, combine, gate_);
  } else {
    parts.sim = parts.static_sim;
  }
  if (!parts.contradiction.empty()) parts.sim = 0;  // eq. 15, W(p) ∩ E ≠ ∅
  return parts;
}

namespace {

// One token occurrence of a page for ScoreParts.
struct Occurrence {
  uint32_t offset, size;  // the token in the page's token bytes
  uint64_t hash;          // Accumulator::Hash
  float factor;
  bool in_sequence;
};

// The page's occurrences in Weigh's order: the tokens' bytes appended to
// `bytes`; an extra segment whose text is a whole earlier segment (a
// heading is its own block, so are most emphasis texts) replays that
// segment's occurrences instead of tokenising it again.
void CollectOccurrences(const Tokenizer& tokenizer, const std::vector<Segment>& segs, size_t sequence_segs,
                        std::string* bytes, std::vector<Occurrence>* occurrences) {
  thread_local std::vector<std::pair<uint32_t, uint32_t>> ranges;  // per segment, in occurrences
  bytes->clear();
  occurrences->clear();
  ranges.clear();
  const StringHash hash{};
  size_t cursor = 0;
  for (size_t k = 0; k < segs.size(); ++k) {
    const Segment& g = segs[k];
    const bool in_sequence = k < sequence_segs;
    const auto begin = static_cast<uint32_t>(occurrences->size());
    const size_t j = in_sequence ? k : EarlierEqual(segs, k, &cursor);
    if (j != k) {
      for (uint32_t i = ranges[j].first; i < ranges[j].second; ++i) {
        Occurrence o = (*occurrences)[i];
        o.factor = g.factor;
        o.in_sequence = false;
        occurrences->push_back(o);
      }
    } else {
      tokenizer.ForEachToken(g.text, [&](std::string_view token) {
        occurrences->push_back({static_cast<uint32_t>(bytes->size()),
                                static_cast<uint32_t>(token.size()),
                                static_cast<uint64_t>(hash(token)) | 1, g.factor, in_sequence});
        *bytes += token;
      });
    }
    ranges.emplace_back(begin, static_cast<uint32_t>(occurrences->size()));
  }
}

}  // namespace

SdtpParts SdtpScorer::ScoreParts(const ParsedPage& page,
                                 std::string_view parent_anchor) const {
  if (options_.join_fields) return ScoreWeighted(Weigh(page, parent_anchor));
  // Weigh + ScoreWeighted without a string per token or a WeightedTokens,
  // the same occurrences in the same order (so the same sums).
  // The page's occurrences are tokenised first and looked up afterwards in
  // a loop of their own: with the tokeniser's work between them, the
  // lookups of a page's new words (a miss in the model's table each) waited
  // on memory one after the other; in a tight loop, with the front-cache
  // slot and the table's group loaded ahead, they overlap.
  thread_local std::vector<Segment> segs;
  thread_local std::string bytes;
  thread_local std::vector<Occurrence> occurrences;
  const size_t sequence_segs = PageSegments(options_, page, parent_anchor, &segs);
  CollectOccurrences(*tokenizer_, segs, sequence_segs, &bytes, &occurrences);
  return ScoreFeed(
      [&](Accumulator& acc) {
        constexpr size_t kAheadFront = 16, kAheadTable = 8;
        const size_t n = occurrences.size();
        const std::string_view all = bytes;
        auto token = [&](const Occurrence& o) { return all.substr(o.offset, o.size); };
        for (size_t i = 0; i < n; ++i) {
          if (i + kAheadFront < n) acc.PrefetchFront(occurrences[i + kAheadFront].hash);
          if (i + kAheadTable < n) {
            const Occurrence& a = occurrences[i + kAheadTable];
            acc.PrefetchTable(token(a), a.hash);
          }
          const Occurrence& o = occurrences[i];
          acc.Token(token(o), o.hash, o.factor, o.in_sequence);
        }
      },
      options_.combine);
}

SdtpParts SdtpScorer::ScoreText(std::string_view text) const {
  WeightedTokens w;
  tokenizer_->Tokenize(text, &w.tokens);
  w.factors.assign(w.tokens.size(), 1.0f);
  w.sequence_end = w.tokens.size();
  return ScoreWeightedAs(w, SdtpOptions::Combine::kLinear);
}

PageScore SdtpScorer::Score(const ParsedPage& page) const {
  SdtpParts parts = ScoreParts(page);
  PageScore score;
  score.relevance = parts.sim;
  score.total_terms = parts.tokens;
  score.terms = std::move(parts.static_terms);
  return score;
}

namespace {

// weight(w) of eq. 10 is w's topical share lifted over the share a word
// spread evenly over all pages would have: this base.
double BaseTopicalShare(const StringMap<TermStats>& stats) {
  double topical_total = 0, all_total = 0;
  for (const auto& [word, st] : stats) {
    topical_total += st.topical_weight;
    all_total += st.total_weight;
  }
  return all_total > 0 ? topical_total / all_total : 0;
}

// Mean similarity of word `id` to the static terms with vectors.
double MeanStaticSimilarity(const WordVectors& vectors, uint32_t id, const std::vector<uint32_t>& static_ids) {
  double sim = 0;
  for (uint32_t s : static_ids) sim += vectors.Similarity(id, s);
  return sim / static_ids.size();
}

// new_terms_mass: the new terms may shift the DSV off the expert terms by at
// most this multiple of the ontology's weight (their RDs keep their ratios;
// t.rd stays the unscaled eq.-10 value for reports).
void CapNewTermsMass(double mass, const std::vector<DsvTerm>& static_terms, std::vector<DsvTerm>* fresh) {
  if (!(mass > 0) || fresh->empty()) return;
  double static_mass = 0, new_mass = 0;
  for (const DsvTerm& t : static_terms) static_mass += t.id != WordVectors::kNoWord ? t.weight : 0;
  for (const DsvTerm& t : *fresh) new_mass += t.weight;
  const double cap = mass * static_mass;
  if (new_mass > cap) {
    for (DsvTerm& t : *fresh) t.weight *= cap / new_mass;
  }
}

}  // namespace

bool SdtpScorer::DsvCandidate(const std::string& word, const TermStats* st) const {
  if (word == "</s>" || ontology_index_.contains(word) || contradictions_.contains(word)) return false;
  return st != nullptr && st->topical_count >= static_cast<uint32_t>(options_.min_term_count) &&
         st->topical_pages >= static_cast<uint32_t>(options_.min_term_pages) &&
         st->topical_sites >= static_cast<uint32_t>(options_.min_term_sites) && !(st->total_weight <= 0) &&
         CodePoints(word) >= options_.min_term_chars;
}

std::vector<DsvTerm> SdtpScorer::NewDsvTerms(const WordVectors& vectors, const StringMap<TermStats>& stats,
                                             const std::vector<uint32_t>& static_ids) const {
  // weight = clamp((share - base) / (1 - base), 0, 1): words found
  // everywhere ("page", "version") get 0, words found only in topical pages
  // get 1.
  const double base = BaseTopicalShare(stats);
  std::vector<DsvTerm> fresh;
  for (uint32_t id = 0; id < vectors.size(); ++id) {
    const std::string& word = vectors.Word(id);
    auto it = stats.find(word);
    if (!DsvCandidate(word, it == stats.end() ? nullptr : &it->second)) continue;
    // Document-frequency ceiling over all training documents (df / N =
    // exp(-idf)): generic prose is in many irrelevant pages as well.
    if (options_.max_term_df < 1 && std::exp(-double(vectors.Idf(id))) > options_.max_term_df) {
      continue;
    }
    const double share = it->second.topical_weight / it->second.total_weight;
    const double weight = base < 1 ? std::clamp((share - base) / (1 - base), 0.0, 1.0) : 0.0;
    const double rd = MeanStaticSimilarity(vectors, id, static_ids) * weight;
    if (rd > options_.mu) {
      DsvTerm t;
      t.term = word;
      t.id = id;
      t.rd = t.weight = rd;
      fresh.push_back(std::move(t));
    }
  }
  std::sort(fresh.begin(), fresh.end(),
            [](const DsvTerm& a, const DsvTerm& b) { return a.rd > b.rd; });
  if (fresh.size() > static_cast<size_t>(options_.max_new_terms)) {
    fresh.resize(options_.max_new_terms);
  }
  return fresh;
}

Dsv SdtpScorer::BuildDsv(const WordVectors& vectors,
                         const StringMap<TermStats>& stats) const {
  Dsv dsv;
  std::vector<uint32_t> static_ids;
  for (const auto& [term, weight] : ontology_) {
    DsvTerm t;
    t.term = term;
    t.id = vectors.Id(term);
    t.weight = weight;
    t.is_static = true;
    if (t.id != WordVectors::kNoWord) static_ids.push_back(t.id);
    dsv.terms.push_back(std::move(t));
  }
  dsv.vector.assign(vectors.dim(), 0);
  if (static_ids.empty()) {
    dsv.vector.clear();  // no anchor for the semantics: DynamicSim off
    return dsv;
  }
  // Eq. 10 over the candidates: words of topical pages, not already terms.
  std::vector<DsvTerm> fresh = NewDsvTerms(vectors, stats, static_ids);
  for (DsvTerm& t : dsv.terms) {
    if (t.id != WordVectors::kNoWord) t.rd = MeanStaticSimilarity(vectors, t.id, static_ids);
  }
  CapNewTermsMass(options_.new_terms_mass, dsv.terms, &fresh);
  for (DsvTerm& t : fresh) dsv.terms.push_back(std::move(t));
  for (const DsvTerm& t : dsv.terms) {  // eq. 9 as one vector
    if (t.id == WordVectors::kNoWord) continue;
    auto v = vectors.Vector(t.id);
    for (size_t k = 0; k < v.size(); ++k) dsv.vector[k] += static_cast<float>(t.weight) * v[k];
  }
  return dsv;
}

Status WriteDsvTsv(const Dsv& dsv, const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path);
  // Every digit of a double: a resumed crawl rebuilds the same DSV vector.
  out.precision(17);
  out << "# term\tweight\trd\tkind\n";
  for (const DsvTerm& t : dsv.terms) {
    out << t.term << '\t' << t.weight << '\t' << t.rd << '\t'
        << (t.is_static ? "static" : "new") << '\n';
  }
  out.close();
  return out ? Status::Ok() : Status::Error("error writing " + path);
}

StatusOr<Dsv> ReadDsvTsv(const std::string& path, const WordVectors& vectors) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read " + path);
  Dsv dsv;
  dsv.vector.assign(vectors.dim(), 0);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    DsvTerm t;
    std::string weight, rd, kind;
    if (!std::getline(fields, t.term, '\t') || !std::getline(fields, weight, '\t') ||
        !std::getline(fields, rd, '\t') || !std::getline(fields, kind, '\t')) {
      return Status::Error(path + ":" + std::to_string(n) + ": expected 4 tab-separated fields");
    }
    try {
      t.weight = std::stod(weight);
      t.rd = std::stod(rd);
    } catch (const std::exception&) {
      return Status::Error(path + ":" + std::to_string(n) + ": bad number");
    }
    t.is_static = kind == "static";
    t.id = vectors.Id(t.term);
    if (t.id != WordVectors::kNoWord) {
      auto v = vectors.Vector(t.id);
      for (size_t k = 0; k < v.size(); ++k) dsv.vector[k] += static_cast<float>(t.weight) * v[k];
    }
    dsv.terms.push_back(std::move(t));
  }
  return dsv;
}

}  // namespace topicrawl
