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
    HostId victim = by_ram_size_.top().id;
    if (hosts_[victim].links.size() < 2 || !SpillHost(victim)) break;
  }
}

bool Frontier::SpillHost(HostId h) {
  Host& host = hosts_[h];
  LinkOrder order = host.order();
  std::vector<LinkItem> items = host.links.TakeAll(order);
  std::sort(items.begin(), items.end(),
            [&order](const LinkItem& a, const LinkItem& b) {
              return order.Before(a, b);
            });
  size_t keep = (items.size() + 1) / 2;
  std::vector<SpillRecord> records;
  records.reserve(items.size() - keep);
  for (size_t i = keep; i < items.size(); ++i) {
    const Entry& e = entries_[host.entry_of[items[i].id]];
    records.push_back(ToRecord(e.url, e.anchor, e.url_id, e.score,
                               items[i].seq, e.depth, e.attempt,
                               e.parent_page_id));
  }
  StatusOr<SpillSegment> segment = spill_->Append(records);
  if (!segment.ok()) {
    // Keep everything in RAM and stop spilling; the crawl can go on (and
    // report spill_status()) rather than lose links.
    spill_status_ = segment.status();
    for (const LinkItem& item : items) host.links.Push(order, item);
    return false;
  }
  // A sorted array is a valid heap: re-pushing in order never sifts.
  for (size_t i = 0; i < keep; ++i) host.links.Push(order, items[i]);
  for (size_t i = keep; i < items.size(); ++i) {
    uint32_t id = host.entry_of[items[i].id];
    const Entry& e = entries_[id];
    in_ram_.erase(e.url_id);
    spilled_[e.url_id] = SpilledLink{static_cast<float>(e.score), h};
    --in_ram_total_;
    FreeEntry(id);
    host.free_handles.push_back(items[i].id);
  }
  host.spilled += records.size();
  ++spill_counts_.spills;
  spill_counts_.links_spilled += records.size();
  host.segments.push_back(SpilledSegment{
      *segment, selector_->Priority(records.front().score, records.front().seq),
      records.front().seq});
  Refresh(h);
  return true;
}

bool Frontier::BestSpilledBeats(const Host& host) const {
  if (host.links.empty()) return !host.segments.empty();
  const LinkItem& top = host.links.top();
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
//
// Why segments are opened lazily: a host collects a segment per spill (tens
// of them on a long crawl), and once the RAM queue is full overall a reload
// takes only the few links the global allowance has room for (often one).
// Opening every segment read 16 KiB from each (a pread) and compared every
// head for each link loaded, twice looking its score up in spilled_ (a
// random access into a table of millions); at 8.5 x 10^5 pages of the
// synthetic web that made the spill part of what grew on the crawl thread
// (docs/guides/performance.md, the 8.5 x 10^5-page profile). A segment's stored head
// (head_priority, head_seq) says where its best link ranks, so a segment is
// opened only when that head is the best candidate left; once open, its
// actual head (with a re-scored value, if any) decides, computed once per
// head.
void Frontier::Reload(HostId h) {
  Host& host = hosts_[h];
  size_t room = options_.max_in_ram_per_host - std::min(
      options_.max_in_ram_per_host, host.links.size());
  size_t global_room = options_.max_in_ram_total -
                       std::min(options_.max_in_ram_total, in_ram_total_);
  size_t batch = std::max<size_t>(
      1, std::min({options_.max_in_ram_per_host / 2, room, global_room}));

  auto current_score = [this](const SpillRecord& r) {
    auto it = spilled_.find(r.url_id);
    if (it == spilled_.end() || static_cast<float>(r.score) == it->second.score)
      return r.score;
    return static_cast<double>(it->second.score);
  };
  struct Source {
    std::unique_ptr<SpillCursor> cursor;  // null: not opened yet
    double priority = 0;                  // of the head (stored, or actual once open)
    uint64_t seq = 0;
  };
  std::vector<Source> sources(host.segments.size());
  for (size_t i = 0; i < host.segments.size(); ++i) {
    sources[i].priority = host.segments[i].head_priority;
    sources[i].seq = host.segments[i].head_seq;
  }
  auto open = [&](size_t i) {
    Source& src = sources[i];
    src.cursor = std::make_unique<SpillCursor>(spill_.get(), &host.segments[i].range);
    if (src.cursor->HasHead()) {
      const SpillRecord& head = src.cursor->head();
      src.priority = selector_->Priority(current_score(head), head.seq);
      src.seq = head.seq;
    }
  };
  auto live = [&](size_t i) {
    return sources[i].cursor ? sources[i].cursor->HasHead()
                             : host.segments[i].range.remaining > 0;
  };
  size_t loaded = 0;
  while (loaded < batch) {
    size_t best = sources.size();
    for (size_t i = 0; i < sources.size(); ++i) {
      if (!live(i)) continue;
      if (best == sources.size() || sources[i].priority > sources[best].priority ||
          (sources[i].priority == sources[best].priority && sources[i].seq < sources[best].seq)) {
        best = i;
      }
    }
    if (best == sources.size()) break;
    if (!sources[best].cursor) {
      open(best);  // its actual head may rank lower (re-scored): choose again
      continue;
    }
    SpillCursor* cursor = sources[best].cursor.get();
    SpillRecord r = cursor->Consume();
    if (cursor->HasHead()) {
      const SpillRecord& head = cursor->head();
      sources[best].priority = selector_->Priority(current_score(head), head.seq);
      sources[best].seq = head.seq;
    }
    auto it = spilled_.find(r.url_id);
    if (it == spilled_.end()) continue;  // cannot happen; never double-serve
    double score = static_cast<float>(r.score) == it->second.score
                       ? r.score
                       : static_cast<double>(it->second.score);
    spilled_.erase(it);
    --host.spilled;
    uint32_t id = NewEntry();
    Entry& e = entries_[id];
    e.url_id = r.url_id;
    e.score = score;
    e.parent_page_id = r.parent_page_id;
    e.depth = r.depth;
    e.attempt = r.attempt;
    e.host = h;
    e.url = std::move(r.url);
    e.anchor = std::move(r.anchor);
    LinkEntry(id, r.seq);
    ++loaded;
  }
  ++spill_counts_.reloads;
  spill_counts_.links_reloaded += loaded;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i].cursor) continue;  // untouched: its stored head stands
    if (!sources[i].cursor->status().ok() && spill_status_.ok()) {
      spill_status_ = sources[i].cursor->status();
    }
    if (sources[i].cursor->HasHead()) {
      host.segments[i].head_priority = sources[i].priority;
      host.segments[i].head_seq = sources[i].seq;
    }
  }
  sources.clear();
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
    for (const LinkItem& item : hosts_[h].links.items()) {
      const Entry& e = entries_[hosts_[h].entry_of[item.id]];
      fn(QueuedLinkView{e.url_id, h, e.url, e.anchor, e.depth,
                        e.parent_page_id, item.seq, e.score});
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
    for (LinkItem& item : host.links.mutable_items()) {
      Entry& e = entries_[host.entry_of[item.id]];
      double s = fn(QueuedLinkView{e.url_id, h, e.url, e.anchor, e.depth,
                                   e.parent_page_id, item.seq, e.score});
      e.score = SanitizeScore(s);
      item.priority = selector_->Priority(e.score, item.seq);
      item.score = static_cast<float>(e.score);
      host.sum_score += e.score;
      host.max_bound = std::max(host.max_bound, e.score);
    }
    LinkOrder order = host.order();
    host.links.Rebuild(order);
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
