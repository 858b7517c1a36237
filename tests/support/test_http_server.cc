#include "support/test_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <deque>
#include <fstream>
#include <sstream>

namespace topicrawl::testing {
namespace {

using SteadyClock = std::chrono::steady_clock;

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::string ReasonPhrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 410: return "Gone";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

std::string HeaderValue(const std::vector<std::pair<std::string, std::string>>& h,
                        std::string_view name) {
  for (const auto& [k, v] : h) {
    if (IEquals(k, name)) return v;
  }
  return {};
}

std::string ContentTypeFor(std::string_view path) {
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends(".html") || ends(".htm")) return "text/html";
  if (ends(".txt")) return "text/plain";
  if (ends(".css")) return "text/css";
  if (ends(".png")) return "image/png";
  if (ends(".xhtml")) return "application/xhtml+xml";
  return "application/octet-stream";
}

std::string Chunk(std::string_view data) {
  std::ostringstream out;
  out << std::hex << data.size() << "\r\n" << data << "\r\n";
  return out.str();
}

}  // namespace

// Per-connection state, owned by the loop thread.
struct TestHttpServer::Conn {
  struct Piece {
    SteadyClock::time_point at;
    std::string data;
  };
  enum class After { kKeep, kClose, kReset };

  int fd = -1;
  uint64_t id = 0;
  std::string in;
  std::deque<Piece> out;
  size_t out_offset = 0;
  bool busy = false;     // a response is still being sent
  bool endless = false;  // refill `out` forever
  bool want_write = false;
  After after = After::kKeep;
};

std::string RecordedRequest::Header(std::string_view name) const {
  std::string_view rest(head);
  while (!rest.empty()) {
    size_t eol = rest.find("\r\n");
    std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 2);
    size_t colon = line.find(':');
    if (colon != std::string_view::npos && IEquals(Trim(line.substr(0, colon)), name)) {
      return std::string(Trim(line.substr(colon + 1)));
    }
  }
  return {};
}

TestResponse HtmlResponse(std::string body, std::string content_type) {
  TestResponse r;
  r.headers.emplace_back("Content-Type", std::move(content_type));
  r.body = std::move(body);
  return r;
}

TestResponse TextResponse(std::string body, std::string content_type) {
  return HtmlResponse(std::move(body), std::move(content_type));
}

TestResponse RedirectResponse(int code, std::string location) {
  TestResponse r;
  r.status = code;
  r.headers.emplace_back("Location", std::move(location));
  r.headers.emplace_back("Content-Type", "text/html");
  r.body = "<a href=\"moved\">moved</a>";
  return r;
}

TestResponse ErrorResponse(int code, std::string retry_after) {
  TestResponse r;
  r.status = code;
  r.headers.emplace_back("Content-Type", "text/html");
  if (!retry_after.empty()) r.headers.emplace_back("Retry-After", std::move(retry_after));
  r.body = "<h1>error " + std::to_string(code) + "</h1>";
  return r;
}

TestResponse HugeResponse(size_t bytes) {
  TestResponse r;
  r.headers.emplace_back("Content-Type", "text/html");
  r.body = "<p>";
  if (bytes > 3) r.body.append(bytes - 3, 'a');
  r.body.resize(bytes);
  return r;
}

TestHandler CalendarTrap(std::string prefix) {
  return [prefix](const RecordedRequest& req) {
    int year = 2024, month = 1;
    std::sscanf(req.target.c_str() + std::min(req.target.size(), prefix.size()), "%d/%d",
                &year, &month);
    month = std::clamp(month, 1, 12);
    auto link = [&](int y, int m) {
      if (m == 0) { --y; m = 12; }
      if (m == 13) { ++y; m = 1; }
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%04d/%02d/", y, m);
      return "<a href=\"" + prefix + buf + "\">" + buf + "</a> ";
    };
    return HtmlResponse("<html><head><title>calendar</title></head><body>" +
                        link(year, month - 1) + link(year, month + 1) + "</body></html>");
  };
}

TestHandler SessionIdTrap(std::string prefix) {
  auto counter = std::make_shared<std::atomic<uint64_t>>(0);
  return [prefix, counter](const RecordedRequest& req) {
    std::string path = req.target.substr(0, req.target.find('?'));
    // A fresh id per answer, shaped like real ones (letters and digits).
    uint64_t n = ++*counter * 0x9E3779B97F4A7C15ull;
    char sid[32];
    std::snprintf(sid, sizeof(sid), "s%015llxq", static_cast<unsigned long long>(n));
    return HtmlResponse("<html><head><title>session</title></head><body><a href=\"" + path +
                        "?sid=" + sid + "\">again</a></body></html>");
  };
}

TestResponse GzipBomb(size_t decoded_bytes) {
  TestResponse r;
  r.headers.emplace_back("Content-Type", "text/html");
  r.headers.emplace_back("Content-Encoding", "gzip");
  r.body = Gzip(std::string(decoded_bytes, '\0'));
  return r;
}

