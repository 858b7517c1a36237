// CrawlStore / WARC throughput (Google Benchmark; never run in CI).
//
//   build/bench/store_bench --benchmark_counters_tabular=true
//
// BM_AddPage/<links>/<body bytes>/<digests>/<ctx>: one AddPage() per
// iteration into a fresh crawl directory under $TMPDIR (default /tmp),
// default batching (200 ms), with `links` outlinks (~60-byte URLs, anchor,
// ~100-byte context), links/3 admitted frontier rows with random url_ids,
// and a synthetic body of `body bytes` (0 = a failure without response: no
// WARC records). ctx > 0 is the 20k-page dev-web bfs crawl of issue 2
// instead: contexts of `ctx` bytes, a real HTML body (bench/testdata/text),
// 4 admitted rows a page, URLs spread over 2,000 hosts. Page construction
// is excluded from the timing.
//
// Results, CPU time a page (2 shared cores, load ~2; before and ISA-L
// built from their commits with this file): before = aad6b1e (zlib level 1,
// links rowid table + index, 4 KiB pages, one row per INSERT); ISA-L =
// 67e6c81 (igzip level 1 straight into one reusable buffer); rows = links
// WITHOUT ROWID, 16 KiB pages, 64-row INSERTs (9e1a0f8, never shipped);
// JSON = schema 2 as shipped: a page's links as one JSON text (page_links)
// behind the `links` view:
//   links  body     digest  before   ISA-L    rows     JSON     p50 / p99 JSON
//   0      0        -       3.4 us            2.9 us
//   100    0        -                         106 us   65 us    35 us / 73 us
//   100    2 KB     sha1                      131 us
//   100    30 KB    -                         186 us
//   100    30 KB    sha1    354 us   256 us   198 us   151 us   106 us / 149 us
//   230    48 KB*   sha1    668 us   427 us   293 us   208 us   139 us / 208 us
// (* real HTML, ctx 44.) The row-layout steps on the 230-link case, one at a
// time: 16 KiB pages -50 us, WITHOUT ROWID -19 us, 64-row INSERTs -45 us
// (16-row: -24 us). BM_WarcAppend, 48 KB real HTML: igzip level 1 (zlib
// scale 1-2) 67 us (ratio 2.84; zlib level 1: 260 us, 2.85), level 2 (zlib
// 3-5) 74 us, level 3 (zlib 6-9) 127 us (2.97); SHA-1 ~1.9 GB/s. The
// synthetic Body() suits igzip less than real pages (ratio 1.8, zlib 3.1);
// on 2,000 dev-web pages igzip 1 beats zlib 1 (gzip_member.cc).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/hash.h"
#include "store/crawl_store.h"
#include "store/sha1.h"
#include "store/warc_writer.h"

