// NginxServer: runs /usr/sbin/nginx on 127.0.0.1 with a temporary config, for
// HTTPS tests (the TestHttpServer speaks cleartext only) and for throughput
// benchmarks. With TLS it first creates a throw-away CA and a server
// certificate (openssl CLI) valid for `tls_names`, so clients verify with
// `cacert_path()`.
//
// Ports are chosen by binding port 0 and releasing it just before nginx
// starts (a small race, acceptable for tests).
#ifndef TOPICRAWL_TESTS_SUPPORT_NGINX_SERVER_H_
#define TOPICRAWL_TESTS_SUPPORT_NGINX_SERVER_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::testing {

struct NginxOptions {
  std::string root;  // document root served at "/" (REQUIRED)
  bool tls = false;  // also listen for HTTPS (HTTP/1.1 and HTTP/2)
  std::vector<std::string> tls_names = {"site.test", "localhost", "127.0.0.1"};
  int worker_processes = 1;
  // Extra directives placed inside both server {} blocks.
  std::string extra_server_config;
};

// True when /usr/sbin/nginx and openssl exist (tests skip otherwise).
bool NginxAvailable();

class NginxServer {
 public:
  NginxServer() = default;
  ~NginxServer();  // stops nginx and removes the temporary directory
  NginxServer(const NginxServer&) = delete;
  NginxServer& operator=(const NginxServer&) = delete;

  // Writes the config, starts nginx and waits (<= 5 s) until it accepts.
  Status Start(const NginxOptions& options);
  void Stop();

  uint16_t http_port() const { return http_port_; }
  uint16_t https_port() const { return https_port_; }  // 0 without TLS
  const std::string& cacert_path() const { return cacert_; }
  const std::string& work_dir() const { return dir_; }

 private:
  Status MakeCertificates(const NginxOptions& options);

  std::string dir_;
  std::string cacert_;
  uint16_t http_port_ = 0;
  uint16_t https_port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_NGINX_SERVER_H_
