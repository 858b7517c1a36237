// Plans the next round of a crawl with the oracle round policy
// (eval/round_oracle.h): a bench instrument that reads the true change
// rates of a simulated evolution, so that the real policies' changed-page
// detection can be compared with the bound at the same budget. It is not a
// `recrawl --policy` on purpose: no crawl can know these rates.
//
//   recrawl_oracle DIR --truth-dir E --budget P%|N
//   topicrawl recrawl DIR --resume [crawl flags]      # runs the planned round
//
// bench/recrawl/policy_rounds.sh does both for POLICIES="... oracle".
#include <cstdio>
#include <cstdlib>
#include <string>

#include "crawl/crawl_config.h"
#include "crawl/rounds/round_runner.h"
#include "eval/round_oracle.h"

using namespace topicrawl;

int main(int argc, char** argv) {
  std::string dir, truth, budget;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--truth-dir" && i + 1 < argc) {
      truth = argv[++i];
    } else if (a == "--budget" && i + 1 < argc) {
      budget = argv[++i];
    } else if (dir.empty() && a.rfind("--", 0) != 0) {
      dir = a;
    } else {
      dir.clear();
      break;
    }
  }
  if (dir.empty() || truth.empty() || budget.empty()) {
    std::fprintf(stderr, "usage: recrawl_oracle DIR --truth-dir E --budget P%%|N\n");
    return 2;
  }
  RecrawlOptions options;
  options.dir = dir;
  options.policy = "oracle";
  char* end = nullptr;
  const double v = std::strtod(budget.c_str(), &end);
  if (end == budget.c_str() || v < 0) {
    std::fprintf(stderr, "recrawl_oracle: bad --budget %s\n", budget.c_str());
    return 2;
  }
  if (*end == '%') {
    options.budget_fraction = v / 100.0;
  } else {
    options.budget = static_cast<int64_t>(v);
  }
  CrawlConfig config;
  if (Status s = LoadCrawlConfigToml(dir + "/config.toml", &config); !s.ok()) {
    std::fprintf(stderr, "recrawl_oracle: %s is not a crawl directory: %s\n", dir.c_str(),
                 s.message().c_str());
    return 2;
  }
  options.dedup_ignore_scheme = config.dedup_ignore_scheme;
  auto rates = eval::ReadTrueChangeRates(truth);
  if (!rates.ok()) {
    std::fprintf(stderr, "recrawl_oracle: %s\n", rates.status().message().c_str());
    return 2;
  }
  auto policy = eval::MakeOracleRoundPolicy(std::move(rates).value());
  auto planned = PlanNextRoundWith(options, *policy);
  if (!planned.ok()) {
    std::fprintf(stderr, "recrawl_oracle: %s\n", planned.status().message().c_str());
    return 1;
  }
  std::fprintf(stderr, "round %d (oracle): %lld revisits (budget %lld), %lld new seeds; %s\n",
               planned->round, static_cast<long long>(planned->revisits),
               static_cast<long long>(planned->budget), static_cast<long long>(planned->new_seeds),
               planned->note.c_str());
  return 0;
}
