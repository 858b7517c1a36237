#include "text/simhash.h"

#include <algorithm>
#include <array>
#include <string>

#include "core/hash.h"

namespace topicrawl {
namespace {

// Adds `weight` for every bit of the feature's hash.
inline void AddFeature(std::string_view feature, std::array<int32_t, 64>* v) {
  uint64_t h = Hash64(feature);
  for (int i = 0; i < 64; ++i) {
    (*v)[static_cast<size_t>(i)] += (h >> i) & 1 ? 1 : -1;
  }
}

inline bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Length of the UTF-8 sequence starting with lead byte c (1 for invalid).
inline size_t Utf8Len(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

}  // namespace

uint64_t SimHash64(std::string_view text) {
  std::array<int32_t, 64> v{};
  bool any = false;
  std::string word;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (IsAsciiAlnum(c)) {
      word.clear();
      while (i < n && IsAsciiAlnum(static_cast<unsigned char>(text[i]))) {
        char ch = text[i++];
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        word.push_back(ch);
      }
      AddFeature(word, &v);
      any = true;
    } else if (c >= 0x80) {
      // A run of non-ASCII code points: overlapping pairs (a single code
      // point alone is its own feature).
      size_t prev = i;
      size_t prev_len = std::min(Utf8Len(c), n - i);
      i += prev_len;
      bool paired = false;
      while (i < n && static_cast<unsigned char>(text[i]) >= 0x80) {
        const size_t len = std::min(Utf8Len(static_cast<unsigned char>(text[i])), n - i);
        AddFeature(text.substr(prev, prev_len + len), &v);
        paired = true;
        prev = i;
        prev_len = len;
        i += len;
      }
      if (!paired) AddFeature(text.substr(prev, prev_len), &v);
      any = true;
    } else {
      ++i;
    }
  }
  if (!any) return 0;
  uint64_t out = 0;
  for (int b = 0; b < 64; ++b) {
    if (v[static_cast<size_t>(b)] > 0) out |= uint64_t{1} << b;
  }
  return out;
}

namespace {

// The near-candidate scan of one bucket: positions i in [*from, n) with
// popcount(fps[i] ^ q) <= limit, at most `cap` of them written
// to `out`; *from is left after the last position examined. Candidates are
// rare (a bucket holds fingerprints that agree on 16 bits; a match needs 61),
// so this loop is the whole cost of a lookup, and in buckets that template
// pages have made long (their fingerprints are near, not identical, and share
// blocks) it runs over thousands of fingerprints. Without -mpopcnt,
// __builtin_popcountll is a call to libgcc's __popcountdi2; the binary must
// still run on CPUs without POPCNT, so there are two copies of the loop and
// the CPU picks one once (x86-64).
__attribute__((always_inline)) inline size_t ScanNearBody(const uint64_t* fps, size_t* from,
                                                          size_t n, uint64_t q, int limit,
                                                          uint32_t* out, size_t cap) {
  size_t count = 0;
  size_t i = *from;
  for (; i < n && count < cap; ++i) {
    if (__builtin_popcountll(fps[i] ^ q) <= limit) {
      out[count++] = static_cast<uint32_t>(i);
    }
  }
  *from = i;
  return count;
}

size_t ScanNearDefault(const uint64_t* fps, size_t* from, size_t n, uint64_t q, int limit,
                       uint32_t* out, size_t cap) {
  return ScanNearBody(fps, from, n, q, limit, out, cap);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("popcnt"))) size_t ScanNearPopcnt(const uint64_t* fps, size_t* from,
                                                        size_t n, uint64_t q, int limit,
                                                        uint32_t* out, size_t cap) {
  return ScanNearBody(fps, from, n, q, limit, out, cap);
}

using ScanNearFn = size_t (*)(const uint64_t*, size_t*, size_t, uint64_t, int, uint32_t*, size_t);
// Picked on first use (not at static initialisation: an index may be built
// from another translation unit's static initialiser).
ScanNearFn ScanNear() {
  static const ScanNearFn fn = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") ? ScanNearPopcnt : ScanNearDefault;
  }();
  return fn;
}
#else
using ScanNearFn = size_t (*)(const uint64_t*, size_t*, size_t, uint64_t, int, uint32_t*, size_t);
ScanNearFn ScanNear() { return ScanNearDefault; }
#endif

}  // namespace

bool SimHashIndexUsesHardwarePopcount() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return ScanNear() == ScanNearPopcnt;
#else
  return false;
#endif
}

SimHashIndex::SimHashIndex() {
  for (auto& t : tables_) t.resize(1u << 16);
}

