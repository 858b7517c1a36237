#include "frontier/indexed_heap.h"

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

struct KeyedIds {
  std::vector<double> key;
  std::vector<uint32_t> slot;
  bool Before(uint32_t a, uint32_t b) const {
    return key[a] != key[b] ? key[a] > key[b] : a < b;
  }
  uint32_t& Slot(uint32_t id) { return slot[id]; }
};

TEST(IndexedHeapTest, MatchesAnOrderedSetUnderRandomOperations) {
  constexpr uint32_t kIds = 500;
  KeyedIds p{std::vector<double>(kIds), std::vector<uint32_t>(kIds, kNotInHeap)};
  IndexedHeap<KeyedIds> heap;
  auto cmp = [&p](uint32_t a, uint32_t b) { return p.Before(a, b); };
  std::set<uint32_t, decltype(cmp)> reference(cmp);
  std::mt19937 rng(3);
  for (int step = 0; step < 50'000; ++step) {
    uint32_t id = rng() % kIds;
    int op = rng() % 4;
    bool in = heap.contains(p, id);
    if (op == 0 && !in) {
      p.key[id] = rng() % 100;
      heap.Push(p, id);
      reference.insert(id);
    } else if (op == 1 && in) {
      heap.Erase(p, id);
      reference.erase(id);
    } else if (op == 2 && in) {
      reference.erase(id);
      p.key[id] = rng() % 100;
      heap.Update(p, id);
      reference.insert(id);
    } else if (op == 3 && !heap.empty()) {
      uint32_t top = heap.Pop(p);
      ASSERT_EQ(top, *reference.begin());
      reference.erase(reference.begin());
    }
    ASSERT_EQ(heap.size(), reference.size());
    if (!heap.empty()) {
      ASSERT_EQ(heap.top(), *reference.begin());
    }
  }
  for (size_t i = 0; i < heap.size(); ++i) {
    EXPECT_EQ(p.slot[heap.at(i)], i);
  }
}

TEST(IndexedHeapTest, RebuildRestoresOrderAfterBulkKeyChange) {
  KeyedIds p{std::vector<double>(100), std::vector<uint32_t>(100, kNotInHeap)};
  IndexedHeap<KeyedIds> heap;
  for (uint32_t i = 0; i < 100; ++i) {
    p.key[i] = i;
    heap.Push(p, i);
  }
  for (uint32_t i = 0; i < 100; ++i) p.key[i] = -static_cast<double>(i);
  heap.Rebuild(p);
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(heap.Pop(p), i);
}

TEST(IndexedHeapTest, TakeAllEmptiesAndClearsSlots) {
  KeyedIds p{std::vector<double>(3, 1.0), std::vector<uint32_t>(3, kNotInHeap)};
  IndexedHeap<KeyedIds> heap;
  for (uint32_t i = 0; i < 3; ++i) heap.Push(p, i);
  std::vector<uint32_t> ids = heap.TakeAll(p);
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_TRUE(heap.empty());
  for (uint32_t i = 0; i < 3; ++i) EXPECT_FALSE(heap.contains(p, i));
}

}  // namespace
}  // namespace topicrawl
