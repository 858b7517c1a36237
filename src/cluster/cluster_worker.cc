#include "cluster/cluster_worker.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "cluster/cluster_layout.h"

namespace topicrawl {
namespace {

// Anchors travel with the URL to its owner (strategies score with them);
// long ones are cut, separators replaced.
std::string Clean(std::string_view s, size_t max) {
  std::string out(s.substr(0, max));
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

// payload = "url_id \t depth \t url \t anchor" (unique per URL: the id).
std::string Payload(const LinkCandidate& c) {
  return std::to_string(c.url_id) + "\t" + std::to_string(c.depth) + "\t" + Clean(c.url, 8192) +
         "\t" + Clean(c.anchor, 200);
}

bool ParsePayload(const std::string& payload, double score, LinkCandidate* c) {
  size_t a = payload.find('\t');
  size_t b = a == std::string::npos ? a : payload.find('\t', a + 1);
  size_t d = b == std::string::npos ? b : payload.find('\t', b + 1);
  if (d == std::string::npos) return false;
  char* end = nullptr;
  c->url_id = std::strtoull(payload.c_str(), &end, 10);
  c->depth = static_cast<uint32_t>(std::strtoul(payload.c_str() + a + 1, &end, 10));
  c->url = payload.substr(b + 1, d - b - 1);
  c->anchor = payload.substr(d + 1);
  c->parent_page_id = 0;  // page ids are per worker
  c->score = score;
  return !c->url.empty();
}

std::string ScoreArg(double score) {
  // ZPOPMIN pops the lowest: the queue holds -score (best first).
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", -score);
  return buf;
}

}  // namespace

StatusOr<std::unique_ptr<ClusterWorker>> ClusterWorker::Create(ClusterWorkerOptions options) {
  if (Status s = ValidateCrawlId(options.crawl_id); !s.ok()) return s;
  if (options.lease_ms < 300) return Status::Error("--lease-ms must be >= 300");
  if (options.hold_ms < 0 || options.hold_ms * 2 > options.lease_ms) {
    // A dead worker's shards move after lease_ms: it must cover the delay.
    return Status::Error("--lease-ms must be at least twice the politeness delay");
  }
  std::unique_ptr<ClusterWorker> w(new ClusterWorker(std::move(options)));
  auto a = RedisClient::Connect(w->options_.redis);
  if (!a.ok()) return a.status();
  auto b = RedisClient::Connect(w->options_.redis);
  if (!b.ok()) return b.status();
  w->crawl_conn_ = std::move(a).value();
  w->lease_conn_ = std::move(b).value();
  auto loaded = w->crawl_conn_->Command({"FUNCTION", "LOAD", "REPLACE", ClusterFunctionLibrary()});
  if (!loaded.ok()) return loaded.status();
  return w;
}

ClusterWorker::ClusterWorker(ClusterWorkerOptions options)
    : options_(std::move(options)), pending_key_(ClusterKeyPrefix(options_.crawl_id) + "pending") {
  take_start_ = std::random_device{}();
}

ClusterWorker::~ClusterWorker() { Leave(); }

Status ClusterWorker::Start() {
  Status s = LeaseRound();
  if (!s.ok()) return s;
  lease_thread_ = std::thread([this] { LeaseLoop(); });
  return Status::Ok();
}

void ClusterWorker::Leave() {
  {
    std::lock_guard<std::mutex> lock(wake_mu_);
    if (leaving_) return;
    leaving_ = true;
  }
  wake_.notify_all();
  if (lease_thread_.joinable()) lease_thread_.join();
  std::vector<std::string> args = {"FCALL", "tc_release", "1", pending_key_, options_.worker_id,
                                   std::to_string(options_.hold_ms), "0"};
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint32_t s : owned_) args.push_back(std::to_string(s));
    args[6] = std::to_string(owned_.size());
    CollectHosts(nullptr, &args);  // the next owners' politeness
    owned_.clear();
    yielded_.clear();
    hosts_.clear();
  }
  if (lease_conn_) {
    (void)lease_conn_->Command(args);
    (void)lease_conn_->Command({"FCALL", "tc_leave", "1", pending_key_, options_.worker_id});
  }
}

