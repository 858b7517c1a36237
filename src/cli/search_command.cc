// topicrawl search DIR QUERY: full-text search (BM25) over a crawl's index.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "search/search_index.h"

namespace topicrawl::cli {
namespace {

struct SearchFlags {
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

int RunSearch(const SearchFlags& f) {
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
      "search", "Full-text search over a crawl (needs `topicrawl index DIR` or crawl --index)");
  cmd->add_option("DIR", flags->dir, "Crawl directory")->required();
  cmd->add_option("QUERY", flags->words, "Query words (English or Chinese)")->required();
  cmd->add_flag("--relevant", flags->relevant, "Only pages judged relevant");
  cmd->add_option("--host", flags->host, "Only pages of this host[:port]");
  cmd->add_option("--round", flags->round, "Only pages of this incremental round");
  cmd->add_option("--limit", flags->limit, "Results (default 10)")->check(CLI::Range(1, 1000));
  cmd->callback([flags, exit_code] { *exit_code = RunSearch(*flags); });
}

}  // namespace topicrawl::cli
