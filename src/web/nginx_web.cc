#include "web/nginx_web.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "web/subprocess.h"

namespace topicrawl::web {
namespace fs = std::filesystem;
namespace {

// A double-quoted nginx string. nginx's tokenizer turns \" \' \\ \t \r \n
// into characters, so every backslash is doubled (a regex "\." stays "\.").
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string RegexEscape(std::string_view s) {
  static constexpr std::string_view kMeta = "\\^$.|?*+()[]{}";
  std::string out;
  for (char c : s) {
    if (kMeta.find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// Paths go into quoted nginx strings; '$' would start a variable in alias.
bool SafeConfigPath(std::string_view p) {
  if (p.empty() || p.front() != '/') return false;
  for (unsigned char c : p) {
    if (c < 0x20 || c == 0x7f || c == '$' || c == '"' || c == '\\' || c == '{' || c == '}' ||
        c == ';') {
      return false;
    }
  }
  return true;
}

std::string Listen(const NginxConfigOptions& o, bool default_server) {
  std::string ds = default_server ? " default_server" : "";
  std::string s = "    listen 127.0.0.1:" + std::to_string(o.http_port) + ds + ";\n";
  if (o.tls_port != 0) {
    s += "    listen 127.0.0.1:" + std::to_string(o.tls_port) + " ssl" + ds + ";\n";
  }
  return s;
}

constexpr std::string_view kTypes = R"(  types {
    text/html html htm shtml;
    text/css css;
    text/plain txt text;
    text/xml xml;
    application/atom+xml atom;
    text/javascript js mjs;
    application/json json;
    application/pdf pdf;
    application/zip zip;
    application/gzip gz;
    application/x-tar tar;
    image/png png;
    image/jpeg jpg jpeg;
    image/gif gif;
    image/svg+xml svg svgz;
    image/x-icon ico;
    image/webp webp;
    font/woff woff;
    font/woff2 woff2;
    font/ttf ttf;
    font/otf otf;
    application/vnd.ms-fontobject eot;
  }
  default_type application/octet-stream;
)";

// The server{} block of one host: its rows grouped per url_prefix.
std::string HostServer(const std::string& host, const std::vector<const ManifestRow*>& rows,
                       const NginxConfigOptions& o) {
  std::ostringstream s;
  s << "  server {\n" << Listen(o, false) << "    server_name " << host << ";\n" << o.server_extra;
  std::set<std::string> done;
  bool has_root_prefix = false;
  for (const ManifestRow* row : rows) {
    if (!done.insert(row->url_prefix).second) continue;  // overlay: served once
    has_root_prefix = has_root_prefix || row->url_prefix == "/";
    std::string alias = (fs::path(o.root) / row->html_root).string() + "/";
    s << "    # manifest line " << row->line << ": " << row->package << "\n";
    s << "    location " << Quote(row->url_prefix) << " { alias " << Quote(alias) << "; }\n";
    if (!row->exclude.empty()) {
      std::string alternatives;
      for (const std::string& g : row->exclude) {
        if (!alternatives.empty()) alternatives += '|';
        alternatives += FnmatchToRegex(g);
      }
      s << "    location ~ " << Quote("^" + RegexEscape(row->url_prefix) + "(?:" + alternatives + ")$")
        << " { return 404; }\n";
    }
  }
  if (!has_root_prefix) s << "    location / { return 404; }\n";
  s << "  }\n";
  return s.str();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string Tail(const std::string& text, size_t max_chars = 1500) {
  return text.size() <= max_chars ? text : "..." + text.substr(text.size() - max_chars);
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

Status RunOpenssl(const std::vector<std::string>& argv, const std::string& dir) {
  RunResult r = RunCommand(argv, Captured(dir + "/logs/openssl.log", dir));
  if (!r.ok()) return Status::Error("openssl failed: " + JoinArgv(argv) + "\n" + Tail(r.output));
  return Status::Ok();
}

// True while `pid` exists and is not a zombie (a daemonised nginx is
// reparented to pid 1, which in a container may never reap it).
bool ProcessAlive(pid_t pid) {
  if (pid <= 0 || ::kill(pid, 0) != 0) return false;
  std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  size_t paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] != 'Z';
}

bool IsNginx(pid_t pid) {
  std::string cmdline = ReadFile("/proc/" + std::to_string(pid) + "/cmdline");
  return cmdline.find("nginx") != std::string::npos;
}

int ConnectLoopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

// The HTTP port answers when a request to an unknown host gets a status line.
bool HttpAnswers(int port) {
  int fd = ConnectLoopback(port);
  if (fd < 0) return false;
  static constexpr char kRequest[] =
      "GET / HTTP/1.1\r\nHost: topicrawl-probe.invalid\r\nConnection: close\r\n\r\n";
  bool ok = ::send(fd, kRequest, sizeof kRequest - 1, MSG_NOSIGNAL) > 0;
  char buf[16] = {};
  ok = ok && ::recv(fd, buf, sizeof buf - 1, 0) >= 12 && std::strncmp(buf, "HTTP/1.", 7) == 0;
  ::close(fd);
  return ok;
}

bool TcpAnswers(int port) {
  int fd = ConnectLoopback(port);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// Binds 127.0.0.1:port (0 = kernel's choice); returns the fd, or -1.
int BindLoopback(int port, int* bound_port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    return -1;
  }
  *bound_port = ntohs(addr.sin_port);
  return fd;
}

// Binds `preferred` (or any port) and keeps the socket open in *fd so that
// a second pick cannot return the same port.
int HoldPort(int preferred, bool fall_back, int* fd) {
  int port = -1;
  *fd = BindLoopback(preferred, &port);
  if (*fd < 0 && fall_back && preferred != 0) *fd = BindLoopback(0, &port);
  return *fd < 0 ? -1 : port;
}

}  // namespace

StatusOr<std::string> RenderNginxConfig(const Manifest& manifest, const NginxConfigOptions& o) {
  if (!SafeConfigPath(o.dir)) return Status::Error("instance dir must be an absolute, plain path: " + o.dir);
  if (!SafeConfigPath(o.root)) return Status::Error("root must be an absolute, plain path: " + o.root);
  if (o.http_port <= 0 || o.http_port > 65535 || o.tls_port < 0 || o.tls_port > 65535) {
    return Status::Error("invalid ports");
  }
  if (o.tls_port != 0 && (!SafeConfigPath(o.cert_file) || !SafeConfigPath(o.key_file))) {
    return Status::Error("TLS needs absolute cert_file and key_file");
  }
  std::ostringstream s;
  s << "# Generated by `topicrawl web serve`; regenerated on every start.\n";
  if (o.run_workers_as_root) s << "user root root;\n";
  s << "worker_processes " << o.worker_processes << ";\n"
    << "pid " << Quote(o.dir + "/nginx.pid") << ";\n"
    << "error_log " << Quote(o.dir + "/logs/error.log") << " warn;\n"
    ;
  // Cached descriptors and connections share the worker's fd limit; an
  // oversized open_file_cache turns into EMFILE (500s) under load.
  const int files = o.max_open_files > 0 ? o.max_open_files : 1024;
  if (o.max_open_files > 0) s << "worker_rlimit_nofile " << o.max_open_files << ";\n";
  const int connections = std::max(64, std::min(8192, files / 4));
  const int cached_files = std::max(16, std::min(100000, files / 2));
  s << "events {\n  worker_connections " << connections << ";\n  multi_accept on;\n}\n"
    << "http {\n"
    << kTypes
    << "  access_log off;\n"
    << "  server_tokens off;\n"
    << "  log_not_found off;\n"
    << "  sendfile on;\n  tcp_nopush on;\n  tcp_nodelay on;\n"
    << "  keepalive_timeout 120s;\n  keepalive_requests 1000000;\n"
    << "  open_file_cache max=" << cached_files << " inactive=120s;\n"
    << "  open_file_cache_valid 300s;\n  open_file_cache_min_uses 1;\n"
    << "  open_file_cache_errors on;\n"
    << "  client_body_temp_path " << Quote(o.dir + "/tmp/client_body") << ";\n"
    << "  proxy_temp_path " << Quote(o.dir + "/tmp/proxy") << ";\n"
    << "  fastcgi_temp_path " << Quote(o.dir + "/tmp/fastcgi") << ";\n"
    << "  uwsgi_temp_path " << Quote(o.dir + "/tmp/uwsgi") << ";\n"
    << "  scgi_temp_path " << Quote(o.dir + "/tmp/scgi") << ";\n"
    << "  server_names_hash_bucket_size 128;\n";
  if (o.tls_port != 0) {
    s << "  ssl_certificate " << Quote(o.cert_file) << ";\n"
      << "  ssl_certificate_key " << Quote(o.key_file) << ";\n"
      << "  ssl_protocols TLSv1.2 TLSv1.3;\n"
      << "  ssl_session_cache shared:SSL:20m;\n  ssl_session_timeout 1h;\n";
  }
  s << o.http_extra;
  s << "  # Hosts that are not served: fail fast.\n"
    << "  server {\n" << Listen(o, true) << "    server_name _;\n    return 404;\n  }\n";
  std::map<std::string, std::vector<const ManifestRow*>> rows_by_host;
  for (const ManifestRow& row : manifest.rows) rows_by_host[row.host].push_back(&row);
  for (const std::string& host : manifest.Hosts()) s << HostServer(host, rows_by_host[host], o);
  s << "}\n";
  return s.str();
}

Status EnsureCertificates(const std::string& dir, const std::vector<std::string>& hosts) {
  std::error_code ec;
  fs::create_directories(dir + "/logs", ec);
  const std::string ca = dir + "/ca.pem", ca_key = dir + "/ca.key";
  bool new_ca = !fs::exists(ca) || !fs::exists(ca_key);
  if (new_ca) {
    Status s = RunOpenssl({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                           "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca_key, "-out", ca,
                           "-days", "3650", "-subj", "/CN=topicrawl local web CA", "-addext",
                           "basicConstraints=critical,CA:TRUE", "-addext",
                           "keyUsage=critical,keyCertSign,cRLSign"},
                          dir);
    if (!s.ok()) return s;
  }
  std::string san = "DNS:localhost,IP:127.0.0.1";
  for (const std::string& h : hosts) san += ",DNS:" + h;
  const std::string hosts_file = dir + "/server-san.txt";
  const std::string cert = dir + "/server.pem", key = dir + "/server.key";
  if (!new_ca && fs::exists(cert) && fs::exists(key) && ReadFile(hosts_file) == san + "\n") {
    return Status::Ok();
  }
  const std::string csr = dir + "/server.csr", ext = dir + "/server.ext";
  if (!WriteFile(ext, "basicConstraints=CA:FALSE\n"
                      "keyUsage=critical,digitalSignature,keyEncipherment\n"
                      "extendedKeyUsage=serverAuth\n"
                      "subjectAltName=" + san + "\n")) {
    return Status::Error("cannot write " + ext);
  }
  Status s = RunOpenssl({"openssl", "req", "-new", "-newkey", "ec", "-pkeyopt",
                         "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", csr,
                         "-subj", "/CN=topicrawl local web"},
                        dir);
  if (!s.ok()) return s;
  s = RunOpenssl({"openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key,
                  "-CAcreateserial", "-out", cert, "-days", "825", "-sha256", "-extfile", ext},
                 dir);
  if (!s.ok()) return s;
  if (!WriteFile(hosts_file, san + "\n")) return Status::Error("cannot write " + hosts_file);
  return Status::Ok();
}

std::string ServeInfo::CrawlArgs() const {
  return "--connect-to :80:127.0.0.1:" + std::to_string(http_port) +
         " --connect-to :443:127.0.0.1:" + std::to_string(tls_port) + " --cacert " + ca_file;
}

int PickLoopbackPort(int preferred) {
  int fd = -1;
  int port = HoldPort(preferred, true, &fd);
  if (fd >= 0) ::close(fd);
  return port;
}

StatusOr<ServeInfo> StartNginxWeb(const Manifest& manifest, const ServeOptions& options) {
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  const std::string dir = fs::absolute(options.dir, ec).lexically_normal().string();
  std::string root = options.root.empty() ? dir + "/root" : options.root;
  root = fs::absolute(root, ec).lexically_normal().string();
  if (!root.empty() && root.back() == '/') root.pop_back();
  if (!fs::is_directory(root)) return Status::Error("root " + root + " is not a directory");
  for (const char* sub : {"/logs", "/tmp"}) fs::create_directories(dir + sub, ec);
  if (ec) return Status::Error("cannot create " + dir + "/logs: " + ec.message());
  if (Status s = StopNginxWeb(dir); !s.ok()) return s;
  if (Status s = EnsureCertificates(dir, manifest.Hosts()); !s.ok()) return s;

  int http_fd = -1, tls_fd = -1;
  const bool fall_back = options.ports_are_defaults;
  int http_port = HoldPort(options.http_port, fall_back, &http_fd);
  int tls_port = HoldPort(options.tls_port, fall_back, &tls_fd);
  if (http_fd >= 0) ::close(http_fd);
  if (tls_fd >= 0) ::close(tls_fd);
  if (http_port < 0 || tls_port < 0) {
    return Status::Error("cannot bind 127.0.0.1 ports " + std::to_string(options.http_port) +
                         "/" + std::to_string(options.tls_port));
  }
  NginxConfigOptions cfg;
  cfg.dir = dir;
  cfg.root = root;
  cfg.http_port = http_port;
  cfg.tls_port = tls_port;
  cfg.cert_file = dir + "/server.pem";
  cfg.key_file = dir + "/server.key";
  cfg.worker_processes = options.worker_processes;
  cfg.http_extra = options.http_extra;
  cfg.server_extra = options.server_extra;
  cfg.run_workers_as_root = ::geteuid() == 0;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    // Asking for more than the hard limit makes nginx log an alert.
    rlim_t cap = limit.rlim_max == RLIM_INFINITY ? 65536 : std::min<rlim_t>(limit.rlim_max, 65536);
    cfg.max_open_files = static_cast<int>(cap);
  }
  StatusOr<std::string> conf = RenderNginxConfig(manifest, cfg);
  if (!conf.ok()) return conf.status();
  const std::string conf_path = dir + "/nginx.conf";
  if (!WriteFile(conf_path, *conf)) return Status::Error("cannot write " + conf_path);

  std::vector<std::string> argv = {options.nginx_binary, "-c", conf_path, "-p", dir + "/",
                                   "-e", dir + "/logs/error.log"};
  RunResult r = RunCommand(argv, Captured(dir + "/logs/start.log"));
  if (!r.ok()) {
    return Status::Error("nginx did not start (" + JoinArgv(argv) + "):\n" + Tail(r.output) +
                         Tail(ReadFile(dir + "/logs/error.log"), 800));
  }
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(static_cast<int>(options.startup_timeout_s * 1000));
  while (!(HttpAnswers(http_port) && TcpAnswers(tls_port))) {
    if (std::chrono::steady_clock::now() > deadline) {
      StopNginxWeb(dir);
      return Status::Error("nginx started but ports " + std::to_string(http_port) + "/" +
                           std::to_string(tls_port) + " do not answer:\n" +
                           Tail(ReadFile(dir + "/logs/error.log")));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ServeInfo{http_port, tls_port, dir + "/ca.pem"};
}

Status StopNginxWeb(const std::string& dir) {
  const std::string pid_file = dir + "/nginx.pid";
  std::string text = ReadFile(pid_file);
  if (text.empty()) return Status::Ok();
  pid_t pid = static_cast<pid_t>(std::atol(text.c_str()));
  std::error_code ec;
  if (pid <= 0 || !ProcessAlive(pid) || !IsNginx(pid)) {
    fs::remove(pid_file, ec);  // stale
    return Status::Ok();
  }
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 250 && ProcessAlive(pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (ProcessAlive(pid)) {
    ::kill(pid, SIGKILL);
    for (int i = 0; i < 50 && ProcessAlive(pid); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (ProcessAlive(pid)) return Status::Error("nginx pid " + std::to_string(pid) + " does not stop");
  }
  fs::remove(pid_file, ec);
  return Status::Ok();
}

}  // namespace topicrawl::web
