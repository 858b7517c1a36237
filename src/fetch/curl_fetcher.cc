// libcurl multi implementation of Fetcher.
//
// Why the shape:
// - One multi handle, driven by curl_multi_socket_action over our own epoll
//   set on the Poll() thread: no thread per connection, and the multi
//   handle's shared connection and DNS caches give keep-alive reuse across
//   tasks and hops. Why not curl_multi_perform + curl_multi_poll: perform
//   visits every transfer on every call, and each visit polls that
//   transfer's socket (curl 7.88 Curl_readwrite): with 64 transfers that was
//   ~88 poll() calls per fetched page (strace, bench/crawl_throughput/pages_per_second.sh). With
//   socket_action curl runs only the transfers whose socket epoll reported,
//   and takes the readiness from us. (If epoll cannot be set up, the
//   perform/poll loop is the fallback.)
// - Redirects are followed here (FOLLOWLOCATION off): each hop is resolved
//   with ResolveLink(), so the chain holds canonical URLs and loops are found
//   by comparing them; each hop re-checks connect_to and the private-address
//   rule.
// - Early aborts (Content-Type, size) return 0 from a callback, which ends the
//   transfer with CURLE_WRITE_ERROR; the Transfer's flags say which rule fired.
// - Easy handles are pooled: creating them costs more than a small request.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "fetch/address_policy.h"
#include "fetch/curl_routes.h"
#include "fetch/fetcher.h"
#include "fetch/http_headers.h"
#include "url/url.h"

namespace topicrawl {
namespace {

using SteadyClock = std::chrono::steady_clock;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string Ms(double seconds) { return std::to_string(static_cast<long>(seconds * 1000)); }

bool IsRedirect(long code) {
  return code == 301 || code == 302 || code == 303 || code == 307 || code == 308;
}

// State of one task across all of its hops.
struct Transfer {
  const FetcherOptions* options = nullptr;
  CURL* easy = nullptr;
  FetchKind kind = FetchKind::kPage;
  FetchResult result;
  std::string url;  // current hop
  SteadyClock::time_point started;
  curl_slist* request_headers = nullptr;
  char error_buffer[CURL_ERROR_SIZE] = {};

  // Per hop (reset by StartHop).
  bool private_ok = false;
  std::string refused_ip;
  std::string refused_rule;
  int status = 0;  // of the response being received
  bool discard_body = false;
  bool too_large = false;
  bool type_rejected = false;
  // The body was cut on purpose and the response is still usable (robots.txt
  // over max_robots_bytes, or an oversized error page).
  bool body_cut = false;
  std::string head;  // response head being received
  std::string location, content_type, etag, last_modified, retry_after;
  std::string content_encoding;
  int64_t content_length = -1;
};

class CurlFetcher : public Fetcher {
 public:
  CurlFetcher(const FetcherOptions& options, Clock* clock);
  ~CurlFetcher() override;

  void Submit(CrawlTask task, FetchKind kind) override;
  std::vector<FetchResult> Poll(Duration max_wait) override;
  void Wakeup() override;
  size_t InFlight() const override { return in_flight_.load(); }

 private:
  CURL* TakeEasy();
  void StartHop(Transfer* t);
  void OnDone(Transfer* t, CURLcode code);
  void FollowRedirect(Transfer* t);
  void Finish(Transfer* t, FetchStatus status, std::string error);
  void FillFromResponse(Transfer* t);
  FetchStatus MapError(Transfer* t, CURLcode code, std::string* error);

  // libcurl callbacks; `userdata` is the Transfer.
  static size_t OnHeader(char* data, size_t size, size_t n, void* userdata);
  static size_t OnBody(char* data, size_t size, size_t n, void* userdata);
  static int OnDebug(CURL*, curl_infotype type, char* data, size_t n, void* userdata);
  static curl_socket_t OnOpenSocket(void* userdata, curlsocktype purpose,
                                    curl_sockaddr* address);
  static bool HeadersComplete(Transfer* t);
  // socket_action plumbing: curl says which sockets to watch and when its
  // next timeout is due.
  static int OnSocket(CURL* easy, curl_socket_t s, int what, void* userp, void* socketp);
  static int OnTimer(CURLM* multi, long timeout_ms, void* userp);
  void DrainDone();
  void PollEpoll(SteadyClock::time_point deadline);
  void PollPerform(SteadyClock::time_point deadline);

