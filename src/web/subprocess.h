// Running external programs (apt-get, dpkg-deb, openssl, nginx) without a
// shell: argv is passed as-is, so file names never need quoting.
#ifndef TOPICRAWL_WEB_SUBPROCESS_H_
#define TOPICRAWL_WEB_SUBPROCESS_H_

#include <string>
#include <vector>

namespace topicrawl::web {

struct RunOptions {
  std::string cwd;           // empty = inherit
  // Empty: the child's stdout and stderr both go to our stderr (so our own
  // stdout stays reserved for machine-readable lines). Otherwise both are
  // written to this file (truncated), which RunCommand() reads back into `output`.
  std::string capture_path;
};

struct RunResult {
  bool started = false;  // false: fork/exec failed (see `output`)
  int exit_code = -1;    // 128+signal when killed by a signal
  std::string output;    // captured stdout+stderr when capture_path was set
  bool ok() const { return started && exit_code == 0; }
};

// Runs argv[0] (searched in PATH) and waits for it. Never throws.
RunResult RunCommand(const std::vector<std::string>& argv, const RunOptions& options = {});

// Options capturing output to `capture_path`, optionally running in `cwd`.
RunOptions Captured(std::string capture_path, std::string cwd = {});

// "a b 'c d'" for messages.
std::string JoinArgv(const std::vector<std::string>& argv);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_SUBPROCESS_H_
