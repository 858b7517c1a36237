// topicrawl fetch [options] URL...
// Fetches the URLs concurrently with the crawler's Fetcher and prints one
// block per URL: status, HTTP code, redirect chain, Content-Type, sizes,
// remote address, time and error. --head adds the raw request/response heads,
// --body writes the (decoded) body to stdout.
// Exit 0 when every URL ended with status ok (or not_modified), 1 otherwise,
// 2 for bad options (e.g. a malformed --connect-to).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "fetch/fetcher.h"

namespace topicrawl::cli {
namespace {

struct FetchFlags {
  FetcherOptions options;
  std::vector<std::string> urls;
  bool robots = false;
  bool head = false;
  bool body = false;
};

void PrintResult(const FetchResult& r, const FetchFlags& flags) {
  std::cout << r.task.url << "\n  status: " << FetchStatusName(r.status)
            << "\n  http_code: " << r.http_code << "\n";
  for (size_t i = 1; i < r.redirect_chain.size(); ++i) {
    std::cout << "  redirect: " << r.redirect_chain[i] << "\n";
  }
  std::cout << "  final_url: " << r.final_url << "\n  content_type: " << r.content_type
            << "\n  bytes: " << r.body.size() << "\n  remote_ip: " << r.remote_ip
            << "\n  seconds: " << r.fetch_seconds << "\n";
  if (!r.etag.empty()) std::cout << "  etag: " << r.etag << "\n";
  if (!r.last_modified.empty()) std::cout << "  last_modified: " << r.last_modified << "\n";
  if (r.retry_after_s >= 0) std::cout << "  retry_after_s: " << r.retry_after_s << "\n";
  if (!r.error.empty()) std::cout << "  error: " << r.error << "\n";
  if (flags.head) std::cout << r.request_head << r.response_head;
  if (flags.body) std::cout << r.body << "\n";
}

int RunFetch(const FetchFlags& flags) {
  Status valid = ValidateFetcherOptions(flags.options);
  if (!valid.ok()) {
    std::cerr << "topicrawl fetch: " << valid.message() << "\n";
    return kExitUsage;
  }
  auto fetcher = NewCurlFetcher(flags.options, SystemClock());
  for (const std::string& url : flags.urls) {
    CrawlTask task;
    task.url = url;
    fetcher->Submit(task, flags.robots ? FetchKind::kRobots : FetchKind::kPage);
  }
  bool all_ok = true;
  while (fetcher->InFlight() > 0) {
    for (const FetchResult& r : fetcher->Poll(Seconds(1))) {
      all_ok = all_ok && (r.status == FetchStatus::kOk || r.status == FetchStatus::kNotModified);
      PrintResult(r, flags);
    }
  }
  return all_ok ? kExitOk : kExitFailure;
}

}  // namespace

void AddFetchCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("fetch", "Fetch URLs with the crawler's fetcher");
  auto flags = std::make_shared<FetchFlags>();
  FetcherOptions& o = flags->options;
  cmd->add_option("urls", flags->urls, "Absolute http(s) URLs")->required();
  cmd->add_option("--connect-to", o.connect_to,
                  "HOST:PORT:CONNECT-HOST:CONNECT-PORT, as curl (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--cacert", o.cacert, "PEM CA bundle");
  cmd->add_option("--proxy", o.proxy, "HTTP proxy URL");
  cmd->add_option("--user-agent", o.user_agent, "User-Agent header")->capture_default_str();
  cmd->add_option("--timeout", o.total_timeout_s, "Total timeout, seconds")
      ->capture_default_str();
  cmd->add_option("--connect-timeout", o.connect_timeout_s, "Connect timeout, seconds")
      ->capture_default_str();
  cmd->add_option("--max-body", o.max_body_bytes, "Maximum body bytes")->capture_default_str();
  cmd->add_option("--max-redirects", o.max_redirects, "Maximum redirects")
      ->capture_default_str();
  cmd->add_flag("--allow-private", o.allow_private,
                "Allow private/loopback destinations");
  cmd->add_flag("--robots", flags->robots, "Fetch as robots.txt (any Content-Type)");
  cmd->add_flag("--head", flags->head, "Print raw request and response heads");
  cmd->add_flag("--body", flags->body, "Print the body");
  cmd->callback([exit_code, flags] { *exit_code = RunFetch(*flags); });
}

}  // namespace topicrawl::cli
