// `nutch`: Apache Nutch's AdaptiveFetchSchedule
// (org.apache.nutch.crawl.AdaptiveFetchSchedule, defaults of
// db.fetch.schedule.adaptive.*): every page has a fetch interval; after a
// fetch that found the page modified the interval shrinks by
// DEC_FACTOR = 0.2 (interval *= 1 - 0.2), after one that found it
// unmodified it grows by INC_FACTOR = 0.4 (interval *= 1 + 0.4), clamped to
// [MIN_INTERVAL, MAX_INTERVAL]. A page is due when its interval has passed
// since its last fetch.
//
// Units are rounds: the initial interval is 1 round (every page is due in
// round 1), the clamp [1, 16] rounds. Trivially changed pages count as
// modified (Nutch compares signatures, which a template edit changes).
// The intervals are the policy's state (saved with the crawl); URLs it has
// never seen start at the initial interval. Due pages are ranked by how
// overdue they are (elapsed / interval) times (0.1 + relevance), and cut to
// the budget.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "crawl/rounds/policies.h"

namespace topicrawl {
namespace {

constexpr double kInitialInterval = 1.0;
constexpr double kMinInterval = 1.0;
constexpr double kMaxInterval = 16.0;
constexpr double kIncFactor = 0.4;
constexpr double kDecFactor = 0.2;

class NutchRoundPolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "nutch"; }

  Status OnRoundFinished(RoundHistory& history) override {
    return history.ForEachOutcome(history.last_round(), [this](const UrlOutcome& o) {
      if (!o.revisit) return true;  // first fetches start at the initial interval
      double& interval = intervals_.try_emplace(o.url_id, kInitialInterval).first->second;
      if (o.state == UrlState::kChanged || o.state == UrlState::kTriviallyChanged) {
        interval *= 1.0 - kDecFactor;
      } else if (o.state == UrlState::kUnchanged) {
        interval *= 1.0 + kIncFactor;
      }
      interval = std::clamp(interval, kMinInterval, kMaxInterval);
      return true;
    });
  }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      if (u.first_round < 0 || u.gone()) return true;
      if (u.page_id == 0 && u.last_state != UrlState::kFailed) return true;
      const double interval = Interval(u.url_id);
      const double elapsed = request.round - u.last_round;
      if (elapsed + 1e-9 < interval) return true;  // not due
      plan->revisits.push_back(
          {u.url_id, elapsed / interval * (0.1 + u.relevance.value_or(1.0))});
      return true;
    });
    if (!s.ok()) return s;
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->note = "nutch: " + std::to_string(plan->revisits.size()) + " due revisits";
    return Status::Ok();
  }

  double Interval(UrlId id) const {
    auto it = intervals_.find(id);
    return it == intervals_.end() ? kInitialInterval : it->second;
  }

  // State: (url_id, interval) pairs as raw 16-byte records, sorted by id.
  std::string SaveState() const override {
    std::vector<std::pair<UrlId, double>> rows(intervals_.begin(), intervals_.end());
    std::sort(rows.begin(), rows.end());
    std::string out(rows.size() * 16, '\0');
    for (size_t i = 0; i < rows.size(); ++i) {
      std::memcpy(&out[i * 16], &rows[i].first, 8);
      std::memcpy(&out[i * 16 + 8], &rows[i].second, 8);
    }
    return out;
  }
  Status RestoreState(std::string_view state) override {
    intervals_.clear();
    if (state.size() % 16 != 0) {
      return Status::Error("nutch state has " + std::to_string(state.size()) +
                           " bytes, not a multiple of 16");
    }
    for (size_t i = 0; i < state.size(); i += 16) {
      UrlId id;
      double interval;
      std::memcpy(&id, state.data() + i, 8);
      std::memcpy(&interval, state.data() + i + 8, 8);
      if (!(interval >= kMinInterval && interval <= kMaxInterval)) {
        return Status::Error("nutch state holds an interval out of range");
      }
      intervals_[id] = interval;
    }
    return Status::Ok();
  }

 private:
  std::unordered_map<UrlId, double> intervals_;
};

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> NewNutchRoundPolicy(const RoundPolicyContext&) {
  return std::unique_ptr<RoundPolicy>(new NutchRoundPolicy());
}

}  // namespace topicrawl