namespace topicrawl {
namespace {

std::string TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") +
                      "/topicrawl_bench_XXXXXX";
  return ::mkdtemp(templ.data()) ? templ : std::string();
}

std::string Body(size_t bytes, std::mt19937_64& rng) {
  // HTML-ish text that compresses like real pages (~4-5x), not like zeros.
  static const char* kWords[] = {"crawler", "focused", "<p>", "</p>", "topic",
                                 "relevance", "link", "page", "the", "of",
                                 "and", "<a href=\"/x\">", "</a>", "web"};
  std::string out = "<html><body>";
  while (out.size() < bytes) {
    out += kWords[rng() % 14];
    out += (rng() % 7 == 0) ? std::to_string(rng() % 100000) : " ";
  }
  out.resize(bytes);
  return out;
}

// `bytes` of real HTML: the two committed debian-handbook pages
// (bench/testdata/text, 67 KB together) concatenated, so bodies up to 67 KB
// never repeat inside deflate's 32 KB window. Falls back to Body() when the
// files are missing.
std::string RealHtml(size_t bytes, std::mt19937_64& rng) {
  std::string out;
  for (const char* name : {"handbook-en-network-config.html",
                           "handbook-zh-cn-network-config.html"}) {
    std::ifstream in(std::string(TOPICRAWL_SOURCE_DIR "/bench/testdata/text/") +
                     name);
    std::stringstream ss;
    ss << in.rdbuf();
    out += ss.str();
  }
  if (out.size() < bytes) return Body(bytes, rng);
  out.resize(bytes);
  return out;
}

PageRecord TemplatePage(int links, size_t body_bytes, std::mt19937_64& rng,
                        size_t context_bytes = 0, bool real_html = false) {
  PageRecord p;
  p.status = body_bytes ? FetchStatus::kOk : FetchStatus::kTimeout;
  p.http_code = body_bytes ? 200 : 0;
  p.content_type = "text/html; charset=utf-8";
  p.charset = "UTF-8";
  p.fetched_at = 1'700'000'000'000;
  p.depth = 3;
  p.parent_id = 17;
  p.anchor = "focused crawling survey";
  p.relevance = 0.42;
  p.link_score = 0.37;
  p.title = "A page about focused crawling";
  p.explanation = "bm25=3.2 cos=0.41";
  if (body_bytes > 0) {
    p.request_head = "GET /some/path/page.html HTTP/1.1\r\nHost: www.example.com"
                     "\r\nUser-Agent: topicrawl/0.1\r\nAccept: */*\r\n"
                     "Accept-Encoding: gzip, br\r\n\r\n";
    p.response_head = "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Tue, 14 Nov "
                      "2023 22:13:20 GMT\r\nContent-Type: text/html; "
                      "charset=utf-8\r\nContent-Encoding: gzip\r\n"
                      "Transfer-Encoding: chunked\r\nETag: \"abc\"\r\n\r\n";
    p.body = real_html ? RealHtml(body_bytes, rng) : Body(body_bytes, rng);
    p.remote_ip = "127.0.0.1";
  }
  for (int i = 0; i < links; ++i) {
    std::string context = "neighbouring anchors: survey of topical crawlers, "
                          "best-first search, context graphs " +
                          std::to_string(i);
    if (context_bytes > 0) context.resize(context_bytes, ' ');
    p.links.push_back(
        {"https://www.example" + std::to_string(i % 17) +
             ".com/articles/2023/11/focused-crawling-" + std::to_string(i),
         "focused crawling part " + std::to_string(i), std::move(context),
         0.01 * i, "a=0.5 c=0.2 u=0.3"});
  }
  return p;
}

void BM_AddPage(benchmark::State& state) {
  const int links = static_cast<int>(state.range(0));
  const size_t body = static_cast<size_t>(state.range(1));
  // ctx > 0: issue 2's dev-web crawl profile instead of the synthetic one:
  // contexts of `ctx` bytes and a real HTML body (bench/testdata/text).
  const size_t context_bytes = static_cast<size_t>(state.range(3));
  std::mt19937_64 rng(1);
  const PageRecord tmpl =
      TemplatePage(links, body, rng, context_bytes, context_bytes > 0);
  const std::string root = TempDir();
  CrawlStoreOptions options;
  options.warc.payload_digest = state.range(2) != 0;
  if (const char* rows = std::getenv("MERGE_ROWS")) {
    options.frontier_merge_rows = std::atoll(rows);  // mid-crawl merges
  }
  auto store = CrawlStore::Open(root + "/crawl", OpenMode::kCreate, options);
  if (!store.ok()) {
    state.SkipWithError(store.status().message().c_str());
    return;
  }
  int64_t k = 0;
  std::vector<double> latencies;
  latencies.reserve(state.max_iterations);
  for (auto _ : state) {
    state.PauseTiming();
    PageRecord page = tmpl;
    ++k;
    // Realistic profile: URLs spread over many hosts, so pages_url index
    // inserts land on random B-tree pages as in a crawl.
    page.url = context_bytes > 0
                   ? "https://h" + std::to_string(Hash64(std::to_string(k)) % 2000) +
                         ".example.com/p/" + std::to_string(k)
                   : "https://www.example.com/p/" + std::to_string(k);
    page.url_id = Hash64(page.url);
    page.final_url = page.url;
    // Admitted rows: links/3 (synthetic), or ~4 a page as in the dev-web
    // crawl (73k frontier rows for 20k pages).
    const int admitted = context_bytes > 0 ? 4 : links / 3;
    for (int i = 0; i < admitted; ++i) {
      page.admitted.push_back({rng(), page.links[i].to_url + "?k=" +
                                          std::to_string(k),
                               4, k, page.links[i].anchor, 0.5, "", 0});
    }
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    if (!(*store)->AddPage(std::move(page)).ok()) {
      state.SkipWithError("AddPage failed");
      break;
    }
    latencies.push_back(std::chrono::duration<double, std::micro>(
                            std::chrono::steady_clock::now() - start)
                            .count());
  }
  std::sort(latencies.begin(), latencies.end());
  if (!latencies.empty()) {
    state.counters["p50_us"] = latencies[latencies.size() / 2];
    state.counters["p99_us"] = latencies[latencies.size() * 99 / 100];
    state.counters["max_ms"] = latencies.back() / 1000;
  }
  const auto close_start = std::chrono::steady_clock::now();
  if (!(*store)->Close().ok()) state.SkipWithError("Close failed");
  state.counters["close_s"] = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - close_start)
                                  .count();
  state.counters["pages/s"] =
      benchmark::Counter(static_cast<double>(k), benchmark::Counter::kIsRate);
  state.counters["links/s"] = benchmark::Counter(
      static_cast<double>(k) * links, benchmark::Counter::kIsRate);
  state.counters["MB/s body"] = benchmark::Counter(
      static_cast<double>(k) * body / 1e6, benchmark::Counter::kIsRate);
  std::filesystem::remove_all(root);
}
BENCHMARK(BM_AddPage)
    ->ArgNames({"links", "body", "digests", "ctx"})
    ->Args({0, 0, 0, 0})
    ->Args({100, 0, 0, 0})
    ->Args({100, 2000, 1, 0})
    ->Args({100, 30000, 0, 0})
    ->Args({100, 30000, 1, 0})
    // The 20k-page bfs crawl of the dev web (issue 2): 48 KB HTML pages,
    // ~230 links rows a page with ~44-byte contexts.
    ->Args({230, 48000, 1, 44})
    ->Iterations(20000)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// The WARC writer alone: one response+request+metadata group per iteration.
