#include "web/synthetic_web_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <vector>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

namespace topicrawl::web {
namespace {

constexpr size_t kMaxHead = 16 * 1024;
// Stop parsing pipelined requests while this much output is still queued.
constexpr size_t kMaxQueuedOutput = 1 << 20;

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
  }
}

void AppendResponse(const SyntheticResponse& r, bool head, bool keep_alive, std::string* out) {
  *out += "HTTP/1.1 ";
  *out += std::to_string(r.status);
  *out += ' ';
  *out += Reason(r.status);
  *out += "\r\nServer: topicrawl-synth\r\nContent-Type: ";
  *out += r.content_type;
  *out += "\r\nContent-Length: ";
  *out += std::to_string(r.body.size());
  *out += keep_alive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n";
  if (!head) *out += r.body;
}

SyntheticResponse Plain(int status) {
  SyntheticResponse r;
  r.status = status;
  r.content_type = "text/plain; charset=utf-8";
  r.body = std::string(Reason(status)) + "\n";
  return r;
}

}  // namespace

struct SyntheticWebServer::Connection {
  int fd = -1;
  std::string in;
  std::string out;
  size_t out_sent = 0;
  bool close_after_flush = false;
  bool want_write = false;
  std::string held;  // responses waiting for the latency (SetLatencyMs)
  std::chrono::steady_clock::time_point release_at{};
};

struct SyntheticWebServer::Impl {
  std::unordered_map<int, std::unique_ptr<Connection>> connections;
};

SyntheticWebServer::SyntheticWebServer(const SyntheticWeb* web) : web_(web), impl_(new Impl) {}

SyntheticWebServer::~SyntheticWebServer() {
  for (auto& [fd, c] : impl_->connections) ::close(fd);
  delete impl_;
  for (int fd : {listen_fd_, epoll_fd_, wake_fd_}) {
    if (fd >= 0) ::close(fd);
  }
}

Status SyntheticWebServer::Listen(int port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return Status::Error(std::string("socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 4096) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return Status::Error("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                         std::strerror(errno));
  }
  port_ = ntohs(addr.sin_port);
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) return Status::Error("epoll/eventfd failed");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = listen_fd_;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev);
  ev.data.fd = wake_fd_;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  return Status::Ok();
}

void SyntheticWebServer::Stop() {
  uint64_t one = 1;
  if (wake_fd_ >= 0) (void)!::write(wake_fd_, &one, sizeof one);
}

Status SyntheticWebServer::Run() {
  if (epoll_fd_ < 0) return Status::Error("Run() before Listen()");
  epoll_event events[256];
  while (true) {
    int n = ::epoll_wait(epoll_fd_, events, 256, ReleaseHeld());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Error(std::string("epoll_wait: ") + std::strerror(errno));
    }
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) return Status::Ok();
      if (fd == listen_fd_) {
        Accept();
        continue;
      }
      auto it = impl_->connections.find(fd);
      if (it == impl_->connections.end()) continue;
      Connection* c = it->second.get();
      bool keep = true;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) keep = false;
      if (keep && (events[i].events & EPOLLIN)) keep = HandleReadable(c);
      if (keep && (events[i].events & EPOLLOUT)) {
        keep = Flush(c);
        if (keep && c->out.empty()) {  // output drained: resume pipelined input
          Process(c);
          keep = Flush(c);
        }
      }
      if (!keep) Close(fd);
    }
  }
}

void SyntheticWebServer::Accept() {
  while (true) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN, or out of fds: retried on the next event
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.fd = fd;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      ::close(fd);
      continue;
    }
    impl_->connections.emplace(fd, std::move(c));
  }
}

bool SyntheticWebServer::HandleReadable(Connection* c) {
  char buf[16384];
  bool eof = false;
  while (true) {
    ssize_t got = ::recv(c->fd, buf, sizeof buf, 0);
    if (got > 0) {
      c->in.append(buf, static_cast<size_t>(got));
      if (c->in.size() > kMaxHead * 8) break;  // let Process() catch up
      continue;
    }
    if (got == 0) eof = true;
    else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
    break;
  }
  Process(c);
  bool ok = Flush(c);
  return ok && !(eof && c->out.empty());
}

int SyntheticWebServer::ReleaseHeld() {
  if (latency_ms_ <= 0) return -1;
  const auto now = std::chrono::steady_clock::now();
  int next = -1;
  std::vector<int> closed;
  for (auto& [fd, c] : impl_->connections) {
    if (c->held.empty()) continue;
    if (c->release_at <= now) {
      c->out += c->held;
      c->held.clear();
      if (!Flush(c.get())) closed.push_back(fd);
      continue;
    }
    const int ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(c->release_at - now).count()) + 1;
    if (next < 0 || ms < next) next = ms;
  }
  for (int fd : closed) Close(fd);
  return next;
}