void ClusterWorker::LeaseLoop() {
  // Liveness (and with it every lease) needs a heartbeat within lease_ms;
  // rebalancing after a join wants rounds shorter than that: a joining
  // worker waits ~2 rounds for its shards (yield+drain, acquire).
  const auto period = std::chrono::milliseconds(std::clamp(options_.lease_ms / 4, 100, 500));
  std::unique_lock<std::mutex> lock(wake_mu_);
  while (!leaving_) {
    wake_.wait_for(lock, period, [this] { return leaving_; });
    if (leaving_) break;
    lock.unlock();
    Status s = LeaseRound();
    if (!s.ok()) std::fprintf(stderr, "warning: cluster leases: %s\n", s.message().c_str());
    ++lease_rounds_;
    lock.lock();
  }
}

namespace {

// "crawl_delay_ms backoff_level consecutive_failures failed": what a next
// owner needs of a host besides the time of its next allowed request.
std::string HostRecordText(const HostPoliteness& h) {
  return std::to_string(static_cast<int64_t>(h.crawl_delay_s * 1000 + 0.5)) + " " +
         std::to_string(h.backoff_level) + " " + std::to_string(h.consecutive_failures) + " " +
         (h.failed ? "1" : "0");
}
const std::string& TrivialRecordText() {
  static const std::string kText = HostRecordText(HostPoliteness{});
  return kText;
}

int64_t UnixMillisNow() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void ClusterWorker::HostState(const HostPoliteness& state) {
  const uint32_t shard = ShardOfHostKey(state.host_key);
  std::lock_guard<std::mutex> lock(mu_);
  auto& hosts = hosts_[shard];
  auto it = hosts.find(state.host_key);
  if (it == hosts.end()) {
    // Nothing to hand over and nothing stored to correct: not kept (most
    // hosts), so memory grows only with hosts that have a delay or failures.
    if (state.Trivial()) return;
    it = hosts.emplace(state.host_key, HostRecord{}).first;
  }
  HostRecord& r = it->second;
  r.state = state;
  const std::string text = HostRecordText(state);
  // A host with its own delay or a back-off also moves its next allowed
  // request; a plain one only needs the global delay (the release hold).
  r.dirty = text != r.sent_text || (!state.Trivial() && state.not_before_unix_ms != r.sent_not_before);
}

std::vector<HostPoliteness> ClusterWorker::TakeArrivedHosts() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<HostPoliteness> out;
  out.swap(arrived_);
  return out;
}

void ClusterWorker::CollectHosts(const std::set<uint32_t>* only, std::vector<std::string>* args) {
  const int64_t now = UnixMillisNow();
  for (auto& [shard, hosts] : hosts_) {
    if (only && !only->count(shard)) continue;
    for (auto it = hosts.begin(); it != hosts.end();) {
      HostRecord& r = it->second;
      if (r.dirty) {
        r.sent_text = HostRecordText(r.state);
        r.sent_not_before = r.state.not_before_unix_ms;
        r.dirty = false;
        args->push_back(std::to_string(shard));
        args->push_back(it->first);
        args->push_back(std::to_string(std::max<int64_t>(0, r.state.not_before_unix_ms - now)));
        args->push_back(r.sent_text);
      }
      // Trivial and stored as trivial: forgotten.
      if (r.state.Trivial() && r.sent_text == TrivialRecordText()) {
        it = hosts.erase(it);
      } else {
        ++it;
      }
    }
  }
}

