// Round policy `signals` (issue 34): spend the round's budget on what the
// sites themselves announce, then on history, in this order:
//
//   1. Known URLs whose <lastmod> (sitemaps) or <updated>/<pubDate> (feeds)
//      is newer than what we fetched, on hosts whose lastmods are trusted.
//   2. URLs the sitemaps and feeds name that the crawl does not know (as
//      many as the budget left after tier 1 holds, newest first), queued as
//      links of their sitemap or feed and ordered by the crawl's strategy
//      (crawl/announced_links.h), in a priority band between tier 1 and the
//      estimator's values.
//   3. The rest of the budget: the adaptive policy's estimator (Cho &
//      Garcia-Molina, adaptive_policy.cc) over the URLs no trusted lastmod
//      covers (hosts without sitemaps, untrusted hosts, URLs missing from
//      the sitemap), plus a few covered URLs per trusted host (exploration:
//      a lastmod that hides changes is found only by looking).
//
// "Newer than what we fetched": the lastmod is later than the reference of
// our last fetch, the newest of (a) the lastmod the same site announced in
// the collection before the round of that fetch and (b) the fetch's HTTP
// Last-Modified; only when neither exists, the fetch time.
//
// Trust per host (Bing measured lastmod right for 79 % of sitemaps and
// wrong, mostly the build date, for 18 %): every revisit of a URL with a
// lastmod checks the claim: a newer lastmod that met a change or an
// unchanged one that met none agrees; a newer one that met no change, or
// an unchanged one that hid a change, disagrees. trust = (agree + 2) /
// (agree + disagree + 2.5) (a prior worth 2 agreements), trusted while
// >= 0.5. A host is untrusted at once when its lastmods have the shape of a
// build date: >= 90 % of its (>= 10) URLs carry one date and >= 90 % claim
// a change, or one date covers >= 90 % in two collections and moved
// between them. A host is untrusted for the round, too, when its lastmods
// hide edits: it names new URLs dated after every known URL's lastmod while
// none of its >= 10 known lastmods is newer than our fetch (a new page is
// reached by a link some existing page gained; a lastmod that never moves
// is the first date, never updated: Bing's "wrong" sitemaps other than the
// build date). Untrusted hosts fall back to the estimator.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "strategies/signals/signals_policy.h"

#include "crawl/rounds/policies.h"
#include "crawl/rounds/round_policy.h"

namespace topicrawl {
namespace {

constexpr double kPriorAgree = 2.0;
constexpr double kPriorTotal = 2.5;
constexpr double kTrustedAt = 0.5;
constexpr double kShapeShare = 0.9;
constexpr int64_t kShapeMinUrls = 10;
constexpr int kExplorePerHost = 2;
constexpr double kClaimBonus = 1000.0;  // tier 1 above any estimator value
// Tier 2, announced new URLs: kAnnouncedFloor + (0, 1) by the crawl's
// strategy (RoundPlan::announced_floor), between tier 1 and the estimator.
constexpr double kAnnouncedFloor = 500.0;
constexpr int64_t kSlackMs = 1000;

// How many of `fresh` announced new URLs a round takes when `claims`
// revisits of trusted newer lastmods come first: the budget left after the
// claims (budget < 0: no limit, all). The estimator gets the rest.
size_t SplitBudget(int64_t budget, int64_t claims, size_t fresh) {
  if (budget < 0) return fresh;
  const int64_t left = std::max<int64_t>(0, budget - claims);
  return std::min(fresh, static_cast<size_t>(left));
}

struct HostMemory {
  int64_t agree = 0, disagree = 0;
  int64_t modal_ms = 0;     // the most common lastmod of the last collection
  double modal_share = 0;   // its share of the host's lastmods
};

struct Claim {
  UrlId url_id = 0;
  std::string host;
  bool newer = false;
};

// One host's lastmods in this round's collection.
struct HostShape {
  std::map<int64_t, int64_t> dates;  // lastmod -> URLs
  int64_t with_lastmod = 0, claims = 0;
  int64_t fresh_after = 0;           // new URLs dated after every known URL's lastmod
  std::string untrusted;             // reason, "" = shape looks fine
};

class SignalsRoundPolicy : public RoundPolicy {
 public:
  explicit SignalsRoundPolicy(std::unique_ptr<RoundPolicy> estimator)
      : estimator_(std::move(estimator)) {}
  std::string_view Name() const override { return "signals"; }
  bool WantsAnnouncements() const override { return true; }

  Status OnRoundFinished(RoundHistory& history) override;
  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override;
  std::string SaveState() const override;
  Status RestoreState(std::string_view state) override;

