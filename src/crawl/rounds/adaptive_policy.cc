// `adaptive`: revisit the pages whose expected payoff is highest.
//
// Change rate: Cho & Garcia-Molina, "Estimating frequency of change" (ACM
// TOIT 3(3), 2003), section 4 -- for a page accessed n times at a regular
// interval I of which X accesses detected a change, the bias-reduced
// estimator of the change rate per interval is
//     r = -log((n - X + 0.5) / (n + 0.5))          (their eq. 9)
// Here an "access" is a revisit (the first fetch cannot detect a change),
// and I is the page's mean number of rounds between fetches, so the rate
// per round is r / I. A change is any new content, trivial ones included:
// a page whose only edit is a restored link (a hub of new pages: same text,
// new href) is exactly the page a recrawl must see again.
//
// The estimator says r = 0 after one unchanged revisit (n = 1, X = 0), which
// would never revisit the page again; it is therefore blended with a prior
// rate as kPriorWeight pseudo-observations:
//     lambda_i = (kPriorWeight * prior_i + n * r / I) / (kPriorWeight + n)
// Pages without revisit history (n = 0: round 1, or newly found pages) get
// the prior rate. The prior is learned from the crawl's own history
// (empirical Bayes): pages are grouped by depth (0..7+), by whether their
// last fetch admitted new URLs (index pages near the home change more often
// than deep articles on real sites, and list the new pages) and by whether
// they are a parent in a breadth-first walk of the stored link graph from
// the seeds (MarkBfsParents: index/list pages), and each
// group's prior is the same estimator applied to the pooled revisits of its
// pages,
//     prior_g = r(sum n, sum X) / (sum span / sum n),
// shrunk towards the pooled rate of all pages with kGroupWeight
// pseudo-revisits. Before any revisit has been made (planning round 1)
// there is no evidence, and the prior is
//     prior_i = kPriorRate + rho * d_i  (x (1 + kHubBonus) with new URLs)
// kPriorRate for edits of the page's own text, plus the rate at which it
// gains a link to a page new in the round: with rho = the share of the
// known pages that were new last round (kPriorNewShare before any round gave
// evidence) and d_i the page's outlinks, rho * d_i is the expected number of
// new pages it links to per round.
//
// Value of revisiting page i in round K, last fetched in round k_i:
//     P_i = 1 - exp(-lambda_i * (K - k_i))    (Poisson: changed since then)
//     V_i = P_i * w_i,  w_i = 1 + R_i         (R_i: relevance, 1 without topic)
//           * (1 + kHubBonus) when its last revisit yielded new URLs (a hub
//           of the last round's new pages is likely one of the next round's)
// The relevance weight at most doubles a value: the change probability
// decides, relevance breaks near-ties. The budget keeps the highest V_i.
// The round starts from the original seeds (new pages linked from them).
//
// The store's history is streamed once per plan: each live URL leaves a
// 48-byte Candidate (the parts of its value); the link graph is streamed
// once (ForEachLink) for the BFS-parent flag, 8 bytes a link between live
// pages while the walk runs; then the group priors are pooled and the
// values computed from the candidates.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>

#include "crawl/rounds/policies.h"

namespace topicrawl {
namespace {

constexpr double kPriorRate = 0.3;    // changes per round before any evidence
constexpr double kPriorWeight = 1.0;  // ... worth this many revisits
constexpr double kHubBonus = 1.0;     // last fetch found new URLs
constexpr double kPriorNewShare = 0.01;  // new pages per known page and round, before evidence
constexpr double kGroupWeight = 20;  // pseudo-revisits pulling a group's prior to the pooled one
constexpr int kGroups = 32;  // depth 0..7+ x (last fetch admitted new URLs) x BFS parent

// Pooled revisits of a group of pages.
struct Pool {
  double n = 0, x = 0, span = 0;
  void Add(double pn, double px, double pspan) {
    n += pn;
    x += px;
    span += pspan;
  }
  // Changes per round by the estimator on the pooled counts.
  double Rate() const { return n > 0 && span > 0 ? ChangeRatePerAccess(n, x) / (span / n) : 0; }
};

// One live URL, what its value needs.
struct Candidate {
  UrlId url_id;
  double weight;       // (1 + R) x hub bonus
  uint16_t group;      // prior group
  bool new_links;      // the last fetch admitted new URLs
  uint32_t out_links;
  uint32_t n;          // revisits
  uint32_t x;          // revisits that found a change (trivial ones included)
  int32_t span;        // rounds between its first and last fetch
  int32_t last_round;
  uint32_t depth;
};

uint16_t GroupOf(uint32_t depth, bool new_links, bool bfs_parent) {
  return static_cast<uint16_t>((std::min<uint32_t>(depth, 7) * 2 + (new_links ? 1 : 0)) * 2 +
                               (bfs_parent ? 1 : 0));
}

Candidate MakeCandidate(const KnownUrl& u) {
  Candidate c;
  c.url_id = u.url_id;
  c.n = u.fetches > 0 ? u.fetches - 1 : 0;
  c.new_links = u.new_links_last > 0;
  c.depth = u.depth;
  c.group = GroupOf(u.depth, c.new_links, false);
  double w = 1.0 + u.relevance.value_or(1.0);
  if (c.new_links && c.n > 0) w *= 1.0 + kHubBonus;
  c.weight = w;
  c.out_links = u.out_links;
  c.x = std::min(c.n, u.changes + u.trivial_changes);
  c.span = std::max(1, u.last_round - u.first_round);
  c.last_round = u.last_round;
  return c;
}

// Group priors: learned from the pooled revisits when there are any, else
// the link-gain prior (see the top of the file).
class Priors {
 public:
  void Add(const Candidate& c) {
    if (c.n == 0) return;
    groups_[c.group].Add(c.n, c.x, c.span);
    all_.Add(c.n, c.x, c.span);
  }
  void Finish(double rho) {
    rho_ = rho;
    learned_ = all_.n > 0;
    const double pooled = all_.Rate();
    for (int g = 0; g < kGroups; ++g) {
      const Pool& p = groups_[g];
      rate_[g] = (kGroupWeight * pooled + p.n * p.Rate()) / (kGroupWeight + p.n);
    }
  }
  double For(const Candidate& c) const {
    if (learned_) return rate_[c.group];
    return kPriorRate + rho_ * c.out_links;
  }
  bool learned() const { return learned_; }

