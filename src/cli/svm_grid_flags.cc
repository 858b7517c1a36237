#include "cli/svm_grid_flags.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>

namespace topicrawl::cli {

bool ParseLog2Range(const std::string& s, int* lo, int* hi, int* step) {
  int a, b, c;
  char x, y;
  std::istringstream in(s);
  if (!(in >> a >> x >> b >> y >> c) || x != ':' || y != ':' || c <= 0 || a > b) return false;
  *lo = a;
  *hi = b;
  *step = c;
  return true;
}

namespace {

// The grid and its cross-validation: threads, folds, the (C, gamma) ranges,
// the solver tolerance and the deduplicated engine.
void AddSvmGridSearchFlags(CLI::App* cmd, SvmGridOptions* g) {
  cmd->add_option("--threads", g->threads, "Grid-search threads (default 2)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--folds", g->folds, "Cross-validation folds (default 10)")
      ->check(CLI::Range(2, 100));
  cmd->add_option_function<std::string>(
      "--log2c",
      [g](const std::string& v) {
        if (!ParseLog2Range(v, &g->log2c_min, &g->log2c_max, &g->log2c_step)) {
          throw CLI::ValidationError("--log2c", "expected MIN:MAX:STEP");
        }
      },
      "Grid of log2 C as MIN:MAX:STEP (default -5:15:2, libsvm's grid.py)");
  cmd->add_option_function<std::string>(
      "--log2g",
      [g](const std::string& v) {
        if (!ParseLog2Range(v, &g->log2g_min, &g->log2g_max, &g->log2g_step)) {
          throw CLI::ValidationError("--log2g", "expected MIN:MAX:STEP");
        }
      },
      "Grid of log2 gamma as MIN:MAX:STEP (default -15:3:2)");
  cmd->add_option("--eps", g->eps, "libsvm stopping tolerance (default 0.001)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("!--no-dedup", g->deduplicate,
                "Cross-validate with one libsvm training per (point, fold) on the rows as they "
                "are, instead of merging identical scaled vectors into weighted examples with "
                "warm starts over C (same problem; docs/strategies/hub-svm.md)");
}

// Imbalanced data: class weight, selection criterion, threshold, and folds
// by group.
void AddSvmImbalanceFlags(CLI::App* cmd, SvmGridOptions* g) {
  cmd->add_option_function<std::string>(
      "--class-weight",
      [g](const std::string& v) {
        if (v == "none") {
          g->class_weight = SvmClassWeight::kNone;
        } else if (v == "balanced") {
          g->class_weight = SvmClassWeight::kInverseFrequency;
        } else {
          throw CLI::ValidationError("--class-weight", "expected none or balanced");
        }
      },
      "none (default, the seed's) or balanced: the positive class's C times n_negative / "
      "n_positive (libsvm -w1)");
  cmd->add_option_function<std::string>(
      "--select",
      [g](const std::string& v) {
        if (v == "accuracy") {
          g->select = SvmSelection::kAccuracy;
        } else if (v == "f1") {
          g->select = SvmSelection::kF1;
        } else {
          throw CLI::ValidationError("--select", "expected accuracy or f1");
        }
      },
      "Grid-search criterion: accuracy (default, libsvm's grid.py) or f1 (of the positive "
      "class), over the out-of-fold predictions");
  cmd->add_option_function<std::string>(
      "--threshold",
      [g](const std::string& v) {
        if (v == "zero") {
          g->tune_threshold = false;
        } else if (v == "cv") {
          g->tune_threshold = true;
        } else {
          throw CLI::ValidationError("--threshold", "expected zero or cv");
        }
      },
      "Decision threshold: zero (default, libsvm's sign) or cv (the one that maximises the "
      "--select criterion on the training data's out-of-fold decision values)");
  cmd->add_flag_callback(
      "--imbalanced",
      [g] {
        g->class_weight = SvmClassWeight::kInverseFrequency;
        g->select = SvmSelection::kF1;
        g->tune_threshold = true;
      },
      "Shorthand for --class-weight balanced --select f1 --threshold cv");
  cmd->add_flag("--group-folds", g->group_folds,
                "Cross-validation folds of whole groups (hub data: hosts), so that the grid "
                "and the threshold are chosen on sites the fold's model never saw");
}

// What one cross-validation costs at most: solver iterations and rows.
void AddSvmGridBudgetFlags(CLI::App* cmd, SvmGridOptions* g) {
  cmd->add_option("--max-iter", g->max_iterations,
                  "SMO iterations per cross-validation solve (default 20000; 0 = libsvm's max(10^7, 100 n))")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--grid-sample", g->grid_sample,
                  "Cross-validate the grid on a stratified sample of at most N rows; the final "
                  "model is fitted on every row (default 2000; 0 = every row)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace

void AddSvmGridFlags(CLI::App* cmd, SvmGridOptions* g) {
  // In this order: it is the order of --help.
  AddSvmGridSearchFlags(cmd, g);
  AddSvmImbalanceFlags(cmd, g);
  AddSvmGridBudgetFlags(cmd, g);
  g->progress = GridProgressPrinter();
}

std::function<void(const SvmGridProgress&)> GridProgressPrinter() {
  struct Last {
    std::mutex mu;  // several trainings may share the printer
    double at = -1;
  };
  auto last = std::make_shared<Last>();
  return [last](const SvmGridProgress& p) {
    std::lock_guard<std::mutex> lock(last->mu);
    if (p.final_fit) {
      std::fprintf(stderr, "svm grid: %zu (point, fold) fits done in %.0f s; final fit\n",
                   p.done, p.elapsed_s);
      return;
    }
    // The first fit, then one line every 5 s and the last.
    if (last->at >= 0 && p.elapsed_s - last->at < 5 && p.done < p.total) return;
    last->at = p.elapsed_s;
    const double left = p.done > 0 ? p.elapsed_s * (p.total - p.done) / p.done : 0;
    std::fprintf(stderr,
                 "svm grid: %zu of %zu (point, fold) fits on %zu rows, %.0f s elapsed, ~%.0f s "
                 "left\n",
                 p.done, p.total, p.rows, p.elapsed_s, left);
  };
}

}  // namespace topicrawl::cli
