#include "frontier/frontier.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "frontier/host_key.h"

namespace topicrawl {
namespace {

template <typename Policy>
void SetMember(IndexedHeap<Policy>& heap, Policy& policy, uint32_t id,
               bool want) {
  bool in = heap.contains(policy, id);
  if (want && !in) {
    heap.Push(policy, id);
  } else if (want) {
    heap.Update(policy, id);
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
  }
  return "rejected";
}

// A NaN score from a scorer bug must not poison the heap order or the host
// sums; an infinite one must not turn a host mean into NaN.
double Frontier::SanitizeScore(double s) {
  if (std::isnan(s)) return 0.0;
  return std::clamp(s, -1e12, 1e12);
}

// ---- Orders ---------------------------------------------------------------

bool Frontier::LinkOrder::Before(uint32_t a, uint32_t b) const {
  const Entry& x = f->entries_[a];
  const Entry& y = f->entries_[b];
  if (x.priority != y.priority) return x.priority > y.priority;
  return x.seq < y.seq;
}

bool Frontier::ByTop::Before(uint32_t a, uint32_t b) const {
  const Entry& x = f->entries_[f->hosts_[a].links.top()];
  const Entry& y = f->entries_[f->hosts_[b].links.top()];
  if (x.priority != y.priority) return x.priority > y.priority;
  if (x.seq != y.seq) return x.seq < y.seq;
  return a < b;
}

bool Frontier::ByMean::Before(uint32_t a, uint32_t b) const {
  const Host& x = f->hosts_[a];
  const Host& y = f->hosts_[b];
  // Ready hosts are non-empty, so count > 0.
  double mx = x.sum_score / static_cast<double>(x.count);
  double my = y.sum_score / static_cast<double>(y.count);
  if (mx != my) return mx > my;
  return a < b;
}

bool Frontier::ByWakeup::Before(uint32_t a, uint32_t b) const {
  const Host& x = f->hosts_[a];
  const Host& y = f->hosts_[b];
  if (x.next_start != y.next_start) return x.next_start < y.next_start;
  return a < b;
}

bool Frontier::ByRamSize::Before(uint32_t a, uint32_t b) const {
  size_t x = f->hosts_[a].links.size();
  size_t y = f->hosts_[b].links.size();
  if (x != y) return x > y;
  return a < b;
}

// ---- The selector's view --------------------------------------------------

class Frontier::View : public SelectionView {
 public:
  explicit View(Frontier* f) : f_(f) {}
  size_t ReadyHosts() const override { return f_->ready_by_top_.size(); }
  std::optional<LinkRef> GlobalBest() const override {
    if (f_->ready_by_top_.empty()) return std::nullopt;
    return LinkRef{f_->ready_by_top_.top(), 0};
  }
  std::optional<HostId> BestMeanHost() const override {
    if (f_->ready_by_mean_.empty()) return std::nullopt;
    return f_->ready_by_mean_.top();
  }
  HostStats Stats(HostId host) const override {
    if (host >= f_->hosts_.size()) return {};
    const Host& h = f_->hosts_[host];
    return HostStats{h.count, h.links.size(), h.sum_score, f_->ExactMax(h)};
  }
  LinkRef Top(HostId host) const override { return LinkRef{host, 0}; }
  LinkInfo At(LinkRef ref) const override {
    if (ref.host >= f_->hosts_.size() ||
        ref.slot >= f_->hosts_[ref.host].links.size()) {
      return {};
    }
    const Entry& e = f_->entries_[f_->hosts_[ref.host].links.at(ref.slot)];
    return LinkInfo{e.url_id, e.score, e.priority, e.seq, e.depth};
  }

