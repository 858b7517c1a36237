// A small HTTP/1.1 server for the synthetic web: one thread, epoll,
// non-blocking sockets, keep-alive and pipelining, on 127.0.0.1 only.
// Requests are routed by their Host header (the crawler connects every host
// to this one port, e.g. curl --connect-to ::127.0.0.1:PORT). GET and HEAD
// are served; other methods get 405, malformed requests 400 and a close,
// request heads over 16 KiB 431 and a close. Responses carry Content-Length
// (no chunking) and honour "Connection: close" and HTTP/1.0.
#ifndef TOPICRAWL_WEB_SYNTHETIC_WEB_SERVER_H_
#define TOPICRAWL_WEB_SYNTHETIC_WEB_SERVER_H_

#include <atomic>
#include <cstdint>

#include "core/status.h"
#include "web/synthetic_web.h"

namespace topicrawl::web {

class SyntheticWebServer {
 public:
  // `web` must outlive the server.
  explicit SyntheticWebServer(const SyntheticWeb* web);
  ~SyntheticWebServer();
  SyntheticWebServer(const SyntheticWebServer&) = delete;
  SyntheticWebServer& operator=(const SyntheticWebServer&) = delete;

  // Binds 127.0.0.1:port (0 = a free port chosen by the kernel).
  Status Listen(int port);
  int port() const { return port_; }

  // Serves until Stop(). REQUIRES: Listen() succeeded. Call from one thread.
  Status Run();
  // Thread-safe and async-signal-safe: makes Run() return soon.
  void Stop();

  // Every response is held this long before it is sent (a WAN-like
  // latency for latency-bound benchmarks; bench/cluster_scaling/workers_speedup.sh). Call
  // before Run(). 0 (default): answer at once.
  void SetLatencyMs(int ms) { latency_ms_ = ms; }

  uint64_t requests() const { return requests_.load(std::memory_order_relaxed); }

 private:
  struct Connection;
  void Accept();
  bool HandleReadable(Connection* c);  // false: close it
  bool Flush(Connection* c);           // false: close it
  void Process(Connection* c);     // ProcessNow, then holds new responses
  void ProcessNow(Connection* c);
  void Close(int fd);

  const SyntheticWeb* web_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  int port_ = 0;
  int latency_ms_ = 0;
  int ReleaseHeld();  // sends held responses that are due; ms to the next (-1: none)
  std::atomic<uint64_t> requests_{0};
  struct Impl;
  Impl* impl_;
};

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_SYNTHETIC_WEB_SERVER_H_
