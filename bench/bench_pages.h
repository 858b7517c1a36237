// The page fixtures shared by the text benches (text_bench, sdtp_bench):
// the two committed debian-handbook pages (bench/testdata/text), or every
// *.html under a directory named by an environment variable
// ($TOPICRAWL_TEXT_BENCH_EN / _ZH), read and parsed once before timing, and
// the shared corpus topics by file name. Header-only: each bench is one
// translation unit.
#ifndef TOPICRAWL_BENCH_BENCH_PAGES_H_
#define TOPICRAWL_BENCH_BENCH_PAGES_H_

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "parse/html_parser.h"
#include "scoring/relevance_scorer.h"  // PageText
#include "text/topic.h"

namespace topicrawl::bench {

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct BenchPages {
  std::vector<std::string> html;
  std::vector<ParsedPage> pages;
  std::vector<std::string> texts;  // PageText(pages[i])
  size_t html_bytes = 0;
  size_t text_bytes = 0;
};

// Every *.html under $env (sorted), else the committed fixture file.
inline BenchPages LoadBenchPages(const char* env, const char* fixture) {
  BenchPages c;
  std::vector<std::string> files;
  const char* dir = std::getenv(env);
  if (dir && *dir) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.path().extension() == ".html") files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(std::string(TOPICRAWL_SOURCE_DIR "/bench/testdata/text/") + fixture);
  }
  for (const std::string& f : files) {
    c.html.push_back(ReadAll(f));
    c.html_bytes += c.html.back().size();
    c.pages.push_back(ParseHtml(c.html.back(), "http://localhost/page.html"));
    c.texts.push_back(PageText(c.pages.back()));
    c.text_bytes += c.texts.back().size();
  }
  return c;
}

inline const BenchPages& EnglishPages() {
  static BenchPages c =
      LoadBenchPages("TOPICRAWL_TEXT_BENCH_EN", "handbook-en-network-config.html");
  return c;
}
inline const BenchPages& ChinesePages() {
  static BenchPages c =
      LoadBenchPages("TOPICRAWL_TEXT_BENCH_ZH", "handbook-zh-cn-network-config.html");
  return c;
}

// A topic of ../shared/corpus/topics by file name; aborts when unreadable
// (a bench without its topic measures nothing).
inline Topic LoadSharedTopic(const char* file) {
  auto t = LoadTopicFile(std::string(TOPICRAWL_SHARED_DIR "/corpus/topics/") + file);
  if (!t.ok()) std::abort();
  return *t;
}

}  // namespace topicrawl::bench

#endif  // TOPICRAWL_BENCH_BENCH_PAGES_H_