 private:
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
  auto [it, inserted] =
      host_ids_.try_emplace(*key, static_cast<HostId>(hosts_.size()));
  if (inserted) {
    hosts_.emplace_back();
    hosts_.back().key = *key;
  }
  return it->second;
}

const std::string& Frontier::HostKey(HostId host) const {
  return hosts_[host].key;
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
  if (selector_->PriorityFollowsScore()) {
    return entries_[host.links.top()].score;
  }
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
  SetMember(ready_by_top_, by_top_, h, wants && due);
  SetMember(ready_by_mean_, by_mean_, h, wants && due);
  SetMember(timers_, by_wakeup_, h, wants && !due);
  SetMember(by_ram_size_, by_ram_size_order_, h, !host.links.empty());
}

void Frontier::PromoteDue() {
  TimePoint now = clock_->Now();
  while (!timers_.empty() && hosts_[timers_.top()].next_start <= now) {
    Refresh(timers_.top());
  }
}

void Frontier::RebuildHostIndexes() {
  ready_by_top_.TakeAll(by_top_);
  ready_by_mean_.TakeAll(by_mean_);
  timers_.TakeAll(by_wakeup_);
  by_ram_size_.TakeAll(by_ram_size_order_);
  for (HostId h = 0; h < hosts_.size(); ++h) Refresh(h);
}

TimePoint Frontier::NextWakeup() const {
  if (in_flight_.size() >= options_.max_in_flight) return TimePoint::max();
  if (!ready_by_top_.empty()) return clock_->Now();
  if (!timers_.empty()) return hosts_[timers_.top()].next_start;
  return TimePoint::max();
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
  e.slot = kNotInHeap;
  free_entries_.push_back(id);
}

void Frontier::LinkEntry(uint32_t id) {
  Entry& e = entries_[id];
  Host& host = hosts_[e.host];
  host.max_bound = std::max(host.max_bound, e.score);
  in_ram_[e.url_id] = id;
  ++in_ram_total_;
  host.links.Push(link_order_, id);
}

void Frontier::PushEntry(uint32_t id) {
  Entry& e = entries_[id];
  Host& host = hosts_[e.host];
  ++host.count;
  host.sum_score += e.score;
  ++queued_;
  LinkEntry(id);
}

CrawlTask Frontier::TakeEntry(LinkRef ref) {
  Host& host = hosts_[ref.host];
  uint32_t id = host.links.at(ref.slot);
  host.links.Erase(link_order_, id);
  Entry& e = entries_[id];
  --host.count;
  host.sum_score = host.count == 0 ? 0.0 : host.sum_score - e.score;
  if (host.links.empty()) {
    host.max_bound = -std::numeric_limits<double>::infinity();
  }
  --queued_;
  --in_ram_total_;
  in_ram_.erase(e.url_id);
  CrawlTask task;
  task.url_id = e.url_id;
  task.url = std::move(e.url);
  task.host_id = ref.host;
  task.depth = e.depth;
  task.parent_page_id = e.parent_page_id;
  task.anchor = std::move(e.anchor);
  task.score = e.score;
  task.attempt = e.attempt;
  in_flight_[e.url_id] = e.seq;
  FreeEntry(id);
  return task;
}

void Frontier::QueueTask(const CrawlTask& task, uint64_t seq) {
  uint32_t id = NewEntry();
  Entry& e = entries_[id];
  e.url_id = task.url_id;
  e.score = task.score;
  e.seq = seq;
  e.priority = selector_->Priority(e.score, seq);
  e.parent_page_id = task.parent_page_id;
  e.depth = task.depth;
  e.attempt = task.attempt;
  e.host = task.host_id;
  e.url = task.url;
  e.anchor = task.anchor;
  PushEntry(id);
  MaybeSpill(task.host_id);
}

// ---- The public flow ------------------------------------------------------

AddResult Frontier::Add(LinkCandidate c) {
  double score = SanitizeScore(c.score);
  if (seen_.Contains(c.url_id)) {
    if (options_.keep_max_on_duplicate) {
      auto ram = in_ram_.find(c.url_id);
      if (ram != in_ram_.end() && score > entries_[ram->second].score) {
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
  seen_.Insert(c.url_id);
  ++host.admitted;
  uint32_t id = NewEntry();
  Entry& e = entries_[id];
  e.url_id = c.url_id;
  e.score = score;
  e.seq = next_seq_++;
  e.priority = selector_->Priority(score, e.seq);
  e.parent_page_id = c.parent_page_id;
  e.depth = c.depth;
  e.attempt = 0;
  e.host = *h;
  e.url = std::move(c.url);
  e.anchor = std::move(c.anchor);
  PushEntry(id);
  Refresh(*h);
  MaybeSpill(*h);
  return AddResult::kAdded;
}

std::optional<CrawlTask> Frontier::Next() {
  PromoteDue();
  if (in_flight_.size() >= options_.max_in_flight || ready_by_top_.empty()) {
    return std::nullopt;
  }
  std::optional<LinkRef> ref = selector_->Select(*view_);
  if (!ref) return std::nullopt;
  if (ref->host >= hosts_.size() || hosts_[ref->host].top_slot == kNotInHeap ||
      ref->slot >= hosts_[ref->host].links.size()) {
    ++selector_errors_;
    ref = LinkRef{ready_by_top_.top(), 0};
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
  Host& host = hosts_[task.host_id];
  --host.in_flight;
  TimePoint now = clock_->Now();
  bool transient = IsTransient(feedback.status, feedback.http_code);
  if (transient) {
    // k-th consecutive transient failure: base * 2^(k-1), capped.
    host.backoff_level = std::min(host.backoff_level + 1, 62);
    double wait = std::min(
        std::ldexp(options_.backoff_base_s, host.backoff_level - 1),
        options_.backoff_max_s);
    host.next_start = std::max(host.next_start, now + Seconds(wait));
  } else {
    host.backoff_level = 0;
  }
  if (feedback.retry_after_s >= 0) {
    double wait = std::min(feedback.retry_after_s, options_.max_retry_after_s);
    host.next_start = std::max(host.next_start, now + Seconds(wait));
  }
  CompleteResult result = CompleteResult::kFinal;
  if (transient && task.attempt < options_.max_retries) {
    CrawlTask retry = task;
    ++retry.attempt;
    QueueTask(retry, seq);
    result = CompleteResult::kRetryQueued;
  }
  Refresh(task.host_id);
  return result;
}

bool Frontier::Requeue(CrawlTask task) {
  auto it = in_flight_.find(task.url_id);
  if (it == in_flight_.end() || task.host_id >= hosts_.size()) return false;
  uint64_t seq = it->second;
  in_flight_.erase(it);
  --hosts_[task.host_id].in_flight;
  QueueTask(task, seq);
  Refresh(task.host_id);
  return true;
}

bool Frontier::Rescore(UrlId url_id, double score) {
  score = SanitizeScore(score);
  if (auto it = in_ram_.find(url_id); it != in_ram_.end()) {
    Entry& e = entries_[it->second];
    Host& host = hosts_[e.host];
    host.sum_score += score - e.score;
    host.max_bound = std::max(host.max_bound, score);
    e.score = score;
    e.priority = selector_->Priority(score, e.seq);
    host.links.Update(link_order_, it->second);
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
