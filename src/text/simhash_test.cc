#include "text/simhash.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace topicrawl {
namespace {

std::string Words(int n, int seed) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::string s;
  for (int i = 0; i < n; ++i) s += "w" + std::to_string(rng() % 5000) + " ";
  return s;
}

TEST(HammingDistance, KnownValues) {
  EXPECT_EQ(HammingDistance(0, 0), 0);
  EXPECT_EQ(HammingDistance(0, 1), 1);
  EXPECT_EQ(HammingDistance(0xFF, 0x0F), 4);
  EXPECT_EQ(HammingDistance(~uint64_t{0}, 0), 64);
  EXPECT_EQ(HammingDistance(0x8000000000000001ull, 0x1ull), 1);
}

TEST(SimHash64, IdenticalAndCaseInsensitive) {
  const std::string a = Words(500, 1);
  EXPECT_EQ(SimHash64(a), SimHash64(a));
  EXPECT_EQ(SimHash64("Hello World"), SimHash64("hello, world!"));
  EXPECT_EQ(SimHash64(""), 0u);
  EXPECT_EQ(SimHash64("  ,;. "), 0u);
}

TEST(SimHash64, SmallEditIsNearLargeEditIsFar) {
  const std::string page = Words(800, 2);
  // A version string changed in a template: one feature replaced.
  const std::string edited = page + " version 15 18";
  const std::string edited2 = page + " version 15 20";
  EXPECT_LE(HammingDistance(SimHash64(edited), SimHash64(edited2)), kSimHashNearDistance);
  // Unrelated text: around 32 bits apart.
  const int far = HammingDistance(SimHash64(page), SimHash64(Words(800, 3)));
  EXPECT_GT(far, 12);
  // Half the page rewritten.
  const std::string half = page.substr(0, page.size() / 2) + Words(400, 4);
  EXPECT_GT(HammingDistance(SimHash64(page), SimHash64(half)), kSimHashNearDistance);
}

TEST(SimHash64, CjkUsesCodePointPairs) {
  const std::string a = "网络爬虫是一种按照一定的规则自动地抓取万维网信息的程序或者脚本";
  const std::string b = "网络爬虫是一种按照一定的规则自动地抓取万维网信息的程序或者脚本. ";
  EXPECT_NE(SimHash64(a), 0u);
  EXPECT_EQ(SimHash64(a), SimHash64(b));  // ASCII punctuation is no feature
  EXPECT_GT(HammingDistance(SimHash64(a), SimHash64("今天天气很好我们去公园散步吧")), 3);
}

TEST(SimHashIndex, FindsWithinThreeBitsWithoutScan) {
  SimHashIndex index;
  const uint64_t base = 0x0123456789ABCDEFull;
  index.Add(base, 1, 100);
  // Distances 1, 2, 3 in different blocks: found; 4 spread over all blocks: not.
  auto m = index.Find(base ^ 0x1ull, 200);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->id, 1);
  EXPECT_EQ(m->distance, 1);
  m = index.Find(base ^ (1ull | (1ull << 20) | (1ull << 40)), 200);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->distance, 3);
  EXPECT_FALSE(index.Find(base ^ (1ull | (1ull << 20) | (1ull << 40) | (1ull << 60)), 200));
  // Four bits inside one block: other blocks equal, distance 4 > 3.
  EXPECT_FALSE(index.Find(base ^ 0xFull, 200));
  // The same owner never matches itself.
  EXPECT_FALSE(index.Find(base, 100));
  // Closest wins.
  index.Add(base ^ 0x3ull, 2, 101);
  index.Add(base ^ 0x1ull, 3, 102);
  m = index.Find(base ^ 0x1ull, 200);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->id, 3);
  EXPECT_EQ(m->distance, 0);
  EXPECT_FALSE(index.Find(0, 200));
  index.Add(0, 9, 9);
  EXPECT_EQ(index.size(), 3u);
}

// Many pages with one fingerprint (templates): any order of ids, few owners
// and many; Find still answers as over every entry, and the index keeps at
// most two entries of that fingerprint.
TEST(SimHashIndex, IdenticalFingerprintsKeepTwoAndAnswerAsBruteForce) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    SimHashIndex index;
    const uint64_t h = rng() | 1;
    std::vector<std::pair<int64_t, uint64_t>> all;  // (id, owner)
    const int owners = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < 200; ++i) {
      const int64_t id = static_cast<int64_t>(rng() % 100000) + 1;
      const uint64_t owner = rng() % owners;
      index.Add(h, id, owner);
      all.push_back({id, owner});
      for (uint64_t q = 0; q <= static_cast<uint64_t>(owners); ++q) {
        int64_t want = -1;
        for (const auto& [eid, eo] : all) {
          if (eo != q && (want < 0 || eid < want)) want = eid;
        }
        auto m = index.Find(h ^ (q % 2), q);  // distance 0 or 1
        if (want < 0) {
          EXPECT_FALSE(m.has_value()) << trial << " " << i << " " << q;
        } else {
          ASSERT_TRUE(m.has_value()) << trial << " " << i << " " << q;
          EXPECT_EQ(m->id, want) << trial << " " << i << " " << q;
        }
      }
    }
    EXPECT_LE(index.size(), 2u);
  }
}

