// Main-text extraction (parse/main_content.h) on the HTML pages of crawls:
// throughput on one core, and a sample dumped for the comparison with
// Mozilla Readability (bench/readability_compare.mjs; docs/guides/export.md).
//
//   build/bench/main_text_bench --crawl DIR [--crawl DIR ...] [--sample N]
//       [--dump OUT] [--max-pages M]
//   build/bench/main_text_bench --files LIST [--sample N] [--dump OUT]
//
// LIST: lines "path<TAB>url<TAB>web" of HTML files (e.g. sampled from a
// benchmark web's root), decoded to UTF-8 like a fetched page with no
// charset in its Content-Type.
// Reads up to M (default 3000) ok HTML pages of each crawl from its WARC
// records (decoded to UTF-8, as `export --format text` does), then times
// ExtractMainContent over all of them on this thread (reading and decoding
// are not timed), three times, and prints pages/s and MB/s of the fastest
// pass by wall time and by this thread's CPU time.
// With --dump, N pages per crawl (every k-th, deterministic) are written as
// OUT/<i>.html (UTF-8) with OUT/list.tsv (i, url, crawl) and OUT/ours.jsonl
// ({i, url, web, found, text}).
#include <time.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "export/export_pages.h"
#include "fetch/charset.h"
#include "nlohmann/json.hpp"
#include "parse/main_content.h"
#include "store/crawl_db_reader.h"

namespace topicrawl {
namespace {

struct Page {
  std::string url, web, html;
};

int LoadCrawl(const std::string& dir, size_t max_pages, std::vector<Page>* pages) {
  auto db = CrawlDbReader::Open(dir);
  if (!db.ok()) {
    std::cerr << db.status().message() << "\n";
    return 1;
  }
  const std::string web = std::filesystem::path(dir).lexically_normal().filename().string();
  size_t n = 0;
  Status s = ForEachExportPage(**db, {}, [&](const ExportPage& p) {
    if (p.content_type.find("html") == std::string::npos) return true;
    auto body = ReadStoredResponseBody(dir, p.warc_file, p.warc_offset);
    if (!body.ok()) return true;
    pages->push_back({p.url, web, DecodeToUtf8(*body, p.content_type).utf8});
    return ++n < max_pages;
  });
  if (!s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  std::fprintf(stderr, "%s: %zu HTML pages\n", dir.c_str(), n);
  return 0;
}

int LoadFiles(const std::string& list, std::vector<Page>* pages) {
  std::ifstream in(list);
  if (!in) {
    std::cerr << "cannot read " << list << "\n";
    return 1;
  }
  for (std::string line; std::getline(in, line);) {
    const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) continue;
    std::ifstream f(line.substr(0, t1), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    pages->push_back({line.substr(t1 + 1, t2 - t1 - 1), line.substr(t2 + 1),
                      DecodeToUtf8(ss.str(), "").utf8});
  }
  std::fprintf(stderr, "%s: %zu HTML files\n", list.c_str(), pages->size());
  return 0;
}

void Dump(const std::vector<Page>& pages, size_t per_web, const std::string& out) {
  std::filesystem::create_directories(out);
  std::ofstream list(out + "/list.tsv"), ours(out + "/ours.jsonl");
  std::vector<std::string> webs;
  for (const Page& p : pages) {
    if (webs.empty() || webs.back() != p.web) webs.push_back(p.web);
  }
  int i = 0;
  for (const std::string& web : webs) {
    std::vector<const Page*> of;
    for (const Page& p : pages) {
      if (p.web == web) of.push_back(&p);
    }
    const size_t step = std::max<size_t>(1, of.size() / per_web);
    for (size_t k = 0; k < of.size() && k / step < per_web; k += step, ++i) {
      const Page& p = *of[k];
      std::ofstream(out + "/" + std::to_string(i) + ".html", std::ios::binary) << p.html;
      list << i << '\t' << p.url << '\t' << web << '\n';
      MainContent m = ExtractMainContent(p.html, p.url);
      nlohmann::ordered_json j = {{"i", i}, {"url", p.url}, {"web", web},
                                  {"found", m.found}, {"text", m.text}};
      ours << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
  }
  std::fprintf(stderr, "dumped %d pages to %s\n", i, out.c_str());
}

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// Wall and CPU seconds of one pass. The CPU time of this thread is what
// "pages/s on one core" means on a machine shared with other work (the wall
// time then also counts the time the thread waited for a core).
std::pair<double, double> TimePass(const std::vector<Page>& pages, size_t* found) {
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = ThreadCpuSeconds();
  *found = 0;
  for (const Page& p : pages) *found += ExtractMainContent(p.html, p.url).found;
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
          ThreadCpuSeconds() - c0};
}

}  // namespace
}  // namespace topicrawl

int main(int argc, char** argv) {
  std::vector<std::string> crawls;
  std::string dump, files;
  size_t sample = 100, max_pages = 3000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--crawl") crawls.push_back(argv[i + 1]);
    else if (a == "--dump") dump = argv[i + 1];
    else if (a == "--files") files = argv[i + 1];
    else if (a == "--sample") sample = std::stoul(argv[i + 1]);
    else if (a == "--max-pages") max_pages = std::stoul(argv[i + 1]);
  }
  if (crawls.empty() && files.empty()) {
    std::cerr << "usage: main_text_bench --crawl DIR [--crawl DIR] [--sample N] [--dump OUT]"
                 " [--max-pages M]\n";
    return 2;
  }
  std::vector<topicrawl::Page> pages;
  for (const std::string& c : crawls) {
    if (topicrawl::LoadCrawl(c, max_pages, &pages) != 0) return 1;
  }
  if (!files.empty() && topicrawl::LoadFiles(files, &pages) != 0) return 1;
  if (!dump.empty()) topicrawl::Dump(pages, sample, dump);
  size_t bytes = 0, found = 0;
  for (const auto& p : pages) bytes += p.html.size();
  double best = 1e100, best_cpu = 1e100;
  for (int pass = 0; pass < 3; ++pass) {
    const auto [wall, cpu] = topicrawl::TimePass(pages, &found);
    best = std::min(best, wall);
    best_cpu = std::min(best_cpu, cpu);
  }
  std::printf("pages %zu  bytes %.1f MB  found %zu  wall: seconds %.3f pages/s %.0f MB/s %.1f  "
              "cpu: seconds %.3f pages/s %.0f MB/s %.1f\n",
              pages.size(), bytes / 1e6, found, best, pages.size() / best, bytes / 1e6 / best,
              best_cpu, pages.size() / best_cpu, bytes / 1e6 / best_cpu);
  return 0;
}
