// Planning a crawl round (issue 11): the part of `topicrawl recrawl` that
// runs before the crawler.
//
//   PlanNextRound(options):
//     open the crawl (it must be schema 3 and its last round finished),
//     make the policy, restore its saved state, feed it every finished round
//     it has not seen, ask it for a RoundPlan, cut the plan to the budget,
//     and store it with CrawlStore::StartRound (revisits + new seeds +
//     meta.round = K in one transaction) together with the policy's state;
//     the plan's announced new URLs go to the announced_queue table
//     (store/announce_store.h), which the crawler scores with its strategy
//     when the round starts (crawl/announced_links.h).
//   Then the crawler resumes the directory: Crawler's resume path queues the
//   round's pending revisits (crawl/round_state.h), so a kill -9 in the
//   middle of round K is continued by `recrawl --resume` (or `crawl
//   --resume`) exactly like an interrupted round 0.
//
// StoreRoundHistory is the RoundHistory that policies see, read from the
// store (streams; the link graph maps outlink URLs to known url ids).
#ifndef TOPICRAWL_CRAWL_ROUNDS_ROUND_RUNNER_H_
#define TOPICRAWL_CRAWL_ROUNDS_ROUND_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "crawl/announce_collector.h"
#include "crawl/rounds/round_policy.h"
#include "store/crawl_store.h"

namespace topicrawl {

struct RecrawlOptions {
  std::string dir;
  std::string policy = "full";
  // Revisit budget: `budget` URLs when >= 0, else `budget_fraction` of the
  // known pages (fetched successfully, not gone) when >= 0, else no limit.
  int64_t budget = -1;
  double budget_fraction = -1;
  std::string topic_file;  // for policies that read the topic
  std::string model_file;  // for policies that use a model (recrawl --model)
  uint64_t rng_seed = 1;
  bool dedup_ignore_scheme = true;
  // How the hosts' sitemaps and feeds are read before planning, for a
  // policy that wants them (RoundPolicy::WantsAnnouncements): the crawl's
  // fetcher options, robots agent and politeness delay.
  AnnounceCollectOptions announce;
};

struct PlannedRound {
  int round = 0;
  int64_t revisits = 0;
  int64_t new_seeds = 0;
  int64_t announced = 0;  // announced new URLs queued for the crawler to score
  int64_t budget = -1;
  std::string note;
};

// Plans and stores the next round (see above). Errors leave the directory
// as it was: not a crawl, an older schema, an unfinished round ("resume
// it"), an unknown policy, a policy error. `make_policy` makes
// options.policy (strategies/round_registry.h's MakeRoundPolicy).
StatusOr<PlannedRound> PlanNextRound(const RecrawlOptions& options,
                                     const RoundPolicyFactory& make_policy);

// The same with a policy made by the caller (not from a factory): for
// bench tools whose policy is no crawl option, e.g. the oracle that reads an
// evolved web's true change rates (eval/round_oracle.h). Its state is kept
// under options.policy, which names it in the round's meta.
StatusOr<PlannedRound> PlanNextRoundWith(const RecrawlOptions& options, RoundPolicy& policy);

// For `recrawl --resume`: the number of the current round when it is
// unfinished; an error when it has finished ("plan a new one") or the
// directory is no round-capable crawl.
StatusOr<int> UnfinishedRound(const std::string& dir);

// The meta keys of the round bookkeeping (written by the crawler / runner).
std::string RoundFinishedKey(int round);     // "round_finished.K" = unix ms
std::string PolicyStateKey(const std::string& policy);  // "round_policy_state.NAME"
std::string PolicyFedKey(const std::string& policy);    // last round fed to it

// The RoundHistory of an open crawl store (schema 3).
class StoreRoundHistory : public RoundHistory {
 public:
  // Reads the summary of `last_round` and the round-0 seeds.
  static StatusOr<std::unique_ptr<StoreRoundHistory>> Make(CrawlStore* store, int last_round,
                                                           bool dedup_ignore_scheme);
  int last_round() const override { return last_round_; }
  const RoundSummary& LastRoundSummary() const override { return summary_; }
  const std::vector<std::string>& OriginalSeeds() const override { return seeds_; }
  double Beta() const override { return beta_; }
  Status ReadAdmissions() override;
  Status ForEachUrl(const std::function<bool(const KnownUrl&)>& visit) override;
  Status ForEachLink(const std::function<bool(UrlId, UrlId)>& visit) override;
  Status ForEachOutcome(int round, const std::function<bool(const UrlOutcome&)>& visit) override;
  Status ForEachAnnouncement(int round,
                             const std::function<bool(const Announcement&)>& visit) override;
  Status RecordHostTrust(int round, const std::vector<HostTrust>& rows) override;

  // Counts of round `round` (also used by eval).
  StatusOr<RoundSummary> Summarize(int round);

 private:
  StoreRoundHistory(CrawlStore* store, int last_round, bool ignore_scheme)
      : store_(store), last_round_(last_round), ignore_scheme_(ignore_scheme) {}
  CrawlStore* store_;
  int last_round_;
  bool ignore_scheme_;
  double beta_ = -1;
  RoundSummary summary_;
  std::vector<std::string> seeds_;
  // Page version -> the fetch that made it (for KnownUrl's admission
  // fields); built by ReadAdmissions().
  struct VersionOrigin {
    UrlId url_id = 0;
    int round = -1;
    bool revisit = false;
  };
  absl::flat_hash_map<PageId, VersionOrigin> versions_;
  bool versions_read_ = false;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUNDS_ROUND_RUNNER_H_
