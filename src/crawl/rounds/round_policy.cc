// Shared parts of the round-policy contract: state names, the budget cut.
#include "crawl/rounds/round_policy.h"

#include <algorithm>

namespace topicrawl {

void TruncateToBudget(std::vector<Revisit>* revisits, int64_t budget) {
  auto better = [](const Revisit& a, const Revisit& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.url_id < b.url_id;
  };
  if (budget >= 0 && static_cast<size_t>(budget) < revisits->size()) {
    // Only the kept prefix needs to be sorted.
    std::partial_sort(revisits->begin(), revisits->begin() + budget, revisits->end(), better);
    revisits->resize(static_cast<size_t>(budget));
  } else {
    std::sort(revisits->begin(), revisits->end(), better);
  }
}

}  // namespace topicrawl
