#include "support/redis_test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "support/child_process.h"

namespace topicrawl {
namespace {

using testing::SpawnOutcome;

bool Answers(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = false;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0) {
    const char ping[] = "PING\r\n";
    char buf[16] = {};
    timeval tv{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    ok = write(fd, ping, sizeof(ping) - 1) == sizeof(ping) - 1 && read(fd, buf, 5) == 5 &&
         std::string(buf, 5) == "+PONG";
  }
  close(fd);
  return ok;
}

}  // namespace

RedisTestServer::~RedisTestServer() { Stop(); }

Status RedisTestServer::Start() {
  char tmpl[] = "/tmp/topicrawl-redis-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return Status::Error("cannot create a temporary directory");
  dir_ = tmpl;
  for (int attempt = 0; attempt < 5; ++attempt) {
    port_ = testing::PickFreePort();
    if (port_ == 0) return Status::Error("no free port");
    {
      std::ofstream conf(dir_ + "/redis.conf");
      conf << "port " << port_ << "\nbind 127.0.0.1\ndir " << dir_
           << "\nappendonly yes\nsave \"\"\ndaemonize no\nlogfile " << dir_ << "/redis.log\n";
    }
    // A child that exits (the port was taken meanwhile) or does not answer
    // is retried on another port.
    const SpawnOutcome outcome = testing::SpawnUntilReady(
        {"redis-server", dir_ + "/redis.conf"}, [this] { return Answers(port_); },
        {.quiet = true, .timeout = std::chrono::seconds(5), .poll = std::chrono::milliseconds(50)},
        &pid_);
    if (outcome == SpawnOutcome::kReady) return Status::Ok();
    if (outcome == SpawnOutcome::kSpawnFailed) break;
  }
  return Status::Error("redis-server did not start (is it installed? scripts/setup)");
}

void RedisTestServer::Stop() {
  testing::StopChild(&pid_, SIGKILL);
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }
}

}  // namespace topicrawl
