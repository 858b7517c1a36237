// topicrawl merge OUT DIR...: the crawl directories of a clustered crawl's
// workers as one crawl directory (cluster/crawl_merge.h).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cluster/crawl_merge.h"

namespace topicrawl::cli {

void AddMergeCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "merge", "Merge crawl directories (a clustered crawl's workers) into one: one pages row "
               "per URL, its latest ok fetch; WARC files referenced");
  auto out = std::make_shared<std::string>();
  auto dirs = std::make_shared<std::vector<std::string>>();
  cmd->add_option("OUT", *out, "New crawl directory")->required();
  cmd->add_option("DIR", *dirs, "Input crawl directories")->required();
  cmd->callback([out, dirs, exit_code] {
    auto stats = MergeCrawls(*out, *dirs);
    if (!stats.ok()) {
      std::cerr << "error: " << stats.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::printf("merged %zu crawls: %lld pages rows -> %lld pages (%lld ok), %lld WARC files -> %s\n",
                dirs->size(), static_cast<long long>(stats->input_rows),
                static_cast<long long>(stats->pages), static_cast<long long>(stats->ok),
                static_cast<long long>(stats->warc_files), out->c_str());
    *exit_code = kExitOk;
  });
}

}  // namespace topicrawl::cli
