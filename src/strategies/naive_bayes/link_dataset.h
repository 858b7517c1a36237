// The labelled-link data set of seed 001 (001_596420367c7d3764 §3.2.2, §4.1)
// as files, and its stratified train/test split.
//
// A data directory (written by `topicrawl collect-links`, docs/strategies/naive-bayes.md):
//   links.tsv    every stored link of the crawl, labelled or not
//   train.tsv    the labelled links of the training split (7 of 10)
//   test.tsv     the labelled links of the test split (3 of 10)
//   pages.tsv    every downloaded HTML page with its label, split and words
//   dataset.json what produced it (topic, prefixes, dictionary, seed, counts)
//
// Link TSV columns (header row first; tabs and newlines inside fields are
// written as spaces; token lists are space-separated, tokens never contain
// white space):
//   label      1 on-topic target, 0 off-topic target, -1 unlabelled
//   split      train | test | - (unlabelled)
//   from_url   the page that holds the link
//   to_url     the link's target
//   anchor     anchor text
//   context    the seed-001 context (Outlink::context)
//   anchor_tokens  context_tokens   tokeniser output
//   anchor_dict    context_dict     1 when a dictionary term occurs, else 0
// Page TSV columns: label split url title tokens.
#ifndef TOPICRAWL_STRATEGIES_NAIVE_BAYES_LINK_DATASET_H_
#define TOPICRAWL_STRATEGIES_NAIVE_BAYES_LINK_DATASET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "strategies/naive_bayes/link_features.h"

namespace topicrawl {

enum class Split { kNone, kTrain, kTest };
std::string_view SplitName(Split split);

struct LinkExample {
  int label = -1;  // 1, 0, -1 (unlabelled)
  Split split = Split::kNone;
  std::string from_url;
  std::string to_url;
  std::string anchor;
  std::string context;
  LinkTokens tokens;
};

struct PageExample {
  int label = -1;
  Split split = Split::kNone;
  std::string url;
  std::string title;
  std::vector<std::string> tokens;
};

// Writes rows (header first). Errors: I/O.
Status WriteLinkTsv(const std::string& path, const std::vector<LinkExample>& rows);
Status WritePageTsv(const std::string& path, const std::vector<PageExample>& rows);
// Reads a file written by the functions above. Errors name the file and
// line: I/O, a missing or foreign header, a wrong column count, a label
// other than 1/0/-1, an unknown split.
StatusOr<std::vector<LinkExample>> ReadLinkTsv(const std::string& path);
StatusOr<std::vector<PageExample>> ReadPageTsv(const std::string& path);

// The dictionary recorded in DIR/dataset.json (the one the data set's
// features were extracted with). Errors: missing file, not a data set, an
// unsupported data-set version.
StatusOr<std::vector<std::string>> ReadDatasetDictionary(const std::string& data_dir);

// Stratified split: within each class (label 1 and label 0 separately) the
// examples are shuffled with a generator seeded by `seed` (Fisher-Yates over
// splitmix64, the same on every platform) and the first
// round(train_fraction * n) go to training. Unlabelled examples (label -1)
// get kNone. REQUIRES: 0 <= train_fraction <= 1.
std::vector<Split> StratifiedSplit(const std::vector<int>& labels,
                                   double train_fraction, uint64_t seed);

// Deterministic 64-bit generator (splitmix64) for splits and random halves.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n);

 private:
  uint64_t state_;
};

// Fisher-Yates shuffle of 0..n-1 with `rng`.
std::vector<size_t> ShuffledIndexes(size_t n, SplitMix64* rng);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_NAIVE_BAYES_LINK_DATASET_H_
