// The test servers' child processes (nginx, redis-server): a free loopback
// port, a server process started and waited for until it serves, and its
// stop.
#ifndef TOPICRAWL_TESTS_SUPPORT_CHILD_PROCESS_H_
#define TOPICRAWL_TESTS_SUPPORT_CHILD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace topicrawl::testing {

// A free 127.0.0.1 TCP port (bind port 0, read it, release it); 0 when the
// socket calls fail.
uint16_t PickFreePort();

// True when 127.0.0.1:port accepts a TCP connection.
bool CanConnect(uint16_t port);

struct SpawnOptions {
  bool quiet = false;  // the child's stdout and stderr go to /dev/null
  std::chrono::milliseconds timeout{5000};
  std::chrono::milliseconds poll{20};
};

enum class SpawnOutcome {
  kReady,        // ready() held: *pid is the running child
  kExited,       // the child exited before it was ready (*pid = -1)
  kTimedOut,     // not ready within the timeout: the child was killed
  kSpawnFailed,  // the program could not be started (not installed?)
};

// Starts `argv` (argv[0] looked up in PATH unless it holds a '/') and polls
// ready() until it holds, the child exits or the timeout passes.
SpawnOutcome SpawnUntilReady(const std::vector<std::string>& argv,
                             const std::function<bool()>& ready, const SpawnOptions& options,
                             pid_t* pid);

// Sends `signal` to *pid and reaps it; *pid becomes -1. Nothing for *pid <= 0.
void StopChild(pid_t* pid, int signal);

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_CHILD_PROCESS_H_
