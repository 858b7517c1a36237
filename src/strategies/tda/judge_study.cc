#include "strategies/tda/judge_study.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <unordered_set>
#include <utility>

#include "fetch/charset.h"
#include "parse/html_parser.h"
#include "scoring/relevance_scorer.h"
#include "scoring/topic_relevance.h"
#include "scoring/word_vectors.h"
#include "store/crawl_db_reader.h"
#include "strategies/tda/sdtp_corpus.h"
#include "strategies/tda/sdtp_scorer.h"
#include "text/tfidf.h"
#include "url/url.h"

namespace topicrawl::tda {
// Named, not anonymous: JudgeStudy (declared in the header) holds a Study.
namespace judge_study_internal {

// Tokens interned to ids, so thousands of pages stay in memory once.
struct Interner {
  StringMap<uint32_t> ids;
  std::vector<std::string> words;
  uint32_t Id(const std::string& w) {
    auto [it, inserted] = ids.try_emplace(w, words.size());
    if (inserted) words.push_back(w);
    return it->second;
  }
};

struct JudgedPage {
  bool relevant = false;
  std::string url;
  std::string site;                   // host[:port], for the DSV's site spread
  std::vector<uint32_t> sdtp_tokens;  // SDTP's eq.-8 tokens
  std::vector<float> factors;
  uint32_t sequence_end = 0;
  std::vector<uint32_t> vsm_tokens;   // seed 000's PageText tokens
};

struct Prf {
  double p = 0, r = 0, f1 = 0, threshold = 0;
};

Prf Measure(const std::vector<double>& score, const std::vector<bool>& label, double t) {
  double tp = 0, fp = 0, fn = 0;
  for (size_t i = 0; i < score.size(); ++i) {
    const bool yes = score[i] >= t;
    tp += yes && label[i];
    fp += yes && !label[i];
    fn += !yes && label[i];
  }
  Prf m;
  m.threshold = t;
  m.p = tp + fp > 0 ? tp / (tp + fp) : 0;
  m.r = tp + fn > 0 ? tp / (tp + fn) : 0;
  m.f1 = m.p + m.r > 0 ? 2 * m.p * m.r / (m.p + m.r) : 0;
  return m;
}

// The threshold with the best F1 on (score, label).
double BestThreshold(const std::vector<double>& score, const std::vector<bool>& label) {
  std::vector<size_t> order(score.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
  double positives = 0;
  for (bool l : label) positives += l;
  double tp = 0, fp = 0, best_f1 = -1, best_t = 1;
  for (size_t k = 0; k < order.size(); ++k) {
    (label[order[k]] ? tp : fp) += 1;
    if (k + 1 < order.size() && score[order[k + 1]] == score[order[k]]) continue;
    const double p = tp / (tp + fp), r = positives > 0 ? tp / positives : 0;
    const double f1 = p + r > 0 ? 2 * p * r / (p + r) : 0;
    if (f1 > best_f1) {
      best_f1 = f1;
      best_t = score[order[k]];
    }
  }
  return best_t;
}

// Mean and sample standard deviation of one measure over the seeds.
std::pair<double, double> MeanSd(const std::vector<Prf>& v, double Prf::*f) {
  double mean = 0, sd = 0;
  for (const Prf& x : v) mean += x.*f;
  mean /= v.size();
  for (const Prf& x : v) sd += (x.*f - mean) * (x.*f - mean);
  sd = v.size() > 1 ? std::sqrt(sd / (v.size() - 1)) : 0;
  return {mean, sd};
}

// Ablation rows, each the topic's SDTP with one change, same vectors:
//   sdtp-1site  the DSV without the spread rule (a candidate needs
//               min_term_count occurrences only, no min_term_pages /
//               min_term_sites);
//   sdtp-nonew  the DSV of the static terms alone (no new terms): what
//               the DSV expansion adds or costs;
//   sdtp-2char  new terms of at least 2 characters (on zh: no single
//               Chinese characters such as 官, 组, 化);
//   sdtp-mass1  new terms' summed weight capped at the ontology's;
//   sdtp-2c-m1  both.
// The DynamicSim rules (docs/notebook/tda.md "SDTP vs VSM"), each on the topic's options:
//   sdtp-len    DynamicSim normalised by the page's word weight
//               (dynamic_norm = "length"), raw vectors;
//   sdtp-len-c  the same on centred vectors;
//   sdtp-gate   combine = "gated" (DynamicSim in proportion to StaticSim's
//               support), cosine DynamicSim;
//   sdtp-gate-len / sdtp-gate-len-c  gated with the length-normalised
//               DynamicSim, raw / centred vectors;
//   sdtp-gate-c gated, cosine, centred vectors;
//   sdtp-s4     raw, linear, cosine: the paper's forms;
//   sdtp-df     DSV candidates in at most 5 % of the training pages.
//   sdtp-linear / sdtp-cosine  the paper's eq. 15 / eq. 14 back, when
//               the topic chose the other.
constexpr const char* kAblations[] = {
    "sdtp-1site", "sdtp-nonew", "sdtp-2char", "sdtp-mass1",    "sdtp-2c-m1",
    "sdtp-len",   "sdtp-len-c", "sdtp-gate",  "sdtp-gate-len", "sdtp-gate-len-c",
    "sdtp-df",    "sdtp-linear", "sdtp-cosine", "sdtp-gate-c", "sdtp-s4"};

// The DSV ablations: false when `name` is not one.
bool DsvAblation(const std::string& name, SdtpOptions* o) {
  if (name == "sdtp-1site") {
    o->min_term_pages = 1;
    o->min_term_sites = 1;
  } else if (name == "sdtp-nonew") {
    o->max_new_terms = 0;
  } else if (name == "sdtp-df") {
    o->max_term_df = 0.05;
  } else if (name == "sdtp-2char" || name == "sdtp-mass1" || name == "sdtp-2c-m1") {
    if (name != "sdtp-mass1") o->min_term_chars = 2;
    if (name != "sdtp-2char") o->new_terms_mass = 1;
  } else {
    return false;
  }
  return true;
}

// The DynamicSim rule ablations on `base`; false when the row is the row
// sdtp itself. *other_vectors: scored on the other vectors than the topic's.
bool RuleAblation(const std::string& name, const SdtpOptions& base, SdtpOptions* o,
                  bool* other_vectors) {
  using Combine = SdtpOptions::Combine;
  using DynamicNorm = SdtpOptions::DynamicNorm;
  if (name == "sdtp-len" || name == "sdtp-len-c") {
    o->dynamic_norm = DynamicNorm::kLength;
    *other_vectors = name == "sdtp-len-c";
  } else if (name.starts_with("sdtp-gate") && name != "sdtp-gate-c") {
    o->combine = Combine::kGated;
    if (name != "sdtp-gate") o->dynamic_norm = DynamicNorm::kLength;
    *other_vectors = name == "sdtp-gate-len-c";
  } else if (name == "sdtp-gate-c") {
    o->combine = Combine::kGated;
    o->dynamic_norm = DynamicNorm::kCosine;
    *other_vectors = !base.training.center;
    if (base.training.center && base.combine == Combine::kGated &&
        base.dynamic_norm == DynamicNorm::kCosine) {
      return false;
    }
  } else if (name == "sdtp-s4") {
    o->combine = Combine::kLinear;
    o->dynamic_norm = DynamicNorm::kCosine;
    *other_vectors = base.training.center;
    if (!base.training.center && base.combine == Combine::kLinear &&
        base.dynamic_norm == DynamicNorm::kCosine) {
      return false;
    }
  } else if (name == "sdtp-linear") {
    o->combine = Combine::kLinear;
  } else if (name == "sdtp-cosine") {
    o->dynamic_norm = DynamicNorm::kCosine;
  }
  return true;
}

// The options of the ablation row `name`, or nullopt when the row would
// repeat another (the row sdtp, or a centred row of a centred topic).
std::optional<std::pair<SdtpOptions, bool>> AblationOptions(const std::string& name,
                                                             const SdtpOptions& base) {
  SdtpOptions o = base;
  bool other_vectors = false;
  if (!DsvAblation(name, &o) && !RuleAblation(name, base, &o, &other_vectors)) {
    return std::nullopt;
  }
  if (other_vectors && base.training.center && name != "sdtp-s4") {
    return std::nullopt;  // the len-c / gate-len-c rows: only raw -> centred
  }
  if ((name == "sdtp-linear" && base.combine == SdtpOptions::Combine::kLinear) ||
      (name == "sdtp-cosine" && base.dynamic_norm == SdtpOptions::DynamicNorm::kCosine)) {
    return std::nullopt;  // the same as the row sdtp
  }
  return std::make_pair(o, other_vectors);
}

struct Ablation {
  std::string name;
  std::shared_ptr<SdtpScorer> scorer;
  bool centred = false;  // the other vectors than the topic's choice (centred or raw)
};

// One ok page of a crawl, as the pages table has it.
struct CrawlPageRow {
  std::string url;  // final URL when redirected
  std::string content_type, warc_file;
  int64_t offset = 0;
};

StatusOr<std::vector<CrawlPageRow>> ReadPageRows(const std::string& dir) {
  auto db = CrawlDbReader::Open(dir);
  if (!db.ok()) return db.status();
  std::vector<CrawlPageRow> rows;
  Status s = (*db)->Query(
      "SELECT coalesce(nullif(final_url, ''), url), content_type, coalesce(warc_file, ''), "
      "coalesce(warc_offset, 0) FROM pages WHERE status = 'ok' ORDER BY id",
      {}, [&rows](const DbRow& row) {
        rows.push_back({row.Text(0), row.Text(1), row.Text(2), row.Int(3)});
        return true;
      });
  if (!s.ok()) return s;
  return rows;
}

StatusOr<ParsedPage> ReadParsedPage(const std::string& dir, const CrawlPageRow& r) {
  auto body = ReadStoredResponseBody(dir, r.warc_file, r.offset);
  if (!body.ok()) return body.status();
  return ParseHtml(DecodeToUtf8(*body, r.content_type).utf8, r.url);
}

// A seed's training: the word vectors the SDTP rows use and the other
// choice (centred or raw), the corpus statistics, the VSM with the
// training pages' document frequencies.
struct SeedModel {
  std::shared_ptr<const WordVectors> raw, model_vectors, alt_vectors;
  StringMap<TermStats> stats;
  std::shared_ptr<TopicRelevance> vsm;
};

// Every method's scores by page, with the DynamicSim parts as
// "<method>:dynamic" and the row sdtp's as "dynamic".
using Scores = std::map<std::string, std::vector<double>>;

class Study {
 public:
  Study(const Topic& topic, SdtpOptions sdtp_options, JudgeStudyOptions options)
      : topic_(topic), sdtp_options_(std::move(sdtp_options)), options_(std::move(options)) {}

  Status Init();
  Status Run(const PageLabels& labels, std::FILE* out);

 private:
  Status ReadPages(const PageLabels& labels);
  void AddPage(const ParsedPage& parsed, const std::string& url, bool relevant);
  void ListMethods();
  std::vector<std::string> Strings(const std::vector<uint32_t>& ids) const;
  WeightedTokens Weighted(const JudgedPage& p) const;
  std::vector<bool> SplitTrain(int seed) const;
  Status RunSeed(int seed, std::FILE* out);
  StatusOr<SeedModel> Train(int seed, const std::vector<bool>& train);
  StatusOr<std::shared_ptr<const WordVectors>> Vectors(int seed, const std::string& corpus_path);
  Scores ScoreSeed(int seed, const SeedModel& m, std::FILE* out);
  void ScoreAblations(int seed, const SeedModel& m, Scores* score);
  void ScoreModelRows(const SeedModel& m, Scores* score);
  double DocVec(const JudgedPage& p, const WordVectors& v, const std::vector<float>& topic_vec);
  std::vector<float> TopicVector(const WordVectors& v) const;
  void DumpScores(int seed, const std::vector<bool>& train, Scores* score) const;
  void MeasureSeed(int seed, const std::vector<bool>& train, const Scores& score,
                   std::FILE* out);
  void PrintSummary(std::FILE* out) const;

  const Topic topic_;
  const SdtpOptions sdtp_options_;
  const JudgeStudyOptions options_;
  std::shared_ptr<SdtpScorer> sdtp_;
  std::shared_ptr<TopicRelevance> relevance_;
  std::vector<Ablation> ablations_;
  std::string out_dir_, alt_method_;
  std::vector<std::string> methods_;
  Interner words_;
  std::vector<JudgedPage> pages_;
  std::vector<bool> label_;  // by page
  int64_t unreadable_ = 0, unlabelled_ = 0;
  std::map<std::string, std::vector<Prf>> results_;
};

Status Study::Init() {
  auto sdtp = SdtpScorer::Create(topic_, sdtp_options_);
  auto relevance = TopicRelevance::Create(topic_);
  if (!sdtp.ok()) return sdtp.status();
  if (!relevance.ok()) return relevance.status();
  sdtp_ = *sdtp;
  relevance_ = *relevance;
  for (const std::string name : kAblations) {
    std::optional<std::pair<SdtpOptions, bool>> row = AblationOptions(name, sdtp_options_);
    if (!row) continue;
    auto scorer = SdtpScorer::Create(topic_, row->first);
    if (!scorer.ok()) return scorer.status();
    ablations_.push_back({name, *scorer, row->second});
  }
  return Status::Ok();
}

Status Study::Run(const PageLabels& labels, std::FILE* out) {
  if (Status s = ReadPages(labels); !s.ok()) return s;
  size_t positives = 0;
  for (const auto& p : pages_) positives += p.relevant;
  std::fprintf(out,
               "pages %zu labelled (%zu relevant), %lld unlabelled, %lld unreadable; "
               "topic %s, train fraction %.2f\n",
               pages_.size(), positives, static_cast<long long>(unlabelled_),
               static_cast<long long>(unreadable_), topic_.name.c_str(),
               options_.train_fraction);
  if (pages_.size() < 10 || positives == 0 || positives == pages_.size()) {
    return Status::Error("need labelled pages of both classes");
  }
  out_dir_ = options_.out_dir.empty()
                 ? std::filesystem::temp_directory_path().string() + "/tda-judge"
                 : options_.out_dir;
  std::filesystem::create_directories(out_dir_);
  ListMethods();
  for (const JudgedPage& p : pages_) label_.push_back(p.relevant);
  for (int seed : options_.seeds) {
    if (Status s = RunSeed(seed, out); !s.ok()) return s;
  }
  PrintSummary(out);
  return Status::Ok();
}

// Reads, parses and tokenises every labelled page once.
Status Study::ReadPages(const PageLabels& labels) {
  std::unordered_set<std::string> seen_urls;
  for (const std::string& dir : options_.crawls) {
    auto rows = ReadPageRows(dir);
    if (!rows.ok()) return Status::Error(dir + ": " + rows.status().message());
    for (const CrawlPageRow& r : *rows) {
      if (options_.max_pages > 0 && static_cast<int>(pages_.size()) >= options_.max_pages) break;
      std::optional<bool> label = labels.Lookup(r.url);
      if (!label) {
        ++unlabelled_;
        continue;
      }
      if (!seen_urls.insert(labels.Canonical(r.url)).second) continue;
      auto parsed = ReadParsedPage(dir, r);
      if (!parsed.ok()) {
        ++unreadable_;
        continue;
      }
      AddPage(*parsed, r.url, *label);
    }
  }
  return Status::Ok();
}

void Study::AddPage(const ParsedPage& parsed, const std::string& url, bool relevant) {
  JudgedPage jp;
  jp.relevant = relevant;
  jp.url = url;
  jp.site = UrlHostPort(url);
  WeightedTokens w = sdtp_->Weigh(parsed);
  for (const std::string& t : w.tokens) jp.sdtp_tokens.push_back(words_.Id(t));
  jp.factors = std::move(w.factors);
  jp.sequence_end = static_cast<uint32_t>(w.sequence_end);
  for (const std::string& t : relevance_->Tokenize(PageText(parsed))) {
    jp.vsm_tokens.push_back(words_.Id(t));
  }
  pages_.push_back(std::move(jp));
}

void Study::ListMethods() {
  alt_method_ = sdtp_options_.training.center ? "sdtp-raw" : "sdtp-centred";
  methods_ = {"vsm", "static", "sdtp", alt_method_};
  for (const Ablation& a : ablations_) methods_.push_back(a.name);
  // Without eq. 8's tag and position factors (every token of the text once,
  // factor 1): what the HTML-tag weights add or cost.
  methods_.push_back("static-plain");
  methods_.push_back("sdtp-plain");
  methods_.push_back("doc-vec");
}

std::vector<std::string> Study::Strings(const std::vector<uint32_t>& ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (uint32_t id : ids) out.push_back(words_.words[id]);
  return out;
}

WeightedTokens Study::Weighted(const JudgedPage& p) const {
  WeightedTokens w;
  w.tokens = Strings(p.sdtp_tokens);
  w.factors = p.factors;
  w.sequence_end = p.sequence_end;
  return w;
}

// The stratified split: train_fraction of each class, shuffled by `seed`.
std::vector<bool> Study::SplitTrain(int seed) const {
  std::mt19937_64 rng(seed);
  std::vector<size_t> pos, neg;
  for (size_t i = 0; i < pages_.size(); ++i) (pages_[i].relevant ? pos : neg).push_back(i);
  std::vector<bool> train(pages_.size(), false);
  for (auto* group : {&pos, &neg}) {
    std::shuffle(group->begin(), group->end(), rng);
    const size_t k = static_cast<size_t>(std::llround(group->size() * options_.train_fraction));
    for (size_t j = 0; j < k; ++j) train[(*group)[j]] = true;
  }
  return train;
}

Status Study::RunSeed(int seed, std::FILE* out) {
  const std::vector<bool> train = SplitTrain(seed);
  StatusOr<SeedModel> model = Train(seed, train);
  if (!model.ok()) return model.status();
  Scores score = ScoreSeed(seed, *model, out);
  DumpScores(seed, train, &score);
  MeasureSeed(seed, train, score, out);
  std::fflush(out);  // long runs: show each seed as it ends
  return Status::Ok();
}

// Trains on the training pages: corpus, word vectors, VSM document
// frequencies.
StatusOr<SeedModel> Study::Train(int seed, const std::vector<bool>& train) {
  const std::string corpus_path = out_dir_ + "/corpus-" + std::to_string(seed) + ".txt";
  auto corpus = SdtpCorpus::Create(corpus_path);
  if (!corpus.ok()) return corpus.status();
  SeedModel m;
  auto df = std::make_shared<DocumentFrequencies>();
  m.vsm = *TopicRelevance::Create(topic_, {}, df);
  for (size_t i = 0; i < pages_.size(); ++i) {
    if (!train[i]) continue;
    (*corpus)->Add(Weighted(pages_[i]), pages_[i].relevant, pages_[i].site);
    m.vsm->ScorePage(Strings(pages_[i].vsm_tokens), /*observe=*/true);
  }
  if (Status flushed = (*corpus)->Flush(); !flushed.ok()) return flushed;
  auto vectors = Vectors(seed, corpus_path);
  if (!vectors.ok()) return vectors.status();
  // SDTP with the topic's choice of vectors (centred by default), and the
  // other choice as an ablation row.
  m.raw = *vectors;
  std::shared_ptr<const WordVectors> centred = WordVectors::Centered(*m.raw);
  m.model_vectors = sdtp_options_.training.center ? centred : m.raw;
  m.alt_vectors = sdtp_options_.training.center ? m.raw : centred;
  m.stats = (*corpus)->Stats();
  return m;
}

// The raw vectors of a seed: trained on its corpus, or with reuse_vectors
// those of an earlier run with the same out dir, pages and seed.
StatusOr<std::shared_ptr<const WordVectors>> Study::Vectors(
    int seed, const std::string& corpus_path) {
  WordVectorOptions wv = sdtp_options_.training;
  wv.seed = seed;
  wv.center = false;  // raw vectors once; the centred ones derive from them
  const std::string vectors_path = out_dir_ + "/vectors-" + std::to_string(seed) + ".bin";
  const bool stored = std::filesystem::exists(vectors_path);
  StatusOr<std::shared_ptr<const WordVectors>> vectors =
      options_.reuse_vectors && stored ? WordVectors::Load(vectors_path)
                                       : WordVectors::Train(corpus_path, wv);
  if (vectors.ok() && options_.reuse_vectors && !stored) {
    Status saved = (*vectors)->Save(vectors_path);
    if (!saved.ok()) std::fprintf(stderr, "tda judge: %s\n", saved.message().c_str());
  }
  return vectors;
}

// Scores every page with every method; prints the seed's DSV line and
// writes the DSVs.
Scores Study::ScoreSeed(int seed, const SeedModel& m, std::FILE* out) {
  Dsv dsv = sdtp_->BuildDsv(*m.model_vectors, m.stats);
  Dsv alt_dsv = sdtp_->BuildDsv(*m.alt_vectors, m.stats);
  std::fprintf(out, "seed %d: %zu words with vectors; DSV new terms (%zu; %s: %zu):", seed,
               m.model_vectors->size(), dsv.NewTerms(), alt_method_.c_str(), alt_dsv.NewTerms());
  for (const DsvTerm& t : dsv.terms) {
    if (!t.is_static) std::fprintf(out, " %s(%.2f)", t.term.c_str(), t.rd);
  }
  std::fprintf(out, "\n");
  const std::string suffix = std::to_string(seed) + ".tsv";
  WriteDsvTsv(dsv, out_dir_ + "/dsv-" + suffix);
  WriteDsvTsv(alt_dsv, out_dir_ + "/dsv-" + alt_method_ + "-" + suffix);
  Scores score;
  sdtp_->InstallModel(m.alt_vectors, std::move(alt_dsv));
  for (const JudgedPage& p : pages_) {
    score[alt_method_].push_back(sdtp_->ScoreWeighted(Weighted(p)).sim);
  }
  ScoreAblations(seed, m, &score);
  sdtp_->InstallModel(m.model_vectors, std::move(dsv));
  ScoreModelRows(m, &score);
  return score;
}

void Study::ScoreAblations(int seed, const SeedModel& m, Scores* score) {
  for (const Ablation& a : ablations_) {
    const std::shared_ptr<const WordVectors>& a_vectors =
        a.centred ? m.alt_vectors : m.model_vectors;
    Dsv a_dsv = a.scorer->BuildDsv(*a_vectors, m.stats);
    WriteDsvTsv(a_dsv,
                out_dir_ + "/dsv-" + a.name.substr(5) + "-" + std::to_string(seed) + ".tsv");
    a.scorer->InstallModel(a_vectors, std::move(a_dsv));
    for (const JudgedPage& p : pages_) {
      SdtpParts parts = a.scorer->ScoreWeighted(Weighted(p));
      (*score)[a.name].push_back(parts.sim);
      (*score)[a.name + ":dynamic"].push_back(parts.dynamic_sim);
    }
  }
}

// The rows of the installed model: vsm, static, sdtp (and its DynamicSim
// part), the plain rows and doc-vec.
void Study::ScoreModelRows(const SeedModel& m, Scores* score) {
  const std::vector<float> topic_vec = TopicVector(*m.raw);
  for (const JudgedPage& p : pages_) {
    (*score)["vsm"].push_back(m.vsm->Cosine(Strings(p.vsm_tokens)).cosine);
    WeightedTokens plain = Weighted(p);
    plain.tokens.resize(plain.sequence_end);
    plain.factors.assign(plain.sequence_end, 1.0f);
    SdtpParts plain_parts = sdtp_->ScoreWeighted(plain);
    (*score)["static-plain"].push_back(plain_parts.static_sim);
    (*score)["sdtp-plain"].push_back(plain_parts.sim);
    SdtpParts parts = sdtp_->ScoreWeighted(Weighted(p));
    (*score)["static"].push_back(parts.static_sim);
    (*score)["sdtp"].push_back(parts.sim);
    (*score)["dynamic"].push_back(parts.dynamic_sim);
    (*score)["doc-vec"].push_back(DocVec(p, *m.raw, topic_vec));
  }
}

// Doc2Vec stand-in: the topic's weighted keyword vector (raw vectors).
std::vector<float> Study::TopicVector(const WordVectors& v) const {
  std::vector<float> topic_vec(v.dim(), 0);
  for (const auto& [term, weight] : sdtp_->ontology()) {
    uint32_t id = v.Id(term);
    if (id == WordVectors::kNoWord) continue;
    auto row = v.Vector(id);
    for (int k = 0; k < v.dim(); ++k) topic_vec[k] += static_cast<float>(weight) * row[k];
  }
  return topic_vec;
}

// The cosine of the page's summed word vectors and the topic's, floored at 0.
double Study::DocVec(const JudgedPage& p, const WordVectors& v,
                                const std::vector<float>& topic_vec) {
  std::vector<float> doc(v.dim(), 0);
  for (uint32_t i = 0; i < p.sequence_end; ++i) {
    uint32_t id = v.Id(words_.words[p.sdtp_tokens[i]]);
    if (id == WordVectors::kNoWord) continue;
    auto row = v.Vector(id);
    for (int k = 0; k < v.dim(); ++k) doc[k] += row[k];
  }
  double dot = 0, nd = 0, nt = 0;
  for (int k = 0; k < v.dim(); ++k) {
    dot += double(doc[k]) * topic_vec[k];
    nd += double(doc[k]) * doc[k];
    nt += double(topic_vec[k]) * topic_vec[k];
  }
  return nd > 0 && nt > 0 ? std::max(0.0, dot / std::sqrt(nd * nt)) : 0;
}

// Per-page scores (for per-host precision / recall and the StaticSim /
// DynamicSim parts: docs/notebook/tda.md "Why SDTP stays below VSM on zh").
void Study::DumpScores(int seed, const std::vector<bool>& train, Scores* score) const {
  std::ofstream dump(out_dir_ + "/scores-" + std::to_string(seed) + ".tsv");
  std::vector<std::string> columns = methods_;
  columns.insert(columns.begin() + 3, "dynamic");
  for (const Ablation& a : ablations_) columns.push_back(a.name + ":dynamic");
  dump << "url\tsite\tlabel\ttrain";
  for (const std::string& c : columns) dump << '\t' << c;
  dump << '\n';
  for (size_t i = 0; i < pages_.size(); ++i) {
    dump << pages_[i].url << '\t' << pages_[i].site << '\t' << label_[i] << '\t' << train[i];
    for (const std::string& c : columns) dump << '\t' << (*score)[c][i];
    dump << '\n';
  }
}

// Each method's threshold from the training pages, measured on the test pages.
void Study::MeasureSeed(int seed, const std::vector<bool>& train,
                                   const Scores& score, std::FILE* out) {
  for (const std::string& m : methods_) {
    const std::vector<double>& s = score.at(m);
    std::vector<double> tr_s, te_s;
    std::vector<bool> tr_l, te_l;
    for (size_t i = 0; i < pages_.size(); ++i) {
      (train[i] ? tr_s : te_s).push_back(s[i]);
      (train[i] ? tr_l : te_l).push_back(label_[i]);
    }
    Prf r = Measure(te_s, te_l, BestThreshold(tr_s, tr_l));
    results_[m].push_back(r);
    std::fprintf(out, "  seed %d %-8s threshold %.4f  P %.3f  R %.3f  F1 %.3f\n", seed,
                 m.c_str(), r.threshold, r.p, r.r, r.f1);
  }
}

void Study::PrintSummary(std::FILE* out) const {
  std::fprintf(out,
               "method    precision        recall           F1   (test pages, mean ± sd over "
               "%zu seeds)\n",
               options_.seeds.size());
  const std::vector<Prf> none;
  for (const std::string& m : methods_) {
    auto it = results_.find(m);
    const std::vector<Prf>& v = it == results_.end() ? none : it->second;
    auto p = MeanSd(v, &Prf::p);
    auto r = MeanSd(v, &Prf::r);
    auto f = MeanSd(v, &Prf::f1);
    std::fprintf(out, "%-8s  %.3f ± %.3f    %.3f ± %.3f    %.3f ± %.3f\n", m.c_str(), p.first,
                 p.second, r.first, r.second, f.first, f.second);
  }
}

}  // namespace judge_study_internal

StatusOr<std::unique_ptr<JudgeStudy>> JudgeStudy::Create(const Topic& topic,
                                                         JudgeStudyOptions options) {
  auto sdtp_options = SdtpOptionsFromTopic(topic);
  if (!sdtp_options.ok()) return sdtp_options.status();
  auto impl =
      std::make_unique<judge_study_internal::Study>(topic, *sdtp_options, std::move(options));
  if (Status s = impl->Init(); !s.ok()) return s;
  return std::unique_ptr<JudgeStudy>(new JudgeStudy(std::move(impl)));
}

JudgeStudy::JudgeStudy(std::unique_ptr<judge_study_internal::Study> impl)
    : impl_(std::move(impl)) {}
JudgeStudy::~JudgeStudy() = default;

Status JudgeStudy::Run(const PageLabels& labels, std::FILE* out) {
  return impl_->Run(labels, out);
}

}  // namespace topicrawl::tda
