#include "frontier/frontier.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "frontier/host_key.h"

namespace topicrawl {
namespace {

// Puts `item` in `heap`, re-keys it, or takes its id out (want == false).
template <typename Policy>
void SetMember(IndexedHeap<Policy>& heap, Policy& policy,
               const typename Policy::Item& item, bool want) {
  uint32_t id = Policy::Id(item);
  bool in = heap.contains(policy, id);
  if (want && !in) {
    heap.Push(policy, item);
  } else if (want) {
    heap.Update(policy, item);
  } else if (in) {
    heap.Erase(policy, id);
  }
}

}  // namespace

std::string_view AddResultName(AddResult result) {
  switch (result) {
    case AddResult::kAdded: return "added";
    case AddResult::kDuplicate: return "duplicate";
    case AddResult::kRescored: return "rescored";
    case AddResult::kBudgetExceeded: return "budget_exceeded";
    case AddResult::kRejected: return "rejected";
    case AddResult::kNotAdmitted: return "not_admitted";
  }
  return "rejected";
}

// A NaN score from a scorer bug must not poison the heap order or the host
// sums; an infinite one must not turn a host mean into NaN.
double Frontier::SanitizeScore(double s) {
  if (std::isnan(s)) return 0.0;
  return std::clamp(s, -1e12, 1e12);
}

// ---- The selector's view --------------------------------------------------

class Frontier::View : public SelectionView {
 public:
  explicit View(Frontier* f) : f_(f) {}
  size_t ReadyHosts() const override { return f_->ready_by_top_.size(); }
  std::optional<LinkRef> GlobalBest() const override {
    if (f_->ready_by_top_.empty()) return std::nullopt;
    return LinkRef{f_->ready_by_top_.top().id, 0};
  }
  std::optional<HostId> BestMeanHost() const override {
    if (f_->ready_by_mean_.empty()) return std::nullopt;
    return f_->ready_by_mean_.top().id;
  }
  HostStats Stats(HostId host) const override {
    if (host >= f_->hosts_.size()) return {};
    const Host& h = f_->hosts_[host];
    return HostStats{h.count, h.links.size(), h.sum_score, f_->ExactMax(h)};
  }
  LinkRef Top(HostId host) const override { return LinkRef{host, 0}; }
  LinkInfo At(LinkRef ref) const override {
    if (!Valid(ref)) return {};
    const LinkItem& item = f_->hosts_[ref.host].links.at(ref.slot);
    const Entry& e = f_->entries_[f_->hosts_[ref.host].entry_of[item.id]];
    return LinkInfo{e.url_id, e.score, item.priority, item.seq, e.depth};
  }
  double ScoreAt(LinkRef ref) const override {
    if (!Valid(ref)) return 0.0;
    return f_->hosts_[ref.host].links.at(ref.slot).score;
  }

 private:
  bool Valid(LinkRef ref) const {
    return ref.host < f_->hosts_.size() &&
           ref.slot < f_->hosts_[ref.host].links.size();
  }

