// SDTP (seed 002) page scoring cost against VSM (seed 000 eq. 3-4), per
// page, on the committed debian-handbook pages (bench/testdata/text) or
// every *.html under $TOPICRAWL_TEXT_BENCH_EN / _ZH (as text_bench).
// Target (issue 14): SDTP adds <= 30 % CPU per page over VSM.
//
//   BM_Parse*   ParseHtml alone (the part of a page both pay)
//   BM_Vsm*     RelevancePageScorer::Score (tokenise PageText + eq. 3-4)
//   BM_Sdtp*    SdtpScorer::Score with word vectors installed: 100,000
//               words + every word of the pages, dim 64 (the default), a
//               DSV of the topic terms + 40 new terms (random vectors: the
//               cost does not depend on their values)
//   BM_SdtpNoVectors*  the same before any training (StaticSim only)
//   BM_SdtpTwoPass*    Weigh + ScoreWeighted, the tda strategy's path (it
//               keeps the tokens for training); the same scores as BM_Sdtp*
//   BM_SdtpWeigh*      SdtpScorer::Weigh alone (the first pass of BM_SdtpTwoPass*)
//   BM_SdtpJoined*     BM_SdtpTwoPass* with one tokeniser call a page
//               (join_fields) instead of one a field: the A/B of that choice
// Counters per page: tokens (VSM: of PageText; SDTP: Weigh's, extras
// included), field_bytes (the text of the fields each reads; SDTP tokenises
// an extra equal to an earlier field once), allocs (operator new calls).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <new>
#include <random>

#include "bench_pages.h"
#include "scoring/relevance_scorer.h"
#include "strategies/tda/sdtp_scorer.h"

