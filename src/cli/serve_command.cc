// topicrawl serve DIR... [--listen ADDR:PORT]: the REST API, /metrics and the
// dashboard over finished crawl directories (or crawls running in another
// process), read-only through SQLite WAL readers. docs/guides/api.md.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/serve_flags.h"
#include "server/api_server.h"

namespace topicrawl::cli {
namespace {

std::atomic<bool> g_serve_stop{false};
void OnServeSignal(int) { g_serve_stop.store(true); }

struct ServeCommandFlags {
  std::vector<std::string> dirs;
  std::string listen = "127.0.0.1:8080";
  ServeFlags security;
  std::string labels;
};

int RunServe(const ServeCommandFlags& f) {
  auto options = MakeServerOptions(f.security, f.listen);
  if (!options.ok()) {
    std::cerr << "error: " << options.status().message() << "\n";
    return kExitUsage;
  }
  options->labels_file = f.labels;
  std::vector<ServedCrawl> crawls;
  for (const std::string& d : f.dirs) crawls.push_back({d, nullptr});
  auto server = ApiServer::Start(*options, std::move(crawls));
  if (!server.ok()) {
    std::cerr << "error: " << server.status().message() << "\n";
    return kExitUsage;
  }
  std::signal(SIGINT, OnServeSignal);
  std::signal(SIGTERM, OnServeSignal);
  std::fprintf(stderr, "serving %zu crawl(s) at %s (Ctrl-C stops)\n", f.dirs.size(),
               (*server)->url().c_str());
  std::fflush(stderr);
  while (!g_serve_stop.load()) {
    (*server)->WaitForStopRequest(std::chrono::milliseconds(200));
  }
  (*server)->Stop();
  return kExitOk;
}

}  // namespace

void AddServeCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ServeCommandFlags>();
  auto* cmd = app.add_subcommand(
      "serve", "Serve the REST API, /metrics and the dashboard for crawl directories "
               "(read-only; docs/guides/api.md)");
  cmd->add_option("DIR", flags->dirs, "Crawl directories")->required();
  cmd->add_option("--listen", flags->listen,
                  "ADDR:PORT (default 127.0.0.1:8080; other addresses need a token)");
  AddServerSecurityFlags(cmd, &flags->security);
  cmd->add_option("--labels", flags->labels, "Label file: recall estimate on the dashboard");
  cmd->callback([flags, exit_code] { *exit_code = RunServe(*flags); });
}

}  // namespace topicrawl::cli