  Frontier* f_;
};

// ---- Construction ---------------------------------------------------------

StatusOr<std::unique_ptr<Frontier>> Frontier::Create(
    const FrontierOptions& options, Clock* clock,
    std::unique_ptr<LinkSelector> selector) {
  if (clock == nullptr || selector == nullptr) {
    return Status::Error("Frontier needs a clock and a link selector");
  }
  std::unique_ptr<Frontier> frontier(
      new Frontier(options, clock, std::move(selector)));
  if (!options.spill_dir.empty()) {
    auto file = SpillFile::Create(options.spill_dir + "/frontier.spill");
    if (!file.ok()) return file.status();
    frontier->spill_ = std::move(file).value();
  }
  return frontier;
}

Frontier::Frontier(const FrontierOptions& options, Clock* clock,
                   std::unique_ptr<LinkSelector> selector)
    : options_(options),
      clock_(clock),
      selector_(std::move(selector)),
      view_(std::make_unique<View>(this)) {
  options_.max_connections_per_host =
      std::max(1, options_.max_connections_per_host);
  options_.max_in_flight = std::max<size_t>(1, options_.max_in_flight);
  options_.max_in_ram_per_host = std::max<size_t>(2, options_.max_in_ram_per_host);
  options_.max_in_ram_total = std::max<size_t>(2, options_.max_in_ram_total);
  options_.min_delay_s = std::max(0.0, options_.min_delay_s);
}

Frontier::~Frontier() = default;

// ---- Hosts ----------------------------------------------------------------

std::optional<HostId> Frontier::InternHost(std::string_view url) {
  std::optional<std::string> key = HostKeyOfUrl(url);
  if (!key) return std::nullopt;
  return InternHostKey(*key);
}

HostId Frontier::InternHostKey(std::string_view key) {
  auto [it, inserted] =
      host_ids_.try_emplace(std::string(key), static_cast<HostId>(hosts_.size()));
  if (inserted) {
    hosts_.emplace_back();
    hosts_.back().key = std::string(key);
  }
  return it->second;
}

const std::string& Frontier::HostKey(HostId host) const {
  return hosts_[host].key;
}

Frontier::HostInfo Frontier::GetHostInfo(HostId host) const {
  const Host& h = hosts_[host];
  return HostInfo{h.count, h.in_flight, h.backoff_level, h.held, h.next_start, h.min_delay_s};
}

void Frontier::HoldHost(HostId host) {
  if (host >= hosts_.size()) return;
  hosts_[host].held = true;
  Refresh(host);
}

void Frontier::ReleaseHost(HostId host) {
  if (host >= hosts_.size()) return;
  hosts_[host].held = false;
  Refresh(host);
}

void Frontier::SetHostMinDelay(HostId host, double seconds) {
  if (host >= hosts_.size()) return;
  hosts_[host].min_delay_s = std::isnan(seconds) ? 0.0 : std::max(0.0, seconds);
}

double Frontier::HostDelay(const Host& host) const {
  return std::max(options_.min_delay_s, host.min_delay_s);
}

double Frontier::ExactMax(const Host& host) const {
  if (host.links.empty()) return 0.0;
  // The float copy in the heap item, so that s_i / s_max <= 1 holds for
  // the scores SampleByScore reads (ScoreAt).
  if (selector_->PriorityFollowsScore()) return host.links.top().score;
  return host.max_bound;
}

// Puts the host in exactly the indexes its state calls for. Every change to
// a host's queue, slots, timing or hold flag ends here, which keeps the
// index keys (top entry, mean, next_start, size) consistent.
void Frontier::Refresh(HostId h) {
  MaybeReload(h);
  Host& host = hosts_[h];
  bool wants = !host.held &&
               host.in_flight <
                   static_cast<uint32_t>(options_.max_connections_per_host) &&
               !host.links.empty();
  bool due = host.next_start <= clock_->Now();
  TopItem top{0, 0, h};
  MeanItem mean{0, h};
  if (!host.links.empty()) {
    top.priority = host.links.top().priority;
    top.seq = host.links.top().seq;
    mean.mean = host.sum_score / static_cast<double>(host.count);
  }
  SetMember(ready_by_top_, by_top_, top, wants && due);
  SetMember(ready_by_mean_, by_mean_, mean, wants && due);
  SetMember(any_by_top_, by_top_any_, top,
            !host.held && !host.links.empty() && host.backoff_level == 0);
  SetMember(timers_, by_wakeup_, WakeItem{host.next_start, h}, wants && !due);
  SetMember(by_ram_size_, by_ram_size_order_, SizeItem{host.links.size(), h},
            !host.links.empty());
}

void Frontier::PromoteDue() {
  TimePoint now = clock_->Now();
  while (!timers_.empty() && timers_.top().at <= now) {
    Refresh(timers_.top().id);
  }
}

void Frontier::RebuildHostIndexes() {
  ready_by_top_.TakeAll(by_top_);
  ready_by_mean_.TakeAll(by_mean_);
  any_by_top_.TakeAll(by_top_any_);
  timers_.TakeAll(by_wakeup_);
  by_ram_size_.TakeAll(by_ram_size_order_);
  for (HostId h = 0; h < hosts_.size(); ++h) Refresh(h);
}

TimePoint Frontier::NextWakeup() const {
  if (in_flight_.size() >= options_.max_in_flight) return TimePoint::max();
  if (!ready_by_top_.empty()) return clock_->Now();
  TimePoint wake = TimePoint::max();
  if (!timers_.empty()) wake = timers_.top().at;
  // A retry that becomes due makes its host ready (unless the host is busy
  // or delayed; then waking early is harmless).
  if (!delayed_.empty()) wake = std::min(wake, delayed_.front().due);
  return wake;
}

// ---- Queue entries --------------------------------------------------------

uint32_t Frontier::NewEntry() {
  if (!free_entries_.empty()) {
    uint32_t id = free_entries_.back();
    free_entries_.pop_back();
    return id;
  }
  entries_.emplace_back();
  return static_cast<uint32_t>(entries_.size() - 1);
}

void Frontier::FreeEntry(uint32_t id) {
  Entry& e = entries_[id];
  e.url = std::string();
  e.anchor = std::string();
  e.handle = kNotInHeap;
  free_entries_.push_back(id);
}

uint32_t Frontier::NewHandle(Host& host, uint32_t entry) {
  uint32_t handle;
  if (!host.free_handles.empty()) {
    handle = host.free_handles.back();
    host.free_handles.pop_back();
    host.entry_of[handle] = entry;
  } else {
    handle = static_cast<uint32_t>(host.entry_of.size());
    host.entry_of.push_back(entry);
    host.slots.push_back(kNotInHeap);
  }
  entries_[entry].handle = handle;
  return handle;
}

void Frontier::FreeHandle(Host& host, uint32_t handle) {
  host.free_handles.push_back(handle);
  // A host that drained gives its handle arrays back.
  if (host.links.empty() && host.free_handles.size() == host.entry_of.size()) {
    host.free_handles = {};
    host.entry_of = {};
    host.slots = {};
  }
}

void Frontier::LinkEntry(uint32_t id, uint64_t seq) {
  Entry& e = entries_[id];
  Host& host = hosts_[e.host];
  host.max_bound = std::max(host.max_bound, e.score);
  // A key already present can only be stale (a queued link is never queued
  // twice): it becomes live again.
  auto [it, inserted] = in_ram_.try_emplace(e.url_id, id);
  if (!inserted) {
    it->second = id;
    if (stale_in_ram_ > 0) --stale_in_ram_;
  }
  ++in_ram_total_;
  uint32_t handle = NewHandle(host, id);
  LinkOrder order = host.order();
  host.links.Push(order, LinkItem{selector_->Priority(e.score, seq), seq,
                                  static_cast<float>(e.score), handle});
}

void Frontier::PushEntry(uint32_t id, uint64_t seq) {
  Entry& e = entries_[id];
  Host& host = hosts_[e.host];
  ++host.count;
  host.sum_score += e.score;
  ++queued_;
  LinkEntry(id, seq);
}

CrawlTask Frontier::TakeEntry(LinkRef ref) {
  Host& host = hosts_[ref.host];
  const LinkItem item = host.links.at(ref.slot);
  const uint32_t id = host.entry_of[item.id];
  LinkOrder order = host.order();
  host.links.Erase(order, item.id);
  FreeHandle(host, item.id);
  Entry& e = entries_[id];
  --host.count;
  host.sum_score = host.count == 0 ? 0.0 : host.sum_score - e.score;
  if (host.links.empty()) {
    host.max_bound = -std::numeric_limits<double>::infinity();
  }
  --queued_;
  --in_ram_total_;
  // in_ram_ is invalidated lazily (FindInRam checks the entry): erasing a
  // random key of a large table is a cache miss on every Next().
  ++stale_in_ram_;
  CrawlTask task;
  task.url_id = e.url_id;
  task.url = std::move(e.url);
  task.host_id = ref.host;
  task.depth = e.depth;
  task.parent_page_id = e.parent_page_id;
  task.anchor = std::move(e.anchor);
  task.score = e.score;
  task.attempt = e.attempt;
  in_flight_[e.url_id] = item.seq;
  FreeEntry(id);
  if (stale_in_ram_ > in_ram_total_ + 1024) PurgeRamIndex();
  return task;
}

uint32_t Frontier::FindInRam(UrlId url_id) const {
  auto it = in_ram_.find(url_id);
  if (it == in_ram_.end()) return kNotInHeap;
  const Entry& e = entries_[it->second];
  return (e.handle != kNotInHeap && e.url_id == url_id) ? it->second
                                                      : kNotInHeap;
}

void Frontier::PurgeRamIndex() {
  absl::erase_if(in_ram_, [this](const auto& kv) {
    const Entry& e = entries_[kv.second];
    return e.handle == kNotInHeap || e.url_id != kv.first;
  });
  stale_in_ram_ = 0;
}

void Frontier::QueueTask(CrawlTask&& task, uint64_t seq) {
  uint32_t id = NewEntry();
  Entry& e = entries_[id];
  e.url_id = task.url_id;
  e.score = task.score;
  e.parent_page_id = task.parent_page_id;
  e.depth = task.depth;
  e.attempt = task.attempt;
  e.host = task.host_id;
  e.url = std::move(task.url);
  e.anchor = std::move(task.anchor);
  PushEntry(id, seq);
  MaybeSpill(task.host_id);
}

// ---- The public flow ------------------------------------------------------

AddResult Frontier::Add(LinkCandidate c) { return AddIf(std::move(c), nullptr); }

AddResult Frontier::AddIf(LinkCandidate c, const std::function<bool(std::string_view)>& admit) {
  double score = SanitizeScore(c.score);
  if (seen_.Contains(c.url_id)) {
    if (options_.keep_max_on_duplicate) {
      uint32_t ram = FindInRam(c.url_id);
      if (ram != kNotInHeap && score > entries_[ram].score) {
        Rescore(c.url_id, score);
        return AddResult::kRescored;
      }
      auto disk = spilled_.find(c.url_id);
      if (disk != spilled_.end() &&
          static_cast<float>(score) > disk->second.score) {
        Rescore(c.url_id, score);
        return AddResult::kRescored;
      }
    }
    return AddResult::kDuplicate;
  }
  std::optional<HostId> h = InternHost(c.url);
  if (!h) return AddResult::kRejected;
  Host& host = hosts_[*h];
  if (options_.max_pages_per_host > 0 &&
      host.admitted >= options_.max_pages_per_host) {
    return AddResult::kBudgetExceeded;
  }
  if (admit && !admit(c.url)) return AddResult::kNotAdmitted;
  seen_.Insert(c.url_id);
  ++host.admitted;
  if (host.failed) {  // admitted (it gets its row), never fetched
    CrawlTask task;
    task.url_id = c.url_id;
    task.url = std::move(c.url);
    task.host_id = *h;
    task.depth = c.depth;
    task.parent_page_id = c.parent_page_id;
    task.anchor = std::move(c.anchor);
    task.score = score;
    abandoned_.push_back(std::move(task));
    return AddResult::kAdded;
  }
  uint32_t id = NewEntry();
  Entry& e = entries_[id];
  e.url_id = c.url_id;
  e.score = score;
  e.parent_page_id = c.parent_page_id;
  e.depth = c.depth;
  e.attempt = 0;
  e.host = *h;
  e.url = std::move(c.url);
  e.anchor = std::move(c.anchor);
  PushEntry(id, next_seq_++);
  Refresh(*h);
  MaybeSpill(*h);
  return AddResult::kAdded;
}

std::optional<CrawlTask> Frontier::Next() {
  PromoteDelayed();
  PromoteDue();
  if (in_flight_.size() >= options_.max_in_flight || ready_by_top_.empty()) {
    return std::nullopt;
  }
  std::optional<LinkRef> ref = selector_->Select(*view_);
  if (!ref) return std::nullopt;
  if (ref->host >= hosts_.size() || hosts_[ref->host].top_slot == kNotInHeap ||
      ref->slot >= hosts_[ref->host].links.size()) {
    ++selector_errors_;
    ref = LinkRef{ready_by_top_.top().id, 0};
  }
  if (options_.focus_tolerance >= 0 && selector_->PriorityFollowsScore() &&
      !any_by_top_.empty() &&
      view_->At(*ref).priority <
          any_by_top_.top().priority - options_.focus_tolerance) {
    // A clearly better link waits on a busy or delayed host: wait for it
    // rather than spend a fetch on a worse one (see FrontierOptions).
    ++focus_waits_;
    return std::nullopt;
  }
  CrawlTask task = TakeEntry(*ref);
  Host& host = hosts_[task.host_id];
  ++host.in_flight;
  TimePoint start = clock_->Now() + Seconds(HostDelay(host));
  host.next_start = std::max(host.next_start, start);
  Refresh(task.host_id);
  return task;
}

CompleteResult Frontier::Complete(const CrawlTask& task,
                                  const HostFeedback& feedback) {
  auto it = in_flight_.find(task.url_id);
  if (it == in_flight_.end() || task.host_id >= hosts_.size()) {
    return CompleteResult::kUnknownTask;
  }
  uint64_t seq = it->second;
  in_flight_.erase(it);
  --hosts_[task.host_id].in_flight;
  // The back-off policy lives in frontier_health.cc.
  bool retry = ApplyFeedback(task, seq, feedback);
  Refresh(task.host_id);
  return retry ? CompleteResult::kRetryQueued : CompleteResult::kFinal;
}

bool Frontier::Requeue(CrawlTask task) {
  auto it = in_flight_.find(task.url_id);
  if (it == in_flight_.end() || task.host_id >= hosts_.size()) return false;
  uint64_t seq = it->second;
  in_flight_.erase(it);
  HostId h = task.host_id;
  --hosts_[h].in_flight;
  QueueTask(std::move(task), seq);
  Refresh(h);
  return true;
}

bool Frontier::Rescore(UrlId url_id, double score) {
  score = SanitizeScore(score);
  if (uint32_t id = FindInRam(url_id); id != kNotInHeap) {
    Entry& e = entries_[id];
    Host& host = hosts_[e.host];
    host.sum_score += score - e.score;
    host.max_bound = std::max(host.max_bound, score);
    e.score = score;
    LinkOrder order = host.order();
    LinkItem item = host.links.of(order, e.handle);
    item.priority = selector_->Priority(score, item.seq);
    item.score = static_cast<float>(score);
    host.links.Update(order, item);
    Refresh(e.host);
    return true;
  }
  if (auto it = spilled_.find(url_id); it != spilled_.end()) {
    // Spilled scores are kept as float; the sum tracks exactly that value.
    float stored = static_cast<float>(score);
    Host& host = hosts_[it->second.host];
    host.sum_score += static_cast<double>(stored) - it->second.score;
    it->second.score = stored;
    Refresh(it->second.host);
    return true;
  }
  return false;
}

void Frontier::MarkSeen(UrlId url_id) { seen_.Insert(url_id); }

void Frontier::MarkSeen(UrlId url_id, std::string_view url) {
  if (!seen_.Insert(url_id)) return;
  if (std::optional<HostId> h = InternHost(url)) ++hosts_[*h].admitted;
}

}  // namespace topicrawl
