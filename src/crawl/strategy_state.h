// The crawl directory's copy of a strategy's learned state: DIR/state/
// strategy.bin. The one place where the crawler saves and restores it; the
// resume path of `crawl --resume` and of incremental rounds (`topicrawl
// recrawl`) call these two functions and nothing else.
//
// File: "TRSTATE\n" magic, u32 format version (1), the strategy name, u64
// payload length, u64 Hash64 of the payload, then the payload (what
// StrategyLearner::SaveState wrote; crawl/state_blob.h). Written atomically:
// DIR/state/strategy.bin.tmp, fsync, rename, fsync of the directory, so a
// kill -9 leaves either the previous complete file or the new one.
//
// What "resume continues with the same learned state" means here: the file
// holds the state as of the last save (each checkpoint and the end of the
// crawl). Pages stored after the last checkpoint of a killed crawl are in
// the store but not in the state; the resumed crawl goes on from the
// checkpoint (at most one checkpoint interval of learning is lost).
#ifndef TOPICRAWL_CRAWL_STRATEGY_STATE_H_
#define TOPICRAWL_CRAWL_STRATEGY_STATE_H_

#include <string>
#include <string_view>

#include "core/status.h"
#include "crawl/crawl_strategy.h"

namespace topicrawl {

inline constexpr uint32_t kStrategyStateFormatVersion = 1;

// DIR/state/strategy.bin.
std::string StrategyStatePath(const std::string& crawl_dir);

// strategy.learner->SaveState() into the file (directories created as
// needed). On error the previous file is left as it was.
Status SaveStrategyState(const Strategy& strategy, const std::string& crawl_dir);

// Reads the file and hands its payload to strategy.learner->RestoreState().
// No file: Ok, *found = false (a crawl made before saved state existed, or
// killed before its first checkpoint: the strategy starts from nothing). A file
// that is not a state file, of another format version, of another strategy,
// truncated or failing its checksum: an error naming the file and the
// problem, and the strategy is not touched. A payload the strategy itself
// rejects (RestoreState): an error too; the strategy may then be partly
// restored and must not be used for crawling.
Status RestoreStrategyState(Strategy& strategy, const std::string& crawl_dir,
                            bool* found = nullptr);

// The envelope alone (for tests and tools): payload of `file_bytes` after
// the checks above, for `strategy_name`.
StatusOr<std::string> UnpackStrategyState(std::string_view file_bytes,
                                          std::string_view strategy_name,
                                          const std::string& source);
std::string PackStrategyState(std::string_view strategy_name, std::string_view payload);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_STRATEGY_STATE_H_
