// An in-memory RoundHistory for unit tests of round policies.
#ifndef TOPICRAWL_TESTS_SUPPORT_FAKE_ROUND_HISTORY_H_
#define TOPICRAWL_TESTS_SUPPORT_FAKE_ROUND_HISTORY_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

class FakeRoundHistory : public RoundHistory {
 public:
  int last_round() const override { return summary.round; }
  const RoundSummary& LastRoundSummary() const override { return summary; }
  const std::vector<std::string>& OriginalSeeds() const override { return seeds; }
  double Beta() const override { return beta; }
  Status ForEachUrl(const std::function<bool(const KnownUrl&)>& visit) override {
    ++url_streams;
    for (const auto& [id, u] : urls) {
      if (!visit(u)) break;
    }
    return Status::Ok();
  }
  Status ForEachLink(const std::function<bool(UrlId, UrlId)>& visit) override {
    for (const auto& [from, to] : links) {
      if (!visit(from, to)) break;
    }
    return Status::Ok();
  }
  Status ForEachOutcome(int round,
                        const std::function<bool(const UrlOutcome&)>& visit) override {
    auto it = outcomes.find(round);
    if (it == outcomes.end()) return Status::Ok();
    for (const UrlOutcome& o : it->second) {
      if (!visit(o)) break;
    }
    return Status::Ok();
  }

  Status ForEachAnnouncement(int round,
                             const std::function<bool(const Announcement&)>& visit) override {
    auto it = announcements.find(round);
    if (it == announcements.end()) return Status::Ok();
    for (const Announcement& a : it->second) {
      if (!visit(a)) break;
    }
    return Status::Ok();
  }
  Status RecordHostTrust(int round, const std::vector<HostTrust>& rows) override {
    host_trust[round] = rows;
    return Status::Ok();
  }

  // Adds a URL fetched in rounds 0..last with the given history.
  KnownUrl& Add(UrlId id, const std::string& url) {
    KnownUrl& u = urls[id];
    u.url_id = id;
    u.url = url;
    u.host = "h";
    u.page_id = static_cast<PageId>(id);
    u.first_round = 0;
    u.last_round = summary.round < 0 ? 0 : summary.round;
    u.fetches = 1;
    u.last_state = UrlState::kNew;
    return u;
  }

  RoundSummary summary;
  std::vector<std::string> seeds;
  double beta = 0.25;
  std::map<UrlId, KnownUrl> urls;
  std::vector<std::pair<UrlId, UrlId>> links;
  std::map<int, std::vector<UrlOutcome>> outcomes;
  std::map<int, std::vector<Announcement>> announcements;  // by collection round
  std::map<int, std::vector<HostTrust>> host_trust;         // as recorded
  int url_streams = 0;  // ForEachUrl calls
};

}  // namespace topicrawl

#endif  // TOPICRAWL_TESTS_SUPPORT_FAKE_ROUND_HISTORY_H_