// Every operator new of the process counted (single-threaded benches; a
// plain counter, so the count costs the same few cycles on both sides): the
// rows report allocations per page ("allocs"). ICU's and jieba's C
// allocations (malloc) are not operator new and not counted.
static uint64_t g_allocations = 0;
__attribute__((noinline)) void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
__attribute__((noinline)) void operator delete(void* p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace topicrawl {
namespace {

using Corpus = bench::BenchPages;
using bench::LoadSharedTopic;

const Corpus& English() { return bench::EnglishPages(); }
const Corpus& Chinese() { return bench::ChinesePages(); }

std::shared_ptr<SdtpScorer> Sdtp(const Corpus& c, const char* topic_file, bool vectors,
                                 bool join = false) {
  SdtpOptions options;
  options.join_fields = join;
  auto s = SdtpScorer::Create(LoadSharedTopic(topic_file), options);
  if (!s.ok()) std::abort();
  if (!vectors) return *s;
  std::vector<std::string> words;
  StringSet seen;
  for (const ParsedPage& p : c.pages) {
    for (const std::string& t : (*s)->Weigh(p).tokens) {
      if (seen.insert(t).second) words.push_back(t);
    }
  }
  for (int i = 0; i < 100000; ++i) words.push_back("filler" + std::to_string(i));
  const int dim = SdtpOptions{}.training.dim;
  std::mt19937 rng(1);
  std::normal_distribution<float> g;
  std::vector<float> rows(words.size() * dim);
  for (float& x : rows) x = g(rng);
  std::vector<float> idf(words.size(), 2.0f);
  auto wv = WordVectors::FromRows(words, std::move(rows), dim, std::move(idf), 1000);
  StringMap<TermStats> stats;
  Dsv dsv = (*s)->BuildDsv(*wv, stats);  // static terms
  for (uint32_t i = 0; i < 40 && i < words.size(); ++i) {
    dsv.terms.push_back({words[i], i, 0.3, 0.3, false});
    auto v = wv->Vector(i);
    for (int k = 0; k < dim; ++k) dsv.vector[k] += 0.3f * v[k];
  }
  (*s)->InstallModel(wv, std::move(dsv));
  return *s;
}

void Report(benchmark::State& state, const Corpus& c, size_t done,
            uint64_t allocations = 0) {
  state.SetItemsProcessed(static_cast<int64_t>(done));
  state.counters["pages"] = static_cast<double>(c.pages.size());
  if (done > 0 && allocations > 0) {
    state.counters["allocs"] = static_cast<double>(allocations) / static_cast<double>(done);
  }
}

// What a scorer reads, per page (not timed): tokens and the bytes of the
// fields, so that the rows compare like with like.
void Tokenised(benchmark::State& state, const Corpus& c, double tokens, double bytes) {
  const double n = std::max<size_t>(c.pages.size(), 1);
  state.counters["tokens"] = tokens / n;
  state.counters["field_bytes"] = bytes / n;
}

void Parse(benchmark::State& state, const Corpus& c) {
  size_t done = 0;
  for (auto _ : state) {
    for (const std::string& h : c.html) {
      ParsedPage p = ParseHtml(h, "http://localhost/page.html");
      benchmark::DoNotOptimize(p.text.data());
    }
    done += c.html.size();
  }
  Report(state, c, done);
}

void Vsm(benchmark::State& state, const Corpus& c, const char* topic) {
  auto rel = TopicRelevance::Create(LoadSharedTopic(topic));
  if (!rel.ok()) std::abort();
  RelevancePageScorer scorer(*rel);
  double tokens = 0, bytes = 0;
  for (const ParsedPage& p : c.pages) {
    const std::string text = PageText(p);
    tokens += static_cast<double>((*rel)->Tokenize(text).size());
    bytes += static_cast<double>(text.size());
  }
  Tokenised(state, c, tokens, bytes);
  size_t done = 0;
  const uint64_t allocations = g_allocations;
  for (auto _ : state) {
    for (const ParsedPage& p : c.pages) benchmark::DoNotOptimize(scorer.Score(p).relevance);
    done += c.pages.size();
  }
  Report(state, c, done, g_allocations - allocations);
}

// kScore: SdtpScorer::Score (one pass); kTwoPass: Weigh, then
// ScoreWeighted, as the tda strategy's Assess does (it keeps the tokens for
// the training corpus).
enum class Path { kScore, kTwoPass };

void Score(benchmark::State& state, const Corpus& c, const char* topic, bool vectors,
           bool join = false, Path path = Path::kScore) {
  auto s = Sdtp(c, topic, vectors, join);
  double tokens = 0, bytes = 0;
  for (const ParsedPage& p : c.pages) {
    tokens += static_cast<double>(s->Weigh(p).tokens.size());
    bytes += static_cast<double>(p.title.size() + p.keywords.size() + p.description.size());
    for (const std::string& b : p.text_blocks) bytes += static_cast<double>(b.size());
    const SdtpOptions& o = s->options();
    for (const std::string& h : p.headings) bytes += o.tag_heading != 1 ? h.size() : 0;
    for (const std::string& e : p.emphasis) bytes += o.tag_emphasis != 1 ? e.size() : 0;
    for (const Outlink& l : p.links) bytes += o.tag_anchor != 1 ? l.anchor.size() : 0;
  }
  Tokenised(state, c, tokens, bytes);
  size_t done = 0;
  const uint64_t allocations = g_allocations;
  for (auto _ : state) {
    for (const ParsedPage& p : c.pages) {
      if (path == Path::kScore) {
        benchmark::DoNotOptimize(s->Score(p).relevance);
      } else {
        benchmark::DoNotOptimize(s->ScoreWeighted(s->Weigh(p)).sim);
      }
    }
    done += c.pages.size();
  }
  Report(state, c, done, g_allocations - allocations);
}

// Weigh alone (eq. 8's tokens and factors, no lookups): the tokeniser part
// of BM_Sdtp*, against BM_Vsm*'s one Tokenize call a page.
void Weigh(benchmark::State& state, const Corpus& c, const char* topic) {
  auto s = Sdtp(c, topic, false);
  size_t done = 0;
  const uint64_t allocations = g_allocations;
  for (auto _ : state) {
    for (const ParsedPage& p : c.pages) benchmark::DoNotOptimize(s->Weigh(p).tokens.data());
    done += c.pages.size();
  }
  Report(state, c, done, g_allocations - allocations);
}

void BM_ParseEnglish(benchmark::State& s) { Parse(s, English()); }
void BM_ParseChinese(benchmark::State& s) { Parse(s, Chinese()); }
void BM_VsmEnglish(benchmark::State& s) { Vsm(s, English(), "dev-networking.txt"); }
void BM_VsmChinese(benchmark::State& s) { Vsm(s, Chinese(), "zh-networking.txt"); }
void BM_SdtpEnglish(benchmark::State& s) { Score(s, English(), "dev-networking.txt", true); }
void BM_SdtpChinese(benchmark::State& s) { Score(s, Chinese(), "zh-networking.txt", true); }
void BM_SdtpNoVectorsEnglish(benchmark::State& s) { Score(s, English(), "dev-networking.txt", false); }
void BM_SdtpNoVectorsChinese(benchmark::State& s) { Score(s, Chinese(), "zh-networking.txt", false); }
void BM_SdtpJoinedEnglish(benchmark::State& s) {
  Score(s, English(), "dev-networking.txt", true, true);
}
void BM_SdtpJoinedChinese(benchmark::State& s) {
  Score(s, Chinese(), "zh-networking.txt", true, true);
}
void BM_SdtpTwoPassEnglish(benchmark::State& s) {
  Score(s, English(), "dev-networking.txt", true, false, Path::kTwoPass);
}
void BM_SdtpTwoPassChinese(benchmark::State& s) {
  Score(s, Chinese(), "zh-networking.txt", true, false, Path::kTwoPass);
}
void BM_SdtpWeighEnglish(benchmark::State& s) { Weigh(s, English(), "dev-networking.txt"); }
void BM_SdtpWeighChinese(benchmark::State& s) { Weigh(s, Chinese(), "zh-networking.txt"); }
BENCHMARK(BM_ParseEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParseChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VsmEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VsmChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpNoVectorsEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpNoVectorsChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpTwoPassEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpTwoPassChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpWeighEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpWeighChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpJoinedEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpJoinedChinese)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
