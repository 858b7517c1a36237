// `topicrawl reference commands|config` (docs/reference/, written by
// scripts/gen-reference).
#ifndef TOPICRAWL_CLI_REFERENCE_COMMAND_H_
#define TOPICRAWL_CLI_REFERENCE_COMMAND_H_

#include <CLI/CLI.hpp>

namespace topicrawl::cli {

// Adds `reference`. REQUIRES: added last, so that it lists every other
// command. When run, its callback stores the exit code in *exit_code.
void AddReferenceCommand(CLI::App& app, int* exit_code);

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_REFERENCE_COMMAND_H_
