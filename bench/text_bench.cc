// Tokenise + score cost per page (seed 000 eq. 3-5), and Chinese
// segmentation / Traditional->Simplified speed.
//
// Pages: the two committed debian-handbook pages (bench/testdata/text), or
// every *.html under $TOPICRAWL_TEXT_BENCH_EN / $TOPICRAWL_TEXT_BENCH_ZH
// (e.g. python3.11-doc and debian-handbook zh-CN extracted into /tmp with
// apt-get download + dpkg-deb -x). Pages are parsed once before timing;
// the timed part is exactly what the parse pool adds after ParseHtml:
// tokenise the page text, observe DF, eq. 3-4, and (ScorePageAndLinks)
// eq. 5 for every outlink. Bytes/s counts the page text (title + text).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "bench_pages.h"
#include "scoring/relevance_link_scorer.h"
#include "scoring/relevance_scorer.h"
#include "text/tokenizer.h"
#include "text/word_segmenter.h"

namespace topicrawl {
namespace {

using Corpus = bench::BenchPages;
using bench::ReadAll;

const Corpus& English() { return bench::EnglishPages(); }
const Corpus& Chinese() { return bench::ChinesePages(); }

std::shared_ptr<TopicRelevance> Relevance(const char* topic_file) {
  auto r = TopicRelevance::Create(bench::LoadSharedTopic(topic_file));
  if (!r.ok()) std::abort();
  return *r;
}

void Report(benchmark::State& state, const Corpus& c, size_t pages_done) {
  const size_t n = c.pages.size();
  state.SetBytesProcessed(static_cast<int64_t>(pages_done / n * c.text_bytes));
  state.SetItemsProcessed(static_cast<int64_t>(pages_done));
  state.counters["pages"] = static_cast<double>(n);
  state.counters["html_KB/page"] = c.html_bytes / 1024.0 / n;
  state.counters["text_KB/page"] = c.text_bytes / 1024.0 / n;
}

void Tokenize(benchmark::State& state, const Corpus& c, const char* topic) {
  auto rel = Relevance(topic);
  size_t done = 0;
  std::vector<std::string> tokens;
  for (auto _ : state) {
    for (const std::string& text : c.texts) {
      tokens.clear();
      rel->tokenizer().Tokenize(text, &tokens);
      benchmark::DoNotOptimize(tokens.data());
    }
    done += c.texts.size();
  }
  Report(state, c, done);
}

void ScorePage(benchmark::State& state, const Corpus& c, const char* topic,
               bool links) {
  auto rel = Relevance(topic);
  RelevancePageScorer pages(rel);
  RelevanceLinkScorer link_scorer(rel);
  size_t done = 0;
  for (auto _ : state) {
    for (const ParsedPage& page : c.pages) {
      PageScore s = pages.Score(page);
      if (links) {
        for (const Outlink& l : page.links) {
          benchmark::DoNotOptimize(link_scorer.Score(l, {&s, nullptr, {}}).score);
        }
      }
      benchmark::DoNotOptimize(s.relevance);
    }
    done += c.pages.size();
  }
  Report(state, c, done);
}

void BM_TokenizeEnglish(benchmark::State& s) { Tokenize(s, English(), "dev-networking.txt"); }
void BM_TokenizeChinese(benchmark::State& s) { Tokenize(s, Chinese(), "zh-networking.txt"); }
void BM_ScorePageEnglish(benchmark::State& s) { ScorePage(s, English(), "dev-networking.txt", false); }
void BM_ScorePageChinese(benchmark::State& s) { ScorePage(s, Chinese(), "zh-networking.txt", false); }
void BM_ScorePageAndLinksEnglish(benchmark::State& s) { ScorePage(s, English(), "dev-networking.txt", true); }
void BM_ScorePageAndLinksChinese(benchmark::State& s) { ScorePage(s, Chinese(), "zh-networking.txt", true); }
BENCHMARK(BM_TokenizeEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TokenizeChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScorePageEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScorePageChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScorePageAndLinksEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScorePageAndLinksChinese)->Unit(benchmark::kMicrosecond);

// Raw segmentation speed on the SIGHAN PKU test text (Simplified news).
const std::string& PkuText() {
  static std::string text =
      ReadAll(TOPICRAWL_SHARED_DIR "/conformance/sighan2005/pku_test.utf8");
  return text;
}

void Segment(benchmark::State& state, const WordSegmenter& seg) {
  const std::string& text = PkuText();
  std::vector<std::string_view> words;
  for (auto _ : state) {
    words.clear();
    seg.Cut(text, &words);
    benchmark::DoNotOptimize(words.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void BM_SegmentJieba(benchmark::State& state) {
  JiebaOptions o;
  o.dict_path = DefaultJiebaDir() + "/jieba.dict.utf8";
  o.hmm_path = DefaultJiebaDir() + "/hmm_model.utf8";
  auto seg = NewJiebaSegmenter(o);
  if (!seg.ok()) return state.SkipWithError(seg.status().message().c_str());
  Segment(state, **seg);
}
void BM_SegmentIcu(benchmark::State& state) {
  auto seg = NewIcuSegmenter();
  Segment(state, **seg);
}
BENCHMARK(BM_SegmentJieba)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SegmentIcu)->Unit(benchmark::kMillisecond);

// The whole tokeniser (NFKC, tw2sp, jieba, stop words) on the same text.
void BM_TokenizePku(benchmark::State& state) {
  auto t = Tokenizer::Create({});
  if (!t.ok()) return state.SkipWithError(t.status().message().c_str());
  std::vector<std::string> tokens;
  for (auto _ : state) {
    tokens.clear();
    (*t)->Tokenize(PkuText(), &tokens);
    benchmark::DoNotOptimize(tokens.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * PkuText().size()));
}
BENCHMARK(BM_TokenizePku)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
