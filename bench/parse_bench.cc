// Parse + extract throughput on real documentation HTML.
//
// Corpus: every *.html/*.htm file below $TOPICRAWL_BENCH_HTML (default
// /usr/share/doc). For the figures in the report the python3.11-doc package
// was unpacked outside the tree:
//   apt-get download python3.11-doc && dpkg-deb -x python3.11-doc_*.deb /tmp/py
//   TOPICRAWL_BENCH_HTML=/tmp/py/usr/share/doc/python3.11/html build/bench/parse_bench
// Bytes/s counts input HTML bytes.
#include <benchmark/benchmark.h>
#include <myhtml/api.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fetch/charset.h"
#include "parse/depth_limiter.h"
#include "parse/html_parser.h"

namespace topicrawl {
namespace {

struct Page {
  std::string url;
  std::string html;
};

const std::vector<Page>& Corpus() {
  static const std::vector<Page> pages = [] {
    std::vector<Page> out;
    const char* env = std::getenv("TOPICRAWL_BENCH_HTML");
    std::filesystem::path root = env ? env : "/usr/share/doc";
    std::error_code ec;
    size_t total = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(
             root, std::filesystem::directory_options::skip_permission_denied, ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const auto& p = it->path();
      if (!it->is_regular_file(ec)) continue;
      auto ext = p.extension().string();
      if (ext != ".html" && ext != ".htm") continue;
      std::ifstream in(p, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      std::string rel = std::filesystem::relative(p, root, ec).string();
      out.push_back({"https://docs.example.org/" + rel, ss.str()});
      total += out.back().html.size();
      if (total > 256u << 20) break;
    }
    return out;
  }();
  return pages;
}

size_t CorpusBytes() {
  size_t n = 0;
  for (const Page& p : Corpus()) n += p.html.size();
  return n;
}

// Arg 0: full extraction. Arg 1: without the two link-context forms
// (dom_delta 0, window 0), to show what the contexts cost.
void BM_ParseHtml(benchmark::State& state) {
  const auto& pages = Corpus();
  ParseOptions options;
  if (state.range(0) == 1) {
    options.dom_delta = 0;
    options.context_window_words = 0;
  } else if (state.range(0) == 2) {
    options.dom_delta = 0;
  } else if (state.range(0) == 3) {
    options.context_window_words = 0;
  }
  if (pages.empty()) {
    state.SkipWithError("no HTML found; set TOPICRAWL_BENCH_HTML");
    return;
  }
  size_t links = 0;
  for (auto _ : state) {
    for (const Page& p : pages) {
      ParsedPage page = ParseHtml(p.html, p.url, options);
      links += page.links.size();
      benchmark::DoNotOptimize(page);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
  state.counters["pages"] = static_cast<double>(pages.size());
  state.counters["links/page"] =
      static_cast<double>(links) / static_cast<double>(state.iterations() * pages.size());
  state.counters["pages/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * pages.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseHtml)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseHtml)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->Threads(2);

// The depth pre-pass alone (a tokenizer-level scan of every page).
void BM_LimitNestingDepth(benchmark::State& state) {
  const auto& pages = Corpus();
  std::string out;
  for (auto _ : state) {
    for (const Page& p : pages) benchmark::DoNotOptimize(LimitNestingDepth(p.html, 512, &out));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}
BENCHMARK(BM_LimitNestingDepth)->Unit(benchmark::kMillisecond);

// myhtml alone (tree building, no extraction): the ceiling for ParseHtml.
void BM_MyhtmlTreeOnly(benchmark::State& state) {
  const auto& pages = Corpus();
  myhtml_t* myhtml = myhtml_create();
  myhtml_init(myhtml, MyHTML_OPTIONS_PARSE_MODE_SINGLE, 1, 0);
  myhtml_tree_t* tree = myhtml_tree_create();
  myhtml_tree_init(tree, myhtml);
  for (auto _ : state) {
    for (const Page& p : pages) {
      myhtml_tree_clean(tree);
      myhtml_parse(tree, MyENCODING_UTF_8, p.html.data(), p.html.size());
    }
  }
  myhtml_tree_destroy(tree);
  myhtml_destroy(myhtml);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}
BENCHMARK(BM_MyhtmlTreeOnly)->Unit(benchmark::kMillisecond);

void BM_DecodeAndParse(benchmark::State& state) {
  const auto& pages = Corpus();
  if (pages.empty()) {
    state.SkipWithError("no HTML found; set TOPICRAWL_BENCH_HTML");
    return;
  }
  for (auto _ : state) {
    for (const Page& p : pages) {
      DecodedText d = DecodeToUtf8(p.html, "text/html");
      benchmark::DoNotOptimize(ParseHtml(d.utf8, p.url));
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}
BENCHMARK(BM_DecodeAndParse)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DecodeToUtf8(benchmark::State& state) {
  const auto& pages = Corpus();
  for (auto _ : state) {
    for (const Page& p : pages) benchmark::DoNotOptimize(DecodeToUtf8(p.html, ""));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}
BENCHMARK(BM_DecodeToUtf8)->Unit(benchmark::kMillisecond);

// The same Chinese text as GBK bytes, sized like a typical page (32 KiB):
// conversion plus detection cost when nothing is declared.
std::string GbkBody() {
  std::string unit =
      "\xb1\xa9\xd3\xea\xd4\xa4\xbe\xaf\xd0\xc5\xba\xc5\xbc\xb0\xb7\xc0\xd3\xf9"
      "\xd6\xb8\xc4\xcf <p>";  // 暴雨预警信号及防御指南 in GBK
  std::string body;
  while (body.size() < 32 * 1024) body += unit;
  return body;
}

// Declared GBK: validation + ICU conversion only.
void BM_DecodeGbkDeclared(benchmark::State& state) {
  std::string body = GbkBody();
  for (auto _ : state) benchmark::DoNotOptimize(DecodeToUtf8(body, "text/html; charset=gbk"));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}
BENCHMARK(BM_DecodeGbkDeclared);

void BM_DecodeGbkUndeclared(benchmark::State& state) {
  std::string body = GbkBody();
  for (auto _ : state) benchmark::DoNotOptimize(DecodeToUtf8(body, ""));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}
BENCHMARK(BM_DecodeGbkUndeclared);

void BM_ParseHostileNesting(benchmark::State& state) {
  std::string html;
  for (int i = 0; i < state.range(0); ++i) html += "<div>";
  html += "text";
  for (int i = 0; i < state.range(0); ++i) html += "</div>";
  for (auto _ : state) benchmark::DoNotOptimize(ParseHtml(html, "http://example.com/"));
}
BENCHMARK(BM_ParseHostileNesting)->Arg(40000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
