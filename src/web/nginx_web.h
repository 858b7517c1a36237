// Serving a benchmark web with the system nginx on 127.0.0.1
// (../shared/corpus/README.md §1 "Serving").
//
// Everything an instance writes lives in one directory DIR: nginx.conf,
// nginx.pid, logs/, tmp/, the local CA (ca.pem, ca.key) and the server
// certificate (server.pem, server.key) whose SAN list covers every manifest
// host. Nothing under /etc or /var is touched, so it runs as root or not.
//
// The config has one server{} per host listening on 127.0.0.1:http_port and
// 127.0.0.1:tls_port (ssl), plus a default_server answering 404 so links to
// hosts that are not served fail fast. Per host:
//
//   location "<url_prefix>" { alias "T/<html_root>/"; }     once per (prefix, html_root)
//   location ~ "^<url_prefix>(?:<globs as regex>)$" { return 404; }   rows with excludes
//   location / { return 404; }                               unless a prefix is "/"
//
// Default nginx behaviour then gives: "dir/" serves dir/index.html, a
// directory without index.html is 403, a directory without its trailing
// slash gets a 301, the query string is ignored.
#ifndef TOPICRAWL_WEB_NGINX_WEB_H_
#define TOPICRAWL_WEB_NGINX_WEB_H_

#include <string>

#include "core/status.h"
#include "web/manifest.h"

namespace topicrawl::web {

struct NginxConfigOptions {
  std::string dir;   // absolute; pid, logs and temp files go here
  std::string root;  // absolute T: the tree every package was extracted into
  int http_port = 0;
  int tls_port = 0;  // 0: no TLS listeners
  std::string cert_file;  // required when tls_port != 0
  std::string key_file;
  int worker_processes = 1;
  // worker_rlimit_nofile; 0 = leave the inherited limit (assumed 1024).
  // worker_connections (files/4, at most 8192) and the open_file_cache size
  // (files/2, at most 100000) are derived from it.
  int max_open_files = 0;
  // Adds "user root root;" so workers can read trees and temp dirs that only
  // root can reach (nginx ignores `user` when the master is not root).
  bool run_workers_as_root = false;
  // Extra config text (an evolved web's round, web/evolved_web.h): inside
  // http{} before the servers, and at the top of every host's server{}.
  std::string http_extra;
  std::string server_extra;
};

// The complete nginx.conf text. Errors: relative paths, a missing cert when
// TLS is on.
StatusOr<std::string> RenderNginxConfig(const Manifest& manifest, const NginxConfigOptions& options);

// Makes sure DIR holds ca.pem/ca.key and a server.pem/server.key signed by it
// whose SAN list is exactly `hosts` + localhost + 127.0.0.1 (regenerates the
// server certificate when the host list changed; keeps an existing CA).
// Uses the openssl command line; EC P-256 keys.
Status EnsureCertificates(const std::string& dir, const std::vector<std::string>& hosts);

struct ServeOptions {
  std::string dir;         // instance directory (created if missing)
  std::string root;        // T; default DIR/root
  int http_port = 18080;   // 0 = any free port; the default falls back to a free port if taken
  int tls_port = 18443;
  bool ports_are_defaults = true;  // set false when the user chose the ports
  std::string nginx_binary = "/usr/sbin/nginx";
  int worker_processes = 1;
  double startup_timeout_s = 10;
  std::string http_extra;    // as NginxConfigOptions
  std::string server_extra;
};

struct ServeInfo {
  int http_port = 0;
  int tls_port = 0;
  std::string ca_file;
  // "--connect-to :80:127.0.0.1:P --connect-to :443:127.0.0.1:Q --cacert CA"
  std::string CrawlArgs() const;
};

// Writes DIR/nginx.conf, stops an instance already running from DIR, starts
// nginx daemonised (-c DIR/nginx.conf -p DIR/ -e DIR/logs/error.log) and waits
// until the HTTP port answers a request and the TLS port accepts connections.
// On failure the message includes the tail of nginx's output.
StatusOr<ServeInfo> StartNginxWeb(const Manifest& manifest, const ServeOptions& options);

// Stops the instance whose pid file is DIR/nginx.pid (SIGTERM, then waits up
// to 5 s; SIGKILL after that). OK when nothing is running.
Status StopNginxWeb(const std::string& dir);

// A port for 127.0.0.1: `preferred` when it can be bound now, else (or when
// preferred is 0) one the kernel picks. -1 on failure.
int PickLoopbackPort(int preferred);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_NGINX_WEB_H_