Status ClusterWorker::LeaseRound() {
  std::vector<std::string> hb = {"FCALL", "tc_heartbeat", "1", pending_key_, options_.worker_id,
                                 std::to_string(options_.lease_ms)};
  std::set<uint32_t> owned, yielded;
  {
    std::lock_guard<std::mutex> lock(mu_);
    CollectHosts(nullptr, &hb);
    owned = owned_;
    yielded = yielded_;
  }
  std::vector<std::string> workers;
  if (Status s = Heartbeat(hb, &workers); !s.ok()) return s;
  const std::set<uint32_t> desired = DesiredShards(workers);
  if (Status s = VerifyLeases(&owned, &yielded); !s.ok()) return s;
  if (Status s = YieldShards(owned, yielded, desired); !s.ok()) return s;
  if (Status s = ReleaseDrainedShards(desired); !s.ok()) return s;
  return AcquireShards(owned, yielded, desired);
}

// One call renews the liveness key, and with it every lease we hold; its
// reply lists the live workers and says whether our liveness had lapsed.
Status ClusterWorker::Heartbeat(const std::vector<std::string>& hb,
                                std::vector<std::string>* workers) {
  auto beat = lease_conn_->Command(hb);
  if (!beat.ok()) {
    // The heartbeat may have run without us seeing its reply: a lapse it
    // reported would be lost (the next one finds the key alive), so the
    // leases are verified after the next heartbeat that answers.
    verify_due_ = true;
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 6; i + 3 < hb.size(); i += 4) {  // sent again next round
      auto shard = hosts_.find(static_cast<uint32_t>(std::stoul(hb[i])));
      if (shard == hosts_.end()) continue;
      if (auto h = shard->second.find(hb[i + 1]); h != shard->second.end()) h->second.dirty = true;
    }
    return beat.status();
  }
  if (beat->elements.size() != 2) return Status::Error("tc_heartbeat: unexpected reply");
  for (const auto& e : beat->elements[0].elements) workers->push_back(e.str);
  if (std::find(workers->begin(), workers->end(), options_.worker_id) == workers->end()) {
    workers->push_back(options_.worker_id);
  }
  // Our liveness lapsed (a stall longer than lease_ms): other workers may
  // have taken shards meanwhile. Forget those.
  if (beat->elements[1].AsInt() == 1) verify_due_ = true;
  return Status::Ok();
}

std::set<uint32_t> ClusterWorker::DesiredShards(const std::vector<std::string>& workers) const {
  std::set<uint32_t> desired;
  for (uint32_t s = 0; s < kClusterShards; ++s) {
    if (RendezvousOwner(s, workers) == options_.worker_id) desired.insert(s);
  }
  return desired;
}

// After a lapse: asks Redis which of our leases are still ours and forgets
// the others. Verified until a verify succeeds: a failed one is retried
// next round (another worker's heartbeat may have dropped own:<us>; left
// so, our shards' URLs would never be taken again).
Status ClusterWorker::VerifyLeases(std::set<uint32_t>* owned, std::set<uint32_t>* yielded) {
  if (verify_due_ && owned->empty()) verify_due_ = false;
  if (!verify_due_) return Status::Ok();
  std::vector<std::string> args = {"FCALL", "tc_verify", "1", pending_key_, options_.worker_id,
                                   std::to_string(owned->size() - yielded->size())};
  for (uint32_t s : *owned) {
    if (!yielded->count(s)) args.push_back(std::to_string(s));
  }
  for (uint32_t s : *yielded) args.push_back(std::to_string(s));
  auto lost = lease_conn_->Command(args);
  if (!lost.ok()) return lost.status();
  verify_due_ = false;
  if (lost->elements.empty()) return Status::Ok();
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& e : lost->elements) {
    const uint32_t s = static_cast<uint32_t>(e.AsInt());
    owned_.erase(s);
    yielded_.erase(s);
    hosts_.erase(s);
    owned->erase(s);
    yielded->erase(s);
  }
  std::fprintf(stderr, "warning: cluster: %zu shard leases expired (worker stalled > %d ms)\n",
               lost->elements.size(), options_.lease_ms);
  return Status::Ok();
}

