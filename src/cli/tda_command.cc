// topicrawl tda judge --topic T --labels L.tsv CRAWL_DIR... [--seeds 1,2,3]
//                     [--train-fraction 0.6] [--out DIR]
// topicrawl tda seeds CRAWL_DIR [--topic T] [--n 20]
//
// `judge`: seed 002's relevance experiment (strategies/tda/judge_study.h)
// with eval's label file.
//
// `seeds`: TopicHub over a finished crawl (strategies/tda/topichub_seeds.h),
// relevant at pages.relevance >= beta (--beta, default the topic's, else
// 0.5); prints the next round's seeds with their weights.
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "cli/commands.h"
#include "eval/labels.h"
#include "strategies/tda/judge_study.h"
#include "strategies/tda/topichub_seeds.h"
#include "text/topic.h"

namespace topicrawl::cli {
namespace {

// ---- judge ----------------------------------------------------------------

struct JudgeFlags {
  std::vector<std::string> crawls;
  std::string topic, labels, out;
  std::string seeds = "1";
  double train_fraction = 0.6;
  int max_pages = 0;
  bool reuse_vectors = false;
};

// eval's labels as the study reads them.
class EvalPageLabels : public tda::PageLabels {
 public:
  explicit EvalPageLabels(const eval::LabelSet& labels) : labels_(labels) {}
  std::optional<bool> Lookup(const std::string& url) const override {
    return labels_.Lookup(url);
  }
  std::string Canonical(const std::string& url) const override {
    return eval::CanonicalizeLabelUrl(url);
  }

 private:
  const eval::LabelSet& labels_;
};

std::vector<int> ParseSeeds(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (!part.empty()) out.push_back(std::stoi(part));
  }
  return out;
}

int RunJudge(const JudgeFlags& flags) {
  auto topic = LoadTopicFile(flags.topic);
  if (!topic.ok()) {
    std::cerr << "tda judge: " << topic.status().message() << "\n";
    return kExitUsage;
  }
  auto labels = eval::LabelSet::Load(flags.labels);
  if (!labels.ok()) {
    std::cerr << "tda judge: " << labels.status().message() << "\n";
    return kExitUsage;
  }
  tda::JudgeStudyOptions options;
  options.crawls = flags.crawls;
  options.train_fraction = flags.train_fraction;
  options.max_pages = flags.max_pages;
  options.out_dir = flags.out;
  options.reuse_vectors = flags.reuse_vectors;
  try {
    options.seeds = ParseSeeds(flags.seeds);
  } catch (const std::exception&) {
    std::cerr << "tda judge: --seeds must be a comma-separated list of integers\n";
    return kExitUsage;
  }
  auto study = tda::JudgeStudy::Create(*topic, std::move(options));
  if (!study.ok()) {
    std::cerr << "tda judge: " << study.status().message() << "\n";
    return kExitUsage;
  }
  Status s = (*study)->Run(EvalPageLabels(*labels), stdout);
  if (!s.ok()) {
    std::cerr << "tda judge: " << s.message() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

// ---- seeds ----------------------------------------------------------------

struct SeedsFlags {
  std::string crawl, topic;
  double beta = -1;
  int n = 20;
};

int RunSeeds(const SeedsFlags& flags) {
  double beta = flags.beta;
  if (beta < 0 && !flags.topic.empty()) {
    auto topic = LoadTopicFile(flags.topic);
    if (!topic.ok()) {
      std::cerr << "tda seeds: " << topic.status().message() << "\n";
      return kExitUsage;
    }
    beta = topic->beta;
  }
  if (beta < 0) beta = 0.5;
  StatusOr<CrawlTopicHub> hub = CrawlTopicHubSeeds(flags.crawl, beta, flags.n);
  if (!hub.ok()) {
    std::cerr << "tda seeds: " << hub.status().message() << "\n";
    return kExitFailure;
  }
  std::fputs(FormatTopicHubSeeds(*hub).c_str(), stdout);
  return kExitOk;
}

}  // namespace

void AddTdaCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("tda", "Seed 002 (TDA-Crawler): SDTP judgements, TopicHub seeds");
  cmd->require_subcommand(1);
  auto judge = std::make_shared<JudgeFlags>();
  auto* j = cmd->add_subcommand("judge",
                                "SDTP vs static ontology vs VSM vs doc vectors on labelled pages");
  j->add_option("crawls", judge->crawls, "Crawl directories")->required();
  j->add_option("--topic", judge->topic, "Topic file")->required();
  j->add_option("--labels", judge->labels, "Label file (url, relevant)")->required();
  j->add_option("--seeds", judge->seeds, "RNG seeds of the splits, e.g. 1,2,3,4,5");
  j->add_option("--train-fraction", judge->train_fraction, "Training share (seed: 3:2 = 0.6)");
  j->add_option("--max-pages", judge->max_pages, "Use at most this many labelled pages");
  j->add_option("--out", judge->out, "Directory for corpora, DSV files and per-page scores");
  j->add_flag("--reuse-vectors", judge->reuse_vectors,
              "Keep each seed's word vectors in OUT/vectors-SEED.bin and load them when present");
  j->callback([judge, exit_code] { *exit_code = RunJudge(*judge); });
  auto seeds = std::make_shared<SeedsFlags>();
  auto* s = cmd->add_subcommand("seeds", "TopicHub: the next round's seeds from a crawl");
  s->add_option("crawl", seeds->crawl, "Crawl directory")->required();
  s->add_option("--topic", seeds->topic, "Topic file (for beta)");
  s->add_option("--beta", seeds->beta, "Relevance threshold (default: the topic's)");
  s->add_option("--n", seeds->n, "How many seeds (default 20)");
  s->callback([seeds, exit_code] { *exit_code = RunSeeds(*seeds); });
}

}  // namespace topicrawl::cli
