// Why pages failed, by cause, and which failures are hosts outside the
// crawl's web. A newcomer's first crawl of the offline dev web ends with
// thousands of failures that are links to the real internet (no route, a
// robots.txt that cannot be fetched): this tells them apart from failures
// of the web itself (HTTP 4xx of broken links, timeouts, ...).
//
// Causes: "robots.txt unreachable (<status of the robots fetch>)",
// "robots.txt disallows", "HTTP 4xx", "HTTP 5xx", "timeout", "connection
// refused or reset", "DNS failure", "TLS failure", "refused address
// (private/loopback)", else the status name. The crawl's web is the set of
// hosts named by --connect-to (HOST:PORT:...); without such a list (no
// --connect-to, or a wildcard ":PORT:..." one) it is the set of hosts that
// served at least one page in this crawl.
#ifndef TOPICRAWL_EVAL_FAILURE_BREAKDOWN_H_
#define TOPICRAWL_EVAL_FAILURE_BREAKDOWN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

struct FailureCause {
  std::string cause;
  int64_t pages = 0;
  int64_t outside_pages = 0;  // of those, on hosts outside the crawl's web
  int64_t hosts = 0;  // -1: not counted (refusals, refusal_hosts false)
};

struct FailureBreakdown {
  int64_t failed = 0;
  int64_t outside = 0;
  bool web_known = false;       // the web's hosts are known (below)
  bool web_from_pages = false;  // ... as the hosts that served a page (no
                                // host list in --connect-to)
  int64_t outside_hosts = 0;
  std::vector<FailureCause> causes;  // most pages first
};

// Reads DIR/crawl.db (pages with status != 'ok', robots events, and the
// refusals of schema 6, which have no pages row). With refusal_hosts false,
// schema 6 refusals are counted by status only (their cause's hosts are -1,
// "hosts not counted"): finding their URLs scans the whole frontier_log
// (~1 s of CPU per 1.5 M admitted URLs), which the crawl's own summary
// skips so it ends promptly.
StatusOr<FailureBreakdown> ReadFailureBreakdown(const std::string& dir,
                                                const std::vector<std::string>& connect_to,
                                                bool refusal_hosts = true);

// Indented lines, one per cause, e.g.
//   9527 robots.txt unreachable (dns_error) on 812 hosts, all outside the web
std::string FailureBreakdownText(const FailureBreakdown& b);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_FAILURE_BREAKDOWN_H_
