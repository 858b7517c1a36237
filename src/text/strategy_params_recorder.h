// Recording the [strategy.<table>] keys strategies read: the configuration
// reference (`topicrawl reference config`, docs/reference/config.md) lists
// every key with the default the code falls back to, read from the code
// itself by building each strategy under a recorder. Implemented in topic.cc
// (StrategyParams' getters and Topic::Strategy report to it).
#ifndef TOPICRAWL_TEXT_STRATEGY_PARAMS_RECORDER_H_
#define TOPICRAWL_TEXT_STRATEGY_PARAMS_RECORDER_H_

#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

// One [strategy.<table>] key a strategy or round policy reads, with the
// default it uses when the key is absent (the configuration reference).
struct StrategyParamRead {
  std::string table;     // <table> of [strategy.<table>]
  std::string key;
  std::string type;      // "number", "integer", "bool", "string" or "known"
  std::string fallback;  // the default, as TOML would write it ("" for "known")
};

// While one is alive, every key read through Topic::Strategy(...) and
// StrategyParams on this thread is recorded, as are the key lists given to
// UnknownKeys (type "known": keys a strategy accepts but may not reach when
// it stops early, e.g. without a model file). `topicrawl reference` builds
// every strategy and round policy under one to list their keys from the
// code itself. Not nestable; thread-confined.
class StrategyParamsRecorder {
 public:
  StrategyParamsRecorder();
  ~StrategyParamsRecorder();
  StrategyParamsRecorder(const StrategyParamsRecorder&) = delete;
  StrategyParamsRecorder& operator=(const StrategyParamsRecorder&) = delete;

  // The recorder of this thread, or nullptr.
  static StrategyParamsRecorder* Current();
  void EnterTable(std::string_view table) { table_ = std::string(table); }
  void Record(std::string_view key, std::string type, std::string fallback);
  const std::vector<StrategyParamRead>& reads() const { return reads_; }

 private:
  std::string table_;
  std::vector<StrategyParamRead> reads_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_STRATEGY_PARAMS_RECORDER_H_