// Hand-over, first half: stop taking from shards that belong elsewhere now.
Status ClusterWorker::YieldShards(const std::set<uint32_t>& owned,
                                  const std::set<uint32_t>& yielded,
                                  const std::set<uint32_t>& desired) {
  std::vector<std::string> yield = {"FCALL", "tc_yield", "1", pending_key_, options_.worker_id};
  for (uint32_t s : owned) {
    if (!desired.count(s) && !yielded.count(s)) yield.push_back(std::to_string(s));
  }
  if (yield.size() <= 5) return Status::Ok();
  auto y = lease_conn_->Command(yield);
  if (!y.ok()) return y.status();
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 5; i < yield.size(); ++i) yielded_.insert(std::stoul(yield[i]));
  return Status::Ok();
}

// Hand-over, second half: a yielded shard is released once nothing of it is
// left here, with its hosts' politeness state for the next owner.
Status ClusterWorker::ReleaseDrainedShards(const std::set<uint32_t>& desired) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> rel = {"FCALL", "tc_release", "1", pending_key_, options_.worker_id,
                                  std::to_string(options_.hold_ms), "0"};
  std::set<uint32_t> going;
  for (uint32_t s : yielded_) {
    if (!desired.count(s) && local_per_shard_[s] == 0) {
      rel.push_back(std::to_string(s));
      going.insert(s);
    }
  }
  if (going.empty()) return Status::Ok();
  rel[6] = std::to_string(going.size());
  CollectHosts(&going, &rel);
  auto x = lease_conn_->Command(rel);
  if (!x.ok()) {
    for (uint32_t s : going) {  // send them again next round
      for (auto& [host, rec] : hosts_[s]) rec.dirty = true;
    }
    return x.status();
  }
  for (uint32_t s : going) {
    yielded_.erase(s);
    owned_.erase(s);
    local_per_shard_.erase(s);
    hosts_.erase(s);
  }
  return Status::Ok();
}

// Takes the free leases of our shards (and keeps yielded ones we won back).
// mu_ is held over the call: a take (crawl thread) of a shard just taken
// over comes after its hosts' states are in arrived_.
Status ClusterWorker::AcquireShards(const std::set<uint32_t>& owned,
                                    const std::set<uint32_t>& yielded,
                                    const std::set<uint32_t>& desired) {
  std::vector<std::string> acq = {"FCALL", "tc_acquire", "1", pending_key_, options_.worker_id};
  for (uint32_t s : desired) {
    if (!owned.count(s) || yielded.count(s)) acq.push_back(std::to_string(s));
  }
  if (acq.size() <= 5) return Status::Ok();
  std::lock_guard<std::mutex> lock(mu_);
  auto got = lease_conn_->Command(acq);
  if (!got.ok()) return got.status();
  if (got->elements.size() != 2) return Status::Error("tc_acquire: unexpected reply");
  for (const auto& e : got->elements[0].elements) {
    const uint32_t s = static_cast<uint32_t>(e.AsInt());
    owned_.insert(s);
    yielded_.erase(s);
  }
  AdoptHostRecords(got->elements[1].elements);
  return Status::Ok();
}

// (shard, host, wait_ms, record) quadruples of the acquired shards' hosts:
// their politeness goes to the crawler (arrived_), and is remembered as
// what Redis holds, not sent again unless it changes.
void ClusterWorker::AdoptHostRecords(const std::vector<RedisReply>& h) {
  const int64_t now = UnixMillisNow();
  for (size_t i = 0; i + 3 < h.size(); i += 4) {
    HostPoliteness p;
    p.host_key = h[i + 1].str;
    p.not_before_unix_ms = now + h[i + 2].AsInt();
    long long delay_ms = 0;
    int level = 0, failed = 0;
    unsigned cons = 0;
    if (std::sscanf(h[i + 3].str.c_str(), "%lld %d %u %d", &delay_ms, &level, &cons, &failed) != 4) {
      continue;
    }
    p.crawl_delay_s = static_cast<double>(delay_ms) / 1000.0;
    p.backoff_level = level;
    p.consecutive_failures = cons;
    p.failed = failed != 0;
    HostRecord rec;
    rec.state = p;
    rec.sent_text = h[i + 3].str;
    rec.sent_not_before = p.not_before_unix_ms;
    hosts_[static_cast<uint32_t>(h[i].AsInt())][p.host_key] = rec;
    arrived_.push_back(std::move(p));
  }
}

