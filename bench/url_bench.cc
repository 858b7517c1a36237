// ResolveLink throughput on realistic base + href pairs: the mix a crawler
// sees on one page (path-relative, root-relative, protocol-relative,
// absolute, query/fragment-only, dot segments, percent-escapes, non-ASCII
// path, mailto/javascript rejects), ~100 links per base as in a real page.
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "url/url.h"

namespace {

const std::vector<std::string>& Bases() {
  static const std::vector<std::string> kBases = {
      "https://www.example.com/news/2024/05/article-12345.html",
      "http://blog.example.org/category/tech/page/2/",
      "https://zh.wikipedia.org/wiki/%E7%BD%91%E7%BB%9C%E7%88%AC%E8%99%AB",
  };
  return kBases;
}

const std::vector<std::string>& Hrefs() {
  static const std::vector<std::string> kHrefs = {
      "/", "/about", "/news/2024/05/other-article.html", "other.html",
      "../../04/older.html", "./img/photo.jpg", "?page=3", "#comments",
      "//cdn.example.net/static/app.js", "https://www.example.com/",
      "https://twitter.com/share?url=https%3A%2F%2Fwww.example.com%2Fnews&text=Hello%20world",
      "http://Example.COM:80/Path/To/Page?b=2&a=1#top", "/search?q=web+crawler&lang=en",
      "/wiki/%E7%88%AC%E8%99%AB", "/wiki/中文页面", "mailto:info@example.com",
      "javascript:void(0)", "/tag/c%2b%2b/", "  /trimmed/link  ", "/a/b/c/d/e/f/g.html",
      "https://sub.domain.example.co.uk/path/index.php?id=42&session=abcdef0123456789",
      "../%7Euser/home", "/category/news/page/2/?utm_source=feed&utm_medium=rss",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  };
  return kHrefs;
}

void BM_ResolveLink(benchmark::State& state) {
  const auto& bases = Bases();
  const auto& hrefs = Hrefs();
  size_t resolved = 0;
  for (auto _ : state) {
    // One "page": a base and 100 links against it.
    for (const std::string& base : bases) {
      for (int i = 0; i < 100; ++i) {
        auto r = topicrawl::ResolveLink(base, hrefs[i % hrefs.size()]);
        resolved += r.has_value();
        benchmark::DoNotOptimize(r);
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * bases.size() * 100);
  benchmark::DoNotOptimize(resolved);
}
BENCHMARK(BM_ResolveLink);

void BM_CanonicalizeUrl(benchmark::State& state) {
  const std::string url =
      "https://www.example.com/news/2024/05/../%7Eauthor/article.html?id=42#top";
  for (auto _ : state) benchmark::DoNotOptimize(topicrawl::CanonicalizeUrl(url));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CanonicalizeUrl);

}  // namespace

BENCHMARK_MAIN();
