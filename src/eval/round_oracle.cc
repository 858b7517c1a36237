#include "eval/round_oracle.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "core/tsv.h"
#include "eval/labels.h"

namespace topicrawl::eval {
namespace {

class OracleRoundPolicy : public RoundPolicy {
 public:
  explicit OracleRoundPolicy(TrueChangeRates rates) : rates_(std::move(rates)) {}
  std::string_view Name() const override { return "oracle"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    int64_t known = 0, rated = 0;
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      if (u.page_id == 0 || u.gone()) return true;  // no stored version
      ++known;
      auto it = rates_.find(CanonicalizeLabelUrl(u.url));
      double q = 0;
      if (it != rates_.end()) {
        q = it->second;
        ++rated;
      }
      const int elapsed = std::max(1, request.round - u.last_round);
      plan->revisits.push_back({u.url_id, OracleChangedProbability(q, elapsed)});
      return true;
    });
    if (!s.ok()) return s;
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->note = "oracle (bench only): " + std::to_string(plan->revisits.size()) + " revisits of " +
                 std::to_string(known) + " known pages, " + std::to_string(rated) +
                 " with a true change rate";
    return Status::Ok();
  }

 private:
  TrueChangeRates rates_;
};

}  // namespace

double OracleChangedProbability(double q, int elapsed) {
  q = std::clamp(q, 0.0, 1.0);
  return 1.0 - std::pow(1.0 - q, std::max(1, elapsed));
}

StatusOr<TrueChangeRates> ReadTrueChangeRates(const std::string& evolved_dir) {
  const std::string path = evolved_dir + "/truth/rates.tsv";
  std::ifstream in(path);
  if (!in) {
    return Status::Error("cannot read " + path +
                         " (made by `web evolve` since the oracle exists; re-run web evolve)");
  }
  TrueChangeRates rates;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1) {
      if (line.rfind("url\tchange_p", 0) != 0) {
        return Status::Error(path + ": header is not url<TAB>change_p...");
      }
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string_view> cols = SplitTabs(line);
    char* end = nullptr;
    const std::string value = cols.size() >= 2 ? std::string(cols[1]) : std::string();
    const double q = std::strtod(value.c_str(), &end);
    if (cols.size() < 2 || end == value.c_str() || !(q >= 0 && q <= 1)) {
      return Status::Error(path + ":" + std::to_string(line_no) +
                           ": expected url<TAB>probability in [0, 1]");
    }
    rates[CanonicalizeLabelUrl(cols[0])] = q;
  }
  return rates;
}

std::unique_ptr<RoundPolicy> MakeOracleRoundPolicy(TrueChangeRates rates) {
  return std::make_unique<OracleRoundPolicy>(std::move(rates));
}

}  // namespace topicrawl::eval