// The buckets hold the fingerprints themselves (not only indexes into
// entries_): the scan reads one contiguous array per bucket, and entries_
// (id, owner) is read for the few candidates within distance 3 only. Before,
// each bucket slot was an index, so every scanned slot was a random read of
// entries_ (a cache miss once the index outgrows the cache).
void SimHashIndex::Lookup(uint64_t simhash, uint32_t tag, std::optional<Match>* best,
                          Same* same) const {
  const ScanNearFn scan = ScanNear();
  uint32_t near[64];
  for (int b = 0; b < kBlocks; ++b) {
    const Bucket& bucket = tables_[b][(simhash >> (16 * b)) & 0xFFFF];
    const size_t n = bucket.fps.size();
    size_t from = 0;
    while (from < n) {
      // Past the best distance found so far nothing can win (ties can, on
      // id): in a cluster of template pages most candidates within 3 are
      // dropped by the scan once a closer one is found. The identical
      // entries (distance 0) always pass.
      const int limit = best != nullptr && *best ? (*best)->distance : kSimHashNearDistance;
      const size_t count = scan(bucket.fps.data(), &from, n, simhash, limit, near, 64);
      for (size_t c = 0; c < count; ++c) {
        const uint32_t index = bucket.index[near[c]];
        const Entry& e = entries_[index];
        // Identical fingerprints share all four buckets: collect them in the first.
        if (b == 0 && same != nullptr && e.simhash == simhash && same->n < 2) {
          same->index[same->n++] = index;
        }
        if (best == nullptr || e.owner_tag == tag) continue;
        const int d = HammingDistance(e.simhash, simhash);
        if (!*best || d < (*best)->distance || (d == (*best)->distance && e.id < (*best)->id)) {
          *best = Match{e.simhash, e.id, d};
        }
      }
    }
  }
}

// Identical fingerprints are common (template pages, error pages: on the
// synthetic web one value was shared by 1,001 pages), and each one stored
// made every later Find through its buckets scan it: Find grew to 20 % of
// the crawl's CPU at 1.5 x 10^5 pages, and more after. Among identical
// entries Find answers with the lowest id whose owner differs from the
// query's, and that is always X = the lowest id, or Y = the lowest id whose
// owner differs from X's. So only X and Y are kept, in whatever order ids
// arrive (a resume adds them in url order); the others can never be an
// answer, now or after later additions.
void SimHashIndex::Insert(uint64_t simhash, int64_t id, uint32_t tag, const Same& same) {
  if (same.n == 1 && entries_[same.index[0]].owner_tag == tag) {
    // One owner: X alone.
    Entry& a = entries_[same.index[0]];
    a.id = std::min(a.id, id);
    return;
  }
  if (same.n == 2) {
    // Of {A, B, new}: X, then Y; the third is dropped (or replaced in place:
    // the same fingerprint has the same buckets).
    Entry cand[3] = {entries_[same.index[0]], entries_[same.index[1]], Entry{simhash, id, tag}};
    int x = 0;
    for (int i = 1; i < 3; ++i) {
      if (cand[i].id < cand[x].id) x = i;
    }
    int y = -1;
    for (int i = 0; i < 3; ++i) {
      if (i != x && cand[i].owner_tag != cand[x].owner_tag && (y < 0 || cand[i].id < cand[y].id)) {
        y = i;
      }
    }
    // A and B have different owners, so Y exists; the dropped one:
    const int dropped = 3 - x - y;
    if (dropped == 2) return;
    entries_[same.index[dropped]] = cand[2];
    return;
  }
  const auto index = static_cast<uint32_t>(entries_.size());
  entries_.push_back({simhash, id, tag});
  for (int b = 0; b < kBlocks; ++b) {
    Bucket& bucket = tables_[b][(simhash >> (16 * b)) & 0xFFFF];
    bucket.fps.push_back(simhash);
    bucket.index.push_back(index);
  }
}

void SimHashIndex::Add(uint64_t simhash, int64_t id, uint64_t owner) {
  if (simhash == 0) return;
  Same same;
  const Bucket& bucket = tables_[0][simhash & 0xFFFF];
  for (size_t i = 0; i < bucket.fps.size() && same.n < 2; ++i) {
    if (bucket.fps[i] == simhash) same.index[same.n++] = bucket.index[i];
  }
  Insert(simhash, id, static_cast<uint32_t>(owner), same);
}

std::optional<SimHashIndex::Match> SimHashIndex::Find(uint64_t simhash, uint64_t owner) const {
  if (simhash == 0) return std::nullopt;
  std::optional<Match> best;
  Lookup(simhash, static_cast<uint32_t>(owner), &best, nullptr);
  return best;
}

// One pass over the buckets for both: the lookup collects the identical
// entries that Add would otherwise look for again.
std::optional<SimHashIndex::Match> SimHashIndex::FindAndAdd(uint64_t simhash, int64_t id,
                                                           uint64_t owner) {
  if (simhash == 0) return std::nullopt;
  std::optional<Match> best;
  Same same;
  const auto tag = static_cast<uint32_t>(owner);
  Lookup(simhash, tag, &best, &same);
  Insert(simhash, id, tag, same);
  return best;
}

}  // namespace topicrawl