void BM_WarcAppend(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const size_t body_bytes = static_cast<size_t>(state.range(0));
  // Bodies in turn: with WARC_BENCH_PAGES=DIR the first 512 .html files of
  // at least 8 KB below DIR (e.g. a built web's root/: real pages, real
  // compression ratios), else 64 generated ones (one body repeated would let
  // zstd's dictionary match whole records).
  std::vector<std::string> bodies;
  if (const char* dir = std::getenv("WARC_BENCH_PAGES"); dir != nullptr && state.range(3)) {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         it != std::filesystem::recursive_directory_iterator() && bodies.size() < 512;
         it.increment(ec)) {
      if (it->path().extension() != ".html" || it->file_size(ec) < 8192) continue;
      std::ifstream in(it->path(), std::ios::binary);
      bodies.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  for (int i = 0; bodies.empty() && i < 64; ++i) {
    bodies.push_back(state.range(3) ? RealHtml(body_bytes, rng) : Body(body_bytes, rng));
  }
  size_t total_bytes = 0;  // of the iterations, counted as they run
  WarcOptions options;
  options.compression_level = static_cast<int>(state.range(1));
  options.payload_digest = state.range(2) != 0;
  if (state.range(4) != 0) {  // zstd at that level, its dictionary in every file after the first
    options.compression = WarcCompression::kZstd;
    options.zstd_level = static_cast<int>(state.range(4));
  }
  // Small files, so that zstd's later files use the dictionary trained on the
  // first one (the same for gzip, for a fair comparison).
  options.max_file_bytes = uint64_t{8} << 20;
  const std::string root = TempDir();
  auto writer = WarcWriter::New(root, 1, options, SystemClock());
  std::vector<WarcRecord> group(3);
  group[0].type = "response";
  group[0].block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  group[0].suffix_is_payload = true;
  group[1].type = "request";
  group[1].block = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
  group[2].type = "metadata";
  group[2].block = "relevance: 0.5\r\ndepth: 3\r\noutlinks: 100\r\n";
  size_t next = 0;
  for (auto _ : state) {
    group[0].block_suffix = bodies[next++ % bodies.size()];
    total_bytes += group[0].block_suffix.size();
    if (!writer->Append(group).ok()) state.SkipWithError("Append failed");
  }
  (void)writer->Flush();
  state.SetBytesProcessed(static_cast<int64_t>(total_bytes));
  writer.reset();
  uintmax_t on_disk = 0;
  for (const auto& e : std::filesystem::directory_iterator(root)) on_disk += e.file_size();
  state.counters["ratio"] = static_cast<double>(total_bytes) / static_cast<double>(on_disk);
  std::filesystem::remove_all(root);
}
BENCHMARK(BM_WarcAppend)
    ->ArgNames({"body", "level", "digests", "html", "zstd"})
    ->Args({30000, 1, 0, 0, 0})
    ->Args({30000, 1, 1, 0, 0})
    ->Args({30000, 3, 0, 0, 0})
    ->Args({30000, 6, 0, 0, 0})
    ->Args({48000, 1, 0, 1, 0})
    ->Args({48000, 3, 0, 1, 0})
    ->Args({48000, 6, 0, 1, 0})
    // --warc-compression zstd (level 3, the default) and a faster level.
    ->Args({48000, 1, 0, 1, 3})
    ->Args({48000, 1, 0, 1, 1})
    ->Unit(benchmark::kMicrosecond);

void BM_Sha1(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const std::string body = Body(30000, rng);
  for (auto _ : state) benchmark::DoNotOptimize(WarcSha1Digest(body));
  state.SetBytesProcessed(state.iterations() * body.size());
}
BENCHMARK(BM_Sha1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
