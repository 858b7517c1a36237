// Unit tests of the cluster component: pure layout functions, and the
// Functions, seen-set and leases against a real redis-server.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "cluster/cluster_admin.h"
#include "cluster/cluster_layout.h"
#include "cluster/cluster_worker.h"
#include "core/hash.h"
#include "support/redis_test_server.h"

namespace topicrawl {
namespace {

using std::chrono::milliseconds;

TEST(ClusterLayoutTest, RedisUrl) {
  auto a = ParseRedisUrl("redis://127.0.0.1:6390/3");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 6390);
  EXPECT_EQ(a->db, 3);
  auto b = ParseRedisUrl("redis://example");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->port, 6379);
  EXPECT_FALSE(ParseRedisUrl("http://x:1").ok());
  EXPECT_FALSE(ParseRedisUrl("redis://x:0").ok());
  EXPECT_FALSE(ParseRedisUrl("redis://x:1/abc").ok());
  EXPECT_FALSE(ParseRedisUrl("redis://:1").ok());
}

TEST(ClusterLayoutTest, CrawlIdAndKeys) {
  EXPECT_TRUE(ValidateCrawlId("news-2026.v1").ok());
  EXPECT_FALSE(ValidateCrawlId("").ok());
  EXPECT_FALSE(ValidateCrawlId("a}b").ok());
  EXPECT_EQ(ClusterKeyPrefix("x"), "tc:{x}:");
}

TEST(ClusterLayoutTest, OneHostOneShard) {
  EXPECT_EQ(ShardOfUrl("http://a.example/x"), ShardOfUrl("http://a.example:80/y?z"));
  EXPECT_EQ(ShardOfUrl("not a url"), kClusterShards);
  std::set<uint32_t> shards;
  for (int i = 0; i < 200; ++i) shards.insert(ShardOfUrl("http://h" + std::to_string(i) + ".test/"));
  EXPECT_GT(shards.size(), 170u);  // spread (birthday collisions aside)
  for (uint32_t s : shards) EXPECT_LT(s, kClusterShards);
}

TEST(ClusterLayoutTest, SeenBucketsKeepIntsetSizes) {
  EXPECT_EQ(SeenBucketsFor(0), 1u);
  EXPECT_EQ(SeenBucketsFor(1000), 4u);
  EXPECT_EQ(SeenBucketsFor(1000000), 4096u);  // 244 members a bucket
  for (uint64_t n : {1000ull, 123456ull, 1000000ull, 50000000ull}) {
    const uint64_t b = SeenBucketsFor(n);
    EXPECT_EQ(b & (b - 1), 0u);
    EXPECT_LE(n / b, kSeenBucketTarget);
    EXPECT_GT(n / b, kSeenBucketTarget / 2 - 1);
  }
  EXPECT_EQ(SeenMember(~0ull), "-1");
  EXPECT_EQ(SeenMember(42), "42");
}

TEST(ClusterLayoutTest, RendezvousIsBalancedAndMovesOnlyTheLeaversShards) {
  std::vector<std::string> three = {"w1", "w2", "w3"};
  std::vector<std::string> two = {"w1", "w3"};
  std::map<std::string, int> count;
  int moved = 0;
  for (uint32_t s = 0; s < kClusterShards; ++s) {
    const std::string a = RendezvousOwner(s, three);
    const std::string b = RendezvousOwner(s, two);
    ++count[a];
    if (a != "w2") {
      EXPECT_EQ(a, b) << "shard " << s << " moved though its owner stayed";
    } else {
      ++moved;
    }
  }
  for (const auto& [w, n] : count) {
    EXPECT_GT(n, 1024 / 3 - 80) << w;
    EXPECT_LT(n, 1024 / 3 + 80) << w;
  }
  EXPECT_EQ(moved, count["w2"]);
  // Same answer whatever the order of the live list.
  std::vector<std::string> shuffled = {"w3", "w1", "w2"};
  for (uint32_t s = 0; s < 64; ++s) EXPECT_EQ(RendezvousOwner(s, three), RendezvousOwner(s, shuffled));
}

class ClusterRedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = redis_.Start();
    ASSERT_TRUE(s.ok()) << s.message();
    auto a = ParseRedisUrl(redis_.url());
    ASSERT_TRUE(a.ok());
    address_ = *a;
    auto c = RedisClient::Connect(address_);
    ASSERT_TRUE(c.ok()) << c.status().message();
    admin_ = std::move(c).value();
  }

  std::unique_ptr<ClusterWorker> Worker(const std::string& id, int lease_ms, uint64_t buckets = 4) {
    ClusterWorkerOptions o;
    o.redis = address_;
    o.crawl_id = "t";
    o.worker_id = id;
    o.lease_ms = lease_ms;
    o.seen_buckets = buckets;
    auto w = ClusterWorker::Create(o);
    EXPECT_TRUE(w.ok()) << w.status().message();
    return w.ok() ? std::move(w).value() : nullptr;
  }

  int64_t Get(const std::string& name) {
    auto r = admin_->Command({"GET", "tc:{t}:" + name});
    return r.ok() ? r->AsInt() : -999;
  }

  static LinkCandidate Link(const std::string& url, double score = 1) {
    LinkCandidate c;
    c.url = url;
    c.url_id = Hash64(url);
    c.score = score;
    c.anchor = "a\tb";
    return c;
  }

  RedisTestServer redis_;
  RedisAddress address_;
  std::unique_ptr<RedisClient> admin_;
};

TEST_F(ClusterRedisTest, SeenSetIsExactIntsetAndUnder16BytesPerUrl) {
  constexpr int kUrls = 30000;  // 128 buckets of ~234: the sizes of a real crawl
  const uint64_t buckets = SeenBucketsFor(kUrls);
  auto a = Worker("a", 5000, buckets);
  auto b = Worker("b", 5000, buckets);
  ASSERT_TRUE(a && b);
  for (int i = 0; i < kUrls; ++i) a->Route(Link("http://h" + std::to_string(i % 97) + ".test/p" + std::to_string(i)));
  ASSERT_TRUE(a->FlushRoutes().ok());
  EXPECT_EQ(a->stats().handed_new, static_cast<uint64_t>(kUrls));
  EXPECT_EQ(Get("pending"), kUrls);
  // Another worker offering the same URLs (and a few new): only the new count.
  for (int i = 0; i < kUrls; i += 10) b->Route(Link("http://h" + std::to_string(i % 97) + ".test/p" + std::to_string(i)));
  for (int i = 0; i < 5; ++i) b->Route(Link("http://new.test/" + std::to_string(i)));
  ASSERT_TRUE(b->FlushRoutes().ok());
  EXPECT_EQ(b->stats().handed_new, 5u);
  EXPECT_EQ(Get("pending"), kUrls + 5);
  auto enc = admin_->Command({"OBJECT", "ENCODING", "tc:{t}:s:0"});
  ASSERT_TRUE(enc.ok());
  EXPECT_EQ(enc->str, "intset");
  auto seen = MeasureSeenSet(*admin_, "t", buckets);
  ASSERT_TRUE(seen.ok()) << seen.status().message();
  EXPECT_EQ(seen->members, static_cast<uint64_t>(kUrls + 5));
  const double per_url = double(seen->bytes) / double(seen->members);
  EXPECT_LE(per_url, 16.0);
  EXPECT_GT(per_url, 8.0);  // 8-byte integers cannot cost less
}

