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
                                   std::to_string(options_.hold_ms)};
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint32_t s : owned_) args.push_back(std::to_string(s));
    owned_.clear();
    yielded_.clear();
  }
  if (lease_conn_) {
    (void)lease_conn_->Command(args);
    (void)lease_conn_->Command({"FCALL", "tc_leave", "1", pending_key_, options_.worker_id});
  }
}

void ClusterWorker::LeaseLoop() {
  // Renewal needs lease_ms / 4; rebalancing after a join wants less: a
  // joining worker waits ~2 rounds for its shards (yield+drain, acquire).
  const auto period = std::chrono::milliseconds(std::clamp(options_.lease_ms / 4, 100, 500));
  std::unique_lock<std::mutex> lock(wake_mu_);
  while (!leaving_) {
    wake_.wait_for(lock, period, [this] { return leaving_; });
    if (leaving_) break;
    lock.unlock();
    Status s = LeaseRound();
    if (!s.ok()) std::fprintf(stderr, "warning: cluster leases: %s\n", s.message().c_str());
    lock.lock();
  }
}

Status ClusterWorker::LeaseRound() {
  RedisClient& r = *lease_conn_;
  const std::string ttl = std::to_string(options_.lease_ms);
  auto live = r.Command({"FCALL", "tc_heartbeat", "1", pending_key_, options_.worker_id, ttl});
  if (!live.ok()) return live.status();
  std::vector<std::string> workers;
  for (const auto& e : live->elements) workers.push_back(e.str);
  if (std::find(workers.begin(), workers.end(), options_.worker_id) == workers.end()) {
    workers.push_back(options_.worker_id);
  }
  std::set<uint32_t> desired;
  for (uint32_t s = 0; s < kClusterShards; ++s) {
    if (RendezvousOwner(s, workers) == options_.worker_id) desired.insert(s);
  }
  std::set<uint32_t> owned, yielded;
  {
    std::lock_guard<std::mutex> lock(mu_);
    owned = owned_;
    yielded = yielded_;
  }
  // Renew what we hold; forget what expired and went elsewhere.
  if (!owned.empty()) {
    std::vector<std::string> args = {"FCALL", "tc_renew", "1", pending_key_, options_.worker_id,
                                     ttl};
    for (uint32_t s : owned) args.push_back(std::to_string(s));
    auto lost = r.Command(args);
    if (!lost.ok()) return lost.status();
    if (!lost->elements.empty()) {
      std::lock_guard<std::mutex> lock(mu_);
      for (const auto& e : lost->elements) {
        const uint32_t s = static_cast<uint32_t>(e.AsInt());
        owned_.erase(s);
        yielded_.erase(s);
        owned.erase(s);
        yielded.erase(s);
      }
      std::fprintf(stderr, "warning: cluster: %zu shard leases expired (worker stalled > %d ms)\n",
                   lost->elements.size(), options_.lease_ms);
    }
  }
  // Hand-over: stop taking from shards that belong elsewhere now...
  std::vector<std::string> yield = {"FCALL", "tc_yield", "1", pending_key_, options_.worker_id};
  for (uint32_t s : owned) {
    if (!desired.count(s) && !yielded.count(s)) yield.push_back(std::to_string(s));
  }
  if (yield.size() > 5) {
    auto y = r.Command(yield);
    if (!y.ok()) return y.status();
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 5; i < yield.size(); ++i) yielded_.insert(std::stoul(yield[i]));
  }
  // ...and release them once nothing of theirs is left here.
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> rel = {"FCALL", "tc_release", "1", pending_key_, options_.worker_id,
                                    std::to_string(options_.hold_ms)};
    for (uint32_t s : yielded_) {
      if (!desired.count(s) && local_per_shard_[s] == 0) rel.push_back(std::to_string(s));
    }
    if (rel.size() > 6) {
      auto x = r.Command(rel);
      if (!x.ok()) return x.status();
      for (size_t i = 6; i < rel.size(); ++i) {
        const uint32_t s = static_cast<uint32_t>(std::stoul(rel[i]));
        yielded_.erase(s);
        owned_.erase(s);
        local_per_shard_.erase(s);
      }
    }
  }
  // Take the free leases of our shards (and keep yielded ones we won back).
  std::vector<std::string> acq = {"FCALL", "tc_acquire", "1", pending_key_, options_.worker_id,
                                  ttl};
  for (uint32_t s : desired) {
    if (!owned.count(s) || yielded.count(s)) acq.push_back(std::to_string(s));
  }
  if (acq.size() > 6) {
    auto got = r.Command(acq);
    if (!got.ok()) return got.status();
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& e : got->elements) {
      const uint32_t s = static_cast<uint32_t>(e.AsInt());
      owned_.insert(s);
      yielded_.erase(s);
    }
  }
  return Status::Ok();
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
  auto r = crawl_conn_->Command(args);  // also refreshes the counters
  if (!r.ok()) return r.status();
  if (r->elements.size() == 3) {
    pending_ = r->elements[0].AsInt();
    ok_pages_ = r->elements[1].AsInt();
    stop_ = r->elements[2].AsInt() != 0;
  }
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
    if (!inserted) continue;  // already here (a requeue of our own)
    ++local_per_shard_[shard];
    ++stats_.taken;
    taken->push_back(std::move(c));
  }
  return Status::Ok();
}

bool ClusterWorker::Over() const {
  if (!route_args_.empty() || !finished_.empty() || !to_release_.empty()) return false;
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
  st.shards = OwnedShards();
  return st;
}

size_t ClusterWorker::OwnedShards() const {
  std::lock_guard<std::mutex> lock(mu_);
  return owned_.size();
}

}  // namespace topicrawl
