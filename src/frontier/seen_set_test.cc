#include "frontier/seen_set.h"

#include <random>
#include <unordered_set>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TEST(SeenSetTest, InsertReportsNewness) {
  SeenSet s;
  EXPECT_TRUE(s.Insert(42));
  EXPECT_FALSE(s.Insert(42));
  EXPECT_TRUE(s.Contains(42));
  EXPECT_FALSE(s.Contains(43));
  EXPECT_EQ(s.size(), 1u);
}

TEST(SeenSetTest, ZeroIsAnOrdinaryId) {
  SeenSet s;
  EXPECT_FALSE(s.Contains(0));
  EXPECT_TRUE(s.Insert(0));
  EXPECT_FALSE(s.Insert(0));
  EXPECT_TRUE(s.Contains(0));
  EXPECT_EQ(s.size(), 1u);
}

TEST(SeenSetTest, GrowthKeepsEveryIdAndNothingElse) {
  SeenSet s;
  std::mt19937_64 rng(7);
  std::unordered_set<uint64_t> reference;
  for (int i = 0; i < 200'000; ++i) {
    uint64_t id = rng();
    EXPECT_EQ(s.Insert(id), reference.insert(id).second);
  }
  // Sequential ids (structured input) must not degrade into long probes.
  for (uint64_t id = 1; id <= 100'000; ++id) {
    EXPECT_EQ(s.Insert(id), reference.insert(id).second);
  }
  EXPECT_EQ(s.size(), reference.size());
  for (uint64_t id : reference) ASSERT_TRUE(s.Contains(id));
  std::mt19937_64 other(8);
  for (int i = 0; i < 10'000; ++i) {
    uint64_t id = other();
    EXPECT_EQ(s.Contains(id), reference.count(id) == 1);
  }
}

TEST(SeenSetTest, AtMostSixteenBytesPerId) {
  SeenSet s;
  std::mt19937_64 rng(1);
  for (int i = 1; i <= 1'000'000; ++i) {
    s.Insert(rng());
    if (i >= 10'000 && i % 997 == 0) {
      double per_id = static_cast<double>(s.MemoryBytes()) / s.size();
      ASSERT_LE(per_id, 16.01) << "at " << i << " ids";
    }
  }
  double per_id = static_cast<double>(s.MemoryBytes()) / s.size();
  EXPECT_GE(per_id, 8.0 / 0.7 - 0.01);
}

TEST(SeenSetTest, ReserveAvoidsGrowth) {
  SeenSet s;
  s.Reserve(100'000);
  size_t bytes = s.MemoryBytes();
  for (uint64_t i = 1; i <= 100'000; ++i) s.Insert(i * 0x9E3779B97F4A7C15ULL);
  EXPECT_EQ(s.MemoryBytes(), bytes);
  EXPECT_EQ(s.size(), 100'000u);
}

}  // namespace
}  // namespace topicrawl
