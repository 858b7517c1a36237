// Runs a child process to completion (posix_spawn + waitpid), with stdout
// and stderr appended to a log file. Used by `topicrawl compare` to run the
// same binary's `crawl` subcommand once per (strategy, seed).
#ifndef TOPICRAWL_EVAL_PROCESS_RUNNER_H_
#define TOPICRAWL_EVAL_PROCESS_RUNNER_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

// argv[0] is the program path (not searched in PATH). Returns OK when the
// child exits with status 0; otherwise an error naming the exit code or the
// signal and the log file. Fails without running anything when argv is
// empty or the log file cannot be opened.
Status RunProcess(const std::vector<std::string>& argv, const std::string& log_path);

// Splits a command-line fragment into words: whitespace separates words,
// single and double quotes group, backslash escapes the next character
// outside single quotes. Fails on an unterminated quote.
StatusOr<std::vector<std::string>> SplitShellWords(const std::string& text);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_PROCESS_RUNNER_H_
