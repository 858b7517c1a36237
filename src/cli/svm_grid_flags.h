// The grid-search flags of the SVM training commands (`train hub-svm`,
// `analyze hub`, `analyze hub-table`, `train result-svm`): one definition,
// so that both seeds' SVMs are trained with the same conventions
// (classify/svm_model.h SvmGridOptions).
#ifndef TOPICRAWL_CLI_SVM_GRID_FLAGS_H_
#define TOPICRAWL_CLI_SVM_GRID_FLAGS_H_

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "classify/svm_model.h"

namespace topicrawl::cli {

// "MIN:MAX:STEP" of log2 exponents (MIN <= MAX, STEP > 0).
bool ParseLog2Range(const std::string& s, int* lo, int* hi, int* step);

// --threads, --folds, --log2c, --log2g, --eps, --no-dedup, --max-iter,
// --class-weight, --select, --threshold, --imbalanced, --group-folds into *g.
// Also --grid-sample, and sets g->progress to GridProgressPrinter().
void AddSvmGridFlags(CLI::App* cmd, SvmGridOptions* g);

// Prints the grid's progress to stderr: the first fit, one line every 5 s
// (fits k of n, elapsed, estimate left) and the final fit.
std::function<void(const SvmGridProgress&)> GridProgressPrinter();

}  // namespace topicrawl::cli

#endif  // TOPICRAWL_CLI_SVM_GRID_FLAGS_H_
