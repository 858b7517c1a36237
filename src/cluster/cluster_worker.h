// ClusterWorker: one worker process of a clustered crawl, the ClusterRole
// the crawler calls (crawl/cluster_role.h) over Redis (docs/guides/scale-out.md).
//
// Two Redis connections: the crawl thread's (hand-off, take, done: Tick)
// and the lease thread's (heartbeat, rendezvous, acquire / yield / release
// of shard leases every min(lease_ms / 4, 500 ms)). A shard lease is valid
// while its holder's liveness key lives, so the heartbeat (one SET PX per
// round) renews all of a worker's leases at once.
//
// Politeness moves with a shard: hosts with their own delay or a back-off
// are written to Redis with the heartbeat when they change and with the
// release; the next owner gets them from its acquire (TakeArrivedHosts).
//
// Rebalancing is a hand-over, never a overlap: a shard the rendezvous
// assigns elsewhere is first yielded (no more takes), and its lease is
// released only when this worker has no URL of it left locally (all
// committed and released); the new owner acquires the free lease and first
// requeues what a dead owner left in flight.
#ifndef TOPICRAWL_CLUSTER_CLUSTER_WORKER_H_
#define TOPICRAWL_CLUSTER_CLUSTER_WORKER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cluster/redis_client.h"
#include "crawl/cluster_role.h"

namespace topicrawl {

struct ClusterWorkerOptions {
  RedisAddress redis;
  std::string crawl_id;
  std::string worker_id;        // unique per process (host-pid-random)
  int lease_ms = 10000;         // shard and liveness lease
  int hold_ms = 0;              // a released lease stays blocked this long (delay)
  uint64_t seen_buckets = 1;    // from the crawl's cluster meta
  int64_t max_pages = 0;        // cluster-wide budget of ok pages (0 = none)
  bool dedup_ignore_scheme = true;
  size_t batch = 512;           // URLs per hand-off Function call
};

// Cumulative counters (bench, status line).
struct ClusterWorkerStats {
  uint64_t routed = 0;     // links sent to hand-off (after the local filter)
  uint64_t handed_new = 0; // ... that were new to the cluster
  uint64_t taken = 0;
  uint64_t released = 0;
  uint64_t redis_commands = 0;
  uint64_t redis_bytes = 0;
  uint64_t lease_rounds = 0;  // lease-thread rounds finished (heartbeats)
  size_t shards = 0;
};

class ClusterWorker : public ClusterRole {
 public:
  // Connects both connections and loads the Function library.
  static StatusOr<std::unique_ptr<ClusterWorker>> Create(ClusterWorkerOptions options);
  ~ClusterWorker() override;

  // Registers the worker, takes its first leases and starts the lease
  // thread.
  Status Start();
  // Releases every lease and leaves the crawl (a clean exit; the lease
  // thread stops). URLs still in flight are requeued by the next owner.
  void Leave();

  // ClusterRole
  void Route(const LinkCandidate& link) override;
  void Finished(UrlId url_id, bool ok) override;
  Status Tick(size_t want, std::vector<LinkCandidate>* taken,
              std::vector<UrlId>* to_commit) override;
  void Committed(std::vector<UrlId> ids) override;
  bool Over() const override;
  bool StopRequested() const override { return stop_; }
  void HostState(const HostPoliteness& state) override;
  std::vector<HostPoliteness> TakeArrivedHosts() override;
  Status FinalFlush() override;

  // Sends routed links now (seed registration).
  Status FlushRoutes();
  ClusterWorkerStats stats() const;
  size_t OwnedShards() const;

 private:
  explicit ClusterWorker(ClusterWorkerOptions options);
  void LeaseLoop();
  // One lease-thread round: heartbeat, then verify (after a lapse), yield,
  // release and acquire shard leases towards the rendezvous assignment.
  Status LeaseRound();
  Status Heartbeat(const std::vector<std::string>& hb, std::vector<std::string>* workers);
  // The shards the rendezvous hash gives this worker among `workers`.
  std::set<uint32_t> DesiredShards(const std::vector<std::string>& workers) const;
  Status VerifyLeases(std::set<uint32_t>* owned, std::set<uint32_t>* yielded);
  Status YieldShards(const std::set<uint32_t>& owned, const std::set<uint32_t>& yielded,
                     const std::set<uint32_t>& desired);
  Status ReleaseDrainedShards(const std::set<uint32_t>& desired);
  Status AcquireShards(const std::set<uint32_t>& owned, const std::set<uint32_t>& yielded,
                       const std::set<uint32_t>& desired);
  // REQUIRES: mu_ held.
  void AdoptHostRecords(const std::vector<RedisReply>& records);
  Status SendDone();
  // Crawl thread: a warning every 20 s while nothing is local and URLs
  // are pending in the cluster.
  void WarnIfIdle();
  // Appends (shard, host, wait_ms, record) of every changed host (of the
  // `only` shards when given) to a Function's ARGV and marks them sent.
  // REQUIRES: mu_ held.
  void CollectHosts(const std::set<uint32_t>* only, std::vector<std::string>* args);

  struct InFlight {
    uint32_t shard = 0;
    std::string payload;
    bool ok = false;
  };

  const ClusterWorkerOptions options_;
  const std::string pending_key_;  // KEYS[1] of every Function call
  std::unique_ptr<RedisClient> crawl_conn_;
  std::unique_ptr<RedisClient> lease_conn_;

  // Crawl thread.
  std::vector<std::string> route_args_;  // hand-off ARGV, 5 per URL
  std::unordered_set<UrlId> routed_;     // sent by this worker (local filter)
  std::vector<UrlId> finished_;          // stored, not yet given to commit
  std::vector<UrlId> to_release_;        // committed, done not sent yet
  // Taken payloads of URLs already in flight here under another payload
  // (a duplicate queue entry): (shard, payload), released by the next done.
  std::vector<std::pair<uint32_t, std::string>> duplicates_;
  int64_t pending_ = -1;                 // last seen cluster counters
  int64_t ok_pages_ = 0;
  bool seeded_ = false;
  bool stop_ = false;
  uint64_t take_start_ = 0;
  std::optional<std::chrono::steady_clock::time_point> idle_since_;
  std::chrono::steady_clock::time_point idle_warned_;
  ClusterWorkerStats stats_;

  mutable std::mutex mu_;  // guards what the lease thread shares
  std::unordered_map<UrlId, InFlight> in_flight_;    // taken, not released
  std::map<uint32_t, size_t> local_per_shard_;       // in_flight_ per shard
  std::set<uint32_t> owned_;                         // leases held
  std::set<uint32_t> yielded_;                       // held, draining
  std::vector<UrlId> committed_;                     // from the writer thread
  // Politeness of hosts with their own delay or failures, per held shard:
  // the latest state and what Redis holds (pol:<shard>).
  struct HostRecord {
    HostPoliteness state;
    std::string sent_text = "0 0 0 0";  // trivial: nothing stored
    int64_t sent_not_before = 0;
    bool dirty = false;
  };
  std::map<uint32_t, std::unordered_map<std::string, HostRecord>> hosts_;
  std::vector<HostPoliteness> arrived_;  // taken over, for the crawler

  std::mutex wake_mu_;
  std::condition_variable wake_;
  bool leaving_ = false;
  bool verify_due_ = false;  // lease thread: a lapse seen, leases not verified yet
  std::atomic<uint64_t> lease_rounds_{0};
  std::thread lease_thread_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_CLUSTER_WORKER_H_