TEST_F(ClusterRedisTest, TakeNeedsTheLeaseAndDoneReleasesOnce) {
  auto a = Worker("a", 5000);
  ASSERT_TRUE(a);
  for (int i = 0; i < 20; ++i) a->Route(Link("http://x.test/" + std::to_string(i), i));
  ASSERT_TRUE(a->FlushRoutes().ok());
  ASSERT_TRUE(admin_->Command({"SET", "tc:{t}:seeded", "1"}).ok());
  std::vector<LinkCandidate> taken;
  std::vector<UrlId> commit;
  // No lease yet: nothing to take.
  ASSERT_TRUE(a->Tick(100, &taken, &commit).ok());
  EXPECT_TRUE(taken.empty());
  EXPECT_FALSE(a->Over());
  ASSERT_TRUE(a->Start().ok());
  EXPECT_EQ(a->OwnedShards(), kClusterShards);
  ASSERT_TRUE(a->Tick(5, &taken, &commit).ok());
  ASSERT_EQ(taken.size(), 5u);
  EXPECT_EQ(taken[0].score, 19);  // best first
  EXPECT_EQ(taken[0].anchor, "a b");
  EXPECT_EQ(Get("inflight"), 5);
  ASSERT_TRUE(a->Tick(100, &taken, &commit).ok());
  ASSERT_EQ(taken.size(), 20u);
  for (const auto& c : taken) a->Finished(c.url_id, true);
  a->Finished(taken[0].url_id, true);  // twice: counted once
  std::vector<LinkCandidate> none;
  ASSERT_TRUE(a->Tick(0, &none, &commit).ok());
  EXPECT_EQ(commit.size(), 21u);
  EXPECT_EQ(Get("pending"), 20);  // not released before the commit
  a->Committed(commit);
  commit.clear();
  ASSERT_TRUE(a->Tick(0, &none, &commit).ok());
  EXPECT_EQ(Get("pending"), 0);
  EXPECT_EQ(Get("inflight"), 0);
  EXPECT_EQ(Get("ok"), 20);
  EXPECT_TRUE(a->Over());
}

TEST_F(ClusterRedisTest, WorkersSplitShardsAndTakeOverADeadWorkersInFlightUrls) {
  // A "dead" worker holds a shard with two URLs in flight (it took them,
  // then vanished: its lease runs out in 400 ms).
  const std::string url = "http://dead.test/";
  const uint32_t shard = ShardOfUrl(url);
  auto a = Worker("a", 900);
  ASSERT_TRUE(a);
  a->Route(Link(url + "1"));
  a->Route(Link(url + "2"));
  ASSERT_TRUE(a->FlushRoutes().ok());
  ASSERT_TRUE(admin_->Command({"SET", "tc:{t}:seeded", "1"}).ok());
  // Its liveness key (the heartbeat) keeps its lease valid for 400 ms more.
  ASSERT_TRUE(admin_->Command({"SET", "tc:{t}:w:dead", "1", "PX", "400"}).ok());
  auto got = admin_->Command({"FCALL", "tc_acquire", "1", "tc:{t}:pending", "dead",
                              std::to_string(shard)});
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->elements.size(), 2u);
  ASSERT_EQ(got->elements[0].elements.size(), 1u);
  auto took = admin_->Command({"FCALL", "tc_take", "1", "tc:{t}:pending", "dead", "10", "0", "0"});
  ASSERT_TRUE(took.ok());
  EXPECT_EQ(took->elements.size(), 6u);
  EXPECT_EQ(Get("inflight"), 2);

  ASSERT_TRUE(a->Start().ok());
  EXPECT_EQ(a->OwnedShards(), kClusterShards - 1);  // not the dead one's, yet
  auto b = Worker("b", 900);
  ASSERT_TRUE(b && b->Start().ok());
  // Rebalance: a yields about half to b; the dead worker's shard is taken
  // over once its lease expired, and its in-flight URLs are queued again.
  std::vector<LinkCandidate> taken;
  std::vector<UrlId> commit;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<LinkCandidate> t;
    ASSERT_TRUE(a->Tick(10, &t, &commit).ok());
    ASSERT_TRUE(b->Tick(10, &t, &commit).ok());
    for (auto& c : t) taken.push_back(c);
    if (a->OwnedShards() + b->OwnedShards() == kClusterShards && taken.size() == 2) break;
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(a->OwnedShards() + b->OwnedShards(), kClusterShards);
  EXPECT_GT(a->OwnedShards(), 400u);
  EXPECT_GT(b->OwnedShards(), 400u);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(Get("inflight"), 2);
  EXPECT_EQ(Get("pending"), 2);
  // Leases in Redis agree with what the workers believe.
  auto owner = admin_->Command({"GET", "tc:{t}:lease:" + std::to_string(shard)});
  ASSERT_TRUE(owner.ok());
  EXPECT_EQ(owner->str, RendezvousOwner(shard, {"a", "b"}));
  // b leaves cleanly: a takes all shards back.
  b->Leave();
  const auto d2 = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (a->OwnedShards() != kClusterShards && std::chrono::steady_clock::now() < d2) {
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(a->OwnedShards(), kClusterShards);
}

