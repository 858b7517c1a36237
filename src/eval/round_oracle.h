// The oracle round policy: a bench instrument, NOT a crawl option (it is in
// no registry; only bench/recrawl_oracle plans rounds with it). It knows
// what no crawler can: the true per-round change probability q_i of every
// page of a simulated evolution (`web evolve` writes them to
// E/truth/rates.tsv), and revisits the pages with the highest probability
// of having changed since their last fetch,
//     P_i = 1 - (1 - q_i)^(K - k_i)   (K: the round planned, k_i: last fetch),
// within the same budget as the real policies. Its changed-page detection is
// the bound of any policy that ranks pages by change probability at that
// budget (docs/guides/rounds.md, "The bound").
#ifndef TOPICRAWL_EVAL_ROUND_ORACLE_H_
#define TOPICRAWL_EVAL_ROUND_ORACLE_H_

#include <memory>
#include <string>
#include <unordered_map>

#include "core/status.h"
#include "crawl/rounds/round_policy.h"

namespace topicrawl::eval {

// url (label form, CanonicalizeLabelUrl) -> true change probability per round.
using TrueChangeRates = std::unordered_map<std::string, double>;

// Reads E/truth/rates.tsv (header "url<TAB>change_p...", one row per page
// that evolves). Errors: a missing file (an evolution made before this file
// existed, or real versions: "re-run web evolve"), a malformed row.
StatusOr<TrueChangeRates> ReadTrueChangeRates(const std::string& evolved_dir);

// P(changed since the last fetch) of a page with true per-round change
// probability q, last fetched `elapsed` rounds ago (>= 1).
double OracleChangedProbability(double q, int elapsed);

// The policy. Pages missing from `rates` (hosts that do not evolve) never
// change: q = 0. Seeds: the original seeds, as adaptive.
std::unique_ptr<RoundPolicy> MakeOracleRoundPolicy(TrueChangeRates rates);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_ROUND_ORACLE_H_