// Parses every complete request in `in` and queues the responses.
void SyntheticWebServer::Process(Connection* c) {
  const size_t out_before = c->out.size();
  ProcessNow(c);
  if (latency_ms_ <= 0 || c->out.size() == out_before) return;
  // The new responses wait; later ones queue behind (HTTP order kept).
  if (c->held.empty()) {
    c->release_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(latency_ms_);
  }
  c->held.append(c->out, out_before, std::string::npos);
  c->out.resize(out_before);
}

void SyntheticWebServer::ProcessNow(Connection* c) {
  size_t consumed = 0;
  while (!c->close_after_flush && c->out.size() - c->out_sent < kMaxQueuedOutput) {
    std::string_view in(c->in.data() + consumed, c->in.size() - consumed);
    size_t end = in.find("\r\n\r\n");
    if (end == std::string_view::npos) {
      if (in.size() > kMaxHead) {
        AppendResponse(Plain(431), false, false, &c->out);
        c->close_after_flush = true;
      }
      break;
    }
    std::string_view head = in.substr(0, end);
    consumed += end + 4;
    size_t line_end = head.find("\r\n");
    std::string_view request_line = head.substr(0, line_end);
    size_t sp1 = request_line.find(' ');
    size_t sp2 = sp1 == std::string_view::npos ? sp1 : request_line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos) {
      AppendResponse(Plain(400), false, false, &c->out);
      c->close_after_flush = true;
      break;
    }
    std::string_view method = request_line.substr(0, sp1);
    std::string_view target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view version = request_line.substr(sp2 + 1);
    std::string_view host;
    bool keep_alive = version == "HTTP/1.1";
    size_t content_length = 0;
    std::string_view headers = line_end == std::string_view::npos ? std::string_view() : head.substr(line_end + 2);
    while (!headers.empty()) {
      size_t eol = headers.find("\r\n");
      std::string_view line = headers.substr(0, eol);
      headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 2);
      size_t colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      std::string_view name = line.substr(0, colon), value = Trim(line.substr(colon + 1));
      if (IEquals(name, "host")) host = value;
      else if (IEquals(name, "connection")) keep_alive = IEquals(value, "keep-alive") || (keep_alive && !IEquals(value, "close"));
      else if (IEquals(name, "content-length")) content_length = std::strtoull(std::string(value).c_str(), nullptr, 10);
    }
    // Absolute-form targets (proxy style) carry the host themselves.
    if (target.substr(0, 7) == "http://") {
      std::string_view rest = target.substr(7);
      size_t slash = rest.find('/');
      host = rest.substr(0, slash);
      target = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    }
    if (content_length > 0) {  // request bodies are read and ignored
      if (c->in.size() - consumed < content_length) {
        consumed -= end + 4;  // wait for the whole body
        break;
      }
      consumed += content_length;
    }
    requests_.fetch_add(1, std::memory_order_relaxed);
    const bool is_head = method == "HEAD";
    if (method != "GET" && !is_head) {
      AppendResponse(Plain(405), false, keep_alive, &c->out);
    } else if (target.empty() || target[0] != '/') {
      AppendResponse(Plain(400), false, false, &c->out);
      keep_alive = false;
    } else {
      AppendResponse(web_->Respond(host, target), is_head, keep_alive, &c->out);
    }
    if (!keep_alive) c->close_after_flush = true;
  }
  c->in.erase(0, consumed);
}

bool SyntheticWebServer::Flush(Connection* c) {
  while (c->out_sent < c->out.size()) {
    ssize_t sent = ::send(c->fd, c->out.data() + c->out_sent, c->out.size() - c->out_sent, MSG_NOSIGNAL);
    if (sent > 0) {
      c->out_sent += static_cast<size_t>(sent);
      continue;
    }
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (sent < 0 && errno == EINTR) continue;
    return false;
  }
  const bool pending = c->out_sent < c->out.size();
  if (!pending) {
    c->out.clear();
    c->out_sent = 0;
    if (c->close_after_flush && c->held.empty()) return false;
  }
  if (pending != c->want_write) {
    c->want_write = pending;
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (pending ? uint32_t{EPOLLOUT} : uint32_t{0});
    ev.data.fd = c->fd;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd, &ev);
  }
  return true;
}

void SyntheticWebServer::Close(int fd) {
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  ::close(fd);
  impl_->connections.erase(fd);
}

}  // namespace topicrawl::web
