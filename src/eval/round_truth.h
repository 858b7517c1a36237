// The ground truth of one round of an evolved benchmark web, as written by
// `topicrawl web evolve` / `web build --rounds versions` (web/evolved_web.h;
// format in docs/notebook/incremental.md "Truth files"). eval cannot include web/
// (same level in docs/ARCHITECTURE.md), so the reader lives here; the
// format is the contract between the two.
//
//   TRUTH_DIR/truth/round-K.tsv   header "url<TAB>state", then one row per URL
//                                 present in round K-1 or K, sorted by url;
//                                 state: new | changed | unchanged | gone
//   TRUTH_DIR/truth/hubs-K.tsv    header "url<TAB>new_links", one row per page
//                                 of round K that links to >= 1 page new in K
//
// TRUTH_DIR is the evolved web's directory (the --dir of `web serve --round`);
// TRUTH_DIR/evolve.tsv says how many rounds there are (key `rounds`).
// URLs are in the label form of the corpus (http://host/path, README §3), the
// same as the label files, so new relevant pages = truth `new` rows whose
// label is 1.
#ifndef TOPICRAWL_EVAL_ROUND_TRUTH_H_
#define TOPICRAWL_EVAL_ROUND_TRUTH_H_

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

enum class PageChange { kNew, kChanged, kUnchanged, kGone };
const char* PageChangeName(PageChange c);

struct RoundTruth {
  int round = 0;
  std::unordered_map<std::string, PageChange> state;  // url -> state
  std::unordered_map<std::string, size_t> hubs;       // url -> new_links
  size_t Count(PageChange c) const;
};

// Reads round K. Errors: an interrupted evolution (TRUTH_DIR/EVOLVING), no
// TRUTH_DIR/evolve.tsv, K outside 0..rounds, a missing file, a bad header or
// row (message names file and line), a URL listed twice.
StatusOr<RoundTruth> ReadRoundTruth(const std::string& truth_dir, int round);

// The last round of TRUTH_DIR (key `rounds` of evolve.tsv).
StatusOr<int> TruthRounds(const std::string& truth_dir);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_ROUND_TRUTH_H_
