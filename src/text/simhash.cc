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

SimHashIndex::SimHashIndex() {
  for (auto& t : tables_) t.resize(1u << 16);
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
void SimHashIndex::Add(uint64_t simhash, int64_t id, uint64_t owner) {
  if (simhash == 0) return;
  const auto tag = static_cast<uint32_t>(owner);
  uint32_t same[2];
  int n = 0;
  for (uint32_t index : tables_[0][simhash & 0xFFFF]) {
    if (entries_[index].simhash == simhash && n < 2) same[n++] = index;
  }
  if (n == 1 && entries_[same[0]].owner_tag == tag) {
    // One owner: X alone.
    Entry& a = entries_[same[0]];
    a.id = std::min(a.id, id);
    return;
  }
  if (n == 2) {
    // Of {A, B, new}: X, then Y; the third is dropped (or replaced in place:
    // the same fingerprint has the same buckets).
    Entry cand[3] = {entries_[same[0]], entries_[same[1]], Entry{simhash, id, tag}};
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
    entries_[same[dropped]] = cand[2];
    return;
  }
  const auto index = static_cast<uint32_t>(entries_.size());
  entries_.push_back({simhash, id, tag});
  for (int b = 0; b < kBlocks; ++b) {
    tables_[b][(simhash >> (16 * b)) & 0xFFFF].push_back(index);
  }
}

std::optional<SimHashIndex::Match> SimHashIndex::Find(uint64_t simhash, uint64_t owner) const {
  if (simhash == 0) return std::nullopt;
  std::optional<Match> best;
  const auto tag = static_cast<uint32_t>(owner);
  for (int b = 0; b < kBlocks; ++b) {
    for (uint32_t index : tables_[b][(simhash >> (16 * b)) & 0xFFFF]) {
      const Entry& e = entries_[index];
      if (e.owner_tag == tag) continue;
      const int d = HammingDistance(e.simhash, simhash);
      if (d > kSimHashNearDistance) continue;
      if (!best || d < best->distance || (d == best->distance && e.id < best->id)) {
        best = Match{e.simhash, e.id, d};
      }
    }
  }
  return best;
}

}  // namespace topicrawl
