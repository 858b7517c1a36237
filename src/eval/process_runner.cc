#include "eval/process_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace topicrawl::eval {

Status RunProcess(const std::vector<std::string>& argv, const std::string& log_path) {
  if (argv.empty()) return Status::Error("RunProcess: empty command");
  int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return Status::Error("cannot open log " + log_path + ": " + strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(log_fd);
  if (rc != 0) return Status::Error("cannot run " + argv[0] + ": " + strerror(rc));
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR) return Status::Error(std::string("waitpid: ") + strerror(errno));
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return Status::Ok();
  std::string why = WIFEXITED(wstatus)
                        ? "exit code " + std::to_string(WEXITSTATUS(wstatus))
                        : "signal " + std::to_string(WTERMSIG(wstatus));
  return Status::Error(argv[0] + " failed (" + why + "); see " + log_path);
}

StatusOr<std::vector<std::string>> SplitShellWords(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0; else word += c;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (quote == '"') {
      if (c == '"') quote = 0; else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) return Status::Error("unterminated quote in: " + text);
  if (in_word) words.push_back(word);
  return words;
}

}  // namespace topicrawl::eval
