// IndexedHeap: a binary heap of small items, each naming an integer id, that
// knows where each id sits, so an id can be erased or re-keyed in O(log n)
// and the i-th slot read in O(1) (used for uniform sampling).
//
// Items carry their keys inline (not pointers to them): sifting and random
// access then touch one contiguous array, which keeps a selection step's cost
// flat as the queue grows past the cache (bench/frontier_bench.cc).
//
// A policy supplies the item type, the order and the storage of each id's
// slot number:
//
//   struct Policy {
//     using Item = ...;                        // trivially copyable
//     static uint32_t Id(const Item& item);
//     // True when `a` must be served before `b` (the top is the "best").
//     bool Before(const Item& a, const Item& b) const;
//     // Slot of `id`; the heap writes it, kNotInHeap when absent.
//     uint32_t& Slot(uint32_t id);
//   };
//
// Not thread-safe.
#ifndef TOPICRAWL_FRONTIER_INDEXED_HEAP_H_
#define TOPICRAWL_FRONTIER_INDEXED_HEAP_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace topicrawl {

inline constexpr uint32_t kNotInHeap = UINT32_MAX;

template <typename Policy>
class IndexedHeap {
 public:
  using Item = typename Policy::Item;

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // REQUIRES: !empty().
  const Item& top() const { return items_[0]; }
  // O(1) random access; REQUIRES: slot < size().
  const Item& at(size_t slot) const { return items_[slot]; }
  bool contains(Policy& p, uint32_t id) const {
    return p.Slot(id) != kNotInHeap;
  }
  // The item of `id`. REQUIRES: id in the heap.
  const Item& of(Policy& p, uint32_t id) const { return items_[p.Slot(id)]; }

  // REQUIRES: the item's id is not in the heap.
  void Push(Policy& p, const Item& item) {
    items_.push_back(item);
    SiftUp(p, items_.size() - 1);
  }

  // Removes and returns the top. REQUIRES: !empty().
  Item Pop(Policy& p) {
    Item item = items_[0];
    EraseAt(p, 0);
    return item;
  }

  // REQUIRES: id in the heap.
  void Erase(Policy& p, uint32_t id) { EraseAt(p, p.Slot(id)); }

  // Replaces the item of `id` (same id, new key) and restores the order.
  // REQUIRES: id in the heap.
  void Update(Policy& p, const Item& item) {
    size_t slot = p.Slot(Policy::Id(item));
    items_[slot] = item;
    if (!SiftUp(p, slot)) SiftDown(p, slot);
  }

  // Lets the caller rewrite keys in place (ids must not change); call
  // Rebuild() afterwards. O(n) in total.
  std::vector<Item>& mutable_items() { return items_; }
  void Rebuild(Policy& p) {
    for (size_t i = 0; i < items_.size(); ++i) {
      p.Slot(Policy::Id(items_[i])) = static_cast<uint32_t>(i);
    }
    for (size_t i = items_.size() / 2; i-- > 0;) SiftDown(p, i);
  }

  // Hands the items over (in heap order, not sorted) and empties the heap.
  std::vector<Item> TakeAll(Policy& p) {
    for (const Item& item : items_) p.Slot(Policy::Id(item)) = kNotInHeap;
    return std::exchange(items_, {});
  }

  const std::vector<Item>& items() const { return items_; }

 private:
  void EraseAt(Policy& p, size_t slot) {
    p.Slot(Policy::Id(items_[slot])) = kNotInHeap;
    Item last = items_.back();
    items_.pop_back();
    if (slot == items_.size()) return;
    items_[slot] = last;
    if (!SiftUp(p, slot)) SiftDown(p, slot);
  }

  // Returns true when the item moved.
  bool SiftUp(Policy& p, size_t slot) {
    Item item = items_[slot];
    size_t start = slot;
    while (slot > 0) {
      size_t parent = (slot - 1) / 2;
      if (!p.Before(item, items_[parent])) break;
      Place(p, slot, items_[parent]);
      slot = parent;
    }
    Place(p, slot, item);
    return slot != start;
  }

  void SiftDown(Policy& p, size_t slot) {
    Item item = items_[slot];
    const size_t n = items_.size();
    while (true) {
      size_t child = 2 * slot + 1;
      if (child >= n) break;
      if (child + 1 < n && p.Before(items_[child + 1], items_[child])) ++child;
      if (!p.Before(items_[child], item)) break;
      Place(p, slot, items_[child]);
      slot = child;
    }
    Place(p, slot, item);
  }

  void Place(Policy& p, size_t slot, const Item& item) {
    items_[slot] = item;
    p.Slot(Policy::Id(item)) = static_cast<uint32_t>(slot);
  }

  std::vector<Item> items_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_INDEXED_HEAP_H_
