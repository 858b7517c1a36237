#include "frontier/seen_set.h"

#include <algorithm>

namespace topicrawl {
namespace {

constexpr size_t kInitialCapacity = 1024;
constexpr double kMaxLoad = 0.7;
// 0.7 / 1.4 = 0.5: right after growth the table is half full, so the memory
// per id never exceeds 16 bytes (a doubling table would reach 22.9).
constexpr double kGrowth = 1.4;

// UrlIds are already xxh3 values, but callers (tests, resume code) may pass
// small or structured ids; a mixer keeps probing short in every case.
uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

SeenSet::SeenSet() { Rehash(kInitialCapacity); }

size_t SeenSet::SlotFor(uint64_t id) const {
  // Lemire's fast range reduction works for capacities that are not powers
  // of two, which the x1.4 growth needs.
  return static_cast<size_t>(
      (static_cast<unsigned __int128>(Mix(id)) * slots_.size()) >> 64);
}

bool SeenSet::Contains(uint64_t id) const {
  if (id == 0) return has_zero_;
  const size_t n = slots_.size();
  for (size_t i = SlotFor(id);; i = (i + 1 == n) ? 0 : i + 1) {
    if (slots_[i] == id) return true;
    if (slots_[i] == 0) return false;
  }
}

bool SeenSet::Insert(uint64_t id) {
  if (id == 0) {
    if (has_zero_) return false;
    has_zero_ = true;
    ++size_;
    return true;
  }
  const size_t n = slots_.size();
  size_t i = SlotFor(id);
  for (; slots_[i] != 0; i = (i + 1 == n) ? 0 : i + 1) {
    if (slots_[i] == id) return false;
  }
  if (size_ + 1 > grow_at_) {
    Rehash(static_cast<size_t>(static_cast<double>(slots_.size()) * kGrowth));
    InsertNew(id);
  } else {
    slots_[i] = id;
  }
  ++size_;
  return true;
}

void SeenSet::InsertNew(uint64_t id) {
  const size_t n = slots_.size();
  size_t i = SlotFor(id);
  while (slots_[i] != 0) i = (i + 1 == n) ? 0 : i + 1;
  slots_[i] = id;
}

void SeenSet::Reserve(size_t n) {
  size_t needed = static_cast<size_t>(static_cast<double>(n) / kMaxLoad) + 1;
  if (needed > slots_.size()) Rehash(needed);
}

void SeenSet::Rehash(size_t capacity) {
  capacity = std::max(capacity, kInitialCapacity);
  std::vector<uint64_t> old;
  old.swap(slots_);
  slots_.assign(capacity, 0);
  slots_.shrink_to_fit();
  grow_at_ = static_cast<size_t>(static_cast<double>(capacity) * kMaxLoad);
  for (uint64_t id : old) {
    if (id != 0) InsertNew(id);
  }
}

}  // namespace topicrawl
