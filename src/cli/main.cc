// topicrawl: a focused (topical) web crawler. See README.md.
#include <sys/resource.h>

#include <iostream>
#include <string>

#include "cli/commands.h"
#include "cli/reference_command.h"

namespace {

// A crawl holds a socket per transfer in flight and per cached idle
// connection (1,024 by default) besides its store and WARC files. Debian's
// default soft limit on open files is 1,024 while the hard limit is far
// higher, so the soft limit is raised towards the hard one, at most to
// 65,536 (what servers such as nginx are told to do with
// worker_rlimit_nofile). A failure leaves the limit as it was: the fetcher
// then keeps its cache within a quarter of it.
void RaiseOpenFileLimit() {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0) return;
  const rlim_t want = files.rlim_max == RLIM_INFINITY || files.rlim_max > 65536
                          ? 65536
                          : files.rlim_max;
  if (files.rlim_cur != RLIM_INFINITY && files.rlim_cur < want) {
    files.rlim_cur = want;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
}

}  // namespace

int main(int argc, char** argv) {
  RaiseOpenFileLimit();
  CLI::App app{"topicrawl: a focused web crawler"};
  app.require_subcommand(1);
  int exit_code = topicrawl::cli::kExitOk;
  // The explicit command list; one line per subcommand.
  topicrawl::cli::AddVersionCommand(app, &exit_code);
  topicrawl::cli::AddCrawlCommand(app, &exit_code);
  topicrawl::cli::AddRecrawlCommand(app, &exit_code);
  topicrawl::cli::AddUrlCommand(app, &exit_code);
  topicrawl::cli::AddRobotsCommand(app, &exit_code);
  topicrawl::cli::AddFetchCommand(app, &exit_code);
  topicrawl::cli::AddParseCommand(app, &exit_code);
  topicrawl::cli::AddWebCommand(app, &exit_code);
  topicrawl::cli::AddScoreCommand(app, &exit_code);
  topicrawl::cli::AddWarcCommand(app, &exit_code);
  topicrawl::cli::AddEvalCommand(app, &exit_code);
  topicrawl::cli::AddCompareCommand(app, &exit_code);
  topicrawl::cli::AddExplainCommand(app, &exit_code);
  topicrawl::cli::AddCollectLinksCommand(app, &exit_code);
  topicrawl::cli::AddTrainCommand(app, &exit_code);
  topicrawl::cli::AddAnalyzeCommand(app, &exit_code);
  topicrawl::cli::AddHubCommands(app, &exit_code);  // after train + analyze
  topicrawl::cli::AddServeCommand(app, &exit_code);
  topicrawl::cli::AddIndexCommand(app, &exit_code);
  topicrawl::cli::AddSearchCommand(app, &exit_code);
  topicrawl::cli::AddExportCommand(app, &exit_code);
  topicrawl::cli::AddLabelCommand(app, &exit_code);
  topicrawl::cli::AddResultSvmCommand(app, &exit_code);  // after train
  topicrawl::cli::AddTdaCommand(app, &exit_code);
  topicrawl::cli::AddClusterCommand(app, &exit_code);
  topicrawl::cli::AddMergeCommand(app, &exit_code);
  topicrawl::cli::AddReferenceCommand(app, &exit_code);  // last
  // An unknown command is named as such (CLI11 alone would answer "A
  // subcommand is required", and `nosuch --help` would print the general
  // help and exit 0).
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->check_name(argv[1]);
      names += "  " + sub->get_name() + "\n";
    }
    if (!known) {
      std::cerr << "topicrawl: unknown command '" << argv[1] << "'\ncommands:\n"
                << names << "Run 'topicrawl --help' or 'topicrawl COMMAND --help' for details.\n";
      return topicrawl::cli::kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return topicrawl::cli::kExitUsage;
  }
  return exit_code;
}