void ClusterWorker::Route(const LinkCandidate& c) {
  if (!routed_.insert(c.url_id).second) return;  // sent by us before
  const uint32_t shard = ShardOfUrl(c.url);
  if (shard >= kClusterShards) return;
  route_args_.push_back(std::to_string(SeenBucket(c.url_id, options_.seen_buckets)));
  route_args_.push_back(SeenMember(c.url_id));
  route_args_.push_back(std::to_string(shard));
  route_args_.push_back(ScoreArg(c.score));
  route_args_.push_back(Payload(c));
  ++stats_.routed;
}

Status ClusterWorker::FlushRoutes() {
  const size_t per_call = options_.batch * 5;
  while (!route_args_.empty()) {
    const size_t n = std::min(per_call, route_args_.size());
    std::vector<std::string> args = {"FCALL", "tc_handoff", "1", pending_key_};
    args.insert(args.end(), route_args_.begin(), route_args_.begin() + n);
    // A link is only safe once the call returned: kept until then.
    auto r = crawl_conn_->Command(args);
    if (!r.ok()) return r.status();
    route_args_.erase(route_args_.begin(), route_args_.begin() + n);
    stats_.handed_new += static_cast<uint64_t>(r->AsInt());
  }
  return Status::Ok();
}

void ClusterWorker::Finished(UrlId url_id, bool ok) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = in_flight_.find(url_id);
    if (it == in_flight_.end()) return;  // not handed out by us
    it->second.ok = ok;
  }
  finished_.push_back(url_id);
}

void ClusterWorker::Committed(std::vector<UrlId> ids) {
  std::lock_guard<std::mutex> lock(mu_);
  committed_.insert(committed_.end(), ids.begin(), ids.end());
}

Status ClusterWorker::SendDone() {
  std::vector<UrlId> ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ids.swap(committed_);
  }
  to_release_.insert(to_release_.end(), ids.begin(), ids.end());
  std::vector<std::string> args = {"FCALL", "tc_done", "1", pending_key_};
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (UrlId id : to_release_) {
      auto it = in_flight_.find(id);
      if (it == in_flight_.end()) continue;
      args.push_back(std::to_string(it->second.shard));
      args.push_back(it->second.payload);
      args.push_back(it->second.ok ? "1" : "0");
    }
  }
  for (const auto& [shard, payload] : duplicates_) {  // not a page of ours: not ok
    args.push_back(std::to_string(shard));
    args.push_back(payload);
    args.push_back("0");
  }
  auto r = crawl_conn_->Command(args);  // also refreshes the counters
  if (!r.ok()) return r.status();
  if (r->elements.size() == 3) {
    pending_ = r->elements[0].AsInt();
    ok_pages_ = r->elements[1].AsInt();
    stop_ = r->elements[2].AsInt() != 0;
  }
  duplicates_.clear();
  std::lock_guard<std::mutex> lock(mu_);
  for (UrlId id : to_release_) {
    auto it = in_flight_.find(id);
    if (it == in_flight_.end()) continue;
    --local_per_shard_[it->second.shard];
    in_flight_.erase(it);
    ++stats_.released;
  }
  to_release_.clear();
  return Status::Ok();
}

