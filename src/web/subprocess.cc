#include "web/subprocess.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace topicrawl::web {

RunResult RunCommand(const std::vector<std::string>& argv, const RunOptions& options) {
  RunResult result;
  if (argv.empty()) {
    result.output = "empty command";
    return result;
  }
  int out_fd = STDERR_FILENO;
  if (!options.capture_path.empty()) {
    out_fd = ::open(options.capture_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0) {
      result.output = "cannot open " + options.capture_path + ": " + std::strerror(errno);
      return result;
    }
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    result.output = std::string("fork failed: ") + std::strerror(errno);
    if (out_fd != STDERR_FILENO) ::close(out_fd);
    return result;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    if (out_fd != STDERR_FILENO) ::dup2(out_fd, STDERR_FILENO);
    if (!options.cwd.empty() && ::chdir(options.cwd.c_str()) != 0) _exit(126);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  if (out_fd != STDERR_FILENO) ::close(out_fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.output = std::string("waitpid failed: ") + std::strerror(errno);
      return result;
    }
  }
  result.started = true;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    if (result.exit_code == 127) result.output = "cannot execute " + argv[0] + "\n";
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  if (!options.capture_path.empty()) {
    std::ifstream in(options.capture_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    result.output += text.str();
  }
  return result;
}

RunOptions Captured(std::string capture_path, std::string cwd) {
  RunOptions o;
  o.cwd = std::move(cwd);
  o.capture_path = std::move(capture_path);
  return o;
}

std::string JoinArgv(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t'\"\\$") == std::string::npos;
    out += plain ? a : "'" + a + "'";
  }
  return out;
}

}  // namespace topicrawl::web
