// The configuration reference, read from the code: every key of a crawl
// configuration (CrawlConfig, `crawl --config FILE.toml`) with its default,
// and every [strategy.<table>] key of a topic file that a strategy or round
// policy reads, with the default it falls back to. `topicrawl reference
// config` prints these rows; scripts/gen-reference turns them into
// docs/reference/config.md.
#ifndef TOPICRAWL_CRAWL_CONFIG_REFERENCE_H_
#define TOPICRAWL_CRAWL_CONFIG_REFERENCE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "crawl/crawl_strategy.h"
#include "crawl/rounds/round_policy.h"
#include "crawl/strategy_factory.h"

namespace topicrawl {

struct ConfigKeyRow {
  std::string section;   // "crawl" or "strategy.<table>"
  std::string key;
  std::string type;      // string, bool, integer, number, array, or "known"
  std::string fallback;  // the default as TOML; "" when not reached
  std::string read_by;   // "crawl", "strategy <name>" or "round policy <name>"
};

// The registries to list (strategies/: the explicit lists of names and
// their factories).
struct ConfigKeySources {
  std::vector<std::string> strategy_names;
  StrategyFactory make_strategy;
  std::vector<std::string> policy_names;
  std::function<StatusOr<std::unique_ptr<RoundPolicy>>(const std::string&,
                                                       const RoundPolicyContext&)>
      make_policy;
};

// The crawl configuration's keys, then, for every strategy and round policy
// of `sources`, the [strategy.*] keys it reads when it is built against a
// minimal keyword topic written into `scratch_dir` (created; files are left
// there). A factory that stops early (a model file it needs is absent)
// still contributes the keys it accepts (type "known"). Errors: only when
// scratch_dir cannot be written.
StatusOr<std::vector<ConfigKeyRow>> ListConfigKeys(const std::string& scratch_dir,
                                                   const ConfigKeySources& sources);

// The rows as tab-separated lines, one per key, after a header line.
std::string ConfigKeyRowsTsv(const std::vector<ConfigKeyRow>& rows);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CONFIG_REFERENCE_H_
