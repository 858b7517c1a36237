// IndexedHeap: a binary heap of small integer ids that knows where each id
// sits, so an arbitrary id can be erased or re-keyed in O(log n), and the
// i-th slot can be read in O(1) (used for uniform sampling).
//
// The heap does not own keys. A policy object supplies the order and the
// storage of each id's slot number:
//
//   struct Policy {
//     // True when `a` must be served before `b` (the top is the "best").
//     bool Before(uint32_t a, uint32_t b) const;
//     // Slot of `id` in the heap; the heap writes it, kNotInHeap when absent.
//     uint32_t& Slot(uint32_t id);
//   };
//
// Keeping the slot outside the heap lets a link heap store it inside the
// pooled link entry and a host index store it inside the host record, with
// no side table. Not thread-safe.
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
  IndexedHeap() = default;

  size_t size() const { return ids_.size(); }
  bool empty() const { return ids_.empty(); }
  // REQUIRES: !empty().
  uint32_t top() const { return ids_[0]; }
  // O(1) random access; REQUIRES: slot < size().
  uint32_t at(size_t slot) const { return ids_[slot]; }
  bool contains(Policy& p, uint32_t id) const {
    return p.Slot(id) != kNotInHeap;
  }

  // REQUIRES: id not in the heap.
  void Push(Policy& p, uint32_t id) {
    ids_.push_back(id);
    p.Slot(id) = static_cast<uint32_t>(ids_.size() - 1);
    SiftUp(p, ids_.size() - 1);
  }

  // Removes and returns the top. REQUIRES: !empty().
  uint32_t Pop(Policy& p) {
    uint32_t id = ids_[0];
    EraseAt(p, 0);
    return id;
  }

  // REQUIRES: id in the heap.
  void Erase(Policy& p, uint32_t id) { EraseAt(p, p.Slot(id)); }

  // Restores the order after the key of `id` changed. REQUIRES: id in heap.
  void Update(Policy& p, uint32_t id) {
    size_t slot = p.Slot(id);
    if (!SiftUp(p, slot)) SiftDown(p, slot);
  }

  // Rebuilds the heap from scratch (after many keys changed), O(n).
  void Rebuild(Policy& p) {
    for (size_t i = 0; i < ids_.size(); ++i) {
      p.Slot(ids_[i]) = static_cast<uint32_t>(i);
    }
    for (size_t i = ids_.size() / 2; i-- > 0;) SiftDown(p, i);
  }

  // Hands the ids over (in heap order, not sorted) and empties the heap.
  std::vector<uint32_t> TakeAll(Policy& p) {
    for (uint32_t id : ids_) p.Slot(id) = kNotInHeap;
    return std::exchange(ids_, {});
  }

  const std::vector<uint32_t>& ids() const { return ids_; }

 private:
  void EraseAt(Policy& p, size_t slot) {
    uint32_t id = ids_[slot];
    uint32_t last = ids_.back();
    ids_.pop_back();
    p.Slot(id) = kNotInHeap;
    if (slot == ids_.size()) return;
    ids_[slot] = last;
    p.Slot(last) = static_cast<uint32_t>(slot);
    if (!SiftUp(p, slot)) SiftDown(p, slot);
  }

  // Returns true when the element moved.
  bool SiftUp(Policy& p, size_t slot) {
    uint32_t id = ids_[slot];
    size_t start = slot;
    while (slot > 0) {
      size_t parent = (slot - 1) / 2;
      if (!p.Before(id, ids_[parent])) break;
      Place(p, slot, ids_[parent]);
      slot = parent;
    }
    Place(p, slot, id);
    return slot != start;
  }

  void SiftDown(Policy& p, size_t slot) {
    uint32_t id = ids_[slot];
    const size_t n = ids_.size();
    while (true) {
      size_t child = 2 * slot + 1;
      if (child >= n) break;
      if (child + 1 < n && p.Before(ids_[child + 1], ids_[child])) ++child;
      if (!p.Before(ids_[child], id)) break;
      Place(p, slot, ids_[child]);
      slot = child;
    }
    Place(p, slot, id);
  }

  void Place(Policy& p, size_t slot, uint32_t id) {
    ids_[slot] = id;
    p.Slot(id) = static_cast<uint32_t>(slot);
  }

  std::vector<uint32_t> ids_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_INDEXED_HEAP_H_
