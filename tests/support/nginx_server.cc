#include "support/nginx_server.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/child_process.h"

namespace topicrawl::testing {
namespace {

constexpr const char* kNginx = "/usr/sbin/nginx";

Status Run(const std::string& command) {
  int rc = std::system((command + " >/dev/null 2>&1").c_str());
  if (rc != 0) return Status::Error("command failed (" + std::to_string(rc) + "): " + command);
  return Status::Ok();
}

}  // namespace

bool NginxAvailable() {
  return access(kNginx, X_OK) == 0 && std::system("openssl version >/dev/null 2>&1") == 0;
}

NginxServer::~NginxServer() { Stop(); }

void NginxServer::Stop() {
  StopChild(&pid_, SIGTERM);
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }
}

Status NginxServer::MakeCertificates(const NginxOptions& options) {
  std::string san;
  for (const auto& name : options.tls_names) {
    bool ip = name.find_first_not_of("0123456789.") == std::string::npos;
    san += (san.empty() ? "" : ",") + std::string(ip ? "IP:" : "DNS:") + name;
  }
  std::ofstream(dir_ + "/ext.cnf") << "subjectAltName=" << san << "\n"
                                   << "basicConstraints=CA:FALSE\n";
  const std::string d = dir_ + "/";
  Status s = Run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=topicrawl-test-ca"
                 " -keyout " + d + "ca.key -out " + d + "ca.pem");
  if (!s.ok()) return s;
  s = Run("openssl req -newkey rsa:2048 -nodes -subj /CN=" + options.tls_names.front() +
          " -keyout " + d + "server.key -out " + d + "server.csr");
  if (!s.ok()) return s;
  s = Run("openssl x509 -req -in " + d + "server.csr -CA " + d + "ca.pem -CAkey " + d +
          "ca.key -CAcreateserial -days 2 -extfile " + d + "ext.cnf -out " + d + "server.pem");
  cacert_ = d + "ca.pem";
  return s;
}

Status NginxServer::Start(const NginxOptions& options) {
  if (!NginxAvailable()) return Status::Error("nginx or openssl not installed");
  char tmpl[] = "/tmp/topicrawl-nginx-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return Status::Error("mkdtemp failed");
  dir_ = tmpl;
  if (options.tls) {
    Status s = MakeCertificates(options);
    if (!s.ok()) return s;
  }
  http_port_ = PickFreePort();
  https_port_ = options.tls ? PickFreePort() : 0;
  std::ofstream conf(dir_ + "/nginx.conf");
  // As root, workers would drop to "nobody" and could not read a private
  // temporary document root.
  if (geteuid() == 0) conf << "user root root;\n";
  conf << "daemon off;\nworker_processes " << options.worker_processes << ";\n"
       << "error_log " << dir_ << "/error.log warn;\npid " << dir_ << "/nginx.pid;\n"
       << "events { worker_connections 4096; }\n"
       << "http {\n  access_log off;\n  keepalive_requests 1000000;\n"
       << "  client_body_temp_path " << dir_ << "/body;\n"
       << "  proxy_temp_path " << dir_ << "/proxy;\n"
       << "  fastcgi_temp_path " << dir_ << "/fastcgi;\n"
       << "  uwsgi_temp_path " << dir_ << "/uwsgi;\n"
       << "  scgi_temp_path " << dir_ << "/scgi;\n"
       << "  types { text/html html htm; text/plain txt; }\n"
       << "  default_type application/octet-stream;\n"
       << "  server {\n    listen 127.0.0.1:" << http_port_ << ";\n"
       << "    root " << options.root << ";\n" << options.extra_server_config << "\n  }\n";
  if (options.tls) {
    conf << "  server {\n    listen 127.0.0.1:" << https_port_ << " ssl http2;\n"
         << "    ssl_certificate " << dir_ << "/server.pem;\n"
         << "    ssl_certificate_key " << dir_ << "/server.key;\n"
         << "    root " << options.root << ";\n" << options.extra_server_config << "\n  }\n";
  }
  conf << "}\n";
  conf.close();

  const std::string err_path = dir_ + "/error.log";
  const SpawnOutcome outcome = SpawnUntilReady(
      {kNginx, "-p", dir_, "-c", dir_ + "/nginx.conf", "-e", err_path},
      [&] { return CanConnect(http_port_) && (!options.tls || CanConnect(https_port_)); }, {},
      &pid_);
  switch (outcome) {
    case SpawnOutcome::kReady:
      return Status::Ok();
    case SpawnOutcome::kExited: {
      std::ifstream log(err_path);
      std::string text((std::istreambuf_iterator<char>(log)), {});
      return Status::Error("nginx exited: " + text);
    }
    case SpawnOutcome::kTimedOut:
      return Status::Error("nginx did not start listening within 5 s");
    case SpawnOutcome::kSpawnFailed:
      break;
  }
  return Status::Error("posix_spawn nginx failed");
}

}  // namespace topicrawl::testing
