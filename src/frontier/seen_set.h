// SeenSet: the exact set of UrlIds the frontier has ever admitted.
//
// An open-addressing table of raw 64-bit ids (linear probing), sized so that
// the load factor stays in [0.5, 0.7] once the table holds more than its
// initial capacity: it grows by x1.4 when an insert would pass 0.7. Memory is
// therefore 8 / load = 11.4 .. 16 bytes per id in steady state (the old and
// the new array coexist for the duration of one growth). Ids are exact 64-bit
// values, so the set has no false positives; two different URLs collide only
// if their xxh3 hashes collide.
//
// Not thread-safe (owned by the crawl thread, like the Frontier).
#ifndef TOPICRAWL_FRONTIER_SEEN_SET_H_
#define TOPICRAWL_FRONTIER_SEEN_SET_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace topicrawl {

class SeenSet {
 public:
  SeenSet();

  // Returns true when `id` was not in the set (and now is).
  bool Insert(uint64_t id);
  bool Contains(uint64_t id) const;
  size_t size() const { return size_; }
  // Makes room for `n` ids without further growth.
  void Reserve(size_t n);
  // Bytes held by the table (excluding the object itself).
  size_t MemoryBytes() const { return slots_.capacity() * sizeof(uint64_t); }

 private:
  size_t SlotFor(uint64_t id) const;
  void Rehash(size_t capacity);
  void InsertNew(uint64_t id);

  // 0 marks an empty slot; the id 0 itself is tracked by has_zero_.
  std::vector<uint64_t> slots_;
  size_t size_ = 0;  // including the zero id
  bool has_zero_ = false;
  size_t grow_at_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_SEEN_SET_H_
