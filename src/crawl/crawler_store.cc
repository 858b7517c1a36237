// What a fetched, failed, refused or revisited URL becomes in the store:
// pages rows, outlinks offered to the strategy and the frontier, fates,
// host-health and URL-trap events. The writer thread owns the store;
// everything here posts to it (crawl/store_writer.h). See crawler_impl.h for
// the split.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/hash.h"
#include "crawl/crawler_impl.h"
#include "crawl/dedup.h"
#include "frontier/link_selector.h"
#include "text/simhash.h"
#include "url/url.h"

namespace topicrawl {

// A new link passes the URL-trap pattern budget (crawl/url_trap.h) on its
// way into the frontier: the frontier asks about new URLs only, so neither a
// duplicate nor a URL over its host's page budget is counted.
AddResult Crawler::Impl::AdmitLink(LinkCandidate c) {
  if (!traps_.counts_patterns()) return frontier_->Add(std::move(c));
  const AddResult added = frontier_->AddIf(
      std::move(c), [this](std::string_view url) { return traps_.Admit(url); });
  if (added == AddResult::kNotAdmitted) ++stats_.links_trap_not_queued;
  return added;
}

bool Crawler::Impl::Admissible(const Outlink& link, uint32_t child_depth,
                               bool page_nofollow) const {
  if (link.url.empty()) return false;
  if ((link.nofollow || page_nofollow) && !config_.follow_nofollow) return false;
  if (config_.max_depth >= 0 && child_depth > static_cast<uint32_t>(config_.max_depth)) {
    return false;
  }
  return filters_.Decide(link.url) != FilterDecision::kReject;
}

void Crawler::Impl::StoreProcessed(ProcessedPage p) {
  const PageId id = next_page_id_;
  PageRecord rec = ProcessedRecord(p, id);
  const bool follow = round_.follow_new_links() &&
                      (rec.near_duplicate_of == 0 || config_.near_duplicate_follow_links);
  if (follow) OfferOutlinks(p, id, &rec);
  NoteSpentPatterns();
  if (writer_->failed()) {  // the crawl stops; Finished() picks up the error
    if (error_.ok()) error_ = writer_->error();
    return;
  }
  const CrawlTask& task = p.fetch.task;
  const bool ok = rec.status == FetchStatus::kOk;
  stats_.bytes += static_cast<int64_t>(rec.body.size());
  if (ok) {
    ++stats_.pages_ok;
    ++stats_.content_types[ContentTypeKey(rec.content_type)];
    if (strategy_.traits.beta && p.assessment.relevance >= *strategy_.traits.beta) {
      ++stats_.relevant;
    }
  } else {
    ++stats_.pages_failed;
  }
  strategy_.learner->OnPageStored(task, id, p.page, p.assessment, frontier_.get());
  if (monitor_) {
    ReportToMonitor(rec, task.host_id,
                    ok && strategy_.traits.beta && p.assessment.relevance >= *strategy_.traits.beta);
  }
  if (config_.store_links) MoveLinksIntoRecord(&p, &rec);
  AddPageRecord(std::move(rec));
}

// The pages row of a parsed page (moves its heads, body and rendered HTML
// out of `p`), with its round fields, change class and near-duplicate.
PageRecord Crawler::Impl::ProcessedRecord(ProcessedPage& p, PageId id) {
  const FetchResult& f = p.fetch;
  const CrawlTask& task = f.task;
  PageRecord rec;
  rec.url_id = task.url_id;
  rec.url = task.url;
  rec.final_url = f.final_url == task.url ? "" : f.final_url;
  rec.status = p.parse_error.empty() ? FetchStatus::kOk : FetchStatus::kParseError;
  rec.http_code = f.http_code;
  rec.content_type = f.content_type;
  rec.charset = p.decoded.charset;
  rec.fetched_at = f.fetched_at_unix_ms;
  rec.depth = task.depth;
  rec.parent_id = task.parent_page_id;
  rec.anchor = task.anchor;
  rec.relevance = p.assessment.relevance;
  rec.link_score = task.score;
  rec.title = p.page.title;
  rec.error = p.parse_error.empty() ? p.page.warning : p.parse_error;
  rec.explanation = p.assessment.explanation;
  rec.request_head = std::move(p.fetch.request_head);
  rec.response_head = std::move(p.fetch.response_head);
  rec.body = std::move(p.fetch.body);  // p is ours: no 30 KB copy
  rec.rendered_html = std::move(p.rendered_html);
  rec.render_note = std::move(p.render_note);
  if (!p.render_event.empty()) {
    writer_->Post([detail = std::move(p.render_event)](CrawlStore* store) {
      store->AddEvent("render_decision", detail);
    });
  }
  rec.remote_ip = f.remote_ip;
  rec.digest = p.digest;
  rec.simhash = p.simhash;
  rec.out_links = static_cast<int64_t>(p.page.links.size());
  SetRoundFields(f, &rec);
  if (const RoundState::Revisit* rv = round_.Find(task.url_id)) {
    rec.fetch_state = RoundState::ClassifyChange(*rv, p.simhash);
    rec.version_id = rv->version_id;
    round_.Done(task.url_id);
  }
  if (rec.status == FetchStatus::kOk) {
    rec.near_duplicate_of = round_.NearDuplicateAndAdd(p.simhash, id, task.url_id);
  }
  return rec;
}

// The page's admissible outlinks go to the cluster or the frontier; the
// ones the frontier takes as new are the row's admitted links.
void Crawler::Impl::OfferOutlinks(const ProcessedPage& p, PageId id, PageRecord* rec) {
  const uint32_t child_depth = p.fetch.task.depth + 1;
  for (size_t i = 0; i < p.page.links.size(); ++i) {
    const Outlink& link = p.page.links[i];
    const PageAssessment::Link& a = p.assessment.links[i];
    if (link.url.empty()) continue;
    ++stats_.links_seen;
    if (!a.admit || !Admissible(link, child_depth, p.page.nofollow)) continue;
    LinkCandidate c{link.url, DedupId(link.url, config_.dedup_ignore_scheme),
                    child_depth, id, link.anchor, a.score};
    if (cluster_) {  // the cluster's seen-set decides; the owner queues it
      cluster_->Route(c);
      continue;
    }
    // The URL-trap pattern budget counts new URLs as they are admitted; one
    // over it is not queued (nor stored), only counted per pattern
    // (crawl/url_trap.h).
    const AddResult added = AdmitLink(c);
    if (added == AddResult::kNotAdmitted) continue;
    if (added == AddResult::kAdded) {
      ++stats_.links_queued;
      // The admitting link's explanation only with --link-details, as for
      // the links rows: it was ~120 of a frontier row's ~230 bytes.
      rec->admitted.push_back({c.url_id, std::move(c.url), child_depth, id, std::move(c.anchor),
                               c.score, config_.store_link_details ? a.explanation : std::string(),
                               0});
    }
  }
}

// The strategy is done with the page: its link strings move into the links
// rows instead of being copied (~100 links, ~300 allocations a page).
void Crawler::Impl::MoveLinksIntoRecord(ProcessedPage* p, PageRecord* rec) {
  rec->links.reserve(p->page.links.size());
  for (size_t i = 0; i < p->page.links.size(); ++i) {
    Outlink& link = p->page.links[i];
    if (link.url.empty()) continue;
    PageAssessment::Link& a = p->assessment.links[i];
    if (config_.store_link_details) {
      rec->links.push_back({std::move(link.url), std::move(link.anchor),
                            std::move(link.context), a.score, std::move(a.explanation)});
    } else {
      rec->links.push_back({std::move(link.url), std::move(link.anchor), {}, a.score, {}});
    }
  }
}

// The parts of a pages row that come straight from the transfer (moves the
// heads, body and error out of `f`; its task stays usable).
PageRecord Crawler::Impl::TransferRecord(FetchResult& f) {
  PageRecord rec;
  rec.url_id = f.task.url_id;
  rec.url = f.task.url;
  rec.final_url = f.final_url == f.task.url ? "" : f.final_url;
  rec.status = f.status;
  rec.http_code = f.http_code;
  rec.content_type = f.content_type;
  rec.fetched_at = f.fetched_at_unix_ms ? f.fetched_at_unix_ms : clock_->UnixMillis();
  rec.depth = f.task.depth;
  rec.parent_id = f.task.parent_page_id;
  rec.anchor = f.task.anchor;
  rec.link_score = f.task.score;
  rec.error = std::move(f.error);
  rec.request_head = std::move(f.request_head);
  rec.response_head = std::move(f.response_head);
  rec.body = std::move(f.body);
  rec.remote_ip = std::move(f.remote_ip);
  return rec;
}

void Crawler::Impl::StoreFailure(FetchResult f) {
  PageRecord rec = TransferRecord(f);
  if (monitor_) ReportToMonitor(rec, f.task.host_id, false);
  SetRoundFields(f, &rec);
  rec.fetch_state =
      f.http_code == 404 || f.http_code == 410 ? UrlState::kGone : UrlState::kFailed;
  if (const RoundState::Revisit* rv = round_.Find(rec.url_id)) {
    // A revisit that never got an answer (robots, parse pool): the version
    // stays; no pages row.
    rec.store_version = false;
    rec.version_id = rv->version_id;
    rec.digest = rv->digest;
    rec.simhash = rv->simhash;
    rec.out_links = rv->out_links;
    rec.etag = rv->etag;
    rec.last_modified = rv->last_modified;
    round_.Done(rec.url_id);
    if (writer_->failed()) {
      if (error_.ok()) error_ = writer_->error();
      return;
    }
    ++stats_.pages_failed;
    writer_->AddPage(std::move(rec));
    return;
  }
  if (AddPageRecord(std::move(rec)).ok()) ++stats_.pages_failed;
}

void Crawler::Impl::RecordRefusal(const CrawlTask& task, FetchStatus status, std::string why) {
  FetchResult refused;
  refused.task = task;
  refused.status = status;
  refused.error = std::move(why);
  refused.fetched_at_unix_ms = clock_->UnixMillis();
  frontier_->Complete(task, {status, 0, -1});
  StoreFailure(std::move(refused));
}

void Crawler::Impl::NoteHostHealth(HostId host, const HostHealth& before) {
  if (host >= frontier_->Hosts()) return;
  HostHealth now = frontier_->Health(host);
  const std::string& key = frontier_->HostKey(host);
  if (now.failed && !before.failed) {
    std::string why = frontier_->HostFailureReason(host);
    std::fprintf(stderr, "warning: %s\n", why.c_str());
    writer_->Post([why](CrawlStore* store) { store->AddEvent("host_failed", why); });
  } else if (now.backoff_level > before.backoff_level) {
    double wait = std::chrono::duration<double>(now.next_start - clock_->Now()).count();
    char detail[512];
    std::snprintf(detail, sizeof(detail),
                  "%s backed off %.1f s: %u consecutive failures (last: %s), level %d",
                  key.c_str(), std::max(0.0, wait), now.consecutive_failures,
                  now.last_failure.c_str(), now.backoff_level);
    writer_->Post([d = std::string(detail)](CrawlStore* store) {
      store->AddEvent("host_backoff", d);
    });
  }
}

// A pattern whose URL-trap budget was just spent: from now on its new links
// are not queued (StoreProcessed), so an event says where that began.
void Crawler::Impl::NoteSpentPatterns() {
  for (std::string& pattern : traps_.TakeNewlySpent()) {
    writer_->Post([detail = pattern + ": " + std::to_string(config_.max_urls_per_pattern) +
                            " URLs admitted (max_urls_per_pattern); its further new links "
                            "are not queued"](CrawlStore* store) {
      store->AddEvent("trap_pattern", detail);
    });
  }
}

// The links NoteSpentPatterns' patterns turned away, in all and for the
// patterns with the most (an events row; the summary prints the total).
void Crawler::Impl::RecordTrapLinks() {
  if (traps_.not_queued() == 0) return;
  std::string detail = std::to_string(traps_.not_queued()) +
                       " new links not queued (URL-trap pattern budget spent):";
  const auto by_pattern = traps_.NotQueuedByPattern();
  constexpr size_t kShown = 20;
  for (size_t i = 0; i < by_pattern.size() && i < kShown; ++i) {
    detail += " " + by_pattern[i].first + " " + std::to_string(by_pattern[i].second) + ";";
  }
  if (by_pattern.size() > kShown) {
    detail += " and " + std::to_string(by_pattern.size() - kShown) + " more patterns";
  }
  store_->AddEvent("trap_links", detail);
}

void Crawler::Impl::RecordAbandoned() {
  for (CrawlTask& task : frontier_->TakeAbandoned()) {
    FetchResult r;
    r.status = FetchStatus::kHostFailed;
    r.error = frontier_->HostFailureReason(task.host_id);
    r.fetched_at_unix_ms = clock_->UnixMillis();
    r.task = std::move(task);
    StoreFailure(std::move(r));
  }
}


void Crawler::Impl::SetRoundFields(const FetchResult& f, PageRecord* rec) {
  rec->round = round_.round();
  rec->fetch_state = UrlState::kNew;
  rec->revisit = round_.Find(f.task.url_id) != nullptr;
  rec->etag = f.etag;
  rec->last_modified = f.last_modified;
}

bool Crawler::Impl::StoreKeptRevisit(FetchResult* result) {
  // A revisit whose stored version stays valid is decided here, before any
  // parsing: 304, an equal body digest, gone (404/410) or another failure.
  // Changed bodies go on to the parse pool like new pages.
  const RoundState::Revisit* rv = round_.Find(result->task.url_id);
  if (rv == nullptr) return false;
  const uint64_t digest = result->status == FetchStatus::kOk ? Hash64(result->body) : 0;
  PageRecord::RevisitProfile profile;
  std::optional<UrlState> state = RoundState::ClassifyBeforeParse(*rv, *result, digest, &profile);
  if (!state) return false;
  FetchResult& f = *result;
  PageRecord rec = TransferRecord(f);
  if (*state == UrlState::kUnchanged) rec.status = FetchStatus::kOk;
  rec.round = round_.round();
  rec.revisit = true;
  rec.fetch_state = *state;
  rec.store_version = false;
  rec.version_id = rv->version_id;
  rec.revisit_profile = profile;
  // The version's digest, SimHash and validators carry forward (a 304 may
  // send fresh validators).
  rec.digest = rv->digest;
  rec.simhash = rv->simhash;
  rec.out_links = rv->out_links;
  rec.etag = f.etag.empty() ? rv->etag : f.etag;
  rec.last_modified = f.last_modified.empty() ? rv->last_modified : f.last_modified;
  round_.Done(rec.url_id);
  if (writer_->failed()) {
    if (error_.ok()) error_ = writer_->error();
    return true;
  }
  stats_.bytes += static_cast<int64_t>(rec.body.size());
  if (*state == UrlState::kUnchanged) {
    ++stats_.pages_ok;
    ++stats_.content_types[ContentTypeKey(rec.content_type)];
  } else {
    ++stats_.pages_failed;
  }
  writer_->AddPage(std::move(rec));  // no page id: the version stays
  return true;
}

Status Crawler::Impl::AddPageRecord(PageRecord rec) {
  // The store assigns ids in call order, so the id is known now; a failed
  // write stops the crawl (Finished) and Run() returns its error.
  if (writer_->failed()) {
    if (error_.ok()) error_ = writer_->error();
    return error_;
  }
  const UrlId url_id = rec.url_id;
  const bool ok = rec.status == FetchStatus::kOk;
  std::string url = cluster_ ? rec.url : std::string();
  // A refusal the store keeps without a pages row (schema 6) takes no id.
  const bool page_row = !store_->KeepsAsRefusal(rec);
  writer_->AddPage(std::move(rec));
  if (page_row) ++next_page_id_;
  if (cluster_) ReportHostToCluster(url_id, ok, url);
  return Status::Ok();
}

}  // namespace topicrawl