  const FetcherOptions options_;
  Clock* const clock_;
  CurlRoutes routes_;  // connect_to / resolve lists, per host where useful
  CURLM* multi_ = nullptr;
  std::vector<CURL*> idle_easy_;
  std::unordered_map<Transfer*, std::unique_ptr<Transfer>> active_;
  std::vector<FetchResult> done_;
  std::atomic<size_t> in_flight_{0};
  std::atomic<bool> woken_{false};
  int epoll_fd_ = -1;  // -1: fallback to curl_multi_perform + curl_multi_poll
  int wake_fd_ = -1;   // eventfd in epoll_fd_, written by Wakeup()
  // When curl wants CURL_SOCKET_TIMEOUT; max() = no timer.
  SteadyClock::time_point timer_due_ = SteadyClock::time_point::max();
};

CurlFetcher::CurlFetcher(const FetcherOptions& options, Clock* clock)
    : options_(options), clock_(clock), routes_(options.connect_to, options.resolve) {
  GlobalInit();
  multi_ = curl_multi_init();
  // Each cached connection keeps a socket open; the cap keeps the cache
  // inside the open-file limit whatever the option says (a crawl that ran
  // out of descriptors would fail its connects and store writes instead).
  rlimit files{};
  const uint64_t file_limit =
      ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
          ? static_cast<uint64_t>(files.rlim_cur)
          : 0;
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS,
                    EffectiveConnectionCache(options_.connection_cache_size, file_limit));
  curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, options_.max_host_connections);
  curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, options_.max_total_connections);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = wake_fd_;
  if (epoll_fd_ < 0 || wake_fd_ < 0 || epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev) != 0) {
    if (epoll_fd_ >= 0) close(epoll_fd_);
    if (wake_fd_ >= 0) close(wake_fd_);
    epoll_fd_ = wake_fd_ = -1;
  } else {
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &CurlFetcher::OnSocket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &CurlFetcher::OnTimer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
  }
}

CurlFetcher::~CurlFetcher() {
  for (auto& [raw, t] : active_) {
    curl_multi_remove_handle(multi_, t->easy);
    curl_easy_cleanup(t->easy);
    curl_slist_free_all(t->request_headers);
  }
  for (CURL* e : idle_easy_) curl_easy_cleanup(e);
  curl_multi_cleanup(multi_);
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
}

int CurlFetcher::OnSocket(CURL* /*easy*/, curl_socket_t s, int what, void* userp,
                          void* /*socketp*/) {
  auto* self = static_cast<CurlFetcher*>(userp);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_DEL, s, nullptr);  // ENOENT is fine
    return 0;
  }
  epoll_event ev{};
  ev.data.fd = s;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT) ev.events |= EPOLLIN;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT) ev.events |= EPOLLOUT;
  if (epoll_ctl(self->epoll_fd_, EPOLL_CTL_MOD, s, &ev) != 0 && errno == ENOENT) {
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_ADD, s, &ev);
  }
  return 0;
}

int CurlFetcher::OnTimer(CURLM* /*multi*/, long timeout_ms, void* userp) {
  auto* self = static_cast<CurlFetcher*>(userp);
  self->timer_due_ = timeout_ms < 0 ? SteadyClock::time_point::max()
                                    : SteadyClock::now() + std::chrono::milliseconds(timeout_ms);
  return 0;
}

// A pooled easy handle with every option that does not depend on the task.
CURL* CurlFetcher::TakeEasy() {
  if (!idle_easy_.empty()) {
    CURL* e = idle_easy_.back();
    idle_easy_.pop_back();
    return e;
  }
  CURL* e = curl_easy_init();
  if (e == nullptr) return nullptr;
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");  // every built-in coding
  // HTTP/2 only via ALPN on TLS: cleartext h2c breaks on reused connections
  // in curl 7.88 (DEPS.md).
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                   options_.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1);
  if (options_.http2) curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
  if (routes_.shared().connect_to != nullptr) {
    curl_easy_setopt(e, CURLOPT_CONNECT_TO, routes_.shared().connect_to);
  }
  if (routes_.shared().resolve != nullptr) curl_easy_setopt(e, CURLOPT_RESOLVE, routes_.shared().resolve);
  if (!options_.cacert.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, options_.cacert.c_str());
  // "" disables proxies from the environment as well.
  curl_easy_setopt(e, CURLOPT_PROXY, options_.proxy.c_str());
  curl_easy_setopt(e, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options_.connect_timeout_s * 1000));
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, options_.low_speed_bytes_per_s);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, options_.low_speed_time_s);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &CurlFetcher::OnHeader);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &CurlFetcher::OnBody);
  // The raw request head is only available through the debug callback.
  curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, &CurlFetcher::OnDebug);
  curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, &CurlFetcher::OnOpenSocket);
  // A whole typical page per recv(): with the 16 KB default, curl read a
  // 48 KB page in several rounds, each followed by a readiness poll().
  curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 128L * 1024);  // 64 handles: 8 MB
  return e;
}

