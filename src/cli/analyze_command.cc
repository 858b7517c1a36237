// topicrawl analyze: the offline analyses of seed 001 (001_596420367c7d3764).
//   analyze link-nb --data DIR [--page-model FILE]
//       precision / recall / F1 / accuracy on the test links of feature
//       group 1, group 2 (table 1) and of a page-trained classifier reading
//       the links' words as page words (table 2).
//   analyze kl --data DIR [--runs N] [--seed S]
//       KL distance of the word distributions of on-topic pages and of
//       on-topic link contexts (§3.2.1, eq. 3-5), and of random halves.
//   analyze page-judge --model FILE --crawl DIR [--crawl DIR ...] [--at N,...]
//       harvest rate of crawls as judged by a page classifier (§4.3.2).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include "cli/commands.h"
#include "strategies/naive_bayes/crawl_export.h"
#include "strategies/naive_bayes/link_dataset.h"
#include "strategies/naive_bayes/link_features.h"
#include "strategies/naive_bayes/nb_evaluation.h"

namespace topicrawl::cli {
namespace {

void PrintMetricsRow(const char* name, const char* trained_on, const BinaryMetrics& m) {
  std::printf("| %s | %s | %.4f | %.4f | %.4f | %.4f | %lld | %lld | %lld | %lld |\n", name,
              trained_on, m.precision(), m.recall(), m.f1(), m.accuracy(),
              static_cast<long long>(m.tp), static_cast<long long>(m.fp),
              static_cast<long long>(m.fn), static_cast<long long>(m.tn));
}

struct LinkNbFlags {
  std::string data_dir;
  std::string page_model;
};

int RunLinkNb(const LinkNbFlags& f) {
  auto dict = ReadDatasetDictionary(f.data_dir);
  auto links = dict.ok() ? ReadLinkTsv(f.data_dir + "/links.tsv")
                         : StatusOr<std::vector<LinkExample>>(dict.status());
  if (!links.ok()) {
    std::cerr << "error: " << links.status().message() << "\n";
    return kExitUsage;
  }
  int64_t n[2][2] = {{0, 0}, {0, 0}};  // [train/test][neg/pos]
  for (const auto& l : *links) {
    if (l.label >= 0 && l.split != Split::kNone) ++n[l.split == Split::kTest][l.label];
  }
  NaiveBayes g1 = TrainLinkModel(*links, 1, Split::kTrain, *dict);
  NaiveBayes g2 = TrainLinkModel(*links, 2, Split::kTrain, *dict);
  if (!g1.Trainable() || n[1][0] + n[1][1] == 0) {
    std::cerr << "error: the data set needs training links of both classes and test links\n";
    return kExitFailure;
  }
  std::printf("links: train %lld+ / %lld-, test %lld+ / %lld-\n\n",
              static_cast<long long>(n[0][1]), static_cast<long long>(n[0][0]),
              static_cast<long long>(n[1][1]), static_cast<long long>(n[1][0]));
  std::printf("| classifier | trained on | precision | recall | F1 | accuracy | TP | FP | FN | TN |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  PrintMetricsRow("link NB, group 1 (anchor words)", "train links",
                  EvaluateLinks(g1, *links, Split::kTest, LinkView::kFeatures));
  PrintMetricsRow("link NB, group 2 (anchor + context + dictionary)", "train links",
                  EvaluateLinks(g2, *links, Split::kTest, LinkView::kFeatures));

  std::optional<NaiveBayes> page;
  std::string page_source;
  if (!f.page_model.empty()) {
    auto m = NaiveBayes::Load(f.page_model);
    if (!m.ok()) {
      std::cerr << "error: " << m.status().message() << "\n";
      return kExitUsage;
    }
    page.emplace(std::move(m).value());
    page_source = f.page_model;
  } else {
    auto pages = ReadPageTsv(f.data_dir + "/pages.tsv");
    if (pages.ok()) {
      page.emplace(TrainPageModel(*pages, Split::kTrain, *dict));
      page_source = "train pages";
    } else {
      std::fprintf(stderr, "note: no page classifier: %s\n", pages.status().message().c_str());
    }
  }
  if (page && page->Trainable()) {
    std::string name = "page NB (multinomial) on link words";
    PrintMetricsRow(name.c_str(), page_source.c_str(),
                    EvaluateLinks(*page, *links, Split::kTest, LinkView::kPageWords));
    std::printf("\npage classifier: %lld+ / %lld- pages, %zu words\n",
                static_cast<long long>(page->samples(true)),
                static_cast<long long>(page->samples(false)), page->vocabulary_size());
  }
  std::printf("link classifiers: group 1 %zu features, group 2 %zu features "
              "(binary event model, Laplace a = 1); predicted + when P(+|x) >= 0.5\n",
              g1.vocabulary_size(), g2.vocabulary_size());
  return kExitOk;
}

struct KlFlags {
  std::string data_dir;
  int runs = 5;
  uint64_t seed = 1;
  std::string which = "positive";
};

// KL between two random halves of `docs`, `runs` times: mean and sd.
std::pair<double, double> HalvesKl(const std::vector<const std::vector<std::string>*>& docs,
                                   int runs, uint64_t seed, KlResult* last) {
  std::vector<double> v;
  for (int r = 0; r < runs; ++r) {
    SplitMix64 rng(seed + static_cast<uint64_t>(r));
    std::vector<size_t> order = ShuffledIndexes(docs.size(), &rng);
    WordCounts a, b;
    for (size_t k = 0; k < order.size(); ++k) {
      AddWords(*docs[order[k]], k < order.size() / 2 ? &a : &b);
    }
    *last = KlDivergence(a, b);
    v.push_back(last->nats);
  }
  double mean = 0, sd = 0;
  for (double x : v) mean += x / static_cast<double>(v.size());
  for (double x : v) sd += (x - mean) * (x - mean);
  sd = v.size() > 1 ? std::sqrt(sd / static_cast<double>(v.size() - 1)) : 0;
  return {mean, sd};
}

int RunKl(const KlFlags& f) {
  int want;
  if (f.which == "positive") want = 1;
  else if (f.which == "negative") want = 0;
  else if (f.which == "all") want = -1;
  else {
    std::cerr << "error: --class must be positive, negative or all\n";
    return kExitUsage;
  }
  if (f.runs < 1) {
    std::cerr << "error: --runs must be >= 1\n";
    return kExitUsage;
  }
  auto links = ReadLinkTsv(f.data_dir + "/links.tsv");
  if (!links.ok()) {
    std::cerr << "error: " << links.status().message() << "\n";
    return kExitUsage;
  }
  auto pages = ReadPageTsv(f.data_dir + "/pages.tsv");
  if (!pages.ok()) {
    std::cerr << "error: " << pages.status().message() << "\n";
    return kExitUsage;
  }
  auto keep = [want](int label) { return label >= 0 && (want < 0 || label == want); };
  std::vector<std::vector<std::string>> link_docs;
  std::vector<const std::vector<std::string>*> page_docs, link_ptrs;
  WordCounts page_words, link_words;
  for (const auto& p : *pages) {
    if (!keep(p.label)) continue;
    AddWords(p.tokens, &page_words);
    page_docs.push_back(&p.tokens);
  }
  for (const auto& l : *links) {
    if (!keep(l.label)) continue;
    link_docs.push_back(LinkAsPageWords(l.tokens));
    AddWords(link_docs.back(), &link_words);
  }
  for (const auto& d : link_docs) link_ptrs.push_back(&d);
  if (page_docs.size() < 2 || link_docs.size() < 2) {
    std::cerr << "error: need at least 2 pages and 2 links of the chosen class\n";
    return kExitFailure;
  }
  KlResult lp = KlDivergence(link_words, page_words);
  KlResult pl = KlDivergence(page_words, link_words);
  KlResult ph, lh;
  auto [pm, psd] = HalvesKl(page_docs, f.runs, f.seed, &ph);
  auto [lm, lsd] = HalvesKl(link_ptrs, f.runs, f.seed + 1000, &lh);
  std::printf("class: %s; %zu pages (%zu distinct words), %zu link contexts (%zu distinct words), "
              "%zu common words\n\n",
              f.which.c_str(), page_docs.size(), page_words.size(), link_docs.size(),
              link_words.size(), lp.common);
  std::printf("| distributions | KL (nats) | KL (bits) | common words | paper |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  std::printf("| KL(links ‖ pages) | %.4f | %.4f | %zu | 2.0865 |\n", lp.nats, lp.bits, lp.common);
  std::printf("| KL(pages ‖ links) | %.4f | %.4f | %zu | |\n", pl.nats, pl.bits, pl.common);
  std::printf("| pages half A ‖ half B (%d runs) | %.4f ± %.4f | %.4f | %zu | 0.5676 |\n", f.runs,
              pm, psd, pm / std::log(2.0), ph.common);
  std::printf("| links half A ‖ half B (%d runs) | %.4f ± %.4f | %.4f | %zu | 0.7828 |\n", f.runs,
              lm, lsd, lm / std::log(2.0), lh.common);
  std::printf("\nOnly words present in both collections count (seed eq. 3-5), so no smoothing "
              "is needed; natural log.\n");
  return kExitOk;
}

struct JudgeFlags {
  std::string model;
  std::vector<std::string> crawls;
  std::vector<int64_t> at = {100, 500, 1000, 2000, 5000, 10000};
};

int RunPageJudge(const JudgeFlags& f) {
  auto model = NaiveBayes::Load(f.model);
  if (!model.ok()) {
    std::cerr << "error: " << model.status().message() << "\n";
    return kExitUsage;
  }
  if (model->kind() != NbModelKind::kPage) {
    std::cerr << "error: " << f.model << " is not a page model (train one with `topicrawl "
                                         "train page-nb`)\n";
    return kExitUsage;
  }
  auto words = LinkFeatureExtractor::Create(model->dictionary);
  if (!words.ok()) {
    std::cerr << "error: " << words.status().message() << "\n";
    return kExitFailure;
  }
  std::printf("| crawl | DP |");
  for (int64_t n : f.at) std::printf(" @%lld |", static_cast<long long>(n));
  std::printf(" final | unreadable |\n|---|---:|");
  for (size_t i = 0; i <= f.at.size(); ++i) std::printf("---:|");
  std::printf("---:|\n");
  int rc = kExitOk;
  for (const auto& dir : f.crawls) {
    int64_t dp = 0, judged = 0, unreadable = 0;
    std::map<int64_t, double> at;
    Status s = ForEachStoredPage(
        dir,
        [&](const StoredPage& p) {
          ++dp;
          if ((*model).Score((*words)->PageWords(p.title + "\n" + p.text)).positive()) ++judged;
          for (int64_t n : f.at) {
            if (dp == n) at[n] = static_cast<double>(judged) / static_cast<double>(dp);
          }
        },
        &unreadable);
    if (!s.ok()) {
      std::cerr << "error: " << dir << ": " << s.message() << "\n";
      rc = kExitFailure;
      continue;
    }
    std::printf("| %s | %lld |", dir.c_str(), static_cast<long long>(dp));
    for (int64_t n : f.at) {
      if (at.count(n)) std::printf(" %.4f |", at[n]);
      else std::printf(" – |");
    }
    std::printf(" %.4f | %lld |\n", dp ? static_cast<double>(judged) / static_cast<double>(dp) : 0.0,
                static_cast<long long>(unreadable));
  }
  return rc;
}

}  // namespace

void AddAnalyzeCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("analyze", "Offline analyses (seed 001 tables, KL, page judge)");
  cmd->require_subcommand(1);

