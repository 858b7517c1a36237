// SimHash (Charikar 2002) of a page's text, and the permuted-table index of
// Manku, Jain & Das Sarma (WWW 2007, "Detecting near-duplicates for web
// crawling") that finds a stored fingerprint within Hamming distance k
// without a scan.
//
// Fingerprint: 64 bits. Features are the lower-cased ASCII words of the
// text and, inside runs of non-ASCII letters (CJK has no spaces), the
// overlapping pairs of code points; each feature is weighted by its count.
// For every bit, the sum of +w (feature hash bit set) or -w (clear) over all
// features decides the bit. Two texts that share most of their features
// (a page and the same page with a changed version string) differ in few
// bits; unrelated texts differ in ~32.
//
// Index (k = 3): split the 64 bits into 4 blocks of 16. Two fingerprints
// within distance 3 agree exactly on at least one block (pigeonhole), so
// each block value keys a table of candidates; a lookup checks the
// candidates of its 4 blocks only. Memory: 24 bytes an entry plus 4 x 12
// bytes of table slots (the fingerprint and the entry's index), plus 12 MB
// of empty buckets.
#ifndef TOPICRAWL_TEXT_SIMHASH_H_
#define TOPICRAWL_TEXT_SIMHASH_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace topicrawl {

// The 64-bit SimHash of `text` (UTF-8). 0 for a text without features.
uint64_t SimHash64(std::string_view text);

inline int HammingDistance(uint64_t a, uint64_t b) { return __builtin_popcountll(a ^ b); }

// The largest distance at which two texts count as near-duplicates (and a
// revisited page as trivially changed).
inline constexpr int kSimHashNearDistance = 3;

// Whether SimHashIndex's scan uses the CPU's POPCNT instruction (picked at
// run time: the binary also runs on CPUs without it).
bool SimHashIndexUsesHardwarePopcount();

class SimHashIndex {
 public:
  struct Match {
    uint64_t simhash = 0;
    int64_t id = 0;   // what Add() was given (a page id)
    int distance = 0;
  };
  SimHashIndex();

  // Remembers `simhash` for `id`; `owner` tags entries that must not match
  // each other (e.g. the versions of one URL: pass its url id). Ids may come
  // in any order. Of entries with an identical fingerprint only the two that
  // can still be an answer of Find are kept (see simhash.cc), so size()
  // counts stored entries, not calls.
  void Add(uint64_t simhash, int64_t id, uint64_t owner);
  // The closest stored fingerprint within kSimHashNearDistance whose owner
  // differs from `owner`, the lowest id among equals; nullopt when none.
  // A simhash of 0 (no text) never matches.
  std::optional<Match> Find(uint64_t simhash, uint64_t owner) const;
  // Find, then Add, in one pass over the buckets (what the crawl does for
  // every page).
  std::optional<Match> FindAndAdd(uint64_t simhash, int64_t id, uint64_t owner);
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t simhash;
    int64_t id;
    uint32_t owner_tag;  // low bits of the owner: a collision only loses a match
  };
  // The stored fingerprints whose block b equals v (tables_[b][v]), and the
  // index of each in entries_.
  struct Bucket {
    std::vector<uint64_t> fps;
    std::vector<uint32_t> index;
  };
  // At most two entries_ indexes of one fingerprint.
  struct Same {
    uint32_t index[2];
    int n = 0;
  };
  // The closest match for `tag` into *best (when best is not null), and the
  // entries identical to `simhash` into *same (when not null).
  void Lookup(uint64_t simhash, uint32_t tag, std::optional<Match>* best, Same* same) const;
  void Insert(uint64_t simhash, int64_t id, uint32_t tag, const Same& same);

  static constexpr int kBlocks = 4;
  std::vector<Entry> entries_;
  std::vector<Bucket> tables_[kBlocks];
};

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_SIMHASH_H_
