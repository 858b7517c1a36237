// RoundPolicy: what an incremental crawl does in its next round (issue 11).
//
// A crawl directory holds rounds 0, 1, 2, ...: round 0 is `topicrawl crawl`,
// every later round is `topicrawl recrawl DIR --policy NAME`. Before a round
// starts, its policy sees what the store knows (every known URL with its
// fetch history, the link graph between stored pages, the summary of the
// last round) and returns a RoundPlan:
//   * which known URLs to fetch again (revisits, with priorities), and
//   * which URLs seed the round (the discovery of new pages starts there;
//     newly discovered links are crawled as in round 0).
// After a round has finished, the policy receives its outcome (per URL:
// new / changed / trivially changed / unchanged / gone / failed, and how many
// new URLs each fetched page yielded) and may learn from it. Its learned
// state is saved with the crawl (SaveState / RestoreState) so that the next
// `recrawl` -- in another process -- starts where the last one ended.
//
// Lifecycle, driven by `recrawl` (crawl/rounds/round_runner.h):
//   policy = make_policy(name, context)  (strategies/round_registry.h)
//   policy->RestoreState(saved state of this policy, "" the first time)
//   if the last round was not yet fed to this policy:
//       policy->OnRoundFinished(history of the finished round)
//   policy->Plan(request, history, &plan)        // the plan is stored, then
//   policy->SaveState() is stored                // the round runs
// A round interrupted by kill -9 is continued by `recrawl --resume` with the
// stored plan; the policy is not asked again.
//
// Policies: one .cc each, listed in strategies/round_registry.cc; the
// generic ones in crawl/rounds/, the others in their strategy family:
//   full      revisit every known URL (baseline)
//   adaptive  Cho & Garcia-Molina change-rate estimator weighted by relevance
//   nutch     Nutch AdaptiveFetchSchedule intervals
//   hubs      (strategies/hub/) seed 003: revisit the pages a URL-feature SVM predicts to be hubs
//   topichub  (strategies/tda/) seed 002: re-seed from TopicHub pages (static: original seeds)
//   signals   (strategies/signals/) issue 34: trusted sitemap lastmods first, then
//             announced new URLs, then the adaptive estimator
#ifndef TOPICRAWL_CRAWL_ROUNDS_ROUND_POLICY_H_
#define TOPICRAWL_CRAWL_ROUNDS_ROUND_POLICY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/crawl_task.h"
#include "core/status.h"
#include "core/url_state.h"

