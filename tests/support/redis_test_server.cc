#include "support/redis_test_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace topicrawl {
namespace {

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  int port = 0;
  socklen_t len = sizeof(a);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

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
    port_ = FreePort();
    if (port_ == 0) return Status::Error("no free port");
    {
      std::ofstream conf(dir_ + "/redis.conf");
      conf << "port " << port_ << "\nbind 127.0.0.1\ndir " << dir_
           << "\nappendonly yes\nsave \"\"\ndaemonize no\nlogfile " << dir_ << "/redis.log\n";
    }
    pid_ = fork();
    if (pid_ < 0) return Status::Error("fork failed");
    if (pid_ == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
      dup2(devnull, 2);
      const std::string conf = dir_ + "/redis.conf";
      execlp("redis-server", "redis-server", conf.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 100; ++i) {
      if (Answers(port_)) return Status::Ok();
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;  // port taken meanwhile, or no redis-server: retry
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
      pid_ = -1;
    }
  }
  return Status::Error("redis-server did not start (is it installed? scripts/setup)");
}

void RedisTestServer::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }
}

}  // namespace topicrawl