 private:
  Pool groups_[kGroups], all_;
  double rate_[kGroups] = {};
  double rho_ = kPriorNewShare;
  bool learned_ = false;
};

double ValueOf(const Candidate& c, int round, double prior) {
  double lambda = prior;
  if (c.n > 0) {
    const double n = c.n;
    const double rate = ChangeRatePerAccess(n, c.x);
    lambda = (kPriorWeight * prior + n * rate / (c.span / n)) / (kPriorWeight + n);
  }
  const double elapsed = std::max(1, round - c.last_round);
  return (1.0 - std::exp(-lambda * elapsed)) * c.weight;
}

// Index pages: the pages with children in a breadth-first walk of the
// stored link graph from the depth-0 pages (the seeds), i.e. the first
// known page to link to some other page. On real sites these are the front,
// section and list pages, which change far more often than the articles
// (Adar et al., WSDM 2009); their group gets its own learned prior. The walk
// visits each page's targets in url-id order (ForEachLink's order).
Status MarkBfsParents(RoundHistory& history, std::vector<Candidate>* candidates) {
  std::vector<Candidate>& c = *candidates;
  std::unordered_map<UrlId, uint32_t> index;
  index.reserve(c.size());
  for (uint32_t i = 0; i < c.size(); ++i) index.emplace(c[i].url_id, i);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  Status s = history.ForEachLink([&](UrlId from, UrlId to) {
    auto f = index.find(from);
    auto t = index.find(to);
    if (f != index.end() && t != index.end() && f->second != t->second) {
      edges.push_back({f->second, t->second});
    }
    return true;
  });
  if (!s.ok()) return s;
  std::stable_sort(edges.begin(), edges.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint32_t> start(c.size() + 1, 0);
  for (const auto& e : edges) ++start[e.first + 1];
  for (size_t i = 0; i < c.size(); ++i) start[i + 1] += start[i];
  std::vector<char> seen(c.size(), 0);
  std::vector<uint32_t> queue;
  for (uint32_t i = 0; i < c.size(); ++i) {
    if (c[i].depth == 0) {
      seen[i] = 1;
      queue.push_back(i);
    }
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    bool parent = false;
    for (uint32_t e = start[u]; e < start[u + 1]; ++e) {
      const uint32_t v = edges[e].second;
      if (seen[v]) continue;
      seen[v] = 1;
      queue.push_back(v);
      parent = true;
    }
    if (parent) c[u].group = GroupOf(c[u].depth, c[u].new_links, true);
  }
  return Status::Ok();
}

class AdaptiveRoundPolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "adaptive"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    std::vector<Candidate> candidates;
    Priors priors;
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      if (u.page_id == 0 || u.gone()) return true;  // no stored version
      candidates.push_back(MakeCandidate(u));
      return true;
    });
    if (!s.ok()) return s;
    if (Status b = MarkBfsParents(history, &candidates); !b.ok()) return b;
    for (const Candidate& c : candidates) priors.Add(c);
    const int64_t known = static_cast<int64_t>(candidates.size());
    const RoundSummary& last = history.LastRoundSummary();
    const double rho = last.round >= 1 && known > 0
                           ? static_cast<double>(last.new_pages) / static_cast<double>(known)
                           : kPriorNewShare;
    priors.Finish(rho);
    int64_t with_history = 0;
    plan->revisits.reserve(candidates.size());
    for (const Candidate& c : candidates) {
      with_history += c.n > 0;
      double v = ValueOf(c, request.round, priors.For(c));
      // No evidence yet: a page whose first fetch found new URLs is an index
      // page (the learned priors take this over from round 2 on).
      if (!priors.learned() && c.n == 0 && c.new_links) v *= 1.0 + kHubBonus;
      plan->revisits.push_back({c.url_id, v});
    }
    candidates.clear();
    candidates.shrink_to_fit();
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->note = "adaptive: " + std::to_string(plan->revisits.size()) + " revisits, " +
                 std::to_string(with_history) + " pages with change history, " +
                 (priors.learned() ? std::string("priors learned per depth, new-URL and BFS-parent group")
                                   : "link-gain rate " + std::to_string(rho) + " per outlink");
    return Status::Ok();
  }
};

}  // namespace

double ChangeRatePerAccess(double n, double x) {
  return -std::log((n - x + 0.5) / (n + 0.5));
}

double AdaptiveRevisitValue(const KnownUrl& url, int round, double prior) {
  return ValueOf(MakeCandidate(url), round, prior);
}

StatusOr<std::unique_ptr<RoundPolicy>> NewAdaptiveRoundPolicy(const RoundPolicyContext&) {
  return std::unique_ptr<RoundPolicy>(new AdaptiveRoundPolicy());
}

}  // namespace topicrawl
