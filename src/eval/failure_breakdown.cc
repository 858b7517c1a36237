#include "eval/failure_breakdown.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "url/url.h"

namespace topicrawl::eval {
namespace {

std::string Col(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

std::string Cause(const std::string& status, int http_code, const std::string& robots) {
  if (status == "robots_denied") {
    return robots.empty() ? "robots.txt disallows" : "robots.txt unreachable (" + robots + ")";
  }
  if (status == "http_error") {
    if (http_code >= 400 && http_code < 500) return "HTTP 4xx";
    if (http_code >= 500) return "HTTP 5xx";
    return "HTTP error";
  }
  if (status == "timeout") return "timeout";
  if (status == "connect_error") return "connection refused or reset";
  if (status == "dns_error") return "DNS failure";
  if (status == "tls_error") return "TLS failure";
  if (status == "private_address") return "refused address (private/loopback)";
  return status;
}

}  // namespace

StatusOr<FailureBreakdown> ReadFailureBreakdown(const std::string& dir,
                                                const std::vector<std::string>& connect_to) {
  sqlite3* db = nullptr;
  const std::string path = dir + "/crawl.db";
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return Status::Error("cannot open " + path);
  }
  sqlite3_busy_timeout(db, 2000);
  FailureBreakdown out;
  std::set<std::string> web;
  bool wildcard = false;
  for (const std::string& ct : connect_to) {
    const std::string host = ct.substr(0, ct.find(':'));
    if (host.empty()) wildcard = true;
    web.insert(host);
  }
  out.web_known = !connect_to.empty() && !wildcard;
  // Without a host list (no --connect-to, or a wildcard one such as the
  // benchmark webs' ":80:127.0.0.1:PORT"), the web is the set of hosts that
  // served at least one page.
  std::set<std::string> served;
  if (!out.web_known) {
    sqlite3_stmt* q = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT DISTINCT url FROM pages WHERE status = 'ok'", -1, &q,
                           nullptr) == SQLITE_OK) {
      while (sqlite3_step(q) == SQLITE_ROW) served.insert(UrlHost(Col(q, 0)));
    }
    sqlite3_finalize(q);
    web = served;
    out.web_known = true;
    out.web_from_pages = true;
  }
  // robots.txt fetches that did not give rules: "key status code" events.
  std::map<std::string, std::string> robots_failed;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT detail FROM events WHERE kind = 'robots'", -1, &st,
                         nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::istringstream in(Col(st, 0));
      std::string key, status;
      int code = 0;
      in >> key >> status >> code;
      if (status != "ok" || code >= 500) {
        robots_failed[key] = status == "ok" || status == "http_error" ? "HTTP " + std::to_string(code)
                                                                      : status;
      } else {
        robots_failed.erase(key);
      }
    }
  }
  sqlite3_finalize(st);
  std::map<std::string, FailureCause> causes;
  std::map<std::string, std::set<std::string>> cause_hosts;
  std::set<std::string> outside_hosts;
  // Schema 6 keeps URL-trap refusals in the `refusals` view, not in pages.
  const bool has_refusals = sqlite3_exec(db, "SELECT 1 FROM refusals LIMIT 0", nullptr, nullptr,
                                         nullptr) == SQLITE_OK;
  const std::string failures =
      std::string("SELECT url, status, http_code FROM pages WHERE status != 'ok'") +
      (has_refusals ? " UNION ALL SELECT url, status, 0 FROM refusals" : "");
  if (sqlite3_prepare_v2(db, failures.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(db);
    sqlite3_close(db);
    return Status::Error("cannot read pages: " + msg);
  }
  while (sqlite3_step(st) == SQLITE_ROW) {
    const std::string url = Col(st, 0);
    const std::string status = Col(st, 1);
    const int code = sqlite3_column_int(st, 2);
    std::string robots;
    if (status == "robots_denied") {
      const std::string scheme = url.substr(0, url.find(':'));
      auto it = robots_failed.find(scheme + "://" + UrlHostPort(url));
      if (it != robots_failed.end()) robots = it->second;
    }
    const std::string cause = Cause(status, code, robots);
    FailureCause& c = causes[cause];
    c.cause = cause;
    ++c.pages;
    ++out.failed;
    const std::string host = UrlHost(url);
    cause_hosts[cause].insert(host);
    if (out.web_known && !web.count(host)) {
      ++c.outside_pages;
      ++out.outside;
      outside_hosts.insert(host);
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  for (auto& [name, c] : causes) {
    c.hosts = static_cast<int64_t>(cause_hosts[name].size());
    out.causes.push_back(c);
  }
  std::sort(out.causes.begin(), out.causes.end(),
            [](const FailureCause& a, const FailureCause& b) {
              if (a.pages != b.pages) return a.pages > b.pages;
              return a.cause < b.cause;
            });
  out.outside_hosts = static_cast<int64_t>(outside_hosts.size());
  return out;
}

std::string FailureBreakdownText(const FailureBreakdown& b) {
  std::ostringstream out;
  if (b.failed == 0) return "  no failures\n";
  for (const FailureCause& c : b.causes) {
    out << "  " << c.pages << "  " << c.cause << " on " << c.hosts
        << (c.hosts == 1 ? " host" : " hosts");
    if (b.web_known) {
      if (c.outside_pages == c.pages) {
        out << ", all outside the crawl's web";
      } else if (c.outside_pages > 0) {
        out << ", " << c.outside_pages << " outside the crawl's web";
      }
    }
    out << "\n";
  }
  if (b.web_known && b.outside > 0) {
    out << "  (" << b.outside << " of " << b.failed << " failures are links to "
        << b.outside_hosts << " hosts outside the crawl's web ("
        << (b.web_from_pages ? "hosts that served no page" : "not named by --connect-to")
        << "): expected on an offline web)\n";
  }
  return out.str();
}

}  // namespace topicrawl::eval
