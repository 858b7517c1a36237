// The --serve family of flags that a crawling command shares (crawl, and
// recrawl: one line, AddServeFlags(cmd)). They are stored in one place per
// process (only one subcommand runs), and RunCrawlWithSignals()
// (cli/crawl_runner.h) reads them: with --serve it attaches a CrawlMonitor
// to the Crawler and runs the REST API + dashboard next to the crawl; with
// --index it keeps the full-text index up to date while crawling.
#ifndef TOPICRAWL_CLI_SERVE_FLAGS_H_
#define TOPICRAWL_CLI_SERVE_FLAGS_H_

#include <string>

#include <CLI/CLI.hpp>

#include "core/status.h"
#include "server/api_server.h"

namespace topicrawl::cli {

struct ServeFlags {
  std::string listen;      // --serve ADDR:PORT ("" = no server)
  std::string token;       // --token
  std::string token_file;  // --token-file
  std::string labels;      // --serve-labels (recall estimate)
  bool index = false;      // --index
  double linger_s = 0;     // --serve-linger
};

// Registers --serve, --token, --token-file, --serve-labels, --index and
// --serve-linger on `cmd`.
void AddServeFlags(CLI::App* cmd);
// Registers only the server's own flags (--listen style is the caller's):
// --token, --token-file, --labels (for `serve`).
void AddServerSecurityFlags(CLI::App* cmd, ServeFlags* flags);
ServeFlags& GivenServeFlags();

// ServerOptions from flags (reads the token file). Errors are usage errors.
StatusOr<ServerOptions> MakeServerOptions(const ServeFlags& flags, const std::string& listen);

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_SERVE_FLAGS_H_
