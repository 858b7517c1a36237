// topicrawl search DIR... QUERY: full-text search (BM25) over a crawl's index.
// Several directories (a clustered crawl's workers) are one crawl, read as
// `topicrawl merge` joins them (cluster/crawl_view.h); that merged view has
// no index yet, so one is built for the call (a temporary one: for many
// queries, `topicrawl merge OUT DIR...` and `topicrawl index OUT` once).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cluster/crawl_view.h"
#include "search/search_index.h"

namespace topicrawl::cli {
namespace {

struct SearchFlags {
  std::vector<std::string> args;  // DIR... then the query words
  std::string dir;
  std::vector<std::string> words;
  bool relevant = false;
  std::string host;
  int64_t round = -1;
  size_t limit = 10;
  bool json = false;
};

std::string Highlight(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\x01') out += "[";
    else if (c == '\x02') out += "]";
    else out.push_back(c);
  }
  return out;
}

int RunSearch(SearchFlags& f) {
  // The leading arguments that hold a crawl are its directories.
  std::vector<std::string> dirs;
  size_t i = 0;
  for (; i < f.args.size(); ++i) {
    std::error_code ec;
    if (!std::filesystem::exists(f.args[i] + "/crawl.db", ec)) break;
    dirs.push_back(f.args[i]);
  }
  f.words.assign(f.args.begin() + static_cast<std::ptrdiff_t>(i), f.args.end());
  if (dirs.empty() || f.words.empty()) {
    std::cerr << "error: usage: search DIR... QUERY (" << (dirs.empty() ? "'" + f.args[0] +
                 "' is not a crawl directory" : std::string("no query words")) << ")\n";
    return kExitUsage;
  }
  auto view = CrawlView::Open(dirs);
  if (!view.ok()) {
    std::cerr << "error: " << view.status().message() << "\n";
    return kExitFailure;
  }
  f.dir = (*view)->dir();
  if ((*view)->merged()) {
    auto built = IndexNewPages(f.dir, IndexOptions{});
    if (!built.ok()) {
      std::cerr << "error: indexing the merged view: " << built.status().message() << "\n";
      return kExitFailure;
    }
    std::fprintf(stderr, "indexed the %zu directories' %lld pages as one crawl\n", dirs.size(),
                 static_cast<long long>(built->indexed));
  }
  auto index = SearchIndex::Open(f.dir);
  if (!index.ok()) {
    std::cerr << "error: " << index.status().message() << "\n";
    return kExitFailure;
  }
  SearchQuery q;
  for (const auto& w : f.words) q.q += (q.q.empty() ? "" : " ") + w;
  q.relevant_only = f.relevant;
  q.host = f.host;
  if (f.round >= 0) q.round = f.round;
  q.limit = f.limit;
  auto r = (*index)->Search(q);
  if (!r.ok()) {
    std::cerr << "error: " << r.status().message() << "\n";
    return kExitUsage;
  }
  std::printf("%llu matches (estimated) among %lld pages, %.1f ms\n",
              static_cast<unsigned long long>(r->estimated_matches),
              static_cast<long long>(r->indexed_docs), r->seconds * 1000);
  int rank = 0;
  for (const SearchHit& h : r->hits) {
    std::printf("%2d. [%lld] %.3f  %s\n    %s\n    %s\n", ++rank, static_cast<long long>(h.id),
                h.score, h.title.c_str(), h.url.c_str(), Highlight(h.snippet).c_str());
  }
  return kExitOk;
}

}  // namespace

void AddSearchCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<SearchFlags>();
  auto* cmd = app.add_subcommand(
      "search", "Full-text search over a crawl (needs `topicrawl index DIR` or crawl --index; "
                "several directories are indexed for the call)");
  cmd->add_option("DIR... QUERY", flags->args,
                  "Crawl directory, or several (a clustered crawl's workers, read as one crawl: "
                  "one row per URL, as `topicrawl merge`; indexed for the call), then the query "
                  "words (English or Chinese)")
      ->required();
  cmd->add_flag("--relevant", flags->relevant, "Only pages judged relevant");
  cmd->add_option("--host", flags->host, "Only pages of this host[:port]");
  cmd->add_option("--round", flags->round, "Only pages of this incremental round");
  cmd->add_option("--limit", flags->limit, "Results (default 10)")->check(CLI::Range(1, 1000));
  cmd->callback([flags, exit_code] { *exit_code = RunSearch(*flags); });
}

}  // namespace topicrawl::cli
