// The frontier's overflow to disk, its reload, and the bulk operations that
// must see spilled links too (ForEachQueued, RescoreAll).
//
// Why "worst half of one host" as the spill unit: sorting the host's RAM
// queue once per M/2 insertions costs O(log M) amortised per link, the part
// kept in RAM is exactly the host's best half at that moment, and the part
// written is already in serving order, so it can be read back as a queue.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "frontier/frontier.h"

namespace topicrawl {
namespace {

SpillRecord ToRecord(const std::string& url, const std::string& anchor,
                     UrlId url_id, double score, uint64_t seq, uint32_t depth,
                     uint32_t attempt, PageId parent) {
  SpillRecord r;
  r.url_id = url_id;
  r.score = score;
  r.seq = seq;
  r.depth = depth;
  r.attempt = attempt;
  r.parent_page_id = parent;
  r.url = url;
  r.anchor = anchor;
  return r;
}

QueuedLinkView ViewOf(const SpillRecord& r, HostId host) {
  return QueuedLinkView{r.url_id, host,    r.url,   r.anchor,
                        r.depth,  r.parent_page_id, r.seq, r.score};
}

}  // namespace

void Frontier::MaybeSpill(HostId h) {
  if (!spill_ || !spill_status_.ok()) return;
  if (hosts_[h].links.size() > options_.max_in_ram_per_host) SpillHost(h);
  while (in_ram_total_ > options_.max_in_ram_total && !by_ram_size_.empty()) {
    HostId victim = by_ram_size_.top();
    if (hosts_[victim].links.size() < 2 || !SpillHost(victim)) break;
  }
}

bool Frontier::SpillHost(HostId h) {
  Host& host = hosts_[h];
  std::vector<uint32_t> ids = host.links.TakeAll(link_order_);
  std::sort(ids.begin(), ids.end(), [this](uint32_t a, uint32_t b) {
    return link_order_.Before(a, b);
  });
  size_t keep = (ids.size() + 1) / 2;
  std::vector<SpillRecord> records;
  records.reserve(ids.size() - keep);
  for (size_t i = keep; i < ids.size(); ++i) {
    const Entry& e = entries_[ids[i]];
    records.push_back(ToRecord(e.url, e.anchor, e.url_id, e.score, e.seq,
                               e.depth, e.attempt, e.parent_page_id));
  }
  StatusOr<SpillSegment> segment = spill_->Append(records);
  if (!segment.ok()) {
    // Keep everything in RAM and stop spilling; the crawl can go on (and
    // report spill_status()) rather than lose links.
    spill_status_ = segment.status();
    for (uint32_t id : ids) host.links.Push(link_order_, id);
    return false;
  }
  // A sorted array is a valid heap: re-pushing in order never sifts.
  for (size_t i = 0; i < keep; ++i) host.links.Push(link_order_, ids[i]);
  for (size_t i = keep; i < ids.size(); ++i) {
    const Entry& e = entries_[ids[i]];
    in_ram_.erase(e.url_id);
    spilled_[e.url_id] = SpilledLink{static_cast<float>(e.score), h};
    --in_ram_total_;
    FreeEntry(ids[i]);
  }
  host.spilled += records.size();
  host.segments.push_back(SpilledSegment{
      *segment, selector_->Priority(records.front().score, records.front().seq),
      records.front().seq});
  Refresh(h);
  return true;
}

bool Frontier::BestSpilledBeats(const Host& host) const {
  if (host.links.empty()) return !host.segments.empty();
  const Entry& top = entries_[host.links.top()];
  for (const SpilledSegment& s : host.segments) {
    if (s.head_priority > top.priority ||
        (s.head_priority == top.priority && s.head_seq < top.seq)) {
      return true;
    }
  }
  return false;
}

void Frontier::MaybeReload(HostId h) {
  const Host& host = hosts_[h];
  if (host.spilled == 0 || !spill_ || !spill_status_.ok()) return;
  if (host.links.empty() ||
      (host.links.size() <= options_.max_in_ram_per_host / 2 &&
       BestSpilledBeats(host))) {
    Reload(h);
  }
}

// Loads up to half a host's RAM allowance, merging the host's segments by
// their head record (best first). Scores re-scored while on disk are taken
// from the spilled index.
void Frontier::Reload(HostId h) {
  Host& host = hosts_[h];
  size_t room = options_.max_in_ram_per_host - std::min(
      options_.max_in_ram_per_host, host.links.size());
  size_t global_room = options_.max_in_ram_total -
                       std::min(options_.max_in_ram_total, in_ram_total_);
  size_t batch = std::max<size_t>(
      1, std::min({options_.max_in_ram_per_host / 2, room, global_room}));

  std::vector<std::unique_ptr<SpillCursor>> cursors;
  for (SpilledSegment& s : host.segments) {
    cursors.push_back(std::make_unique<SpillCursor>(spill_.get(), &s.range));
  }
  auto current_score = [this](const SpillRecord& r) {
    auto it = spilled_.find(r.url_id);
    if (it == spilled_.end() || static_cast<float>(r.score) == it->second.score)
      return r.score;
    return static_cast<double>(it->second.score);
  };
  auto head_before = [&](const SpillRecord& a, const SpillRecord& b) {
    double pa = selector_->Priority(current_score(a), a.seq);
    double pb = selector_->Priority(current_score(b), b.seq);
    if (pa != pb) return pa > pb;
    return a.seq < b.seq;
  };
  for (size_t loaded = 0; loaded < batch;) {
    SpillCursor* best = nullptr;
    for (auto& c : cursors) {
      if (c->HasHead() && (!best || head_before(c->head(), best->head()))) {
        best = c.get();
      }
    }
    if (best == nullptr) break;
    SpillRecord r = best->Consume();
    auto it = spilled_.find(r.url_id);
    if (it == spilled_.end()) continue;  // cannot happen; never double-serve
    double score = current_score(r);
    spilled_.erase(it);
    --host.spilled;
    uint32_t id = NewEntry();
    Entry& e = entries_[id];
    e.url_id = r.url_id;
    e.score = score;
    e.seq = r.seq;
    e.priority = selector_->Priority(score, r.seq);
    e.parent_page_id = r.parent_page_id;
    e.depth = r.depth;
    e.attempt = r.attempt;
    e.host = h;
    e.url = std::move(r.url);
    e.anchor = std::move(r.anchor);
    LinkEntry(id);
    ++loaded;
  }
  for (size_t i = 0; i < cursors.size(); ++i) {
    if (!cursors[i]->status().ok() && spill_status_.ok()) {
      spill_status_ = cursors[i]->status();
    }
    if (cursors[i]->HasHead()) {
      const SpillRecord& head = cursors[i]->head();
      host.segments[i].head_priority =
          selector_->Priority(current_score(head), head.seq);
      host.segments[i].head_seq = head.seq;
    }
  }
  cursors.clear();
  std::erase_if(host.segments, [](const SpilledSegment& s) {
    return s.range.remaining == 0;
  });
  MaybeTruncateSpill();
}

void Frontier::MaybeTruncateSpill() {
  if (spill_ && spilled_.empty() && spill_->size() > 0) {
    Status s = spill_->Truncate();
    if (!s.ok() && spill_status_.ok()) spill_status_ = s;
  }
}

void Frontier::ForEachSpilled(
    HostId h, const std::function<void(const SpillRecord&)>& fn) {
  for (const SpilledSegment& s : hosts_[h].segments) {
    SpillSegment range = s.range;  // a copy: reading must not consume
    SpillCursor cursor(spill_.get(), &range);
    while (cursor.HasHead()) {
      SpillRecord r = cursor.Consume();
      auto it = spilled_.find(r.url_id);
      if (it == spilled_.end()) continue;
      if (static_cast<float>(r.score) != it->second.score) {
        r.score = it->second.score;
      }
      fn(r);
    }
    if (!cursor.status().ok() && spill_status_.ok()) {
      spill_status_ = cursor.status();
    }
  }
}

void Frontier::ForEachQueued(
    const std::function<void(const QueuedLinkView&)>& fn) {
  for (HostId h = 0; h < hosts_.size(); ++h) {
    for (uint32_t id : hosts_[h].links.ids()) {
      const Entry& e = entries_[id];
      fn(QueuedLinkView{e.url_id, h, e.url, e.anchor, e.depth,
                        e.parent_page_id, e.seq, e.score});
    }
    if (spill_ && hosts_[h].spilled > 0) {
      ForEachSpilled(h, [&](const SpillRecord& r) { fn(ViewOf(r, h)); });
    }
  }
}

void Frontier::RescoreAll(
    const std::function<double(const QueuedLinkView&)>& fn) {
  for (HostId h = 0; h < hosts_.size(); ++h) {
    Host& host = hosts_[h];
    host.sum_score = 0;
    host.max_bound = -std::numeric_limits<double>::infinity();
    for (uint32_t id : host.links.ids()) {
      Entry& e = entries_[id];
      double s = fn(QueuedLinkView{e.url_id, h, e.url, e.anchor, e.depth,
                                   e.parent_page_id, e.seq, e.score});
      e.score = SanitizeScore(s);
      e.priority = selector_->Priority(e.score, e.seq);
      host.sum_score += e.score;
      host.max_bound = std::max(host.max_bound, e.score);
    }
    host.links.Rebuild(link_order_);
  }
  if (spill_ && !spilled_.empty()) RewriteSpill(fn);
  RebuildHostIndexes();
}

// Re-scores every spilled link and writes the result to a fresh file (one
// sorted segment per host), which also reclaims the space of consumed
// records. On failure the old file and scores stay in force.
void Frontier::RewriteSpill(
    const std::function<double(const QueuedLinkView&)>& fn) {
  std::string path = spill_->path();
  StatusOr<std::unique_ptr<SpillFile>> fresh =
      spill_status_.ok() ? SpillFile::Create(path + ".new")
                         : StatusOr<std::unique_ptr<SpillFile>>(spill_status_);
  Status failure = fresh.ok() ? Status::Ok() : fresh.status();
  std::vector<std::vector<SpilledSegment>> segments(hosts_.size());
  std::vector<double> sums(hosts_.size(), 0.0);
  std::vector<std::pair<UrlId, float>> updates;
  for (HostId h = 0; failure.ok() && h < hosts_.size(); ++h) {
    if (hosts_[h].spilled == 0) continue;
    std::vector<SpillRecord> records;
    ForEachSpilled(h, [&](const SpillRecord& r) { records.push_back(r); });
    if (!spill_status_.ok()) {
      failure = spill_status_;
      break;
    }
    for (SpillRecord& r : records) {
      double s = fn(ViewOf(r, h));
      r.score = SanitizeScore(s);
      sums[h] += r.score;
      updates.emplace_back(r.url_id, static_cast<float>(r.score));
    }
    std::sort(records.begin(), records.end(),
              [this](const SpillRecord& a, const SpillRecord& b) {
                double pa = selector_->Priority(a.score, a.seq);
                double pb = selector_->Priority(b.score, b.seq);
                if (pa != pb) return pa > pb;
                return a.seq < b.seq;
              });
    if (records.empty()) continue;
    StatusOr<SpillSegment> segment = (*fresh)->Append(records);
    if (!segment.ok()) {
      failure = segment.status();
      break;
    }
    segments[h].push_back(SpilledSegment{
        *segment,
        selector_->Priority(records.front().score, records.front().seq),
        records.front().seq});
  }
  if (failure.ok() && std::rename((path + ".new").c_str(), path.c_str()) != 0) {
    failure = Status::Error("cannot replace spill file " + path);
  }
  if (!failure.ok()) {
    if (spill_status_.ok()) spill_status_ = failure;
    std::remove((path + ".new").c_str());
    // Old scores of spilled links still count in the host sums.
    for (const auto& [url_id, link] : spilled_) {
      hosts_[link.host].sum_score += link.score;
    }
    return;
  }
  (*fresh)->set_path(path);
  spill_ = std::move(fresh).value();
  for (const auto& [url_id, score] : updates) spilled_[url_id].score = score;
  for (HostId h = 0; h < hosts_.size(); ++h) {
    hosts_[h].segments = std::move(segments[h]);
    hosts_[h].sum_score += sums[h];
  }
}

}  // namespace topicrawl
