// RedisTestServer: a real redis-server (Debian redis-server 7.0) for tests,
// on a free 127.0.0.1 port with its data (appendonly) in a temporary
// directory; killed and removed by the destructor.
#ifndef TOPICRAWL_TESTS_SUPPORT_REDIS_TEST_SERVER_H_
#define TOPICRAWL_TESTS_SUPPORT_REDIS_TEST_SERVER_H_

#include <sys/types.h>

#include <string>

#include "core/status.h"

namespace topicrawl {

class RedisTestServer {
 public:
  RedisTestServer() = default;
  ~RedisTestServer();
  RedisTestServer(const RedisTestServer&) = delete;
  RedisTestServer& operator=(const RedisTestServer&) = delete;

  // Starts the server and waits (up to ~5 s) until it answers PING.
  Status Start();
  void Stop();
  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string dir_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_TESTS_SUPPORT_REDIS_TEST_SERVER_H_
