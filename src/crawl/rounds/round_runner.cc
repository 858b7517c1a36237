#include "crawl/rounds/round_runner.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <unordered_set>

#include "core/clock.h"
#include "crawl/dedup.h"
#include "sitemap/announce_date.h"
#include "store/announce_store.h"
#include "url/url.h"

namespace topicrawl {
namespace {

std::string HostOf(std::string_view url) {
  size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  size_t end = url.find_first_of("/?#", start);
  std::string host(url.substr(start, end == std::string_view::npos ? url.npos : end - start));
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host;
}

StatusOr<int64_t> MetaInt(CrawlStore* store, const std::string& key, int64_t fallback) {
  auto v = store->GetMeta(key);
  if (!v.ok()) return v.status();
  if (!v->has_value()) return fallback;
  return static_cast<int64_t>(std::strtoll((*v)->c_str(), nullptr, 10));
}


}  // namespace

std::string RoundFinishedKey(int round) { return "round_finished." + std::to_string(round); }
std::string PolicyStateKey(const std::string& policy) { return "round_policy_state." + policy; }
std::string PolicyFedKey(const std::string& policy) { return "round_policy_fed." + policy; }

StatusOr<std::unique_ptr<StoreRoundHistory>> StoreRoundHistory::Make(CrawlStore* store,
                                                                      int last_round,
                                                                      bool ignore_scheme) {
  std::unique_ptr<StoreRoundHistory> h(new StoreRoundHistory(store, last_round, ignore_scheme));
  auto beta = store->GetMeta("beta");
  if (!beta.ok()) return beta.status();
  if (beta->has_value()) h->beta_ = std::strtod((*beta)->c_str(), nullptr);
  Status s = store->LoadFrontier([&](const FrontierRecord& r) {
    if (r.explanation == "{\"seed\":true}") h->seeds_.push_back(r.url);
    return true;
  });
  if (!s.ok()) return s;
  std::sort(h->seeds_.begin(), h->seeds_.end());
  if (last_round >= 0) {
    auto summary = h->Summarize(last_round);
    if (!summary.ok()) return summary.status();
    h->summary_ = *summary;
  }
  return h;
}

StatusOr<RoundSummary> StoreRoundHistory::Summarize(int round) {
  RoundSummary r;
  r.round = round;
  auto started = MetaInt(store_, "round_started_at." + std::to_string(round), 0);
  if (!started.ok()) return started.status();
  if (round == 0) {
    started = MetaInt(store_, "started_at", 0);
    if (!started.ok()) return started.status();
  }
  r.started_at = *started;
  auto finished = MetaInt(store_, RoundFinishedKey(round), 0);
  if (!finished.ok()) return finished.status();
  r.finished_at = *finished;
  if (round > 0) {
    auto prev = MetaInt(store_, round == 1 ? std::string("started_at")
                                           : "round_started_at." + std::to_string(round - 1),
                        0);
    if (!prev.ok()) return prev.status();
    if (*prev > 0 && r.started_at > 0) {
      r.days_since_previous = static_cast<double>(r.started_at - *prev) / 86'400'000.0;
    }
  }
  std::vector<std::pair<PageId, bool>> new_pages;  // page id, near-dup (filled below)
  Status s = store_->ForEachFetch(round, [&](const FetchRow& f) {
    ++r.fetches;
    r.bytes += f.bytes;
    if (f.http_code == 304) ++r.not_modified;
    switch (f.state) {
      case UrlState::kNew: ++r.new_pages; new_pages.push_back({f.page_id, false}); break;
      case UrlState::kChanged: ++r.changed; break;
      case UrlState::kTriviallyChanged: ++r.trivially_changed; break;
      case UrlState::kUnchanged: ++r.unchanged; break;
      case UrlState::kGone: ++r.gone; break;
      default: ++r.failed; break;
    }
    return true;
  });
  if (!s.ok()) return s;
  for (const auto& [id, unused] : new_pages) {
    auto facts = store_->LoadPageFacts(id);
    if (!facts.ok()) return facts.status();
    if (!facts->has_value() || (*facts)->near_dup_of != 0) continue;
    if (beta_ >= 0 && (*facts)->relevance && *(*facts)->relevance >= beta_) {
      ++r.new_relevant;
    } else {
      ++r.new_irrelevant;
    }
  }
  return r;
}

Status StoreRoundHistory::ReadAdmissions() {
  if (versions_read_) return Status::Ok();
  // Which fetch made each page version (a fetch whose page_id differs from
  // the one before it). ~30 bytes a version.
  Status v = store_->ForEachUrlHistory(
      [&](const FrontierRecord& row, const std::vector<FetchRow>& fetches) {
        PageId before = 0;
        for (const FetchRow& f : fetches) {
          if (f.page_id != 0 && f.page_id != before) {
            versions_.try_emplace(f.page_id, VersionOrigin{row.url_id, f.round, f.revisit});
          }
          if (f.page_id != 0) before = f.page_id;
        }
        return true;
      });
  if (!v.ok()) return v;
  versions_read_ = true;
  return Status::Ok();
}

Status StoreRoundHistory::ForEachUrl(const std::function<bool(const KnownUrl&)>& visit) {
  KnownUrl u;
  Status inner;
  Status s = store_->ForEachUrlHistory(
      [&](const FrontierRecord& row, const std::vector<FetchRow>& fetches) {
        u = KnownUrl();
        u.url_id = row.url_id;
        u.url = row.url;
        u.host = HostOf(row.url);
        u.depth = row.depth;
        u.anchor = row.anchor;
        u.parent_page = row.parent_id;
        if (auto it = versions_.find(row.parent_id); row.parent_id != 0 && it != versions_.end()) {
          u.parent_url = it->second.url_id;
          u.admitted_round = it->second.round;
          u.admitted_by_revisit = it->second.revisit;
        }
        for (const FetchRow& f : fetches) {
          if (u.first_round < 0) u.first_round = f.round;
          u.last_round = f.round;
          u.last_fetched_at = f.at;
          if (!f.last_modified.empty()) {
            u.last_modified_ms = ParseRfc822Date(f.last_modified).value_or(u.last_modified_ms);
          }
          ++u.fetches;
          if (f.revisit && f.state == UrlState::kChanged) ++u.changes;
          if (f.revisit && f.state == UrlState::kTriviallyChanged) ++u.trivial_changes;
          u.last_state = f.state;
          u.new_links_last = f.new_links;
          u.page_id = f.page_id;
          u.out_links = f.out_links;
        }
        if (u.page_id != 0) {
          auto facts = store_->LoadPageFacts(u.page_id);
          if (!facts.ok()) {
            inner = facts.status();
            return false;
          }
          if (facts->has_value()) {
            u.size = (*facts)->size;
            u.relevance = (*facts)->relevance;
            u.near_duplicate = (*facts)->near_dup_of != 0;
          }
        }
        return visit(u);
      });
  return s.ok() ? inner : s;
}

Status StoreRoundHistory::ForEachLink(const std::function<bool(UrlId, UrlId)>& visit) {
  // Known ids first (8 bytes a URL), then every current version's links.
  std::vector<std::pair<UrlId, PageId>> current;
  std::vector<UrlId> known;
  Status s = store_->ForEachUrlHistory(
      [&](const FrontierRecord& row, const std::vector<FetchRow>& fetches) {
        known.push_back(row.url_id);
        if (!fetches.empty() && fetches.back().page_id != 0) {
          current.push_back({row.url_id, fetches.back().page_id});
        }
        return true;
      });
  if (!s.ok()) return s;
  std::sort(known.begin(), known.end());
  std::vector<std::string> urls;
  std::vector<UrlId> targets;
  for (const auto& [from, page] : current) {
    if (Status l = store_->LoadPageLinkUrls(page, &urls); !l.ok()) return l;
    targets.clear();
    for (const std::string& url : urls) {
      const UrlId to = DedupId(url, ignore_scheme_);
      if (std::binary_search(known.begin(), known.end(), to)) targets.push_back(to);
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (UrlId to : targets) {
      if (!visit(from, to)) return Status::Ok();
    }
  }
  return Status::Ok();
}

Status StoreRoundHistory::ForEachAnnouncement(
    int round, const std::function<bool(const Announcement&)>& visit) {
  if (!HasAnnouncements(store_->dir())) return Status::Ok();
  if (Status f = store_->Flush(); !f.ok()) return f;
  auto announced = AnnounceStore::Open(store_->dir());
  if (!announced.ok()) return announced.status();
  Announcement a;
  return (*announced)->ForEachAnnouncement(round, [&](int, const AnnouncementRow& r) {
    a.url_id = DedupId(r.url, ignore_scheme_);
    a.url = r.url;
    a.host = r.host;
    a.source = r.source;
    a.lastmod_ms = r.lastmod_ms;
    a.published_ms = r.published_ms;
    a.changefreq = r.changefreq;
    a.priority = r.priority;
    a.title = r.title;
    a.document = r.document;
    return visit(a);
  });
}

Status StoreRoundHistory::RecordHostTrust(int round, const std::vector<HostTrust>& rows) {
  if (Status f = store_->Flush(); !f.ok()) return f;
  auto announced = AnnounceStore::Open(store_->dir());
  if (!announced.ok()) return announced.status();
  std::vector<HostTrustRow> out;
  out.reserve(rows.size());
  for (const HostTrust& h : rows) {
    out.push_back({h.host, h.trust, h.agree, h.disagree, h.state, h.reason});
  }
  return (*announced)->WriteHostTrust(round, out);
}

// Reads what the crawl's hosts announce and keeps it as round `round`'s
// collection (store/announce_store.h).
Status CollectRoundAnnouncements(CrawlStore* store, const RecrawlOptions& options,
                                 const std::vector<std::string>& origins, int round,
                                 std::string* note) {
  AnnounceCollectOptions o = options.announce;
  o.now_ms = SystemClock()->UnixMillis();
  AnnounceCollection c = CollectAnnouncements(origins, o);
  if (Status f = store->Flush(); !f.ok()) return f;
  auto announced = AnnounceStore::Open(store->dir());
  if (!announced.ok()) return announced.status();
  if (Status w = (*announced)->WriteRound(round, c.rows, c.fetches); !w.ok()) return w;
  *note = std::to_string(c.rows.size()) + " URLs announced by " +
          std::to_string(c.hosts_announcing) + " of " + std::to_string(c.hosts) + " hosts (" +
          std::to_string(c.fetches.size()) + " robots/sitemap/feed fetches)";
  return Status::Ok();
}

Status StoreRoundHistory::ForEachOutcome(int round,
                                         const std::function<bool(const UrlOutcome&)>& visit) {
  Status inner;
  Status s = store_->ForEachFetch(round, [&](const FetchRow& f) {
    UrlOutcome o;
    o.url_id = f.url_id;
    o.state = f.state;
    o.revisit = f.revisit;
    o.new_links = f.new_links;
    if (f.page_id != 0) {
      auto facts = store_->LoadPageFacts(f.page_id);
      if (!facts.ok()) {
        inner = facts.status();
        return false;
      }
      if (facts->has_value()) o.relevance = (*facts)->relevance;
    }
    return visit(o);
  });
  return s.ok() ? inner : s;
}

StatusOr<int> UnfinishedRound(const std::string& dir) {
  auto opened = CrawlStore::Open(dir, OpenMode::kResume);
  if (!opened.ok()) return opened.status();
  auto current = (*opened)->CurrentRound();
  if (!current.ok()) return current.status();
  auto finished = (*opened)->GetMeta(RoundFinishedKey(*current));
  if (!finished.ok()) return finished.status();
  if (finished->has_value()) {
    return Status::Error("round " + std::to_string(*current) + " of " + dir +
                         " has finished: nothing to resume (run recrawl without --resume "
                         "for the next round)");
  }
  if (Status s = (*opened)->Close(); !s.ok()) return s;
  return *current;
}

StatusOr<PlannedRound> PlanNextRound(const RecrawlOptions& options,
                                     const RoundPolicyFactory& make_policy) {
  RoundPolicyContext ctx;
  ctx.out_dir = options.dir;
  ctx.topic_file = options.topic_file;
  ctx.rng_seed = options.rng_seed;
  ctx.model_file = options.model_file;
  auto policy = make_policy(options.policy, ctx);  // before touching the crawl
  if (!policy.ok()) return policy.status();
  return PlanNextRoundWith(options, **policy);
}

namespace {

// The crawl with its last round, which must have finished.
struct FinishedCrawl {
  std::unique_ptr<CrawlStore> store;
  int last = 0;
};

StatusOr<FinishedCrawl> OpenFinishedCrawl(const RecrawlOptions& options) {
  auto opened = CrawlStore::Open(options.dir, OpenMode::kResume);
  if (!opened.ok()) return opened.status();
  FinishedCrawl c{std::move(opened).value(), 0};
  auto current = c.store->CurrentRound();
  if (!current.ok()) return current.status();
  c.last = *current;
  auto finished = c.store->GetMeta(RoundFinishedKey(c.last));
  if (!finished.ok()) return finished.status();
  if (!finished->has_value()) {
    return Status::Error("round " + std::to_string(c.last) + " of " + options.dir +
                         " did not finish; continue it with `topicrawl recrawl " + options.dir +
                         " --resume` first");
  }
  return c;
}

// The policy's memory: restore, then feed it the rounds it has not seen.
Status CatchUpPolicy(CrawlStore* store, const RecrawlOptions& options, int last, RoundHistory& history,
                     RoundPolicy& policy) {
  auto saved = store->GetMeta(PolicyStateKey(options.policy));
  if (!saved.ok()) return saved.status();
  if (Status s = policy.RestoreState(saved->value_or("")); !s.ok()) {
    return Status::Error("round policy " + options.policy + ": cannot restore its state: " +
                         s.message());
  }
  auto fed = MetaInt(store, PolicyFedKey(options.policy), -1);
  if (!fed.ok()) return fed.status();
  if (*fed < last) return policy.OnRoundFinished(history);
  return Status::Ok();
}

// One pass over the known URLs: the stored pages (for a relative budget),
// every known id (sorted) and the origins of the stored pages (whose
// announcements to read).
struct KnownUrls {
  int64_t pages = 0;
  std::vector<UrlId> ids;
  std::set<std::string> origins;
  bool Has(UrlId id) const { return std::binary_search(ids.begin(), ids.end(), id); }
};

StatusOr<KnownUrls> ScanKnownUrls(RoundHistory& history) {
  KnownUrls k;
  Status s = history.ForEachUrl([&](const KnownUrl& u) {
    if (u.page_id != 0) {
      ++k.pages;
      if (size_t e = u.url.find('/', u.url.find("://") + 3); e != std::string::npos) {
        k.origins.insert(u.url.substr(0, e));
      }
    }
    k.ids.push_back(u.url_id);
    return true;
  });
  if (!s.ok()) return s;
  std::sort(k.ids.begin(), k.ids.end());
  return k;
}

// The round's start: revisits (the plan's, then known seeds at the top
// priority, beyond the budget) and new seeds to queue. `ids` collects every
// seed id (announced links already among them are not queued again).
struct RoundStart {
  std::vector<std::pair<UrlId, double>> revisits;
  std::vector<FrontierRecord> new_seeds;
  std::unordered_set<UrlId> ids;
};

RoundStart StartOfRound(const RoundPlan& plan, const KnownUrls& known, const RecrawlOptions& options,
                        int round) {
  RoundStart start;
  std::unordered_set<UrlId> planned;
  for (const Revisit& r : plan.revisits) {
    if (planned.insert(r.url_id).second) start.revisits.push_back({r.url_id, r.priority});
  }
  std::vector<UrlId> seed_order;
  std::vector<std::string> seed_urls;
  for (const std::string& seed : plan.seeds) {
    auto url = ResolveLink("", seed);
    if (!url) continue;
    const UrlId id = DedupId(*url, options.dedup_ignore_scheme);
    if (start.ids.insert(id).second) {
      seed_order.push_back(id);
      seed_urls.push_back(*url);
    }
  }
  double top = 1.0;
  for (const auto& [id, p] : start.revisits) top = std::max(top, p);
  for (size_t i = 0; i < seed_order.size(); ++i) {
    const UrlId id = seed_order[i];
    if (known.Has(id)) {
      if (planned.insert(id).second) start.revisits.push_back({id, top});
    } else {
      start.new_seeds.push_back({id, seed_urls[i], 0, 0, "", top,
                                 "{\"seed\":true,\"round\":" + std::to_string(round) + "}", 0});
    }
  }
  return start;
}

// The plan's announced links that are neither known nor seeds, for the
// round's announcement queue.
std::vector<QueuedAnnouncement> AnnouncedToQueue(const RoundPlan& plan, const KnownUrls& known,
                                                 const RecrawlOptions& options, RoundStart* start) {
  std::vector<QueuedAnnouncement> queue;
  for (const AnnouncedLink& a : plan.announced) {
    auto url = ResolveLink("", a.url);
    if (!url) continue;
    const UrlId id = DedupId(*url, options.dedup_ignore_scheme);
    if (known.Has(id)) continue;
    if (!start->ids.insert(id).second) continue;
    queue.push_back({*url, a.title, a.document, plan.announced_floor});
  }
  return queue;
}

Status WriteAnnouncedQueue(CrawlStore* store, const RecrawlOptions& options, int round,
                           const std::vector<QueuedAnnouncement>& queue) {
  if (queue.empty() && !HasAnnouncements(options.dir)) return Status::Ok();
  if (Status f = store->Flush(); !f.ok()) return f;
  auto announced = AnnounceStore::Open(options.dir);
  if (!announced.ok()) return announced.status();
  return (*announced)->WriteQueue(round, queue);
}

// The round's settings and the policy's state, then the round itself.
Status StartPlannedRound(CrawlStore* store, const RecrawlOptions& options, const RoundPolicy& policy,
                         bool follow_new_links, int last, const RoundStart& start) {
  const std::string round = std::to_string(last + 1);
  const std::pair<std::string, std::string> meta[] = {
      {"round_follow_new_links." + round, follow_new_links ? "1" : "0"},
      {"round_policy." + round, options.policy},
      {PolicyStateKey(options.policy), policy.SaveState()},
      {PolicyFedKey(options.policy), std::to_string(last)},
  };
  for (const auto& [key, value] : meta) {
    if (Status st = store->SetMeta(key, value); !st.ok()) return st;
  }
  return store->StartRound(last + 1, start.revisits, start.new_seeds);
}

}  // namespace

StatusOr<PlannedRound> PlanNextRoundWith(const RecrawlOptions& options, RoundPolicy& policy) {
  StatusOr<FinishedCrawl> crawl = OpenFinishedCrawl(options);
  if (!crawl.ok()) return crawl.status();
  CrawlStore* store = crawl->store.get();
  const int last = crawl->last;
  auto history = StoreRoundHistory::Make(store, last, options.dedup_ignore_scheme);
  if (!history.ok()) return history.status();
  if (Status s = CatchUpPolicy(store, options, last, **history, policy); !s.ok()) return s;

  RoundRequest request;
  request.round = last + 1;
  request.now_ms = SystemClock()->UnixMillis();
  request.budget = options.budget;
  StatusOr<KnownUrls> known = ScanKnownUrls(**history);
  if (!known.ok()) return known.status();
  std::string collected;
  if (policy.WantsAnnouncements()) {
    Status c = CollectRoundAnnouncements(store, options, {known->origins.begin(), known->origins.end()},
                                         request.round, &collected);
    if (!c.ok()) return Status::Error("reading the hosts' sitemaps and feeds: " + c.message());
  }
  if (request.budget < 0 && options.budget_fraction >= 0) {
    request.budget = static_cast<int64_t>(options.budget_fraction * static_cast<double>(known->pages) + 0.5);
  }
  RoundPlan plan;
  if (Status s = policy.Plan(request, **history, &plan); !s.ok()) {
    return Status::Error("round policy " + options.policy + ": " + s.message());
  }
  TruncateToBudget(&plan.revisits, request.budget);

  RoundStart start = StartOfRound(plan, *known, options, last + 1);
  const std::vector<QueuedAnnouncement> queue = AnnouncedToQueue(plan, *known, options, &start);
  if (Status w = WriteAnnouncedQueue(store, options, last + 1, queue); !w.ok()) return w;
  PlannedRound out;
  out.round = last + 1;
  out.announced = static_cast<int64_t>(queue.size());
  out.revisits = static_cast<int64_t>(start.revisits.size());
  out.new_seeds = static_cast<int64_t>(start.new_seeds.size());
  out.budget = request.budget;
  out.note = plan.note + (collected.empty() ? "" : "; " + collected);
  if (Status st = StartPlannedRound(store, options, policy, plan.follow_new_links, last, start); !st.ok()) {
    return st;
  }
  if (Status st = store->Close(); !st.ok()) return st;
  return out;
}

}  // namespace topicrawl
