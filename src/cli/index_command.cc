// topicrawl index DIR: build (or bring up to date) the full-text search index
// DIR/search of a crawl (search/search_index.h).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "search/search_index.h"

namespace topicrawl::cli {

void AddIndexCommand(CLI::App& app, int* exit_code) {
  auto dir = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "index", "Build or update the full-text search index (DIR/search, Xapian) of a crawl");
  auto positions = std::make_shared<bool>(false);
  auto no_compact = std::make_shared<bool>(false);
  cmd->add_option("DIR", *dir, "Crawl directory")->required();
  cmd->add_flag("--positions", *positions,
                "Keep word positions (phrase and NEAR queries; about doubles the index). "
                "Only when the index is created");
  cmd->add_flag("--no-compact", *no_compact,
                "Do not compact the index afterwards (compaction halves an incrementally built "
                "index)");
  cmd->callback([dir, positions, no_compact, exit_code] {
    const auto start = std::chrono::steady_clock::now();
    IndexOptions options;
    options.positions = *positions;
    options.batch = 2000;
    options.on_commit = [](const IndexProgress& p) {
      std::fprintf(stderr, "\r%lld pages indexed (up to page %lld)", static_cast<long long>(p.indexed),
                   static_cast<long long>(p.last_page_id));
    };
    auto r = IndexNewPages(*dir, options);
    std::fprintf(stderr, "\n");
    if (!r.ok()) {
      std::cerr << "error: " << r.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    if (!*no_compact && r->indexed > 0) {
      std::fprintf(stderr, "compacting %s\n", SearchIndexPath(*dir).c_str());
      Status c = CompactSearchIndex(*dir);
      if (!c.ok()) {
        std::cerr << "error: " << c.message() << "\n";
        *exit_code = kExitFailure;
        return;
      }
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("indexed %lld pages (%lld unreadable) in %.1f s; index %s: %.1f MB\n",
                static_cast<long long>(r->indexed), static_cast<long long>(r->unreadable), s,
                SearchIndexPath(*dir).c_str(), SearchIndexBytes(*dir) / 1e6);
    *exit_code = kExitOk;
  });
}

}  // namespace topicrawl::cli
