#include "server/api_server.h"

#include "server/api_server_impl.h"

namespace topicrawl {

using namespace api_internal;  // NOLINT: this component's own internals

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Every byte of the longer string is visited whatever the content.
  const size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

bool IsLoopbackHost(std::string_view host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  return host.rfind("127.", 0) == 0;
}

Status ParseListenAddress(const std::string& listen, std::string* host, int* port) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::Error("listen address must be ADDR:PORT, got '" + listen + "'");
  }
  std::string h = listen.substr(0, colon);
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  const std::string p = listen.substr(colon + 1);
  char* end = nullptr;
  long v = std::strtol(p.c_str(), &end, 10);
  if (p.empty() || *end != '\0' || v < 0 || v > 65535) {
    return Status::Error("bad port in listen address '" + listen + "'");
  }
  *host = h;
  *port = static_cast<int>(v);
  return Status::Ok();
}

Status ApiServer::Impl::Init() {
  Status s = ParseListenAddress(options.listen, &host, &port);
  if (!s.ok()) return s;
  loopback = IsLoopbackHost(host);
  if (!loopback && options.token.empty()) {
    return Status::Error("listening on " + host +
                         " (not loopback) requires --token or --token-file");
  }
  if (!options.labels_file.empty()) {
    auto l = eval::LabelSet::Load(options.labels_file);
    if (!l.ok()) return l.status();
    labels.emplace(std::move(l).value());
  }
  server.set_payload_max_length(options.max_body_bytes);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.set_keep_alive_max_count(100);
  Routes();
  int bound;
  if (port == 0) {
    bound = server.bind_to_any_port(host);
  } else {
    bound = server.bind_to_port(host, port) ? port : -1;
  }
  if (bound <= 0) return Status::Error("cannot listen on " + options.listen);
  port = bound;
  thread = std::thread([this] {
    pthread_setname_np(pthread_self(), "tr-http");
    server.listen_after_bind();
  });
  // Stop() right after Start() must find the loop running (httplib's stop()
  // does nothing before listen_after_bind() has started).
  for (int i = 0; i < 500 && !server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return Status::Ok();
}

bool ApiServer::Impl::Authorized(const httplib::Request& req, httplib::Response& res) {
  if (options.token.empty()) return true;
  const std::string auth = req.get_header_value("Authorization");
  static const std::string kBearer = "Bearer ";
  std::string_view given;
  if (auth.size() > kBearer.size() && auth.compare(0, kBearer.size(), kBearer) == 0) {
    given = std::string_view(auth).substr(kBearer.size());
  }
  if (ConstantTimeEquals(given, options.token)) return true;
  res.set_header("WWW-Authenticate", "Bearer realm=\"topicrawl\"");
  Error(res, 401, "missing or wrong bearer token");
  return false;
}

CrawlState* ApiServer::Impl::Crawl(const httplib::Request& req, httplib::Response& res) {
  const int64_t i = IntParam(req, "crawl", 0, 0, 1 << 20);
  if (i >= static_cast<int64_t>(crawls.size())) {
    Error(res, 404, "no crawl " + std::to_string(i));
    return nullptr;
  }
  return crawls[static_cast<size_t>(i)].get();
}

CrawlDbReader* ApiServer::Impl::Db(CrawlState* c) {
  if (!c->db) {
    auto db = CrawlDbReader::Open(c->dir);
    if (!db.ok()) return nullptr;
    c->db = std::move(db).value();
  }
  return c->db.get();
}

double ApiServer::Impl::Beta(CrawlState* c) {
  if (c->beta > -2) return c->beta;
  CrawlDbReader* db = Db(c);
  if (!db) return -1;
  auto b = db->QueryText("SELECT value FROM meta WHERE key = 'beta'");
  c->beta = -1;
  if (b) {
    char* end = nullptr;
    double v = std::strtod(b->c_str(), &end);
    if (end != b->c_str()) c->beta = v;
  }
  return c->beta;
}

void ApiServer::Impl::Routes() {
  server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Frame-Options", "DENY");
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; script-src 'self'; style-src 'self'; "
                   "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                   "frame-ancestors 'none'; form-action 'none'");
    if (loopback && !IsLoopbackHost(HostOfHeader(req.get_header_value("Host")))) {
      Error(res, 403, "Host header must name this loopback listener");
      return httplib::Server::HandlerResponse::Handled;
    }
    const bool is_asset = req.path == "/" || req.path == "/app.js" || req.path == "/app.css";
    if (!is_asset && !Authorized(req, res)) return httplib::Server::HandlerResponse::Handled;
    if (req.method != "GET" && req.method != "HEAD") {
      const std::string origin = req.get_header_value("Origin");
      const std::string site = req.get_header_value("Sec-Fetch-Site");
      const std::string self = "http://" + req.get_header_value("Host");
      if ((!origin.empty() && origin != self) ||
          (!site.empty() && site != "same-origin" && site != "none")) {
        Error(res, 403, "cross-origin request refused");
        return httplib::Server::HandlerResponse::Handled;
      }
      const std::string ct = req.get_header_value("Content-Type");
      if (ct.rfind("application/json", 0) != 0) {
        Error(res, 415, "POST bodies must be application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(DashboardHtml()), "text/html; charset=utf-8");
  });
  server.Get("/app.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(DashboardJs()), "text/javascript; charset=utf-8");
  });
  server.Get("/app.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(DashboardCss()), "text/css; charset=utf-8");
  });

  StatusRoutes();
  PagesRoutes();
  SearchRoutes();
  ControlRoutes();
  MetricsRoutes();

  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      Error(res, res.status, res.status == 413 ? "request body too large" : "not found");
    }
  });
}

ApiServer::ApiServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<ApiServer>> ApiServer::Start(const ServerOptions& options,
                                                      std::vector<ServedCrawl> crawls) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  for (ServedCrawl& c : crawls) {
    auto st = std::make_unique<CrawlState>();
    st->dir = c.dir;
    st->monitor = c.monitor;
    impl->crawls.push_back(std::move(st));
  }
  if (impl->crawls.empty()) return Status::Error("no crawl directory to serve");
  Status s = impl->Init();
  if (!s.ok()) return s;
  return std::unique_ptr<ApiServer>(new ApiServer(std::move(impl)));
}

ApiServer::~ApiServer() { Stop(); }

int ApiServer::port() const { return impl_->port; }

std::string ApiServer::url() const {
  const bool v6 = impl_->host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + impl_->host + "]" : impl_->host) + ":" +
         std::to_string(impl_->port) + "/";
}

void ApiServer::Stop() {
  if (!impl_) return;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
  Interrupt();
}

void ApiServer::Interrupt() { impl_->RequestStop(); }

bool ApiServer::WaitForStopRequest(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl_->stop_mu);
  return impl_->stop_cv.wait_for(lock, timeout, [this] { return impl_->stop_requested; });
}

}  // namespace topicrawl