void CurlFetcher::Submit(CrawlTask task, FetchKind kind) {
  ++in_flight_;
  auto owned = std::make_unique<Transfer>();
  Transfer* t = owned.get();
  t->options = &options_;
  t->kind = kind;
  t->url = task.url;
  t->started = clock_->Now();
  t->result.task = std::move(task);
  t->result.fetched_at_unix_ms = clock_->UnixMillis();
  t->result.redirect_chain.push_back(t->url);
  const CrawlTask& tk = t->result.task;
  if (!tk.etag.empty()) {
    t->request_headers =
        curl_slist_append(t->request_headers, ("If-None-Match: " + tk.etag).c_str());
  }
  if (!tk.last_modified.empty()) {
    t->request_headers = curl_slist_append(
        t->request_headers, ("If-Modified-Since: " + tk.last_modified).c_str());
  }
  t->easy = TakeEasy();
  if (t->easy == nullptr) {
    active_.emplace(t, std::move(owned));
    Finish(t, FetchStatus::kOtherError, "curl_easy_init failed");
    return;
  }
  curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, t->request_headers);
  curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
  curl_easy_setopt(t->easy, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(t->easy, CURLOPT_DEBUGDATA, t);
  curl_easy_setopt(t->easy, CURLOPT_OPENSOCKETDATA, t);
  curl_easy_setopt(t->easy, CURLOPT_ERRORBUFFER, t->error_buffer);
  active_.emplace(t, std::move(owned));
  StartHop(t);
}

// (Re)starts the transfer for t->url with the time left of the total budget.
void CurlFetcher::StartHop(Transfer* t) {
  double spent = std::chrono::duration<double>(clock_->Now() - t->started).count();
  double left = options_.total_timeout_s - spent;
  if (left <= 0) {
    Finish(t, FetchStatus::kTimeout, "total timeout reached after " + Ms(spent) + " ms");
    return;
  }
  std::string host;
  int port = 0;
  t->private_ok = options_.allow_private || !options_.proxy.empty() ||
                  (HostAndPort(t->url, &host, &port) && routes_.Mapped(host, port));
  if (!routes_.rules().empty()) {
    // The hop's own connect_to/resolve pair when a rule sends its host to an
    // IPv4 address, the shared lists otherwise (an easy handle is reused
    // across tasks and hops, so this is set on every hop).
    if (host.empty() && !HostAndPort(t->url, &host, &port)) host.clear();
    const CurlRoutes::Lists& lists = routes_.For(host, port);
    curl_easy_setopt(t->easy, CURLOPT_CONNECT_TO, lists.connect_to);
    curl_easy_setopt(t->easy, CURLOPT_RESOLVE, lists.resolve);
    const bool own = &lists != &routes_.shared();
    // A pinned hop resolves through its own permanent resolve entry, which
    // no timeout ever removes, so the DNS cache prune that curl runs at the
    // end of every transfer (multi_done: a walk over every cached entry,
    // ~one per mapped host) is pure cost for it: -1 skips the walk
    // (Curl_hostcache_prune returns at once) and changes nothing else the
    // hop resolves. At 8.5 x 10^5 pages of the synthetic web (1,000 hosts)
    // that walk was the largest single spot of libcurl on the crawl thread
    // (docs/guides/performance.md, the 8.5 x 10^5-page profile). Other hops keep curl's
    // default 60 s, and their transfers prune as before.
    curl_easy_setopt(t->easy, CURLOPT_DNS_CACHE_TIMEOUT, own ? -1L : 60L);
  }
  t->refused_ip.clear();
  t->refused_rule.clear();
  t->status = 0;
  t->discard_body = t->too_large = t->type_rejected = t->body_cut = false;
  t->head.clear();
  t->result.body.clear();
  t->result.request_head.clear();
  t->error_buffer[0] = '\0';
  curl_easy_setopt(t->easy, CURLOPT_URL, t->url.c_str());
  curl_easy_setopt(t->easy, CURLOPT_TIMEOUT_MS, std::max(1L, static_cast<long>(left * 1000)));
  CURLMcode mc = curl_multi_add_handle(multi_, t->easy);
  if (mc != CURLM_OK) Finish(t, FetchStatus::kOtherError, curl_multi_strerror(mc));
}

