#include "export/host_optout.h"

#include "robots/robots_cache.h"

namespace topicrawl {

Status HostOptOut::Load(CrawlDbReader& db) {
  if (!db.HasColumn("host_files", "body")) return Status::Ok();
  // The last row of each (host, name): a resumed crawl refetches them.
  return db.Query(
      "SELECT host, name, body FROM host_files WHERE rowid IN "
      "(SELECT max(rowid) FROM host_files GROUP BY host, name)",
      {}, [&](const DbRow& row) {
        const std::string name = row.Text(1);
        if (name == "robots.txt") SetRobots(row.Text(0), row.Text(2));
        if (name == "tdmrep.json") SetTdmRep(row.Text(0), row.Text(2));
        return true;
      });
}

void HostOptOut::SetRobots(const std::string& host_key, std::string_view body) {
  hosts_[host_key].robots = RobotsRules::Parse(body);
}

void HostOptOut::SetTdmRep(const std::string& host_key, std::string_view body) {
  Host& h = hosts_[host_key];
  StatusOr<std::vector<TdmRepRule>> rules = ParseTdmRepJson(body);
  if (rules.ok()) {
    h.tdmrep = std::move(rules).value();
    h.tdmrep_error.clear();
  } else {
    h.tdmrep.clear();
    h.tdmrep_error = rules.status().message();
  }
}

void HostOptOut::Apply(std::string_view url, OptOutSignals* out) const {
  const auto it = hosts_.find(RobotsHostKey(url));
  if (it == hosts_.end()) return;
  const Host& h = it->second;
  for (const RobotsRules::UsageLine& u : h.robots.UsagePreferences(agent_, url)) {
    out->signals.push_back("robots.txt " + u.field + ": " + u.value);
    out->reserved = out->reserved || UsageReserves(u.value);
  }
  if (!h.tdmrep_error.empty()) {
    out->signals.push_back("tdmrep.json: unreadable (" + h.tdmrep_error + ")");
  }
  const std::string path = RobotsMatchPath(url);
  for (const TdmRepRule& r : h.tdmrep) {
    if (!RobotsPatternMatches(r.location, path)) continue;
    std::string s = "tdmrep.json: tdm-reservation " + std::to_string(r.reservation) +
                    " (location " + r.location + ")";
    if (!r.policy.empty()) s += " policy " + r.policy;
    out->signals.push_back(std::move(s));
    out->reserved = out->reserved || r.reservation == 1;
    break;  // the first matching rule applies
  }
}

}  // namespace topicrawl