namespace topicrawl {

// UrlState (core/url_state.h): new / changed / trivially_changed /
// unchanged / gone / failed, the state of one URL in one round.

// What the store knows of one URL when a round is planned.
struct KnownUrl {
  UrlId url_id = 0;
  std::string url;
  std::string host;        // the site of the URL (lower-case host[:port])
  uint32_t depth = 0;      // depth of its first admission
  std::string anchor;      // anchor text of the link that admitted it
  // Admission: the page version whose links first admitted this URL (0: a
  // seed), the URL of that page, the round of the fetch that made that
  // version (-1: not known) and whether that fetch was a revisit (then
  // the link was new on an older page: this URL is new to the web, as far
  // as the crawl can tell). All but parent_page only after
  // RoundHistory::ReadAdmissions().
  PageId parent_page = 0;
  UrlId parent_url = 0;
  int admitted_round = -1;
  bool admitted_by_revisit = false;
  // Current version: the page row whose body is valid now (0 = none: never
  // fetched successfully, or only queued).
  PageId page_id = 0;
  int64_t size = -1;                 // body bytes of the current version
  std::optional<double> relevance;   // R(P) of the current version
  uint32_t out_links = 0;            // outlinks of the current version
  bool near_duplicate = false;       // the current version nearly duplicates another page
  // History.
  int first_round = -1;          // round of the first fetch; -1 never fetched
  int last_round = -1;           // round of the last fetch
  int64_t last_fetched_at = 0;   // unix ms of the last fetch
  // HTTP Last-Modified of the newest fetch that sent one (unix ms; 0 none).
  int64_t last_modified_ms = 0;
  uint32_t fetches = 0;          // n: fetches so far (every round counts once)
  uint32_t changes = 0;          // X: revisits that found it changed
  uint32_t trivial_changes = 0;  // revisits that found it trivially changed
  UrlState last_state = UrlState::kNotFetched;  // state in last_round
  // New URLs admitted to the crawl from its last fetch (hub signal).
  uint32_t new_links_last = 0;
  bool gone() const { return last_state == UrlState::kGone; }
};

// Counts of one finished round.
struct RoundSummary {
  int round = -1;               // -1: no round finished yet
  int64_t started_at = 0;       // unix ms
  int64_t finished_at = 0;      // unix ms
  double days_since_previous = 0;  // between this round's start and the previous one's
  int64_t fetches = 0;
  int64_t bytes = 0;
  int64_t not_modified = 0;     // 304 answers
  int64_t new_pages = 0;
  int64_t new_relevant = 0;     // new pages with relevance >= beta (not near-duplicates)
  int64_t new_irrelevant = 0;
  int64_t changed = 0;
  int64_t trivially_changed = 0;
  int64_t unchanged = 0;
  int64_t gone = 0;
  int64_t failed = 0;
};

// One URL's fate in a finished round (only URLs fetched in that round).
struct UrlOutcome {
  UrlId url_id = 0;
  UrlState state = UrlState::kNotFetched;
  bool revisit = false;            // planned revisit (false: discovered or seed)
  uint32_t new_links = 0;          // new URLs admitted from this fetch
  std::optional<double> relevance;
};

// What a site announced about one URL in the collection before a round
// (issue 34; store/announce_store.h): from its sitemaps or feeds.
struct Announcement {
  UrlId url_id = 0;           // DedupId of url (it may be unknown to the crawl)
  std::string url;            // canonical
  std::string host;           // lower-case host[:port]
  int source = 1;             // 1 sitemap, 2 feed, 3 feed found by <link rel=alternate>
  int64_t lastmod_ms = 0;     // 0: none
  int64_t published_ms = 0;   // 0: none
  int changefreq = 0;         // sitemap ChangeFreq (0 none)
  double priority = -1;       // -1 none
  std::string title;          // a feed entry's title ("" none)
  std::string document;       // the sitemap or feed that named it
};

// A URL a site announced that the crawl does not know, to be queued as a
// link of the sitemap or feed that named it (crawl/announced_links.h).
struct AnnouncedLink {
  std::string url;
  std::string title;     // its anchor text when not empty (else the URL's words)
  std::string document;  // the sitemap or feed: the link's parent
};

// The lastmod trust of one host, as a policy judged it (stored per round).
struct HostTrust {
  std::string host;
  double trust = 0;
  int64_t agree = 0, disagree = 0;
  std::string state;   // trusted | untrusted | unknown
  std::string reason;
};

// A read-only view of the crawl for policies. Streams, so that a policy can
// work on 10^7 URLs without the view holding them (a policy that keeps a
// per-URL table does so in its own memory, compactly).
class RoundHistory {
 public:
  virtual ~RoundHistory() = default;
  // The last finished round (0 after the first crawl).
  virtual int last_round() const = 0;
  virtual const RoundSummary& LastRoundSummary() const = 0;
  // The seeds of round 0 (the crawl's --seeds), as given.
  virtual const std::vector<std::string>& OriginalSeeds() const = 0;
  // The topic relevance threshold beta (negative: no topic).
  virtual double Beta() const = 0;
  // Asks ForEachUrl to fill KnownUrl's admission fields (parent_url,
  // admitted_round, admitted_by_revisit) from now on; they cost the store
  // one more pass, so only a policy that reads them asks. A history that
  // always has them does nothing.
  virtual Status ReadAdmissions() { return Status::Ok(); }
  // Every known URL (fetched at least once, or admitted and still queued),
  // in url_id order. Stops when `visit` returns false.
  virtual Status ForEachUrl(const std::function<bool(const KnownUrl&)>& visit) = 0;
  // The link graph between stored pages: one call per outlink of a current
  // version whose target is a known URL (duplicates on a page are folded).
  virtual Status ForEachLink(const std::function<bool(UrlId from, UrlId to)>& visit) = 0;
  // The outcome of round `round` (<= last_round()), one call per URL fetched
  // in it.
  virtual Status ForEachOutcome(int round,
                                const std::function<bool(const UrlOutcome&)>& visit) = 0;
  // What the sites announced in the collection before round `round` (url
  // order); nothing when no collection ran for it. Default: nothing.
  virtual Status ForEachAnnouncement(int /*round*/,
                                     const std::function<bool(const Announcement&)>& /*visit*/) {
    return Status::Ok();
  }
  // Keeps the policy's per-host lastmod trust for round `round` with the
  // crawl (store/announce_store.h host_trust). Default: dropped.
  virtual Status RecordHostTrust(int /*round*/, const std::vector<HostTrust>& /*rows*/) {
    return Status::Ok();
  }
};

// What the recrawl asks for.
struct RoundRequest {
  int round = 1;          // the round to plan (last_round() + 1)
  int64_t budget = -1;    // at most this many revisits; -1 no limit
  int64_t now_ms = 0;     // unix ms at planning time
};

// One known URL to fetch again.
struct Revisit {
  UrlId url_id = 0;
  double priority = 0;  // higher = sooner (the frontier's score)
};

struct RoundPlan {
  // Known URLs to fetch again (validators are sent: If-None-Match /
  // If-Modified-Since). At most RoundRequest::budget when that is >= 0;
  // the runner truncates by priority otherwise. Unknown ids are ignored.
  std::vector<Revisit> revisits;
  // URLs that start the round's discovery. A known URL in this list is
  // revisited (even beyond the budget); an unknown one is queued as a new
  // seed. Empty: only the revisits start the round.
  std::vector<std::string> seeds;
  // URLs the sites announced that the crawl does not know (known ones are
  // ignored): queued as links of their sitemap or feed, scored by the
  // crawl's strategy when the round starts; one the strategy does not
  // admit is not queued. Their frontier priority is
  //   announced_floor < 0:  the strategy's link score, as a link's;
  //   announced_floor >= 0: announced_floor + a number in (0, 1) that
  //                         grows with the strategy's link score,
  // so a policy places them in its own order of revisit priorities (e.g.
  // below the claims it ranks at >= 1000, above an estimator's values
  // below announced_floor) while the strategy orders them among
  // themselves.
  std::vector<AnnouncedLink> announced;
  double announced_floor = -1;
  // Newly discovered links are followed as in round 0 (false: the round
  // fetches the revisits and seeds only).
  bool follow_new_links = true;
  // One line for the events table and the progress output.
  std::string note;
};

// Everything a policy may need at construction.
struct RoundPolicyContext {
  std::string out_dir;     // the crawl directory (diagnostics files)
  std::string topic_file;  // the crawl's topic, may be empty
  uint64_t rng_seed = 1;
  // A model file for policies that use one (`recrawl --model`); empty: the
  // policy's default (hubs: a model trained on the crawl's own graph).
  std::string model_file;
};

class RoundPolicy {
 public:
  virtual ~RoundPolicy() = default;
  virtual std::string_view Name() const = 0;