void CurlFetcher::DrainDone() {
  int queued = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &queued)) {
    if (msg->msg != CURLMSG_DONE) continue;
    Transfer* t = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
    CURLcode code = msg->data.result;
    curl_multi_remove_handle(multi_, msg->easy_handle);
    OnDone(t, code);
  }
}

void CurlFetcher::PollEpoll(SteadyClock::time_point deadline) {
  constexpr int kMaxEvents = 256;
  epoll_event events[kMaxEvents];
  // Sockets are looked at at least once per call, also with a deadline
  // already past (Poll(0) while the crawler has parsed pages to drain).
  for (bool first = true;; first = false) {
    int running = 0;
    if (SteadyClock::now() >= timer_due_) {
      timer_due_ = SteadyClock::time_point::max();  // OnTimer may set it again
      curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    DrainDone();
    // A wakeup ends the call, but only after the sockets were looked at
    // once: a caller woken more often than its transfers' sockets turn
    // ready (the render workers, woken by every DevTools message) would
    // otherwise never read them.
    const bool woken = woken_.exchange(false);
    if (!done_.empty() || (woken && !first)) return;
    const auto now = SteadyClock::now();
    const auto until = std::min(deadline, timer_due_);
    if (now >= deadline && !first) return;
    int wait_ms = 0;
    if (until > now && !woken) {
      // Round up so a 0.4 ms timer does not spin with 0 ms waits.
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(until - now).count();
      wait_ms = static_cast<int>(std::min<int64_t>((us + 999) / 1000, 1 << 30));
    }
    int n = epoll_wait(epoll_fd_, events, kMaxEvents, wait_ms);
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) {
        uint64_t v;
        while (read(wake_fd_, &v, sizeof(v)) > 0) {
        }
        continue;
      }
      int mask = 0;
      if (events[i].events & EPOLLIN) mask |= CURL_CSELECT_IN;
      if (events[i].events & EPOLLOUT) mask |= CURL_CSELECT_OUT;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) mask |= CURL_CSELECT_ERR;
      curl_multi_socket_action(multi_, fd, mask, &running);
    }
    if (woken) {
      DrainDone();
      return;
    }
  }
}

void CurlFetcher::PollPerform(SteadyClock::time_point deadline) {
  for (;;) {
    int running = 0;
    curl_multi_perform(multi_, &running);
    DrainDone();
    if (!done_.empty() || woken_.exchange(false)) return;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return;
    curl_multi_poll(multi_, nullptr, 0, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)),
                    nullptr);
  }
}

std::vector<FetchResult> CurlFetcher::Poll(Duration max_wait) {
  // Clamped so that Duration::max() cannot overflow the deadline.
  auto deadline = SteadyClock::now() + std::min<Duration>(max_wait, std::chrono::hours(24));
  if (epoll_fd_ >= 0) {
    PollEpoll(deadline);
  } else {
    PollPerform(deadline);
  }
  std::vector<FetchResult> out;
  out.swap(done_);
  in_flight_ -= out.size();
  return out;
}

void CurlFetcher::Wakeup() {
  woken_ = true;
  if (wake_fd_ >= 0) {
    uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof(one));
  } else {
    curl_multi_wakeup(multi_);
  }
}

void CurlFetcher::OnDone(Transfer* t, CURLcode code) {
  long http_code = 0;
  curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &http_code);
  t->result.http_code = static_cast<int>(http_code);
  char* ip = nullptr;
  if (curl_easy_getinfo(t->easy, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK && ip != nullptr) {
    t->result.remote_ip = ip;
  }
  if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && t->body_cut)) {
    std::string error;
    FetchStatus status = MapError(t, code, &error);
    if (t->status != 0) FillFromResponse(t);
    Finish(t, status, std::move(error));
    return;
  }
  FillFromResponse(t);
  if (IsRedirect(http_code) && !t->location.empty()) {
    FollowRedirect(t);
  } else if (http_code >= 200 && http_code < 300) {
    Finish(t, FetchStatus::kOk,
           t->body_cut ? "body truncated at " + std::to_string(t->result.body.size()) + " bytes"
                       : "");
  } else if (http_code == 304) {
    Finish(t, FetchStatus::kNotModified, "");
  } else {
    std::string why = IsRedirect(http_code) ? " (redirect without Location)" : "";
    Finish(t, FetchStatus::kHttpError, "HTTP " + std::to_string(http_code) + why);
  }
}