TEST_F(ClusterRedisTest, HostPolitenessMovesWithTheShardAndRenewalIsOneCommand) {
  auto a = Worker("a", 2000);
  ASSERT_TRUE(a && a->Start().ok());
  ASSERT_EQ(a->OwnedShards(), kClusterShards);
  // A host of a shard the rendezvous gives to "b" once it joins.
  std::string key;
  for (int i = 0; key.empty(); ++i) {
    std::string k = "slow" + std::to_string(i) + ".test";
    if (RendezvousOwner(ShardOfHostKey(k), {"a", "b"}) == "b") key = k;
  }
  const int64_t now = std::chrono::duration_cast<milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  HostPoliteness slow;
  slow.host_key = key;
  slow.crawl_delay_s = 2.5;
  slow.not_before_unix_ms = now + 3000;
  slow.backoff_level = 2;
  slow.consecutive_failures = 3;
  a->HostState(slow);
  HostPoliteness plain;  // nothing to hand over: never written
  plain.host_key = "plain.test";
  plain.not_before_unix_ms = now + 50;
  a->HostState(plain);
  // Renewal: with all 1,024 leases held, a lease round costs one command
  // (the heartbeat FCALL), not two per shard. Counted against the worker's
  // own round counter: a snapshot may fall between a round's command and
  // its count, hence the one either way.
  const ClusterWorkerStats s0 = a->stats();
  ClusterWorkerStats s1 = s0;
  const auto d1 = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (s1.lease_rounds < s0.lease_rounds + 3 && std::chrono::steady_clock::now() < d1) {
    std::this_thread::sleep_for(milliseconds(20));
    s1 = a->stats();
  }
  const uint64_t rounds = s1.lease_rounds - s0.lease_rounds;
  ASSERT_GE(rounds, 3u);
  const uint64_t commands = s1.redis_commands - s0.redis_commands;
  EXPECT_LE(commands, rounds + 1);
  EXPECT_GE(commands + 1, rounds);
  // ... and the slow host's record went out with the heartbeat.
  auto stored = admin_->Command({"HGET", "tc:{t}:pol:" + std::to_string(ShardOfHostKey(key)), key});
  ASSERT_TRUE(stored.ok());
  EXPECT_NE(stored->str.find(" 2500 2 3 0"), std::string::npos) << stored->str;
  auto plain_stored = admin_->Command(
      {"HGET", "tc:{t}:pol:" + std::to_string(ShardOfHostKey("plain.test")), "plain.test"});
  ASSERT_TRUE(plain_stored.ok());
  EXPECT_TRUE(plain_stored->nil());
  // The leases never expired meanwhile (the liveness key renews them).
  EXPECT_EQ(a->OwnedShards(), kClusterShards);

  auto b = Worker("b", 2000);
  ASSERT_TRUE(b && b->Start().ok());
  std::vector<HostPoliteness> arrived;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<LinkCandidate> t;
    std::vector<UrlId> c;
    ASSERT_TRUE(a->Tick(0, &t, &c).ok());
    ASSERT_TRUE(b->Tick(0, &t, &c).ok());
    for (auto& h : b->TakeArrivedHosts()) arrived.push_back(h);
    if (a->OwnedShards() + b->OwnedShards() == kClusterShards && !arrived.empty()) break;
    std::this_thread::sleep_for(milliseconds(50));
  }
  ASSERT_EQ(arrived.size(), 1u);
  EXPECT_EQ(arrived[0].host_key, key);
  EXPECT_DOUBLE_EQ(arrived[0].crawl_delay_s, 2.5);
  EXPECT_EQ(arrived[0].backoff_level, 2);
  EXPECT_EQ(arrived[0].consecutive_failures, 3u);
  EXPECT_FALSE(arrived[0].failed);
  // The next allowed request is kept (Redis time; same machine here). The
  // hand-over sends a remaining wait and gets one back, so a delay on either
  // leg can only make it later, never earlier, and by no more than the time
  // the whole exchange took (1 ms of truncation on each of the clocks).
  const int64_t after = std::chrono::duration_cast<milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_GE(arrived[0].not_before_unix_ms, now + 3000 - 2);
  EXPECT_LE(arrived[0].not_before_unix_ms, after + 3000 + 2);
}

