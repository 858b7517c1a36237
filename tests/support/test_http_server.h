// TestHttpServer: a small HTTP/1.1 server on 127.0.0.1 (port 0) for hermetic
// network tests. It serves a site from an in-memory map (path -> response)
// and/or a directory, and misbehaves on demand per path: delays, trickled
// bytes, error codes with Retry-After, redirects, connection resets, huge and
// endless bodies, gzip bodies, conditional GET. It counts requests per path and
// accepted connections so tests can assert exactly what a client fetched and
// whether it reused connections.
//
// One thread runs an epoll loop over non-blocking sockets (keep-alive and many
// concurrent connections; no thread per connection). Requests on one
// connection are answered in order (pipelining-safe).
//
// Thread-safety: every public method may be called from any thread while the
// server runs.
#ifndef TOPICRAWL_TESTS_SUPPORT_TEST_HTTP_SERVER_H_
#define TOPICRAWL_TESTS_SUPPORT_TEST_HTTP_SERVER_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/status.h"

namespace topicrawl::testing {

using Millis = std::chrono::milliseconds;

// What the server does for one path. Defaults: 200, no extra headers, the
// body as given, Content-Length framing, keep-alive.
struct TestResponse {
  int status = 200;
  std::string reason;  // empty: the standard phrase for `status`
  // Sent as given, in order (Content-Length / Transfer-Encoding / Content-
  // Encoding are added by the server according to the fields below).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // --- misbehaviour ---
  Millis delay{0};             // wait before sending the status line
  size_t trickle_bytes = 0;    // >0: send the body in pieces of this size...
  Millis trickle_interval{0};  // ...one piece per interval
  bool reset = false;          // read the request, then RST the connection
  bool close = false;          // send Connection: close and close after
  bool chunked = false;        // Transfer-Encoding: chunked instead of length
  bool endless = false;        // chunked body that never ends ('x' * 16 KiB)
  bool gzip = false;           // gzip the body, Content-Encoding: gzip
  // Declared Content-Length larger than the body sent, then close
  // (a truncated transfer).
  size_t short_body_by = 0;
  // >0: send the head and this many body bytes, then RST the connection
  // (a reset mid-transfer, after the client connected fine).
  size_t reset_after_bytes = 0;
  // Never answer: read the request and keep the connection open and silent
  // until the server stops (a stalled server).
  bool stall = false;
  // Conditional GET: when the request's If-None-Match equals the ETag header
  // of this response, or If-Modified-Since equals its Last-Modified header,
  // answer 304 without a body.
  bool honor_conditional = true;
};

// Convenience builders.
TestResponse HtmlResponse(std::string body,
                          std::string content_type = "text/html; charset=utf-8");
TestResponse TextResponse(std::string body, std::string content_type = "text/plain");
TestResponse RedirectResponse(int code, std::string location);
// An error status; retry_after (raw header value) is sent when non-empty.
TestResponse ErrorResponse(int code, std::string retry_after = "");
// `bytes` of HTML-ish filler ('a's inside <p>), declared with Content-Length.
TestResponse HugeResponse(size_t bytes);

struct RecordedRequest;
// A dynamic route: computes the response from the request.
using TestHandler = std::function<TestResponse(const RecordedRequest&)>;

// Trap generators (dynamic routes under `prefix`, e.g. "/cal/"):
// CalendarTrap: /cal/YYYY/MM/ pages, each linking to the previous and the
// next month forever (the classic endless calendar).
TestHandler CalendarTrap(std::string prefix);
// SessionIdTrap: every page under prefix links to itself with a fresh
// ?sid=<random id> (a session id in every URL: endless distinct URLs).
TestHandler SessionIdTrap(std::string prefix);
// A gzip bomb: `decoded_bytes` of zeros, sent gzip-compressed (~1000:1),
// compressed once at construction.
TestResponse GzipBomb(size_t decoded_bytes);

// One request as the server received it.
struct RecordedRequest {
  uint64_t connection = 0;  // 1-based id of the TCP connection it came on
  std::string method;
  std::string target;  // request-target as sent, e.g. "/a?b=1"
  std::string head;    // raw request head (request line + headers)
  std::chrono::steady_clock::time_point at{};  // when the head was complete
  // Value of header `name` (case-insensitive); empty when absent.
  std::string Header(std::string_view name) const;
};

class TestHttpServer {
 public:
  TestHttpServer();
  ~TestHttpServer();  // stops the server
  TestHttpServer(const TestHttpServer&) = delete;
  TestHttpServer& operator=(const TestHttpServer&) = delete;

  // Binds 127.0.0.1:0 and starts the loop thread.
  Status Start();
  void Stop();

  uint16_t port() const { return port_; }
  // "http://127.0.0.1:PORT" + path.
  std::string Url(std::string_view path) const;

  // Route an exact request path (query included when the request has one;
  // when no route matches "path?query", the route for "path" is used).
  void Set(std::string path, TestResponse response);
  // Every request whose path starts with `prefix` and that has no exact
  // route is answered by `handler` (longest prefix wins).
  void SetPrefix(std::string prefix, TestHandler handler);
  // Serve files under `dir` for paths without a route ("/" -> index.html).
  // Unknown paths get 404.
  void ServeDirectory(std::string dir);

  // Number of requests received for `path` (exact request-target).
  int RequestCount(std::string_view target) const;
  int TotalRequests() const;
  // Accepted TCP connections so far.
  int Connections() const { return connections_.load(); }
  std::vector<RecordedRequest> Requests() const;
  void ClearLog();

 private:
  struct Conn;
  void Loop();
  void Accept();
  void OnReadable(Conn& c);
  bool ProcessRequests(Conn& c);  // false: close
  void Respond(Conn& c, const RecordedRequest& req);
  bool FlushWrites(Conn& c);  // false: close
  void CloseConn(int fd, bool reset);
  TestResponse Lookup(const RecordedRequest& req) const;
  int NextTimeoutMs();

  mutable std::mutex mu_;
  std::map<std::string, TestResponse, std::less<>> routes_;
  std::map<std::string, TestHandler, std::less<>> prefixes_;
  std::string directory_;
  std::vector<RecordedRequest> log_;

  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<int> connections_{0};
  std::map<int, std::unique_ptr<Conn>> conns_;  // loop thread only
  std::thread thread_;
};

// gzip (RFC 1952) compression of `data`, for gzip test bodies.
std::string Gzip(std::string_view data);

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_TEST_HTTP_SERVER_H_