void CurlFetcher::FollowRedirect(Transfer* t) {
  auto& chain = t->result.redirect_chain;
  std::optional<std::string> next = ResolveLink(t->url, t->location);
  if (!next) {
    Finish(t, FetchStatus::kFilteredOut,
           "redirect to an invalid or non-http(s) URL: " + t->location);
  } else if (std::find(chain.begin(), chain.end(), *next) != chain.end()) {
    Finish(t, FetchStatus::kRedirectLoop, "redirect loop back to " + *next);
  } else if (static_cast<int>(chain.size()) > options_.max_redirects) {
    Finish(t, FetchStatus::kTooManyRedirects,
           "more than " + std::to_string(options_.max_redirects) + " redirects; next " + *next);
  } else {
    chain.push_back(*next);
    t->url = *next;
    StartHop(t);
  }
}

// Copies what the last response said into the result.
void CurlFetcher::FillFromResponse(Transfer* t) {
  FetchResult& r = t->result;
  r.final_url = t->url;
  r.response_head = t->head;
  r.content_type = t->content_type;
  r.etag = t->etag;
  r.last_modified = t->last_modified;
  r.retry_after_s = -1;
  if (!t->retry_after.empty()) {
    r.retry_after_s = ParseRetryAfter(t->retry_after, clock_->UnixMillis()).value_or(-1);
  }
}

void CurlFetcher::Finish(Transfer* t, FetchStatus status, std::string error) {
  FetchResult& r = t->result;
  r.status = status;
  r.error = std::move(error);
  if (r.final_url.empty()) r.final_url = t->url;
  if (status != FetchStatus::kOk) {
    if (status != FetchStatus::kHttpError) r.body.clear();
  }
  r.fetch_seconds = std::chrono::duration<double>(clock_->Now() - t->started).count();
  done_.push_back(std::move(r));
  if (t->easy != nullptr) {
    curl_multi_remove_handle(multi_, t->easy);  // no-op when not added
    curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(t->easy, CURLOPT_ERRORBUFFER, nullptr);
    idle_easy_.push_back(t->easy);
  }
  curl_slist_free_all(t->request_headers);
  active_.erase(t);
}

FetchStatus CurlFetcher::MapError(Transfer* t, CURLcode code, std::string* error) {
  *error = t->error_buffer[0] != '\0' ? t->error_buffer : curl_easy_strerror(code);
  if (t->too_large) {
    *error = "body larger than " + std::to_string(options_.max_body_bytes) + " bytes";
    return FetchStatus::kTooLarge;
  }
  if (t->type_rejected) {
    *error = "Content-Type \"" + t->content_type + "\" not accepted";
    return FetchStatus::kContentTypeRejected;
  }
  if (!t->refused_ip.empty() && code == CURLE_COULDNT_CONNECT) {
    *error = "refused address " + t->refused_ip + " of " + t->url + ": " + t->refused_rule +
             " (not mapped by connect_to; allow_private permits it)";
    return FetchStatus::kPrivateAddress;
  }
  // Nothing connected at all: the host (not this URL) is the problem.
  curl_off_t connect_us = 0;
  curl_easy_getinfo(t->easy, CURLINFO_CONNECT_TIME_T, &connect_us);
  t->result.host_unreachable = code == CURLE_COULDNT_CONNECT ||
                               code == CURLE_COULDNT_RESOLVE_HOST ||
                               (code == CURLE_OPERATION_TIMEDOUT && connect_us == 0);
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return FetchStatus::kTimeout;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return FetchStatus::kDnsError;
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return FetchStatus::kConnectError;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_USE_SSL_FAILED:
      return FetchStatus::kTlsError;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
      return FetchStatus::kFilteredOut;
    default:
      return FetchStatus::kOtherError;
  }
}