TEST_F(ClusterRedisTest, AWorkerWhoseLivenessLapsedKeepsServingTheShardsItStillHolds) {
  auto a = Worker("a", 2000);
  ASSERT_TRUE(a && a->Start().ok());
  for (int i = 0; i < 3; ++i) a->Route(Link("http://lapse.test/" + std::to_string(i)));
  ASSERT_TRUE(a->FlushRoutes().ok());
  ASSERT_TRUE(admin_->Command({"SET", "tc:{t}:seeded", "1"}).ok());
  // A stall past lease_ms: the liveness key expired and another worker's
  // heartbeat dropped own:a; nobody took the leases yet.
  ASSERT_TRUE(admin_->Command({"DEL", "tc:{t}:w:a", "tc:{t}:own:a"}).ok());
  std::this_thread::sleep_for(milliseconds(700));  // a's next round
  auto own = admin_->Command({"SCARD", "tc:{t}:own:a"});
  ASSERT_TRUE(own.ok());
  EXPECT_EQ(own->AsInt(), static_cast<int64_t>(kClusterShards));
  EXPECT_EQ(a->OwnedShards(), kClusterShards);
  std::vector<LinkCandidate> taken;
  std::vector<UrlId> commit;
  ASSERT_TRUE(a->Tick(10, &taken, &commit).ok());
  EXPECT_EQ(taken.size(), 3u);  // without own:a restored: 0, forever
}

// The kill -9 stall (docs/guides/scale-out.md): the first worker set the config
// field and, in a second command, the seen-bucket count; a joiner reading in
// between used 1 bucket where the others used 4096, so a URL was handed off
// twice (two seen members, two queue entries with different payloads).
TEST_F(ClusterRedisTest, AHalfRegisteredCrawlIsNotReadAsOneSeenBucket) {
  ASSERT_TRUE(admin_->Command({"HSET", "tc:{t}:meta", "config", "strategy = \"bfs\"\n"}).ok());
  auto half = ReadClusterMeta(*admin_, "t");
  ASSERT_TRUE(half.ok());
  EXPECT_FALSE(half->has_value());  // a joiner waits, as for no crawl at all
  ASSERT_TRUE(admin_->Command({"DEL", "tc:{t}:meta"}).ok());
  ClusterMeta m;
  m.config_toml = "strategy = \"bfs\"\n";
  m.seeds_hash = "abc";
  m.seen_buckets = 4096;
  auto first = RegisterClusterMeta(*admin_, "t", m);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_TRUE(*first);
  auto fields = admin_->Command({"HLEN", "tc:{t}:meta"});
  ASSERT_TRUE(fields.ok());
  EXPECT_EQ(fields->AsInt(), 3);
  auto read = ReadClusterMeta(*admin_, "t");
  ASSERT_TRUE(read.ok() && read->has_value());
  EXPECT_EQ((*read)->seen_buckets, 4096u);
  EXPECT_EQ((*read)->seeds_hash, "abc");
}

