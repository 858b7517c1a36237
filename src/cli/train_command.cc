// topicrawl train: fit the seed-001 Naive Bayes classifiers from a data
// directory written by `topicrawl collect-links`.
//   train link-nb --data DIR --out MODEL [--features 1|2] [--all]
//   train page-nb --data DIR --out MODEL [--all]
// By default only the training split is used, so that `analyze link-nb`
// on the test split stays honest; --all uses every labelled example (the
// model to crawl with once the evaluation is done).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "strategies/naive_bayes/link_dataset.h"
#include "strategies/naive_bayes/nb_evaluation.h"

namespace topicrawl::cli {
namespace {

struct TrainFlags {
  std::string data_dir;
  std::string out;
  int features = 2;
  bool all = false;
};

int Finish(const NaiveBayes& nb, const std::string& out, const char* what) {
  if (!nb.Trainable()) {
    std::cerr << "error: the " << what
              << " data has no examples of one class; check the topic's prefixes\n";
    return kExitFailure;
  }
  Status s = nb.Save(out);
  if (!s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  std::printf("%s model: %lld positive, %lld negative samples, %zu features (%s, Laplace) -> %s\n",
              what, static_cast<long long>(nb.samples(true)),
              static_cast<long long>(nb.samples(false)), nb.vocabulary_size(),
              std::string(NbEventModelName(nb.event_model())).c_str(), out.c_str());
  return kExitOk;
}

int RunTrainLink(const TrainFlags& f) {
  if (f.features != 1 && f.features != 2) {
    std::cerr << "error: --features must be 1 or 2\n";
    return kExitUsage;
  }
  auto dict = ReadDatasetDictionary(f.data_dir);
  if (!dict.ok()) {
    std::cerr << "error: " << dict.status().message() << "\n";
    return kExitUsage;
  }
  auto links = ReadLinkTsv(f.data_dir + "/links.tsv");
  if (!links.ok()) {
    std::cerr << "error: " << links.status().message() << "\n";
    return kExitUsage;
  }
  NaiveBayes nb = TrainLinkModel(*links, f.features, f.all ? Split::kNone : Split::kTrain, *dict);
  return Finish(nb, f.out, f.features == 1 ? "link (group 1)" : "link (group 2)");
}

int RunTrainPage(const TrainFlags& f) {
  auto dict = ReadDatasetDictionary(f.data_dir);
  if (!dict.ok()) {
    std::cerr << "error: " << dict.status().message() << "\n";
    return kExitUsage;
  }
  auto pages = ReadPageTsv(f.data_dir + "/pages.tsv");
  if (!pages.ok()) {
    std::cerr << "error: " << pages.status().message() << "\n";
    return kExitUsage;
  }
  NaiveBayes nb = TrainPageModel(*pages, f.all ? Split::kNone : Split::kTrain, *dict);
  return Finish(nb, f.out, "page");
}

}  // namespace

void AddTrainCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("train", "Train a classifier (seed 001 Naive Bayes)");
  cmd->require_subcommand(1);
  auto link = cmd->add_subcommand("link-nb", "Link classifier on anchor (+ context) features");
  auto lf = std::make_shared<TrainFlags>();
  link->add_option("--data", lf->data_dir, "Data directory from collect-links")->required();
  link->add_option("--out", lf->out, "Model file to write (JSON)")->required();
  link->add_option("--features", lf->features, "Feature group: 1 anchor words, 2 (default) "
                                               "anchor + context words + dictionary flags");
  link->add_flag("--all", lf->all, "Train on train + test (after evaluating)");
  link->callback([lf, exit_code] { *exit_code = RunTrainLink(*lf); });

  auto page = cmd->add_subcommand("page-nb", "Page classifier (multinomial) on page words");
  auto pf = std::make_shared<TrainFlags>();
  page->add_option("--data", pf->data_dir, "Data directory from collect-links")->required();
  page->add_option("--out", pf->out, "Model file to write (JSON)")->required();
  page->add_flag("--all", pf->all, "Train on train + test pages");
  page->callback([pf, exit_code] { *exit_code = RunTrainPage(*pf); });
}

}  // namespace topicrawl::cli