size_t CurlFetcher::OnHeader(char* data, size_t size, size_t n, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  std::string_view line(data, size * n);
  if (int code = ParseStatusLine(line); code != 0) {  // a new response begins
    t->status = code;
    t->head.clear();
    t->location.clear();
    t->content_type.clear();
    t->etag.clear();
    t->last_modified.clear();
    t->retry_after.clear();
    t->content_encoding.clear();
    t->content_length = -1;
  }
  t->head.append(line);
  if (line == "\r\n" || line == "\n") {
    return HeadersComplete(t) ? size * n : 0;
  }
  if (auto field = ParseHeaderLine(line)) {
    const std::string& name = field->name;
    if (name == "location") t->location = field->value;
    else if (name == "content-type") t->content_type = field->value;
    else if (name == "etag") t->etag = field->value;
    else if (name == "last-modified") t->last_modified = field->value;
    else if (name == "retry-after") t->retry_after = field->value;
    else if (name == "content-encoding") t->content_encoding = field->value;
    else if (name == "content-length") t->content_length = std::atoll(field->value.c_str());
  }
  return size * n;
}

// Decides, once a final response's head is complete, whether to read its
// body. Returning false aborts the transfer.
bool CurlFetcher::HeadersComplete(Transfer* t) {
  if (t->status < 200) return true;  // 1xx interim response
  t->discard_body = IsRedirect(t->status) && !t->location.empty();
  // robots.txt and sitemaps take any type and their own size limits.
  bool own_rules = t->kind == FetchKind::kRobots || t->kind == FetchKind::kSitemap;
  if (t->discard_body || own_rules || t->status >= 300) return true;
  const FetcherOptions& o = *t->options;
  bool type_ok = t->kind == FetchKind::kResource ||
                 (t->content_type.empty()
                      ? o.accept_missing_content_type
                      : IsAcceptedMediaType(t->content_type, o.accepted_content_types));
  if (!type_ok) {
    t->type_rejected = true;
    return false;
  }
  // Content-Length counts encoded bytes; only an unencoded length is a
  // reliable early verdict on the decoded size.
  bool identity = t->content_encoding.empty() || t->content_encoding == "identity";
  if (identity && t->content_length > static_cast<int64_t>(o.max_body_bytes)) {
    t->too_large = true;
    return false;
  }
  // One allocation for the body instead of a chain of doubling copies.
  if (identity && t->content_length > 0) {
    t->result.body.reserve(static_cast<size_t>(t->content_length));
  }
  return true;
}

size_t CurlFetcher::OnBody(char* data, size_t size, size_t n, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  size_t bytes = size * n;
  if (t->discard_body) return bytes;
  const FetcherOptions& o = *t->options;
  // A page or sitemap over its limit fails (kTooLarge): half a document is
  // no document. robots.txt and error pages are cut and kept.
  bool page_ok = t->kind != FetchKind::kRobots && t->status < 300;
  size_t limit = t->kind == FetchKind::kRobots    ? o.max_robots_bytes
                 : t->kind == FetchKind::kSitemap ? o.max_sitemap_bytes
                                                  : o.max_body_bytes;
  std::string& body = t->result.body;
  if (body.size() + bytes <= limit) {
    body.append(data, bytes);
    return bytes;
  }
  if (page_ok) {
    t->too_large = true;
  } else {  // robots.txt or an error page: keep the head of it
    body.append(data, limit - body.size());
    t->body_cut = true;
  }
  return 0;
}

int CurlFetcher::OnDebug(CURL*, curl_infotype type, char* data, size_t n, void* userdata) {
  if (type != CURLINFO_HEADER_OUT) return 0;
  auto* t = static_cast<Transfer*>(userdata);
  std::string& head = t->result.request_head;
  if (head.size() >= 4 && head.compare(head.size() - 4, 4, "\r\n\r\n") == 0) head.clear();
  head.append(data, n);
  return 0;
}

curl_socket_t CurlFetcher::OnOpenSocket(void* userdata, curlsocktype /*purpose*/,
                                        curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(userdata);
  std::string rule = t->private_ok ? std::string() : PrivateAddressRule(&address->addr);
  if (!rule.empty()) {
    char text[INET6_ADDRSTRLEN] = "?";
    if (address->family == AF_INET) {
      inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&address->addr)->sin_addr, text,
                sizeof(text));
    } else if (address->family == AF_INET6) {
      inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&address->addr)->sin6_addr, text,
                sizeof(text));
    }
    t->refused_ip = text;
    t->refused_rule = std::move(rule);
    return CURL_SOCKET_BAD;
  }
  return socket(address->family, address->socktype, address->protocol);
}

}  // namespace

std::unique_ptr<Fetcher> NewCurlFetcher(const FetcherOptions& options, Clock* clock) {
  return std::make_unique<CurlFetcher>(options, clock);
}

}  // namespace topicrawl