TEST(SimHashIndex, AgreesWithBruteForce) {
  std::mt19937_64 rng(7);
  SimHashIndex index;
  std::vector<uint64_t> stored;
  for (int i = 0; i < 2000; ++i) {
    uint64_t h = rng();
    if (i % 3 == 0 && !stored.empty()) {  // near copies of earlier ones
      h = stored[rng() % stored.size()];
      for (int k = static_cast<int>(rng() % 6); k > 0; --k) h ^= uint64_t{1} << (rng() % 64);
    }
    if (h == 0) continue;
    auto found = index.Find(h, 1000000 + i);
    int best = 99;
    for (uint64_t s : stored) best = std::min(best, HammingDistance(s, h));
    if (best <= 3) {
      ASSERT_TRUE(found.has_value()) << i;
      EXPECT_EQ(found->distance, best);
    } else {
      EXPECT_FALSE(found.has_value()) << i;
    }
    index.Add(h, i + 1, static_cast<uint64_t>(i));
    stored.push_back(h);
  }
}

// Template pages: clusters of fingerprints a few bits apart (they share
// buckets, and many are within distance 3 of each other), identical copies,
// few owners (versions of one URL) and ids in any order. FindAndAdd answers
// as Find then Add, and both as brute force over every entry added: the
// closest within 3 whose owner differs, the lowest id among equals.
TEST(SimHashIndex, ClusteredFingerprintsAgreeWithBruteForce) {
  std::mt19937_64 rng(23);
  SimHashIndex split;  // Find, then Add
  SimHashIndex fused;  // FindAndAdd
  struct Stored {
    uint64_t h;
    int64_t id;
    uint64_t owner;
  };
  std::vector<Stored> all;
  std::vector<uint64_t> centers;
  for (int c = 0; c < 12; ++c) centers.push_back(rng() | 1);
  int matched = 0;
  for (int i = 0; i < 6000; ++i) {
    uint64_t h = centers[rng() % centers.size()];
    for (int k = static_cast<int>(rng() % 7); k > 0; --k) h ^= uint64_t{1} << (rng() % 64);
    if (i % 5 == 0 && !all.empty()) h = all[rng() % all.size()].h;  // an identical copy
    if (h == 0) continue;
    const int64_t id = static_cast<int64_t>(rng() % 1000000) + 1;
    const uint64_t owner = rng() % 40;
    std::optional<Stored> want;
    int want_d = 99;
    for (const Stored& s : all) {
      if (s.owner == owner) continue;
      const int d = HammingDistance(s.h, h);
      if (d > kSimHashNearDistance) continue;
      if (d < want_d || (d == want_d && s.id < want->id)) {
        want = s;
        want_d = d;
      }
    }
    auto a = split.Find(h, owner);
    auto b = fused.FindAndAdd(h, id, owner);
    split.Add(h, id, owner);
    all.push_back({h, id, owner});
    if (!want) {
      EXPECT_FALSE(a.has_value()) << i;
      EXPECT_FALSE(b.has_value()) << i;
      continue;
    }
    ++matched;
    ASSERT_TRUE(a.has_value()) << i;
    ASSERT_TRUE(b.has_value()) << i;
    EXPECT_EQ(a->id, want->id) << i;
    EXPECT_EQ(a->distance, want_d) << i;
    EXPECT_EQ(a->simhash, want->h) << i;
    EXPECT_EQ(b->id, want->id) << i;
    EXPECT_EQ(b->distance, want_d) << i;
  }
  EXPECT_GT(matched, 3000);  // the clusters do make near matches
  EXPECT_EQ(split.size(), fused.size());
  EXPECT_LT(split.size(), all.size());  // identical copies collapsed
}

#if defined(__x86_64__)
TEST(SimHashIndex, UsesHardwarePopcountWhereTheCpuHasIt) {
  __builtin_cpu_init();
  EXPECT_EQ(SimHashIndexUsesHardwarePopcount(), __builtin_cpu_supports("popcnt") != 0);
}
#endif

}  // namespace
}  // namespace topicrawl