std::string Gzip(std::string_view data) {
  z_stream zs{};
  // windowBits 15 + 16 selects the gzip wrapper.
  deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TestHttpServer::TestHttpServer() = default;

TestHttpServer::~TestHttpServer() { Stop(); }

Status TestHttpServer::Start() {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return Status::Error(std::string("socket: ") + strerror(errno));
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listen_fd_, 1024) != 0) {
    return Status::Error(std::string("bind/listen: ") + strerror(errno));
  }
  socklen_t len = sizeof(addr);
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  stop_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = listen_fd_;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev);
  ev.data.fd = stop_fd_;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, stop_fd_, &ev);
  thread_ = std::thread([this] { Loop(); });
  return Status::Ok();
}

void TestHttpServer::Stop() {
  if (!thread_.joinable()) return;
  uint64_t one = 1;
  (void)!write(stop_fd_, &one, sizeof(one));
  thread_.join();
  for (auto& [fd, conn] : conns_) close(fd);
  conns_.clear();
  close(listen_fd_);
  close(epoll_fd_);
  close(stop_fd_);
}

std::string TestHttpServer::Url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
}

void TestHttpServer::Set(std::string path, TestResponse response) {
  std::lock_guard<std::mutex> lock(mu_);
  routes_[std::move(path)] = std::move(response);
}

void TestHttpServer::SetPrefix(std::string prefix, TestHandler handler) {
  std::lock_guard<std::mutex> lock(mu_);
  prefixes_[std::move(prefix)] = std::move(handler);
}

void TestHttpServer::ServeDirectory(std::string dir) {
  std::lock_guard<std::mutex> lock(mu_);
  directory_ = std::move(dir);
}

int TestHttpServer::RequestCount(std::string_view target) const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(std::count_if(log_.begin(), log_.end(),
                                        [&](const auto& r) { return r.target == target; }));
}

int TestHttpServer::TotalRequests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(log_.size());
}

std::vector<RecordedRequest> TestHttpServer::Requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return log_;
}

void TestHttpServer::ClearLog() {
  std::lock_guard<std::mutex> lock(mu_);
  log_.clear();
}

void TestHttpServer::Loop() {
  std::vector<epoll_event> events(256);
  for (;;) {
    int n = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()),
                       NextTimeoutMs());
    for (int i = 0; i < n; ++i) {
      int fd = events[i].data.fd;
      if (fd == stop_fd_) return;
      if (fd == listen_fd_) {
        Accept();
        continue;
      }
      auto it = conns_.find(fd);
      if (it == conns_.end()) continue;
      Conn& c = *it->second;
      if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        OnReadable(c);  // may close c
      } else if ((events[i].events & EPOLLOUT) && !FlushWrites(c)) {
        CloseConn(fd, c.after == Conn::After::kReset);
      }
    }
    // Timed pieces (delays, trickles) that became due.
    std::vector<int> due;
    auto now = SteadyClock::now();
    for (auto& [fd, c] : conns_) {
      if (!c->out.empty() && !c->want_write && c->out.front().at <= now) due.push_back(fd);
    }
    for (int fd : due) {
      auto it = conns_.find(fd);
      if (it != conns_.end() && !FlushWrites(*it->second)) {
        CloseConn(fd, it->second->after == Conn::After::kReset);
      }
    }
  }
}

int TestHttpServer::NextTimeoutMs() {
  auto now = SteadyClock::now();
  int best = -1;
  for (auto& [fd, c] : conns_) {
    if (c->out.empty() || c->want_write) continue;
    auto wait = std::chrono::duration_cast<Millis>(c->out.front().at - now).count();
    int ms = static_cast<int>(std::max<int64_t>(0, wait + 1));
    if (best < 0 || ms < best) best = ms;
  }
  return best;
}

void TestHttpServer::Accept() {
  for (;;) {
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    auto conn = std::make_unique<Conn>();
    conn->fd = fd;
    conn->id = static_cast<uint64_t>(++connections_);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
    conns_[fd] = std::move(conn);
  }
}

void TestHttpServer::CloseConn(int fd, bool reset) {
  if (reset) {
    linger lg{1, 0};  // close() then sends RST instead of FIN
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
  }
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  close(fd);
  conns_.erase(fd);
}

void TestHttpServer::OnReadable(Conn& c) {
  char buf[16384];
  for (;;) {
    ssize_t n = read(c.fd, buf, sizeof(buf));
    if (n > 0) {
      c.in.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
      CloseConn(c.fd, false);
      return;
    }
    break;
  }
  if (!ProcessRequests(c)) CloseConn(c.fd, c.after == Conn::After::kReset);
}

bool TestHttpServer::ProcessRequests(Conn& c) {
  while (!c.busy) {
    size_t end = c.in.find("\r\n\r\n");
    if (end == std::string::npos) return true;
    RecordedRequest req;
    req.connection = c.id;
    req.at = std::chrono::steady_clock::now();
    req.head = c.in.substr(0, end + 4);
    c.in.erase(0, end + 4);
    std::istringstream line(req.head.substr(0, req.head.find("\r\n")));
    line >> req.method >> req.target;
    {
      std::lock_guard<std::mutex> lock(mu_);
      log_.push_back(req);
    }
    Respond(c, req);
    if (c.after == Conn::After::kReset && c.out.empty()) return false;
    if (!FlushWrites(c)) return false;
  }
  return true;
}

