// Seed 003 (003_8082e0a8ad518813): hub-page detection from URL features.
//   collect-hubs DIR (--structural [--hub-share X] [--min-content-links N] | --truth-dir D)
//       --out FILE.tsv
//       labelled rows from a crawl directory (strategies/hub/hub_collect.h)
//   train hub-svm --data FILE.tsv --out MODEL [--features full|url|full-site|url-site] [--all]
//       [--train-size N] [--threads N] [--folds K] [--seed S]
//       grid search + 10-fold CV, model with its scale (classify/svm_model.h)
//   analyze hub --data FILE.tsv [--model MODEL] [--baseline rules|heuristic|content] [--json]
//       test-split accuracy, precision, recall, F1, confusion matrix
//   analyze hub-table --data FILE.tsv [--sizes 500,1000,2000,all] [--splits 5]
//       the reproduction table (mean +- sd over host splits)
//   hub --model MODEL URL... [--anchor A] [--depth D] [--size BYTES]
//   hub --model MODEL --urls-from FILE [--summary]
//       probability and feature vector per URL; a site-relative model
//       (url-site / full-site) reads percentiles among the scored URLs of
//       the same host (the batch is the reference population)
// These attach to the `train` and `analyze` commands, so AddHubCommands must
// run after AddTrainCommand and AddAnalyzeCommand.
#include <charconv>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <time.h>

#include <unordered_set>

#include "cli/commands.h"
#include "cli/svm_grid_flags.h"
#include "eval/labels.h"
#include "eval/round_truth.h"
#include "nlohmann/json.hpp"
#include "strategies/hub/hub_baselines.h"
#include "strategies/hub/hub_collect.h"
#include "strategies/hub/hub_experiment.h"
#include "strategies/hub/hub_site_relative.h"
#include "strategies/hub/hub_site_stream.h"
#include "url/url.h"

