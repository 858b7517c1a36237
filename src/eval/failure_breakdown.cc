#include "eval/failure_breakdown.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <sstream>
#include <utility>

#include "eval/sqlite_handles.h"
#include "url/url.h"

namespace topicrawl::eval {
namespace {

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

// The hosts of the crawl's web: those named by --connect-to; without such a
// list (no --connect-to, or a wildcard one such as the benchmark webs'
// ":80:127.0.0.1:PORT"), the hosts that served at least one page.
std::set<std::string> WebHosts(sqlite3* db, const std::vector<std::string>& connect_to,
                               FailureBreakdown* out) {
  std::set<std::string> web;
  bool wildcard = false;
  for (const std::string& ct : connect_to) {
    const std::string host = ct.substr(0, ct.find(':'));
    if (host.empty()) wildcard = true;
    web.insert(host);
  }
  out->web_known = true;
  if (!connect_to.empty() && !wildcard) return web;
  out->web_from_pages = true;
  std::set<std::string> served;
  ForEachRow(db, "SELECT DISTINCT url FROM pages WHERE status = 'ok'",
             [&served](sqlite3_stmt* st) { served.insert(UrlHost(ColumnText(st, 0))); });
  return served;
}

// robots.txt fetches that did not give rules, by "scheme://host:port": their
// status, or "HTTP <code>" (from "key status code" events; a later success
// clears a failure).
std::map<std::string, std::string> RobotsFailures(sqlite3* db) {
  std::map<std::string, std::string> failed;
  ForEachRow(db, "SELECT detail FROM events WHERE kind = 'robots'", [&failed](sqlite3_stmt* st) {
    std::istringstream in(ColumnText(st, 0));
    std::string key, status;
    int code = 0;
    in >> key >> status >> code;
    if (status != "ok" || code >= 500) {
      failed[key] = status == "ok" || status == "http_error" ? "HTTP " + std::to_string(code)
                                                             : status;
    } else {
      failed.erase(key);
    }
  });
  return failed;
}

// Failures counted by cause, with their hosts and those outside the web.
class CauseTally {
 public:
  CauseTally(std::set<std::string> web, std::map<std::string, std::string> robots_failed,
             FailureBreakdown* out)
      : web_(std::move(web)), robots_failed_(std::move(robots_failed)), out_(out) {}

  // One failed URL with its fetch status and HTTP code.
  void Add(const std::string& url, const std::string& status, int http_code) {
    std::string robots;
    if (status == "robots_denied") {
      const std::string scheme = url.substr(0, url.find(':'));
      auto it = robots_failed_.find(scheme + "://" + UrlHostPort(url));
      if (it != robots_failed_.end()) robots = it->second;
    }
    const std::string cause = Cause(status, http_code, robots);
    FailureCause& c = causes_[cause];
    c.cause = cause;
    ++c.pages;
    ++out_->failed;
    const std::string host = UrlHost(url);
    cause_hosts_[cause].insert(host);
    if (out_->web_known && !web_.count(host)) {
      ++c.outside_pages;
      ++out_->outside;
      outside_hosts_.insert(host);
    }
  }

  // `pages` failures of `status` whose URLs (and so hosts) are not read.
  void AddUncounted(const std::string& status, int64_t pages) {
    const std::string cause = Cause(status, 0, "");
    FailureCause& c = causes_[cause];
    c.cause = cause;
    c.pages += pages;
    out_->failed += pages;
    uncounted_.insert(cause);
  }

  // The causes into `out`, most pages first.
  void Finish() {
    for (auto& [name, c] : causes_) {
      c.hosts = uncounted_.count(name) ? -1 : static_cast<int64_t>(cause_hosts_[name].size());
      out_->causes.push_back(c);
    }
    std::sort(out_->causes.begin(), out_->causes.end(),
              [](const FailureCause& a, const FailureCause& b) {
                if (a.pages != b.pages) return a.pages > b.pages;
                return a.cause < b.cause;
              });
    out_->outside_hosts = static_cast<int64_t>(outside_hosts_.size());
  }

