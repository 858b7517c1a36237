// The per-host opt-out signals of a crawl, read from the host files the
// crawl kept (store/crawl_store.h AddHostFile: the last robots.txt and
// tdmrep.json of each host, by host key "scheme://host[:port]"):
//   robots.txt Content-Usage / Content-Signal lines of the groups that apply
//     to the crawler's robots agent, the longest matching path per field
//     (robots/robots_rules.h UsagePreferences), e.g.
//     "robots.txt content-usage: train-ai=n"; reserving when a use is denied
//     (export/optout.h UsageReserves).
//   /.well-known/tdmrep.json (TDMRep §3.3): the first rule whose location
//     matches the page's path, e.g. "tdmrep.json: tdm-reservation 1
//     (location /news/*)"; reserving when tdm-reservation is 1. A file that
//     is not a TDMRep array is a signal "tdmrep.json: unreadable (...)",
//     not a reservation.
// Crawls without a host_files table (older crawls, --no-robots) have none.
#ifndef TOPICRAWL_EXPORT_HOST_OPTOUT_H_
#define TOPICRAWL_EXPORT_HOST_OPTOUT_H_

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/status.h"
#include "export/optout.h"
#include "robots/robots_rules.h"
#include "store/crawl_db_reader.h"

namespace topicrawl {

class HostOptOut {
 public:
  explicit HostOptOut(std::string robots_agent) : agent_(std::move(robots_agent)) {}

  // Reads the last robots.txt and tdmrep.json of every host in `db`.
  Status Load(CrawlDbReader& db);
  // Sets a host's files directly (Load calls these).
  void SetRobots(const std::string& host_key, std::string_view body);
  void SetTdmRep(const std::string& host_key, std::string_view body);

  // Appends the signals of `url`'s host that apply to `url` to `out`.
  void Apply(std::string_view url, OptOutSignals* out) const;

 private:
  struct Host {
    RobotsRules robots;
    std::vector<TdmRepRule> tdmrep;
    std::string tdmrep_error;
  };
  std::string agent_;
  std::unordered_map<std::string, Host> hosts_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_HOST_OPTOUT_H_