namespace topicrawl::cli {
namespace {

using hub::HubExample;
using hub::HubFeatureSet;
using hub::HubFeatureSpec;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// ---- collect-hubs ----------------------------------------------------------

struct CollectFlags {
  std::string dir, out, truth_dir;
  bool structural = false;
  hub::CollectOptions options;
};

int RunCollect(const CollectFlags& f) {
  if (f.structural == !f.truth_dir.empty()) {
    std::cerr << "error: give exactly one of --structural (labels from the crawl's link graph) "
                 "and --truth-dir D (labels from an evolving web's truth files)\n";
    return kExitUsage;
  }
  hub::CollectSummary sum;
  StatusOr<std::vector<hub::HubExample>> rows = Status::Error("unset");
  if (f.structural) {
    rows = hub::CollectHubsStructural(f.dir, f.options, &sum);
  } else {
    // A hub is a page that links to a page new in a later round (seed 003's
    // operational meaning): the union of the truth's hubs-K.tsv, K >= 1.
    auto rounds = eval::TruthRounds(f.truth_dir);
    if (!rounds.ok()) {
      std::cerr << "error: " << rounds.status().message() << "\n";
      return kExitUsage;
    }
    std::unordered_set<std::string> hubs;
    for (int k = 1; k <= *rounds; ++k) {
      auto truth = eval::ReadRoundTruth(f.truth_dir, k);
      if (!truth.ok()) {
        std::cerr << "error: " << truth.status().message() << "\n";
        return kExitUsage;
      }
      for (const auto& [url, n] : truth->hubs) hubs.insert(eval::CanonicalizeLabelUrl(url));
    }
    rows = hub::CollectHubsLabelled(
        f.dir, f.options,
        [&](const std::string& url, const std::string& final_url) {
          return hubs.count(eval::CanonicalizeLabelUrl(url)) ||
                         hubs.count(eval::CanonicalizeLabelUrl(final_url))
                     ? 1
                     : 0;
        },
        &sum);
  }
  if (!rows.ok()) {
    std::cerr << "error: " << rows.status().message() << "\n";
    return kExitUsage;
  }
  if (Status s = hub::WriteHubTsv(f.out, *rows); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  std::printf("%lld pages (%lld hubs, %.1f %%), train %lld rows on %lld hosts, test %lld rows on "
              "%lld hosts, %lld unreadable -> %s\n",
              static_cast<long long>(sum.pages), static_cast<long long>(sum.hubs),
              sum.pages ? 100.0 * sum.hubs / sum.pages : 0.0, static_cast<long long>(sum.train),
              static_cast<long long>(sum.hosts_train), static_cast<long long>(sum.test),
              static_cast<long long>(sum.hosts_test), static_cast<long long>(sum.unreadable),
              f.out.c_str());
  return kExitOk;
}

// ---- train hub-svm -----------------------------------------------------------

struct TrainFlags {
  std::string data, out, features = "full";
  bool all = false;
  int64_t train_size = -1;
  uint64_t seed = 1;
  SvmGridOptions grid;
};

int RunTrain(const TrainFlags& f) {
  HubFeatureSpec spec;
  if (!hub::ParseHubFeatureSpec(f.features, &spec)) {
    std::cerr << "error: --features must be full, url, full-site or url-site\n";
    return kExitUsage;
  }
  auto rows = hub::ReadHubTsv(f.data);
  if (!rows.ok()) {
    std::cerr << "error: " << rows.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<size_t> idx;
  for (size_t i = 0; i < rows->size(); ++i) {
    if (f.all || !(*rows)[i].test) idx.push_back(i);
  }
  idx = hub::Subsample(idx, f.train_size, f.seed);
  SvmGridOptions grid = f.grid;
  grid.seed = f.seed;
  SvmTrainReport rep;
  // Site-relative: percentiles among all rows of the file per host (the
  // training subset's sites' URLs, not only the sampled ones).
  const std::vector<std::vector<double>> encoded = hub::EncodeHubRows(spec, *rows);
  auto model = SvmModel::Train(hub::SpecDataset(spec, *rows, encoded, idx),
                               std::string(hub::HubSpecModelKind(spec)), grid, &rep);
  if (!model.ok()) {
    std::cerr << "error: " << model.status().message() << "\n";
    return kExitFailure;
  }
  if (Status s = model->Save(f.out); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  std::printf("hub SVM (%s features): %zu examples (%zu hubs), positive weight %.3g, best C = "
              "2^%d, gamma = 2^%d, threshold %.4g, %d-fold CV accuracy %.4f, F1 %.4f, %zu support "
              "vectors; grid of %zu points: %.1f s CPU, %.1f s wall, %d threads -> %s\n",
              hub::HubFeatureSpecName(spec).c_str(), rep.examples, rep.positives,
              rep.positive_weight, rep.best.log2c, rep.best.log2g, rep.best.threshold, rep.folds,
              rep.best.cv_accuracy, rep.best.cv_f1, rep.support_vectors, rep.grid.size(), rep.cpu_seconds, rep.wall_seconds,
              grid.threads, f.out.c_str());
  if (grid.deduplicate) {
    std::printf("cross-validation: %zu distinct scaled vectors of %zu, %zu solves, %lld SMO "
                "iterations, %zu stopped by the iteration cap\n",
                rep.unique_vectors, rep.examples, rep.cv_solves,
                static_cast<long long>(rep.cv_iterations), rep.cv_capped);
  }
  return kExitOk;
}

// ---- analyze hub -----------------------------------------------------------

struct AnalyzeFlags {
  std::string data, model, baseline;
  bool json = false;
  SvmGridOptions grid;
};

// The model's kind says which features it reads (hub_site_relative.h).
StatusOr<SvmModel> LoadHubModel(const std::string& path, HubFeatureSpec* spec) {
  auto m = SvmModel::Load(path, "");
  if (!m.ok()) return m.status();
  if (!hub::HubSpecFromModelKind(m->kind(), spec)) {
    return Status::Error(path + ": is a '" + m->kind() +
                         "' model, not a hub URL model (hub-url-full, hub-url-before-download, "
                         "hub-url-full-site-relative or hub-url-site-relative)");
  }
  if (Status s = m->CheckFeatures(hub::HubSpecFeatureNames(*spec)); !s.ok()) {
    return Status::Error(path + ": " + s.message());
  }
  return m;
}

nlohmann::json MetricsJson(const BinaryMetrics& m) {
  return {{"accuracy", m.accuracy()}, {"precision", m.precision()}, {"recall", m.recall()},
          {"f1", m.f1()},             {"tp", m.tp},                 {"fp", m.fp},
          {"fn", m.fn},               {"tn", m.tn}};
}

void PrintMetrics(const std::string& name, const BinaryMetrics& m, const std::string& extra) {
  std::printf("%-28s accuracy %.4f  precision %.4f  recall %.4f  F1 %.4f  "
              "[TP %lld FP %lld FN %lld TN %lld]%s\n",
              name.c_str(), m.accuracy(), m.precision(), m.recall(), m.f1(),
              static_cast<long long>(m.tp), static_cast<long long>(m.fp),
              static_cast<long long>(m.fn), static_cast<long long>(m.tn), extra.c_str());
}

int RunAnalyze(const AnalyzeFlags& f) {
  if (f.model.empty() && f.baseline.empty()) {
    std::cerr << "error: give --model, --baseline or both\n";
    return kExitUsage;
  }
  hub::HubMethod baseline = hub::HubMethod::kRules;
  if (!f.baseline.empty() && (!hub::ParseHubMethod(f.baseline, &baseline) ||
                              baseline == hub::HubMethod::kSvmFull ||
                              baseline == hub::HubMethod::kSvmUrl)) {
    std::cerr << "error: --baseline must be rules, heuristic or content\n";
    return kExitUsage;
  }
  auto rows = hub::ReadHubTsv(f.data);
  if (!rows.ok()) {
    std::cerr << "error: " << rows.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<size_t> train, test;
  size_t test_hubs = 0;
  for (size_t i = 0; i < rows->size(); ++i) {
    ((*rows)[i].test ? test : train).push_back(i);
    if ((*rows)[i].test) test_hubs += (*rows)[i].label;
  }
  if (test.empty()) {
    std::cerr << "error: " << f.data << " has no test rows\n";
    return kExitFailure;
  }
  nlohmann::json out;
  if (!f.json) {
    std::printf("test split: %zu rows, %zu hubs (%.1f %%); train split: %zu rows\n", test.size(),
                test_hubs, 100.0 * test_hubs / test.size(), train.size());
  }
  if (!f.model.empty()) {
    HubFeatureSpec spec;
    auto model = LoadHubModel(f.model, &spec);
    if (!model.ok()) {
      std::cerr << "error: " << model.status().message() << "\n";
      return kExitUsage;
    }
    BinaryMetrics m = hub::EvaluateUrlModel(*model, spec, *rows, test);
    out = MetricsJson(m);
    out["method"] = "svm-" + hub::HubFeatureSpecName(spec);
    out["c"] = model->c();
    out["gamma"] = model->gamma();
    out["cv_accuracy"] = model->cv_accuracy();
    out["threshold"] = model->threshold();
    out["positive_weight"] = model->positive_weight();
    out["support_vectors"] = model->support_vectors();
    out["test_rows"] = test.size();
    if (!f.json) {
      char extra[128];
      std::snprintf(extra, sizeof extra, " C=%g gamma=%g threshold=%g weight=%g", model->c(),
                    model->gamma(), model->threshold(), model->positive_weight());
      PrintMetrics("URL SVM (" + hub::HubFeatureSpecName(spec) + ")", m, extra);
    }
  }
  if (!f.baseline.empty()) {
    auto r = hub::RunHubMethod(baseline, *rows, train, test, f.grid);
    if (!r.ok()) {
      std::cerr << "error: " << r.status().message() << "\n";
      return kExitFailure;
    }
    nlohmann::json b = MetricsJson(r->metrics);
    b["method"] = std::string(hub::HubMethodName(baseline));
    b["test_rows"] = test.size();
    std::string extra;
    if (r->svm) {
      b["c"] = std::ldexp(1.0, r->log2c);
      b["gamma"] = std::ldexp(1.0, r->log2g);
      extra = " C=2^" + std::to_string(r->log2c) + " gamma=2^" + std::to_string(r->log2g);
    }
    if (out.is_null()) {
      out = b;
    } else {
      out["baseline"] = b;
    }
    if (!f.json) PrintMetrics("baseline " + f.baseline, r->metrics, extra);
  }
  if (f.json) std::cout << out.dump() << "\n";
  return kExitOk;
}

// ---- analyze hub-table -------------------------------------------------------

struct TableFlags {
  std::string data, sizes = "500,1000,2000,all", methods, split = "host";
  int splits = 5;
  SvmGridOptions grid;
};

int RunTable(const TableFlags& f) {
  hub::HubTableOptions o;
  o.splits = f.splits;
  o.grid = f.grid;
  if (f.split != "host" && f.split != "url") {
    std::cerr << "error: --split must be host or url\n";
    return kExitUsage;
  }
  o.split_by_host = f.split == "host";
  o.sizes.clear();
  std::stringstream ss(f.sizes);
  for (std::string item; std::getline(ss, item, ',');) {
    if (item == "all") {
      o.sizes.push_back(-1);
    } else {
      try {
        o.sizes.push_back(std::stoll(item));
      } catch (...) {
        std::cerr << "error: bad --sizes item '" << item << "'\n";
        return kExitUsage;
      }
    }
  }
  if (!f.methods.empty()) {
    o.methods.clear();
    std::stringstream ms(f.methods);
    for (std::string item; std::getline(ms, item, ',');) {
      hub::HubMethod m;
      if (!hub::ParseHubMethod(item, &m)) {
        std::cerr << "error: unknown method '" << item
                  << "' (svm-full, svm-url, rules, heuristic, content, svm-url-site, "
                     "svm-url-both, svm-url-site-rules, site-or-rules, svm-url-site-rank)\n";
        return kExitUsage;
      }
      o.methods.push_back(m);
    }
  }
  auto rows = hub::ReadHubTsv(f.data);
  if (!rows.ok()) {
    std::cerr << "error: " << rows.status().message() << "\n";
    return kExitUsage;
  }
  double cpu0 = CpuSeconds();
  hub::HubTable t = hub::RunHubTable(*rows, o, &std::cerr);
  std::cout << hub::HubTableMarkdown(t);
  for (const auto& c : t.cells) {
    for (const auto& e : c.errors) std::cout << "error (" << hub::HubMethodName(c.method) << "): " << e << "\n";
  }
  std::printf("\n%.1f s CPU in total\n", CpuSeconds() - cpu0);
  return kExitOk;
}

// ---- hub (score URLs) ----------------------------------------------------------

struct ScoreFlags {
  std::string model, urls_from, anchor;
  std::vector<std::string> urls;
  int64_t depth = 1, size = -1;
  bool summary = false;
};

// atoll's reading of a column (leading blanks, an optional '+', digits; 0
// when there are none) without building a string per URL.
int64_t ColumnInt(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// One line of --urls-from: a URL, or TSV url [anchor [crawl_depth [page_size]]].
hub::UrlObservation ParseInputLine(std::string_view line, const ScoreFlags& f) {
  std::string_view cols[4];
  size_t n = 0, p = 0;
  while (n < 4) {
    size_t q = line.find('\t', p);
    cols[n++] = line.substr(p, q == std::string_view::npos ? q : q - p);
    if (q == std::string_view::npos) break;
    p = q + 1;
  }
  hub::UrlObservation o{cols[0], n > 1 ? cols[1] : std::string_view(f.anchor), f.depth, f.size};
  if (n > 2) o.crawl_depth = ColumnInt(cols[2]);
  if (n > 3) o.page_size = ColumnInt(cols[3]);
  return o;
}

// Calls `fn` for the command-line URLs, then for each line of --urls-from
// (or of `buffered`, its content when it is not a file that can be read
// twice).
Status ForEachInput(const ScoreFlags& f, const std::string* buffered,
                    const std::function<void(const hub::UrlObservation&)>& fn) {
  for (const auto& u : f.urls) fn({u, f.anchor, f.depth, f.size});
  if (f.urls_from.empty()) return Status::Ok();
  if (buffered) {
    std::string_view rest(*buffered);
    while (!rest.empty()) {
      const size_t q = rest.find('\n');
      const std::string_view line = rest.substr(0, q);
      rest.remove_prefix(q == std::string_view::npos ? rest.size() : q + 1);
      if (!line.empty()) fn(ParseInputLine(line, f));
    }
    return Status::Ok();
  }
  std::ifstream in(f.urls_from);
  if (!in) return Status::Error("cannot read " + f.urls_from);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) fn(ParseInputLine(line, f));
  }
  return Status::Ok();
}

int RunScore(const ScoreFlags& f) {
  HubFeatureSpec spec;
  auto model = LoadHubModel(f.model, &spec);
  if (!model.ok()) {
    std::cerr << "error: " << model.status().message() << "\n";
    return kExitUsage;
  }
  const std::vector<std::string> names = hub::HubSpecFeatureNames(spec);
  std::vector<double> x(names.size());
  int64_t n = 0, hubs = 0;
  const double cpu0 = CpuSeconds();
  // One kernel sum per URL: the class and the probability both come from
  // the decision value (issue 13: scoring 10^6 URLs).
  auto score = [&](const hub::UrlObservation& o, const double* v) {
    const double decision = model->Decision(std::span<const double>(v, names.size()));
    const bool is_hub = model->PredictOfDecision(decision) == 1;
    ++n;
    hubs += is_hub;
    if (f.summary) return;
    std::printf("%.4f\t%s\t%.*s\t", model->ProbabilityOfDecision(decision), is_hub ? "hub" : "-",
                static_cast<int>(o.url.size()), o.url.data());
    for (size_t k = 0; k < names.size(); ++k) {
      std::printf("%s%s=%g", k ? " " : "", names[k].c_str(), v[k]);
    }
    std::printf("\n");
  };
  Status read = Status::Ok();
  size_t sites = 0;
  if (!spec.site_relative()) {
    // Streaming: one URL at a time (the bench scores 10^6).
    read = ForEachInput(f, nullptr, [&](const hub::UrlObservation& o) {
      hub::HubFeaturesInto(o, spec.set, x.data());
      score(o, x.data());
    });
  } else {
    // The reference population of the percentiles is this batch: every
    // scored URL, grouped by its host (url/url.h UrlHost, as collect-hubs
    // writes the host column). Two streaming passes over the input
    // (strategies/hub/hub_site_stream.h): memory is the per-site statistics, not the
    // batch. Input that cannot be read twice (a pipe) is held in memory.
    std::string buffered;
    bool buffer = false;
    if (!f.urls_from.empty()) {
      struct stat st;
      if (::stat(f.urls_from.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        std::ifstream in(f.urls_from);
        if (!in) {
          std::cerr << "error: cannot read " << f.urls_from << "\n";
          return kExitUsage;
        }
        std::ostringstream all;
        all << in.rdbuf();
        buffered = std::move(all).str();
        buffer = true;
      }
    }
    auto summary = hub::ForEachSiteRelative(
        spec.set,
        [&](const std::function<void(const hub::UrlObservation&)>& visit) {
          return ForEachInput(f, buffer ? &buffered : nullptr, visit);
        },
        [](std::string_view url) { return UrlHost(url); },
        [&](const hub::UrlObservation& o, const double* v) { score(o, v); });
    if (summary.ok()) {
      sites = summary->sites;
    } else {
      read = summary.status();
    }
  }
  if (!read.ok()) {
    std::cerr << "error: " << read.message() << "\n";
    return kExitUsage;
  }
  if (f.summary || !f.urls_from.empty()) {
    std::fprintf(f.summary ? stdout : stderr,
                 "%lld URLs scored, %lld predicted hubs, %.2f s CPU (%.2f us per URL)\n",
                 static_cast<long long>(n), static_cast<long long>(hubs), CpuSeconds() - cpu0,
                 n ? 1e6 * (CpuSeconds() - cpu0) / n : 0.0);
  }
  if (spec.site_relative()) {
    std::fprintf(stderr, "site-relative features: percentiles among the %lld scored URLs of %zu "
                 "sites (each URL against the URLs of its own host in this batch)\n",
                 static_cast<long long>(n), sites);
  }
  return kExitOk;
}

}  // namespace

void AddHubCommands(CLI::App& app, int* exit_code) {
  auto* collect = app.add_subcommand("collect-hubs", "Labelled hub data (seed 003) from a crawl");
  auto cf = std::make_shared<CollectFlags>();
  collect->add_option("dir", cf->dir, "Crawl directory")->required();
  collect->add_option("--out", cf->out, "TSV to write")->required();
  collect->add_flag("--structural", cf->structural,
                    "Label hubs from the link graph (share of links to the site's content pages)");
  collect->add_option("--truth-dir", cf->truth_dir,
                      "Label hubs from an evolving web's truth (`web evolve` / `web build "
                      "--rounds versions` directory): pages linking to a page new in a later round");
  collect->add_option("--hub-share", cf->options.hub_share,
                      "Structural: min share of same-site links to content pages (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  collect->add_option("--min-content-links", cf->options.min_content_links,
                      "Structural: min number of content pages linked (default 5)")
      ->check(CLI::Range(1, 1000000));
  collect->add_option("--template-share", cf->options.template_share,
                      "Structural: ignore targets linked from more than this share of the "
                      "site's pages (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  collect->add_option("--seed", cf->options.seed, "Seed of the 7:3 split by host");
  collect->callback([cf, exit_code] { *exit_code = RunCollect(*cf); });

  auto* score = app.add_subcommand("hub", "Hub probability of URLs with a hub SVM (seed 003)");
  auto sf = std::make_shared<ScoreFlags>();
  score->add_option("--model", sf->model, "Model from train hub-svm")->required();
  score->add_option("urls", sf->urls, "URLs to score");
  score->add_option("--urls-from", sf->urls_from,
                    "File: one URL a line, or TSV url, anchor, crawl depth, page size");
  score->add_option("--anchor", sf->anchor, "Anchor text of the link (default empty)");
  score->add_option("--depth", sf->depth, "Crawl depth (default 1)");
  score->add_option("--size", sf->size, "Page size in bytes (full model; default unknown = 0)");
  score->add_flag("--summary", sf->summary, "Only print counts and CPU time");
  score->callback([sf, exit_code] { *exit_code = RunScore(*sf); });

  if (CLI::App* train = app.get_subcommand("train")) {
    auto* t = train->add_subcommand("hub-svm", "URL-feature hub SVM (seed 003), grid search");
    auto tf = std::make_shared<TrainFlags>();
    t->add_option("--data", tf->data, "TSV from collect-hubs")->required();
    t->add_option("--out", tf->out, "Model file to write")->required();
    t->add_option("--features", tf->features,
                  "full (ten features), url (before download; default full), or full-site / "
                  "url-site: numeric features as percentiles within the URL's site");
    t->add_flag("--all", tf->all, "Train on train + test rows");
    t->add_option("--train-size", tf->train_size, "Use a random subset of N training rows");
    t->add_option("--seed", tf->seed, "Seed of the subset and the CV folds (default 1)");
    AddSvmGridFlags(t, &tf->grid);
    t->callback([tf, exit_code] { *exit_code = RunTrain(*tf); });
  }
  if (CLI::App* analyze = app.get_subcommand("analyze")) {
    auto* a = analyze->add_subcommand("hub", "Test-split metrics of a hub SVM and/or a baseline");
    auto af = std::make_shared<AnalyzeFlags>();
    a->add_option("--data", af->data, "TSV from collect-hubs")->required();
    a->add_option("--model", af->model, "Model from train hub-svm");
    a->add_option("--baseline", af->baseline, "rules, heuristic or content");
    a->add_flag("--json", af->json, "Print {accuracy, precision, recall, f1, ...}");
    AddSvmGridFlags(a, &af->grid);
    a->callback([af, exit_code] { *exit_code = RunAnalyze(*af); });

    auto* tb = analyze->add_subcommand("hub-table", "Seed 003 reproduction table over host splits");
    auto bf = std::make_shared<TableFlags>();
    tb->add_option("--data", bf->data, "TSV from collect-hubs")->required();
    tb->add_option("--sizes", bf->sizes, "Training sizes (default 500,1000,2000,all)");
    tb->add_option("--splits", bf->splits, "Host splits, seeds 1..N (default 5)")
        ->check(CLI::Range(1, 100));
    tb->add_option("--split", bf->split,
                   "host (default: 7:3 by host, no host on both sides) or url (random rows)");
    tb->add_option("--methods", bf->methods,
                   "Comma list (default svm-full,svm-url,rules,heuristic,content; also "
                   "svm-url-site: site-relative URL features; svm-url-both, svm-url-site-rules, "
                   "site-or-rules, svm-url-site-rank: strategies/hub/hub_site_detectors.h)");
    AddSvmGridFlags(tb, &bf->grid);
    tb->callback([bf, exit_code] { *exit_code = RunTable(*bf); });
  }
}

}  // namespace topicrawl::cli
