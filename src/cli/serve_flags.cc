#include "cli/serve_flags.h"

#include <fstream>
#include <sstream>

namespace topicrawl::cli {

ServeFlags& GivenServeFlags() {
  static ServeFlags flags;
  return flags;
}

void AddServerSecurityFlags(CLI::App* cmd, ServeFlags* f) {
  cmd->add_option("--token", f->token,
                  "Bearer token required by the API (mandatory off 127.0.0.1; prefer "
                  "--token-file: command lines are visible to other users)");
  cmd->add_option("--token-file", f->token_file, "File holding the bearer token");
}

void AddServeFlags(CLI::App* cmd) {
  ServeFlags* f = &GivenServeFlags();
  cmd->add_option("--serve", f->listen,
                  "Serve the REST API, /metrics and the dashboard on ADDR:PORT while "
                  "crawling (e.g. 127.0.0.1:8080; port 0 = any free port)");
  AddServerSecurityFlags(cmd, f);
  cmd->add_option("--serve-labels", f->labels,
                  "Label file (url<TAB>relevant): the dashboard shows a live recall estimate");
  cmd->add_flag("--index", f->index,
                "Build the full-text search index (DIR/search) while crawling, on a "
                "low-priority thread");
  cmd->add_option("--serve-linger", f->linger_s,
                  "Keep serving this many seconds after the crawl ends (POST /api/stop "
                  "ends it early)");
}

StatusOr<ServerOptions> MakeServerOptions(const ServeFlags& flags, const std::string& listen) {
  ServerOptions o;
  o.listen = listen;
  o.token = flags.token;
  o.labels_file = flags.labels;
  if (!flags.token_file.empty()) {
    std::ifstream in(flags.token_file);
    if (!in) return Status::Error("cannot read --token-file " + flags.token_file);
    std::getline(in, o.token);
    while (!o.token.empty() && (o.token.back() == '\r' || o.token.back() == ' ')) {
      o.token.pop_back();
    }
    if (o.token.empty()) return Status::Error("--token-file " + flags.token_file + " is empty");
  }
  if (!o.token.empty() && o.token.size() < 16) {
    return Status::Error("the token must have at least 16 characters");
  }
  return o;
}

}  // namespace topicrawl::cli