 private:
  double Trust(const std::string& host) const {
    auto it = hosts_.find(host);
    const double a = it == hosts_.end() ? 0 : static_cast<double>(it->second.agree);
    const double d = it == hosts_.end() ? 0 : static_cast<double>(it->second.disagree);
    return (a + kPriorAgree) / (a + d + kPriorTotal);
  }
  Status ReadReferences(RoundHistory& history, int round,
                        std::unordered_map<UrlId, int64_t>* reference);
  void JudgeShapes(std::unordered_map<std::string, HostShape>* shapes);

  std::unique_ptr<RoundPolicy> estimator_;
  std::map<std::string, HostMemory> hosts_;
  std::vector<Claim> claims_;  // of the last plan, checked when its round ends
};

Status SignalsRoundPolicy::OnRoundFinished(RoundHistory& history) {
  if (Status s = estimator_->OnRoundFinished(history); !s.ok()) return s;
  std::unordered_map<UrlId, size_t> index;
  for (size_t i = 0; i < claims_.size(); ++i) index.emplace(claims_[i].url_id, i);
  Status s = history.ForEachOutcome(history.last_round(), [&](const UrlOutcome& o) {
    auto it = index.find(o.url_id);
    if (it == index.end() || !o.revisit) return true;
    const bool changed = o.state == UrlState::kChanged || o.state == UrlState::kTriviallyChanged;
    if (!changed && o.state != UrlState::kUnchanged) return true;  // gone, failed: no verdict
    const Claim& c = claims_[it->second];
    HostMemory& h = hosts_[c.host];
    (c.newer == changed ? h.agree : h.disagree) += 1;
    return true;
  });
  claims_.clear();
  return s;
}

// For every known URL, the lastmod its site announced before the round of
// its last fetch (0 when none).
Status SignalsRoundPolicy::ReadReferences(RoundHistory& history, int round,
                                          std::unordered_map<UrlId, int64_t>* reference) {
  std::unordered_map<UrlId, int> last_round;
  Status s = history.ForEachUrl([&](const KnownUrl& u) {
    if (u.page_id != 0 && !u.gone()) last_round.emplace(u.url_id, u.last_round);
    return true;
  });
  if (!s.ok()) return s;
  for (int r = 0; r < round; ++r) {
    Status a = history.ForEachAnnouncement(r, [&](const Announcement& an) {
      auto it = last_round.find(an.url_id);
      if (it != last_round.end() && it->second == r && an.lastmod_ms > 0) {
        (*reference)[an.url_id] = an.lastmod_ms;
      }
      return true;
    });
    if (!a.ok()) return a;
  }
  return Status::Ok();
}

void SignalsRoundPolicy::JudgeShapes(std::unordered_map<std::string, HostShape>* shapes) {
  for (auto& [host, shape] : *shapes) {
    if (shape.with_lastmod == 0) continue;
    int64_t modal = 0, modal_n = 0;
    for (const auto& [date, n] : shape.dates) {
      if (n > modal_n) modal = date, modal_n = n;
    }
    const double share = static_cast<double>(modal_n) / static_cast<double>(shape.with_lastmod);
    HostMemory& mem = hosts_[host];
    char buf[160];
    if (shape.with_lastmod >= kShapeMinUrls && share >= kShapeShare &&
        static_cast<double>(shape.claims) >= kShapeShare * static_cast<double>(shape.with_lastmod)) {
      std::snprintf(buf, sizeof buf, "one new date on %.0f%% of %lld URLs (a build date)",
                    100 * share, static_cast<long long>(shape.with_lastmod));
      shape.untrusted = buf;
    } else if (shape.with_lastmod >= kShapeMinUrls && share >= kShapeShare &&
               mem.modal_share >= kShapeShare && mem.modal_ms != 0 && mem.modal_ms != modal) {
      std::snprintf(buf, sizeof buf, "one date on %.0f%% of %lld URLs, moved since the last "
                    "collection (a build date)", 100 * share,
                    static_cast<long long>(shape.with_lastmod));
      shape.untrusted = buf;
    } else if (shape.with_lastmod >= kShapeMinUrls && shape.claims == 0 && shape.fresh_after > 0) {
      std::snprintf(buf, sizeof buf, "%lld new URLs dated after every known URL's lastmod, no "
                    "known lastmod moved (the pages linking them hide their edits)",
                    static_cast<long long>(shape.fresh_after));
      shape.untrusted = buf;
    }
    mem.modal_ms = modal;
    mem.modal_share = share;
  }
}

Status SignalsRoundPolicy::Plan(const RoundRequest& request, RoundHistory& history,
                                RoundPlan* plan) {
  // This round's announcements.
  std::unordered_map<UrlId, Announcement> announced;
  Status s = history.ForEachAnnouncement(request.round, [&](const Announcement& a) {
    announced.emplace(a.url_id, a);
    return true;
  });
  if (!s.ok()) return s;
  std::unordered_map<UrlId, int64_t> reference;
  if (Status r = ReadReferences(history, request.round, &reference); !r.ok()) return r;

  // The estimator's value of every known page.
  RoundRequest all = request;
  all.budget = -1;
  RoundPlan estimated;
  if (Status e = estimator_->Plan(all, history, &estimated); !e.ok()) return e;
  std::unordered_map<UrlId, double> value;
  value.reserve(estimated.revisits.size());
  for (const Revisit& r : estimated.revisits) value.emplace(r.url_id, r.priority);

  // Per URL: its claim, and per host the shape of the lastmods.
  struct Candidate {
    UrlId url_id;
    std::string host;
    double value;
    int tier;       // 1 claim on a trusted host, 3 estimator, 4 covered (exploration only)
    bool has_claim;
    bool newer;
  };
  std::vector<Candidate> candidates;
  std::unordered_map<std::string, HostShape> shapes;
  std::unordered_set<UrlId> known;
  s = history.ForEachUrl([&](const KnownUrl& u) {
    known.insert(u.url_id);
    if (u.page_id == 0 || u.gone()) return true;
    Candidate c{u.url_id, u.host, value.count(u.url_id) ? value[u.url_id] : 0.0, 3, false, false};
    auto a = announced.find(u.url_id);
    if (a != announced.end() && a->second.lastmod_ms > 0) {
      int64_t ref = std::max(reference.count(u.url_id) ? reference[u.url_id] : 0, u.last_modified_ms);
      if (ref == 0) ref = u.last_fetched_at;
      c.has_claim = true;
      c.newer = a->second.lastmod_ms > ref + kSlackMs;
      HostShape& shape = shapes[u.host];
      ++shape.with_lastmod;
      shape.claims += c.newer;
      ++shape.dates[a->second.lastmod_ms];
    }
    candidates.push_back(std::move(c));
    return true;
  });
  if (!s.ok()) return s;
  // New URLs the sites announce (newest first; the crawl's strategy orders
  // the kept ones when the round starts).
  std::vector<const Announcement*> fresh;
  for (const auto& [id, a] : announced) {
    if (!known.count(id)) fresh.push_back(&a);
  }
  std::sort(fresh.begin(), fresh.end(), [](const Announcement* a, const Announcement* b) {
    int64_t da = std::max(a->lastmod_ms, a->published_ms), db = std::max(b->lastmod_ms, b->published_ms);
    return da != db ? da > db : a->url < b->url;
  });
  for (const Announcement* a : fresh) {
    auto shape = shapes.find(a->host);
    if (shape != shapes.end() &&
        std::max(a->lastmod_ms, a->published_ms) > shape->second.dates.rbegin()->first + kSlackMs) {
      ++shape->second.fresh_after;
    }
  }
  JudgeShapes(&shapes);

  // Trust per host, then tiers.
  std::vector<HostTrust> trust_rows;
  std::unordered_map<std::string, bool> trusted;
  for (const auto& [host, shape] : shapes) {
    HostTrust t;
    t.host = host;
    t.trust = Trust(host);
    t.agree = hosts_[host].agree;
    t.disagree = hosts_[host].disagree;
    const bool ok = shape.untrusted.empty() && t.trust >= kTrustedAt;
    t.state = ok ? "trusted" : "untrusted";
    t.reason = !shape.untrusted.empty() ? shape.untrusted
               : ok ? "" : std::to_string(t.disagree) + " of " +
                               std::to_string(t.agree + t.disagree) + " checked claims wrong";
    trusted[host] = ok;
    trust_rows.push_back(std::move(t));
  }
  std::sort(trust_rows.begin(), trust_rows.end(),
            [](const HostTrust& a, const HostTrust& b) { return a.host < b.host; });
  int64_t claims = 0;
  std::unordered_map<std::string, std::vector<size_t>> covered;  // per trusted host
  for (size_t i = 0; i < candidates.size(); ++i) {
    Candidate& c = candidates[i];
    if (!c.has_claim || !trusted[c.host]) continue;
    if (c.newer) {
      c.tier = 1;
      ++claims;
    } else {
      c.tier = 4;
      covered[c.host].push_back(i);
    }
  }
  for (auto& [host, idx] : covered) {
    std::partial_sort(idx.begin(), idx.begin() + std::min<size_t>(kExplorePerHost, idx.size()),
                      idx.end(), [&](size_t a, size_t b) {
                        return candidates[a].value > candidates[b].value;
                      });
    for (size_t k = 0; k < idx.size() && k < kExplorePerHost; ++k) candidates[idx[k]].tier = 3;
  }
  for (const Candidate& c : candidates) {
    if (c.tier == 4) continue;
    plan->revisits.push_back({c.url_id, c.tier == 1 ? kClaimBonus + c.value : c.value});
  }
  // One budget, spent in the order: the claims, then the announced
  // new URLs, then the estimator with what is left.
  const size_t kept_fresh = SplitBudget(request.budget, claims, fresh.size());
  fresh.resize(kept_fresh);
  TruncateToBudget(&plan->revisits, request.budget < 0 ? request.budget
                                        : request.budget - static_cast<int64_t>(kept_fresh));

  // Claims of the kept revisits are checked when the round ends.
  std::unordered_map<UrlId, size_t> cand_index;
  for (size_t i = 0; i < candidates.size(); ++i) cand_index.emplace(candidates[i].url_id, i);
  claims_.clear();
  for (const Revisit& r : plan->revisits) {
    const Candidate& c = candidates[cand_index[r.url_id]];
    if (c.has_claim) claims_.push_back({c.url_id, c.host, c.newer});
  }

  // The announced new URLs, then the crawl's seeds.
  for (const Announcement* a : fresh) plan->announced.push_back({a->url, a->title, a->document});
  plan->announced_floor = kAnnouncedFloor;
  for (const std::string& seed : history.OriginalSeeds()) plan->seeds.push_back(seed);

  if (Status t = history.RecordHostTrust(request.round, trust_rows); !t.ok()) return t;
  int64_t untrusted = 0;
  for (const HostTrust& t : trust_rows) untrusted += t.state != "trusted";
  plan->note = "signals: " + std::to_string(plan->revisits.size()) + " revisits (" +
               std::to_string(claims) + " lastmod claims on trusted hosts), " +
               std::to_string(fresh.size()) + " announced new URLs, " +
               std::to_string(trust_rows.size() - static_cast<size_t>(untrusted)) + " of " +
               std::to_string(trust_rows.size()) + " announcing hosts trusted";
  return Status::Ok();
}

// Text: "H <host> <agree> <disagree> <modal_ms> <modal_share>" and
// "C <url_id> <host> <newer>" lines, then the estimator's state after "E\n".
std::string SignalsRoundPolicy::SaveState() const {
  std::ostringstream out;
  for (const auto& [host, h] : hosts_) {
    out << "H " << host << ' ' << h.agree << ' ' << h.disagree << ' ' << h.modal_ms << ' '
        << h.modal_share << '\n';
  }
  for (const Claim& c : claims_) out << "C " << c.url_id << ' ' << c.host << ' ' << c.newer << '\n';
  out << "E\n" << estimator_->SaveState();
  return out.str();
}

Status SignalsRoundPolicy::RestoreState(std::string_view state) {
  hosts_.clear();
  claims_.clear();
  if (state.empty()) return estimator_->RestoreState("");
  size_t est = state.find("E\n");
  if (est == std::string_view::npos || (est != 0 && state[est - 1] != '\n')) {
    return Status::Error("signals: saved state has no estimator part");
  }
  std::istringstream in(std::string(state.substr(0, est)));
  std::string tag;
  while (in >> tag) {
    if (tag == "H") {
      std::string host;
      HostMemory h;
      if (!(in >> host >> h.agree >> h.disagree >> h.modal_ms >> h.modal_share)) break;
      hosts_[host] = h;
    } else if (tag == "C") {
      Claim c;
      if (!(in >> c.url_id >> c.host >> c.newer)) break;
      claims_.push_back(std::move(c));
    } else {
      return Status::Error("signals: saved state has an unknown line '" + tag + "'");
    }
  }
  if (!in.eof()) return Status::Error("signals: saved state is cut or corrupt");
  return estimator_->RestoreState(state.substr(est + 2));
}

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> NewSignalsRoundPolicy(const RoundPolicyContext& context) {
  auto estimator = NewAdaptiveRoundPolicy(context);
  if (!estimator.ok()) return estimator.status();
  return std::unique_ptr<RoundPolicy>(new SignalsRoundPolicy(std::move(estimator).value()));
}

}  // namespace topicrawl