  // Chooses the round's revisits and seeds. Errors abort the recrawl before
  // anything is written.
  virtual Status Plan(const RoundRequest& request, RoundHistory& history,
                      RoundPlan* plan) = 0;

  // The round history.last_round() has finished: learn from it (e.g. via
  // history.ForEachOutcome(history.last_round(), ...)). Called once per
  // finished round, before the next Plan(); also for round 0. Default:
  // nothing.
  virtual Status OnRoundFinished(RoundHistory& /*history*/) { return Status::Ok(); }

  // Learned state as bytes (stored with the crawl) and back. RestoreState
  // receives exactly what SaveState returned, or "" for a fresh policy.
  // Default: stateless.
  virtual std::string SaveState() const { return ""; }
  virtual Status RestoreState(std::string_view /*state*/) { return Status::Ok(); }

  // True when the runner must collect what the crawl's hosts announce
  // (robots.txt Sitemap: lines, sitemaps, feeds) before Plan(); the
  // announcements are then read through RoundHistory::ForEachAnnouncement.
  virtual bool WantsAnnouncements() const { return false; }
};

// Makes the round policy called `name`. The round runner is handed one (the
// explicit list, strategies/round_registry.h, sits above the strategy
// families that own most policies). An unknown name is an error that lists
// the known ones.
using RoundPolicyFactory = std::function<StatusOr<std::unique_ptr<RoundPolicy>>(
    const std::string& name, const RoundPolicyContext& context)>;

// Helpers shared by policies.
// Keeps the `budget` revisits of highest priority (ties: lower url_id
// first); budget < 0 keeps all. Sorted by priority, descending.
void TruncateToBudget(std::vector<Revisit>* revisits, int64_t budget);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUNDS_ROUND_POLICY_H_
