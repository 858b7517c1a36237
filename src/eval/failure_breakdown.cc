#include "eval/failure_breakdown.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
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
                                                const std::vector<std::string>& connect_to,
                                                bool refusal_hosts) {
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
  const bool has_refusals = sqlite3_exec(db, "SELECT 1 FROM refusal_reasons LIMIT 0", nullptr,
                                         nullptr, nullptr) == SQLITE_OK;
  auto add = [&](const std::string& url, const std::string& status, int code) {
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
  };
  if (sqlite3_prepare_v2(db, "SELECT url, status, http_code FROM pages WHERE status != 'ok'",
                         -1, &st, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(db);
    sqlite3_close(db);
    return Status::Error("cannot read pages: " + msg);
  }
  while (sqlite3_step(st) == SQLITE_ROW) {
    add(Col(st, 0), Col(st, 1), sqlite3_column_int(st, 2));
  }
  sqlite3_finalize(st);
  st = nullptr;  // finalized once more below: a no-op on NULL
  // Schema 6 keeps URL-trap refusals out of pages. Their statuses by url_id
  // first (a few distinct), then their URLs from their admission rows: one
  // scan of frontier_log probing the set of refused ids, cut URLs joined
  // back to their parent page's like the `refusals` view does (the view's
  // join builds an index over the whole log: ~2.5x the CPU).
  if (has_refusals && refusal_hosts) {
    std::vector<std::string> names;
    std::unordered_map<int64_t, uint32_t> status_of;
    if (sqlite3_prepare_v2(db,
                           "SELECT s.url_id, r.status FROM frontier_state s "
                           "JOIN refusal_reasons r ON r.id = s.reason",
                           -1, &st, nullptr) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW) {
        const std::string name = Col(st, 1);
        auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) it = names.insert(names.end(), name);
        status_of[sqlite3_column_int64(st, 0)] = static_cast<uint32_t>(it - names.begin());
      }
      sqlite3_finalize(st);
      st = nullptr;
    }
    if (sqlite3_prepare_v2(
            db,
            "SELECT f.url_id, CASE substr(f.url, 1, 1) "
            "WHEN '/' THEN substr(pp.url, 1, instr(substr(pp.url, 9), '/') + 7) || f.url "
            "WHEN '.' THEN rtrim(pp.url, replace(pp.url, '/', '')) || substr(f.url, 2) "
            "ELSE f.url END FROM frontier_log f LEFT JOIN pages pp ON pp.id = f.parent_id "
            "WHERE f.url_id IN (SELECT url_id FROM frontier_state WHERE reason IS NOT NULL)",
            -1, &st, nullptr) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW) {
        auto it = status_of.find(sqlite3_column_int64(st, 0));
        if (it == status_of.end()) continue;
        add(Col(st, 1), names[it->second], 0);
        status_of.erase(it);  // the first admission row only
      }
    }
  }
  sqlite3_finalize(st);
  std::map<std::string, int64_t> uncounted;  // refusals counted by status only
  if (has_refusals && !refusal_hosts &&
      sqlite3_prepare_v2(db,
                         "SELECT r.status, count(*) FROM frontier_state s JOIN refusal_reasons r "
                         "ON r.id = s.reason GROUP BY r.status",
                         -1, &st, nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      const std::string cause = Cause(Col(st, 0), 0, "");
      FailureCause& c = causes[cause];
      c.cause = cause;
      c.pages += sqlite3_column_int64(st, 1);
      out.failed += sqlite3_column_int64(st, 1);
      uncounted[cause] += sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  for (auto& [name, c] : causes) {
    c.hosts = uncounted.count(name) ? -1 : static_cast<int64_t>(cause_hosts[name].size());
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