  auto* link = cmd->add_subcommand("link-nb", "Test-split precision/recall of the NB classifiers");
  auto lf = std::make_shared<LinkNbFlags>();
  link->add_option("--data", lf->data_dir, "Data directory from collect-links")->required();
  link->add_option("--page-model", lf->page_model,
                   "Page model to apply to link words (default: trained on train pages)");
  link->callback([lf, exit_code] { *exit_code = RunLinkNb(*lf); });

  auto* kl = cmd->add_subcommand("kl", "KL distance: page words vs link-context words");
  auto kf = std::make_shared<KlFlags>();
  kl->add_option("--data", kf->data_dir, "Data directory from collect-links")->required();
  kl->add_option("--runs", kf->runs, "Random half splits to average (default 5)");
  kl->add_option("--seed", kf->seed, "Seed of the random halves");
  kl->add_option("--class", kf->which, "positive (default, as the paper), negative or all");
  kl->callback([kf, exit_code] { *exit_code = RunKl(*kf); });

  auto* judge = cmd->add_subcommand("page-judge", "Harvest rate judged by a page NB classifier");
  auto jf = std::make_shared<JudgeFlags>();
  judge->add_option("--model", jf->model, "Page model (train page-nb)")->required();
  judge->add_option("--crawl", jf->crawls, "Crawl directory (repeatable)")->required();
  judge->add_option("--at", jf->at, "Checkpoints (pages downloaded)")->delimiter(',');
  judge->callback([jf, exit_code] { *exit_code = RunPageJudge(*jf); });
}

}  // namespace topicrawl::cli
