// End to end: `topicrawl web synth` as a real process on a kernel-chosen
// port, fetched with curl by Host (as a crawler would with --connect-to),
// compared with `topicrawl web synth-labels`, then stopped with SIGTERM.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "core/test_require.h"
#include "web/subprocess.h"

extern char** environ;

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(WebSynthIntegrationTest, ServesLabelledPagesByHostAndStopsOnSigterm) {
  if (RunCommand({"curl", "--version"}, Captured("/dev/null")).exit_code != 0) TOPICRAWL_SKIP_UNLESS_REQUIRED("curl not installed");
  const std::string dir = (fs::temp_directory_path() / ("web_synth_it_" + std::to_string(::getpid()))).string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> knobs = {"--hosts", "4", "--pages", "400", "--seed", "7", "--topics", "3"};

  std::vector<std::string> labels_argv = {TOPICRAWL_BINARY, "web", "synth-labels", "--topic", "security",
                                          "--out", dir + "/labels.tsv", "--homes", dir + "/homes.tsv"};
  labels_argv.insert(labels_argv.end(), knobs.begin(), knobs.end());
  ASSERT_TRUE(RunCommand(labels_argv, Captured(dir + "/labels.log")).ok());

  std::vector<std::string> argv = {TOPICRAWL_BINARY, "web", "synth", "--port", "0"};
  argv.insert(argv.end(), knobs.begin(), knobs.end());
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, (dir + "/synth.out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, (dir + "/synth.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);

  std::smatch m;
  std::string out;
  static const std::regex kLine("crawl-args: --connect-to :80:127\\.0\\.0\\.1:(\\d+)\n");
  for (int i = 0; i < 100 && !std::regex_search(out, m, kLine); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    out = ReadFile(dir + "/synth.out");
  }
  ASSERT_TRUE(std::regex_search(out, m, kLine)) << out << ReadFile(dir + "/synth.err");
  const std::string connect = ":80:127.0.0.1:" + std::string(m[1]);

  // Every home page and every labelled page sampled answers 200.
  std::istringstream labels(ReadFile(dir + "/labels.tsv"));
  std::string line;
  std::getline(labels, line);
  int checked = 0, relevant = 0;
  for (int row = 0; std::getline(labels, line); ++row) {
    relevant += line.find("\t1\t") != std::string::npos;
    if (row % 37 != 0) continue;
    std::string url = line.substr(0, line.find('\t'));
    RunResult r = RunCommand({"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--connect-to", connect, url},
                             Captured(dir + "/curl.out"));
    EXPECT_EQ(r.output, "200") << url;
    ++checked;
  }
  EXPECT_GE(checked, 10);
  EXPECT_GT(relevant, 0);
  // homes.tsv row 1: "<host>\thttp://<host>/index.html\thome".
  std::istringstream homes(ReadFile(dir + "/homes.tsv"));
  std::getline(homes, line);
  std::getline(homes, line);
  ASSERT_THAT(line, HasSubstr("\thome"));
  const std::string host = line.substr(0, line.find('\t'));
  RunResult robots = RunCommand({"curl", "-s", "--connect-to", connect, "http://" + host + "/robots.txt"},
                                Captured(dir + "/robots.out"));
  EXPECT_THAT(robots.output, HasSubstr("User-agent: *"));

  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);  // kExitInterrupted
  EXPECT_THAT(ReadFile(dir + "/synth.err"), HasSubstr("served"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace topicrawl::web
