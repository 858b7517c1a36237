// The topicrawl command line: one Add*Command per subcommand, each in its own
// file (<name>_command.cc), registered explicitly in main.cc.
//
// Exit codes (documented in README):
//   0  success
//   1  runtime failure (I/O, server, crawl could not finish)
//   2  usage or configuration error (bad flag, bad config/seeds/topic file);
//      reported before any network activity
//   3  interrupted (SIGINT/SIGTERM); the crawl directory is resumable
#ifndef TOPICRAWL_CLI_COMMANDS_H_
#define TOPICRAWL_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace topicrawl::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInterrupted = 3;

// Each function adds one subcommand to `app`. When that subcommand is run,
// its callback stores the process exit code in *exit_code.
void AddVersionCommand(CLI::App& app, int* exit_code);
void AddExplainCommand(CLI::App& app, int* exit_code);
void AddCrawlCommand(CLI::App& app, int* exit_code);
void AddUrlCommand(CLI::App& app, int* exit_code);
void AddRobotsCommand(CLI::App& app, int* exit_code);
void AddFetchCommand(CLI::App& app, int* exit_code);
void AddParseCommand(CLI::App& app, int* exit_code);
void AddWebCommand(CLI::App& app, int* exit_code);
void AddScoreCommand(CLI::App& app, int* exit_code);
void AddWarcCommand(CLI::App& app, int* exit_code);
void AddEvalCommand(CLI::App& app, int* exit_code);
void AddCompareCommand(CLI::App& app, int* exit_code);
void AddCollectLinksCommand(CLI::App& app, int* exit_code);
void AddTrainCommand(CLI::App& app, int* exit_code);
void AddAnalyzeCommand(CLI::App& app, int* exit_code);
void AddRecrawlCommand(CLI::App& app, int* exit_code);
// Seed 003: collect-hubs, hub, train hub-svm, analyze hub / hub-table.
// REQUIRES: after AddTrainCommand and AddAnalyzeCommand.
void AddHubCommands(CLI::App& app, int* exit_code);
void AddServeCommand(CLI::App& app, int* exit_code);
void AddIndexCommand(CLI::App& app, int* exit_code);
void AddSearchCommand(CLI::App& app, int* exit_code);
void AddExportCommand(CLI::App& app, int* exit_code);
void AddLabelCommand(CLI::App& app, int* exit_code);
// `train result-svm` (seed 004). REQUIRES: after AddTrainCommand.
void AddResultSvmCommand(CLI::App& app, int* exit_code);
void AddTdaCommand(CLI::App& app, int* exit_code);
// Scale-out (docs/guides/scale-out.md): cluster status|stop|seeds, merge.
void AddClusterCommand(CLI::App& app, int* exit_code);
void AddMergeCommand(CLI::App& app, int* exit_code);

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_COMMANDS_H_
