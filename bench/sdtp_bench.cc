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
//   BM_SdtpJoined*     BM_Sdtp* with one tokeniser call a page
//               (join_fields) instead of one a field: the A/B of that choice
#include <benchmark/benchmark.h>

#include <random>

#include "bench_pages.h"
#include "scoring/relevance_scorer.h"
#include "scoring/sdtp_scorer.h"

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

void Report(benchmark::State& state, const Corpus& c, size_t done) {
  state.SetItemsProcessed(static_cast<int64_t>(done));
  state.counters["pages"] = static_cast<double>(c.pages.size());
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
  size_t done = 0;
  for (auto _ : state) {
    for (const ParsedPage& p : c.pages) benchmark::DoNotOptimize(scorer.Score(p).relevance);
    done += c.pages.size();
  }
  Report(state, c, done);
}

void Score(benchmark::State& state, const Corpus& c, const char* topic, bool vectors,
           bool join = false) {
  auto s = Sdtp(c, topic, vectors, join);
  size_t done = 0;
  for (auto _ : state) {
    for (const ParsedPage& p : c.pages) benchmark::DoNotOptimize(s->Score(p).relevance);
    done += c.pages.size();
  }
  Report(state, c, done);
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
BENCHMARK(BM_ParseEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParseChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VsmEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VsmChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpNoVectorsEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpNoVectorsChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpJoinedEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SdtpJoinedChinese)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