Status ClusterWorker::Tick(size_t want, std::vector<LinkCandidate>* taken,
                           std::vector<UrlId>* to_commit) {
  // Order matters: the outlinks of a page are handed off before the page's
  // URL is released (its fate was committed after an earlier Tick).
  Status s = FlushRoutes();
  if (!s.ok()) return s;
  to_commit->swap(finished_);
  s = SendDone();
  if (!s.ok()) return s;
  if (!seeded_) {
    auto r = crawl_conn_->Command({"EXISTS", ClusterKeyPrefix(options_.crawl_id) + "seeded"});
    if (!r.ok()) return r.status();
    seeded_ = r->AsInt() == 1;
  }
  WarnIfIdle();
  if (want == 0 || stop_) return Status::Ok();
  std::lock_guard<std::mutex> lock(mu_);
  if (owned_.size() == yielded_.size()) return Status::Ok();
  auto r = crawl_conn_->Command({"FCALL", "tc_take", "1", pending_key_, options_.worker_id,
                                 std::to_string(want), std::to_string(options_.max_pages),
                                 std::to_string(take_start_++ % 1000003)});
  if (!r.ok()) return r.status();
  const auto& e = r->elements;
  for (size_t i = 0; i + 2 < e.size(); i += 3) {
    LinkCandidate c;
    const double score = -std::strtod(e[i + 2].str.c_str(), nullptr);
    if (!ParsePayload(e[i + 1].str, score, &c)) continue;
    const uint32_t shard = static_cast<uint32_t>(e[i].AsInt());
    auto [it, inserted] = in_flight_.try_emplace(c.url_id, InFlight{shard, e[i + 1].str, false});
    if (!inserted) {
      // Already here. The same payload is a requeue of our own: the entry's
      // done releases it. Another payload of the same URL (a second queue
      // entry, e.g. handed off by a worker that used another seen bucket) is
      // released now: nothing else would ever send its done, and it would
      // sit in f:<shard> under our live lease, pending forever (the kill -9
      // stall, docs/guides/scale-out.md).
      if (it->second.payload != e[i + 1].str) duplicates_.push_back({shard, e[i + 1].str});
      continue;
    }
    ++local_per_shard_[shard];
    ++stats_.taken;
    taken->push_back(std::move(c));
  }
  return Status::Ok();
}

void ClusterWorker::WarnIfIdle() {
  // Never silent: a worker with nothing of its own while URLs are pending
  // says so every 20 s (normal while others crawl their last slow hosts; for
  // minutes it names the counters to look at, docs/guides/scale-out.md).
  bool idle = seeded_ && !stop_ && pending_ > 0 && finished_.empty() && to_release_.empty();
  if (idle) {
    std::lock_guard<std::mutex> lock(mu_);
    idle = in_flight_.empty();
  }
  const auto now = std::chrono::steady_clock::now();
  if (!idle) {
    idle_since_.reset();
    return;
  }
  if (!idle_since_) {
    idle_since_ = now;
    idle_warned_ = now;
    return;
  }
  if (now - idle_warned_ < std::chrono::seconds(20)) return;
  idle_warned_ = now;
  std::fprintf(stderr,
               "warning: cluster: worker %s idle for %.0f s while %lld URLs are pending in crawl "
               "'%s' (queued or in flight at other workers; `topicrawl cluster status`)\n",
               options_.worker_id.c_str(),
               std::chrono::duration<double>(now - *idle_since_).count(),
               static_cast<long long>(pending_), options_.crawl_id.c_str());
}

bool ClusterWorker::Over() const {
  if (!route_args_.empty() || !finished_.empty() || !to_release_.empty() || !duplicates_.empty()) {
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!committed_.empty() || !in_flight_.empty()) return false;
  }
  if (stop_) return true;
  if (!seeded_ || pending_ < 0) return false;
  if (options_.max_pages > 0 && ok_pages_ >= options_.max_pages) return true;
  return pending_ == 0;
}

Status ClusterWorker::FinalFlush() {
  Status s = FlushRoutes();
  std::vector<UrlId> done;
  done.swap(finished_);
  Committed(std::move(done));  // the store closed: everything is committed
  Status d = SendDone();
  return s.ok() ? d : s;
}

ClusterWorkerStats ClusterWorker::stats() const {
  ClusterWorkerStats st = stats_;
  st.redis_commands = crawl_conn_->commands() + lease_conn_->commands();
  st.redis_bytes = crawl_conn_->bytes_sent() + lease_conn_->bytes_sent();
  st.lease_rounds = lease_rounds_.load();
  st.shards = OwnedShards();
  return st;
}

size_t ClusterWorker::OwnedShards() const {
  std::lock_guard<std::mutex> lock(mu_);
  return owned_.size();
}

}  // namespace topicrawl