 private:
  const std::set<std::string> web_;
  const std::map<std::string, std::string> robots_failed_;
  FailureBreakdown* out_;
  std::map<std::string, FailureCause> causes_;
  std::map<std::string, std::set<std::string>> cause_hosts_;
  std::set<std::string> outside_hosts_;
  std::set<std::string> uncounted_;  // causes whose hosts are not counted
};

// Schema 6 keeps URL-trap refusals out of pages. Their statuses by url_id
// first (a few distinct), then their URLs from their admission rows: one
// scan of frontier_log probing the set of refused ids, cut URLs joined back
// to their parent page's like the `refusals` view does (the view's join
// builds an index over the whole log: ~2.5x the CPU).
void AddRefusalsWithHosts(sqlite3* db, CauseTally* tally) {
  std::vector<std::string> names;
  std::unordered_map<int64_t, uint32_t> status_of;
  ForEachRow(db,
             "SELECT s.url_id, r.status FROM frontier_state s "
             "JOIN refusal_reasons r ON r.id = s.reason",
             [&](sqlite3_stmt* st) {
               const std::string name = ColumnText(st, 1);
               auto it = std::find(names.begin(), names.end(), name);
               if (it == names.end()) it = names.insert(names.end(), name);
               status_of[sqlite3_column_int64(st, 0)] = static_cast<uint32_t>(it - names.begin());
             });
  ForEachRow(db,
             "SELECT f.url_id, CASE substr(f.url, 1, 1) "
             "WHEN '/' THEN substr(pp.url, 1, instr(substr(pp.url, 9), '/') + 7) || f.url "
             "WHEN '.' THEN rtrim(pp.url, replace(pp.url, '/', '')) || substr(f.url, 2) "
             "ELSE f.url END FROM frontier_log f LEFT JOIN pages pp ON pp.id = f.parent_id "
             "WHERE f.url_id IN (SELECT url_id FROM frontier_state WHERE reason IS NOT NULL)",
             [&](sqlite3_stmt* st) {
               auto it = status_of.find(sqlite3_column_int64(st, 0));
               if (it == status_of.end()) return;
               tally->Add(ColumnText(st, 1), names[it->second], 0);
               status_of.erase(it);  // the first admission row only
             });
}

// The refusals counted by status only (no scan of frontier_log).
void AddRefusalsByStatus(sqlite3* db, CauseTally* tally) {
  ForEachRow(db,
             "SELECT r.status, count(*) FROM frontier_state s JOIN refusal_reasons r "
             "ON r.id = s.reason GROUP BY r.status",
             [tally](sqlite3_stmt* st) {
               tally->AddUncounted(ColumnText(st, 0), sqlite3_column_int64(st, 1));
             });
}

}  // namespace

StatusOr<FailureBreakdown> ReadFailureBreakdown(const std::string& dir,
                                                const std::vector<std::string>& connect_to,
                                                bool refusal_hosts) {
  StatusOr<DbPtr> db = OpenReadOnly(dir + "/crawl.db");
  if (!db.ok()) return db.status();
  FailureBreakdown out;
  std::set<std::string> web = WebHosts(db->get(), connect_to, &out);
  CauseTally tally(std::move(web), RobotsFailures(db->get()), &out);
  Status s = ForEachRow(db->get(), "SELECT url, status, http_code FROM pages WHERE status != 'ok'",
                        [&tally](sqlite3_stmt* st) {
                          tally.Add(ColumnText(st, 0), ColumnText(st, 1),
                                    sqlite3_column_int(st, 2));
                        });
  if (!s.ok()) return Status::Error("cannot read pages: " + s.message());
  const bool has_refusals = sqlite3_exec(db->get(), "SELECT 1 FROM refusal_reasons LIMIT 0",
                                         nullptr, nullptr, nullptr) == SQLITE_OK;
  if (has_refusals && refusal_hosts) AddRefusalsWithHosts(db->get(), &tally);
  if (has_refusals && !refusal_hosts) AddRefusalsByStatus(db->get(), &tally);
  tally.Finish();
  return out;
}

std::string FailureBreakdownText(const FailureBreakdown& b) {
  std::ostringstream out;
  if (b.failed == 0) return "  no failures\n";
  for (const FailureCause& c : b.causes) {
    out << "  " << c.pages << "  " << c.cause;
    if (c.hosts >= 0) {
      out << " on " << c.hosts << (c.hosts == 1 ? " host" : " hosts");
    } else {
      out << " (hosts: topicrawl eval)";
    }
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
