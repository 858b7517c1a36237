// topicrawl train result-svm: seed 004's result-page SVM
// (004_d65f8d41b01a9f7d §3.1) on <TextDegree, LinkDegree, Aggregation>,
// trained by the shared SVM module (classify/svm_model.h: svm-scale to
// [-1, 1], grid search over (C, gamma) with k-fold CV, versioned checked
// model file), the same conventions as `train hub-svm`.
//   train result-svm --data FILE.tsv --out MODEL [--target detail|result]
//       [--seed S] and the grid flags of cli/svm_grid_flags.h (as hub-svm)
// FILE.tsv is what `label result-pages` writes. --target detail (default)
// learns the DetailPage/LinkPage label; --target result learns the seed's
// result page (a relevant DetailPage; needs `label result-pages --labels`).
// The model goes into [strategy.jlse] result_model = "MODEL".
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/svm_grid_flags.h"
#include "strategies/jlse/result_page_svm.h"

namespace topicrawl::cli {
namespace {

struct TrainResultFlags {
  std::string data, out, target = "detail";
  uint64_t seed = 1;
  SvmGridOptions grid;
};

int RunTrainResultSvm(const TrainResultFlags& f) {
  ResultPageTarget target;
  if (!ParseResultPageTarget(f.target, &target)) {
    std::cerr << "error: --target must be detail or result\n";
    return kExitUsage;
  }
  ResultPageDataSummary sum;
  auto data = ReadResultPageTsv(f.data, target, &sum);
  if (!data.ok()) {
    std::cerr << "error: " << data.status().message() << "\n";
    return kExitUsage;
  }
  SvmGridOptions grid = f.grid;
  grid.seed = f.seed;
  SvmTrainReport rep;
  auto model = SvmModel::Train(*data, kResultPageModelKind, grid, &rep);
  if (!model.ok()) {
    std::cerr << "error: " << model.status().message() << "\n";
    return kExitFailure;
  }
  if (Status s = model->Save(f.out); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  std::printf("result-page SVM (target %s): %zu examples (%zu positive; %zu rows without a "
              "topic label skipped), best C = 2^%d, gamma = 2^%d, %d-fold CV accuracy %.4f, "
              "%zu support vectors; grid of %zu points: %.1f s CPU, %.1f s wall, %d threads "
              "-> %s\n",
              f.target.c_str(), rep.examples, rep.positives, sum.skipped_unknown,
              rep.best.log2c, rep.best.log2g, rep.folds, rep.best.cv_accuracy,
              rep.support_vectors, rep.grid.size(), rep.cpu_seconds, rep.wall_seconds,
              grid.threads, f.out.c_str());
  return kExitOk;
}

}  // namespace

void AddResultSvmCommand(CLI::App& app, int* exit_code) {
  CLI::App* train = app.get_subcommand("train");
  auto* t = train->add_subcommand(
      "result-svm", "Result-page SVM (seed 004) on TextDegree, LinkDegree, Aggregation");
  auto f = std::make_shared<TrainResultFlags>();
  t->add_option("--data", f->data, "TSV from `label result-pages`")->required();
  t->add_option("--out", f->out, "Model file to write")->required();
  t->add_option("--target", f->target,
                "detail (DetailPage label, default) or result (relevant DetailPage)");
  t->add_option("--seed", f->seed, "Seed of the CV folds (default 1)");
  AddSvmGridFlags(t, &f->grid);
  t->callback([f, exit_code] { *exit_code = RunTrainResultSvm(*f); });
}

}  // namespace topicrawl::cli