// The second half of the stall: the worker that took the second entry of a
// URL it already had in flight skipped it as "a requeue of our own", so that
// entry stayed in f:<shard> under its live lease: pending 1 forever, every
// worker idle. It is released with the next done instead.
TEST_F(ClusterRedisTest, ASecondQueueEntryOfAUrlInFlightIsReleased) {
  auto a = Worker("a", 5000, 4);
  ASSERT_TRUE(a);
  LinkCandidate link = Link("http://h9.test/", 5);
  link.depth = 7;
  a->Route(link);
  ASSERT_TRUE(a->FlushRoutes().ok());
  // The same URL from a worker with another seen bucket, at another depth.
  const std::string shard = std::to_string(ShardOfUrl(link.url));
  const std::string other = std::to_string(link.url_id) + "\t8\thttp://h9.test/\tx";
  auto added = admin_->Command({"FCALL", "tc_handoff", "1", "tc:{t}:pending", "99",
                                SeenMember(link.url_id), shard, "-1", other});
  ASSERT_TRUE(added.ok()) << added.status().message();
  EXPECT_EQ(added->AsInt(), 1);
  EXPECT_EQ(Get("pending"), 2);
  ASSERT_TRUE(admin_->Command({"SET", "tc:{t}:seeded", "1"}).ok());
  ASSERT_TRUE(a->Start().ok());
  std::vector<LinkCandidate> taken;
  std::vector<UrlId> commit;
  ASSERT_TRUE(a->Tick(10, &taken, &commit).ok());
  ASSERT_EQ(taken.size(), 1u);  // one URL for the crawler
  EXPECT_EQ(taken[0].depth, 7u);  // the better-scored entry first
  EXPECT_EQ(Get("inflight"), 2);
  a->Finished(taken[0].url_id, true);
  std::vector<LinkCandidate> none;
  ASSERT_TRUE(a->Tick(0, &none, &commit).ok());
  a->Committed(commit);
  commit.clear();
  ASSERT_TRUE(a->Tick(0, &none, &commit).ok());
  EXPECT_EQ(Get("pending"), 0);
  EXPECT_EQ(Get("inflight"), 0);
  EXPECT_EQ(Get("ok"), 1);  // the URL counts once
  auto left = admin_->Command({"HLEN", "tc:{t}:f:" + shard});
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->AsInt(), 0);
  EXPECT_TRUE(a->Over());
}

TEST_F(ClusterRedisTest, FirstWorkerRegistersLaterOnesAreComparedAndStopWorks) {
  ClusterMeta m;
  m.config_toml = "strategy = \"bfs\"\n";
  m.seeds_hash = "abc";
  m.seen_buckets = 8;
  auto first = RegisterClusterMeta(*admin_, "t", m);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_TRUE(*first);
  m.config_toml = "strategy = \"best-first\"\n";
  auto second = RegisterClusterMeta(*admin_, "t", m);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);
  auto read = ReadClusterMeta(*admin_, "t");
  ASSERT_TRUE(read.ok() && read->has_value());
  EXPECT_EQ((*read)->config_toml, "strategy = \"bfs\"\n");
  EXPECT_EQ((*read)->seen_buckets, 8u);
  EXPECT_NE(ConfigDifference("a = 1\nb = 2\n", "a = 1\nb = 3\n"), "");
  EXPECT_EQ(ConfigDifference("a = 1\n", "# c\na = 1\n"), "");
  EXPECT_EQ(SeedsHash({"b", "a"}), SeedsHash({"a", "b"}));
  auto none = ReadClusterMeta(*admin_, "other");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  auto w = Worker("a", 5000);
  ASSERT_TRUE(w);
  ASSERT_TRUE(ClusterStop(*admin_, "t").ok());
  std::vector<LinkCandidate> t;
  std::vector<UrlId> c;
  ASSERT_TRUE(w->Tick(10, &t, &c).ok());
  EXPECT_TRUE(w->StopRequested());
  EXPECT_TRUE(w->Over());
  auto status = ClusterStatusText(*admin_, "t");
  ASSERT_TRUE(status.ok()) << status.status().message();
  EXPECT_NE(status->find("stopped"), std::string::npos) << *status;
}

}  // namespace
}  // namespace topicrawl