TestResponse TestHttpServer::Lookup(const RecordedRequest& req) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = routes_.find(req.target);
  std::string path = req.target.substr(0, req.target.find('?'));
  if (it == routes_.end()) it = routes_.find(path);
  if (it != routes_.end()) return it->second;
  const TestHandler* best = nullptr;
  size_t best_len = 0;
  for (const auto& [prefix, handler] : prefixes_) {
    if (path.compare(0, prefix.size(), prefix) == 0 && prefix.size() >= best_len) {
      best = &handler;
      best_len = prefix.size();
    }
  }
  if (best != nullptr) return (*best)(req);
  if (!directory_.empty() && path.find("..") == std::string::npos) {
    std::string file = directory_ + path;
    if (!path.empty() && path.back() == '/') file += "index.html";
    std::ifstream in(file, std::ios::binary);
    if (in) {
      std::ostringstream content;
      content << in.rdbuf();
      return HtmlResponse(content.str(), ContentTypeFor(file));
    }
  }
  return ErrorResponse(404);
}

void TestHttpServer::Respond(Conn& c, const RecordedRequest& req) {
  TestResponse r = Lookup(req);
  c.busy = true;
  if (r.reset) {
    c.after = Conn::After::kReset;
    return;
  }
  if (r.stall) return;  // busy forever: nothing is ever sent
  if (r.honor_conditional) {
    std::string etag = HeaderValue(r.headers, "ETag");
    std::string lm = HeaderValue(r.headers, "Last-Modified");
    std::string inm = req.Header("If-None-Match");
    std::string ims = req.Header("If-Modified-Since");
    if ((!etag.empty() && inm == etag) || (!lm.empty() && ims == lm)) {
      r.status = 304;
      r.body.clear();
    }
  }
  bool no_body = r.status == 304 || r.status == 204 || req.method == "HEAD";
  if (r.gzip && !no_body) r.body = Gzip(r.body);
  bool chunked = r.chunked || r.endless;
  std::string head = "HTTP/1.1 " + std::to_string(r.status) + " " +
                     (r.reason.empty() ? ReasonPhrase(r.status) : r.reason) + "\r\n";
  for (const auto& [k, v] : r.headers) head += k + ": " + v + "\r\n";
  if (r.gzip && !no_body) head += "Content-Encoding: gzip\r\n";
  if (chunked && !no_body) {
    head += "Transfer-Encoding: chunked\r\n";
  } else if (r.status != 304 && r.status != 204) {
    head += "Content-Length: " + std::to_string(r.body.size() + r.short_body_by) + "\r\n";
  }
  bool close_after = r.close || r.short_body_by > 0 || IEquals(req.Header("Connection"), "close");
  if (close_after) head += "Connection: close\r\n";
  head += "\r\n";
  c.after = close_after ? Conn::After::kClose : Conn::After::kKeep;
  // The head declared the whole body; only its start is sent, then RST.
  if (r.reset_after_bytes > 0) r.body.resize(std::min(r.body.size(), r.reset_after_bytes));

  auto at = SteadyClock::now() + r.delay;
  c.out.push_back({at, std::move(head)});
  if (no_body) return;
  c.endless = r.endless;
  size_t piece = r.trickle_bytes > 0 ? r.trickle_bytes : std::max<size_t>(r.body.size(), 1);
  for (size_t off = 0; off < r.body.size(); off += piece) {
    std::string_view part = std::string_view(r.body).substr(off, piece);
    if (r.trickle_bytes > 0) at += r.trickle_interval;
    c.out.push_back({at, chunked ? Chunk(part) : std::string(part)});
  }
  if (r.reset_after_bytes > 0) {
    c.after = Conn::After::kReset;  // RST after the partial body
    return;
  }
  if (chunked && !r.endless) c.out.push_back({at, "0\r\n\r\n"});
}

bool TestHttpServer::FlushWrites(Conn& c) {
  for (;;) {
    if (c.out.empty() && c.endless) {
      c.out.push_back({SteadyClock::now(), Chunk(std::string(16384, 'x'))});
    }
    if (c.out.empty()) break;
    auto& front = c.out.front();
    if (front.at > SteadyClock::now()) break;  // the timer loop resumes it
    ssize_t n = send(c.fd, front.data.data() + c.out_offset,
                     front.data.size() - c.out_offset, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
      if (!c.want_write) {
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT;
        ev.data.fd = c.fd;
        epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev);
        c.want_write = true;
      }
      return true;
    }
    c.out_offset += static_cast<size_t>(n);
    if (c.out_offset == front.data.size()) {
      c.out.pop_front();
      c.out_offset = 0;
    }
  }
  if (c.want_write) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = c.fd;
    epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev);
    c.want_write = false;
  }
  if (!c.out.empty()) return true;  // waiting for a timed piece
  c.busy = false;
  if (c.after != Conn::After::kKeep) return false;
  return ProcessRequests(c);
}

}  // namespace topicrawl::testing
