// `hubs`: seed 003's incremental crawler (003_8082e0a8ad518813.txt §3.2-3.4):
// between rounds, revisit only the pages that a C-SVC on URL features
// (strategies/hub/hub_features.h, the "before download" set ①-⑧, ⑩) predicts to be hub
// (directory) pages, and crawl the new pages they link to.
//
// Plan (before each round):
//   1. the model: the one this policy learned in earlier rounds (its saved
//      state); else the file given with `recrawl --model` (`train hub-svm
//      --features url`); else one trained now on the crawl's own graph with
//      the structural label (strategies/hub/hub_structure.h) -- so round 1 needs no
//      file and no change history;
//   2. every stored, not-gone page is scored P(hub | URL features) (Platt);
//   3. the revisits: without a budget, the pages with P >= kHubThreshold
//      (the classifier's decision); with `--budget`, the top of the pages by
//      P fused with the crawl's link structure (parenthood, see
//      FuseWithParenthood; a ranking: the budget says how many). The
//      original seeds (home pages: the seed's first hubs) are always
//      revisited, first and within the budget; new links are followed as
//      in round 0 (they are not the plan's, so not in the budget).
//
// Learning (after each round, the seed's §3.4 loop): every page revisited
// in the round becomes an example -- positive when its fetch yielded new
// URLs (it was a hub of new pages), negative otherwise. The examples of all
// rounds (the most recent kMaxExamples) train a new model with a small grid
// and 5-fold CV; the new model replaces the old one only when its CV
// accuracy is not below the old model's accuracy on the same examples
// ("keep the old model when cross-validation says the new one is worse").
// Both classes must be present; otherwise the old model stays.
//
// Feature reading: the model's kind decides it
// (strategies/hub/hub_site_relative.h). The default -- the structural bootstrap, or a
// `train hub-svm --features url` file -- reads the seed's raw values; a
// `--features url-site` file makes the policy read site-relative features:
// each numeric feature as its percentile among the stored, not-gone pages
// of the same host in the crawl at that moment (the pages the plan scores),
// for scoring and for the examples it learns from. A full-set model (page
// size) is refused: the policy scores with the before-download set. The
// reading is saved in the state and a state whose model is of another
// reading is refused as corrupt.
//
// Memory: one 9-double feature row per stored page while planning (~100 B
// a page with its id; site-relative: the same again for the per-site
// sorted values), examples capped at kMaxExamples.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "classify/svm_model.h"
#include "crawl/rounds/round_graph.h"
#include "strategies/hub/hub_features.h"
#include "strategies/hub/hub_site_relative.h"
#include "strategies/hub/hub_structure.h"
#include "strategies/hub/hubs_policy.h"
#include "url/url.h"

namespace topicrawl {
namespace {

using hub::HubFeatureSet;
using hub::HubFeatureSpec;
constexpr HubFeatureSet kSet = HubFeatureSet::kBeforeDownload;
constexpr double kHubThreshold = 0.5;
// The examples kept for retraining (the most recent). With 4,000 and C up
// to 2^11 a retraining took 42-109 s CPU on the zh web (3.5 % positives:
// libsvm's SMO needs many iterations at large C on such data).
constexpr size_t kMaxExamples = 2000;
// The structural bootstrap trains on at most this many pages (the seed used
// 2,000); larger crawls are sampled, stratified by label, with the rng seed.
constexpr size_t kBootstrapSample = 2000;
// Version 2 adds the line "features url|url-site"; version 1 states (no
// such line) are raw before-download ones.
constexpr char kStateMagic[] = "topicrawl-hubs-policy 2";
constexpr char kStateMagicV1[] = "topicrawl-hubs-policy 1";

SvmGridOptions SmallGrid(uint64_t seed) {
  // A 3 x 4 grid with 5-fold CV: the policy trains between rounds, where
  // seconds matter more than the last percent of CV accuracy (`train
  // hub-svm` runs the full grid). C stops at 2^7: the large-C points cost
  // most of a grid's time (docs/strategies/hub-svm.md, Performance).
  SvmGridOptions g;
  g.log2c_min = -1, g.log2c_max = 7, g.log2c_step = 4;
  g.log2g_min = -9, g.log2g_max = 3, g.log2g_step = 4;
  g.folds = 5;
  g.threads = 2;
  g.seed = seed;
  // No early stop: at C <= 2^7 the solves converge (2-5 s CPU a
  // retraining); the default 20,000-iteration cap is for the full grid's
  // large C (on the zh web's 1,808 bootstrap rows both chose the same point).
  g.max_iterations = 0;
  return g;
}

hub::UrlObservation Observe(const KnownUrl& u) {
  hub::UrlObservation o;
  o.url = u.url;
  o.anchor = u.anchor;
  o.crawl_depth = u.depth;
  return o;
}

bool Stored(const KnownUrl& u) { return u.page_id != 0 && !u.gone(); }

// The reference population of site-relative features: every stored,
// not-gone page of the crawl, by host (the set Plan scores); none for a
// spec that reads the raw features.
StatusOr<std::optional<hub::SiteStatistics>> CrawlSiteStatistics(const HubFeatureSpec& spec,
                                                                 RoundHistory& history) {
  if (!spec.site_relative()) return std::optional<hub::SiteStatistics>();
  hub::SiteStatistics stats(kSet);
  std::vector<double> x(hub::HubFeatureNames(kSet).size());
  Status s = history.ForEachUrl([&](const KnownUrl& u) {
    if (!Stored(u)) return true;
    hub::HubFeaturesInto(Observe(u), kSet, x.data());
    stats.Add(u.host, x.data());
    return true;
  });
  if (!s.ok()) return s;
  stats.Finish();
  return std::optional<hub::SiteStatistics>(std::move(stats));
}

// Features of `u` as `spec` reads them into x (stats: site-relative only).
Status Encode(const HubFeatureSpec& spec, const hub::SiteStatistics* stats, const KnownUrl& u,
              double* x) {
  hub::HubFeaturesInto(Observe(u), kSet, x);
  return spec.site_relative() ? stats->Encode(u.host, x) : Status::Ok();
}

class HubsRoundPolicy : public RoundPolicy {
 public:
  explicit HubsRoundPolicy(const RoundPolicyContext& context)
      : model_file_(context.model_file), seed_(context.rng_seed) {}
  std::string_view Name() const override { return "hubs"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    if (!model_) {
      if (Status s = FirstModel(history); !s.ok()) return s;
    }
    int64_t scored = 0, predicted = 0;
    // The original seeds (home pages, the seed's first hubs) are revisited
    // every round. The runner revisits a known seed beyond the budget unless
    // it is among the revisits, so they are put there, first: revisits plus
    // seeds stay within --budget (otherwise 788 revisits for a budget of
    // 786 on the dev web, docs/strategies/hub-svm.md).
    const std::vector<std::string> seed_urls = SeedKeys(history.OriginalSeeds());
    const std::unordered_set<std::string_view> seed_keys(seed_urls.begin(), seed_urls.end());
    std::vector<UrlId> seed_ids;
    // One feature buffer for every page: this loop scores the whole crawl.
    std::vector<double> x(hub::HubFeatureNames(kSet).size());
    auto stats_or = CrawlSiteStatistics(spec_, history);
    if (!stats_or.ok()) return stats_or.status();
    const std::optional<hub::SiteStatistics>& stats = *stats_or;
    Status encode = Status::Ok();
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      if (!Stored(u)) return true;
      ++scored;
      if (seed_keys.contains(SchemeLess(u.url))) {
        seed_ids.push_back(u.url_id);
        return true;
      }
      encode = Encode(spec_, stats ? &*stats : nullptr, u, x.data());
      if (!encode.ok()) return false;
      const double p = model_->Probability(x);
      if (p >= kHubThreshold) ++predicted;
      if (p >= kHubThreshold || request.budget >= 0) plan->revisits.push_back({u.url_id, p});
      return true;
    });
    if (!s.ok()) return s;
    if (!encode.ok()) return encode;
    if (request.budget >= 0) {
      if (Status f = FuseWithParenthood(history, &plan->revisits); !f.ok()) return f;
    }
    // Above every fused priority (at most 2 / 61) and every probability.
    for (UrlId id : seed_ids) plan->revisits.push_back({id, 2.0});
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();  // unknown ones are queued as new seeds
    plan->follow_new_links = true;
    char note[512];
    std::snprintf(note, sizeof note,
                  "hubs: %lld of %lld pages predicted hubs (P >= %.2f), %zu revisits; model: %s "
                  "(%s features, C 2^%d, gamma 2^%d, CV accuracy %.3f)",
                  static_cast<long long>(predicted), static_cast<long long>(scored),
                  kHubThreshold, plan->revisits.size(), origin_.c_str(),
                  hub::HubFeatureSpecName(spec_).c_str(),
                  static_cast<int>(std::lround(std::log2(model_->c()))),
                  static_cast<int>(std::lround(std::log2(model_->gamma()))),
                  model_->cv_accuracy());
    plan->note = note;
    return Status::Ok();
  }

  Status OnRoundFinished(RoundHistory& history) override {
    const int round = history.last_round();
    absl::flat_hash_map<UrlId, int> label;
    Status s = history.ForEachOutcome(round, [&](const UrlOutcome& o) {
      if (o.revisit && o.state != UrlState::kGone && o.state != UrlState::kFailed) {
        label[o.url_id] = o.new_links > 0 ? 1 : 0;
      }
      return true;
    });
    if (!s.ok() || label.empty()) return s;
    if (Status added = AddLabelled(history, label, &examples_); !added.ok()) return added;
    if (examples_.size() > kMaxExamples) {  // keep the most recent rounds
      const size_t drop = examples_.size() - kMaxExamples;
      examples_.rows.erase(examples_.rows.begin(), examples_.rows.begin() + drop);
      examples_.labels.erase(examples_.labels.begin(), examples_.labels.begin() + drop);
    }
    return Retrain(round);
  }

  // The seeds in the stored URL's form, without the scheme (the runner's
  // de-duplication may ignore it).
  // A view: the scoring loop looks every stored URL up without allocating.
  static std::string_view SchemeLess(std::string_view url) {
    const size_t colon = url.find("://");
    return colon == std::string_view::npos ? url : url.substr(colon + 3);
  }
  static std::vector<std::string> SeedKeys(const std::vector<std::string>& seeds) {
    std::vector<std::string> keys;
    for (const std::string& seed : seeds) {
      if (auto url = ResolveLink("", seed)) keys.emplace_back(SchemeLess(*url));
    }
    return keys;
  }

  // With a budget the revisits are ranked by two kinds of evidence, fused
  // by reciprocal rank (Cormack, Clarke & Buettcher 2009, k = 60):
  //   * P(hub | URL features), the seed's classifier;
  //   * parenthood, known for every page the crawl downloaded: sum over the
  //     same-site pages T it links to of 1 / in-degree(T) (in-degree over
  //     the stored same-site pages). A directory page is the page its
  //     entries are reached from; a page that is the only linker of many
  //     pages is where a new entry of the same kind gets linked. On the zh
  //     web every LibreOffice help page has the same URL shape (numbered
  //     .html files), so the URL alone cannot tell a section's index from
  //     a leaf, and the SVM ranking found 35 % of round 1's new pages (as a
  //     random 20 % sample would: each new page has ~2 linkers); the link
  //     structure of round 0 can (docs/strategies/hub-svm.md).
  // Priority = 1/(60 + rank_url) + 1/(60 + rank_parenthood); ties in a
  // ranking share its best rank.
  static void Ranks(const std::vector<double>& key, std::vector<double>* rank) {
    std::vector<size_t> order(key.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key[a] > key[b]; });
    rank->assign(key.size(), 0);
    for (size_t r = 0; r < order.size(); ++r) {
      const bool tie = r > 0 && key[order[r]] == key[order[r - 1]];
      (*rank)[order[r]] = tie ? (*rank)[order[r - 1]] : static_cast<double>(r + 1);
    }
  }

  Status FuseWithParenthood(RoundHistory& history, std::vector<Revisit>* revisits) {
    auto g = RoundGraph::Read(history);
    if (!g.ok()) return g.status();
    const size_t n = g->url.size();
    // Each crawled page's sorted, deduplicated same-site child list, built
    // once into one array (CSR: page i's children are
    // kids[offset[i] .. offset[i + 1])); the in-degrees and the parenthood
    // sums both read it.
    std::vector<size_t> offset(n + 1, 0);
    std::vector<uint32_t> kids;
    for (uint32_t i = 0; i < n; ++i) {
      offset[i] = kids.size();
      if (!g->hub.pages[i].crawled) continue;
      for (uint32_t j : g->hub.links.Children(i)) {
        if (j != i && g->hub.pages[j].crawled && g->hub.pages[j].site == g->hub.pages[i].site) {
          kids.push_back(j);
        }
      }
      auto first = kids.begin() + static_cast<std::ptrdiff_t>(offset[i]);
      std::sort(first, kids.end());
      kids.erase(std::unique(first, kids.end()), kids.end());
    }
    offset[n] = kids.size();
    std::vector<uint32_t> indeg(n, 0);
    for (uint32_t j : kids) ++indeg[j];
    std::vector<double> parenthood(n, 0.0);
    for (uint32_t i = 0; i < n; ++i) {
      for (size_t k = offset[i]; k < offset[i + 1]; ++k) parenthood[i] += 1.0 / indeg[kids[k]];
    }
    std::vector<double> p_url(revisits->size()), p_par(revisits->size(), 0.0);
    for (size_t r = 0; r < revisits->size(); ++r) {
      p_url[r] = (*revisits)[r].priority;
      auto it = g->dense.find((*revisits)[r].url_id);
      if (it != g->dense.end()) p_par[r] = parenthood[it->second];
    }
    std::vector<double> rank_url, rank_par;
    Ranks(p_url, &rank_url);
    Ranks(p_par, &rank_par);
    for (size_t r = 0; r < revisits->size(); ++r) {
      (*revisits)[r].priority = 1.0 / (60 + rank_url[r]) + 1.0 / (60 + rank_par[r]);
    }
    return Status::Ok();
  }

  std::string SaveState() const override {
    std::ostringstream out;
    out << kStateMagic << "\n";
    out << "features " << hub::HubFeatureSpecName(spec_) << "\n";
    out << "origin " << origin_ << "\n";
    out << "examples " << examples_.size() << "\n";
    char buf[64];
    for (size_t i = 0; i < examples_.size(); ++i) {
      out << examples_.labels[i];
      for (double v : examples_.rows[i]) {
        std::snprintf(buf, sizeof buf, " %.17g", v);
        out << buf;
      }
      out << "\n";
    }
    out << "model\n";
    if (model_) out << model_->Serialize();
    return out.str();
  }

  Status RestoreState(std::string_view state) override {
    if (state.empty()) return Status::Ok();
    std::istringstream in{std::string(state)};
    std::string line;
    auto bad = [](const std::string& why) {
      return Status::Error("hubs round policy state is corrupt: " + why);
    };
    if (!std::getline(in, line) || (line != kStateMagic && line != kStateMagicV1)) {
      return bad("unknown header");
    }
    HubFeatureSpec spec;  // version 1: raw before-download features
    if (line == kStateMagic) {
      if (!std::getline(in, line) || line.rfind("features ", 0) != 0 ||
          !hub::ParseHubFeatureSpec(line.substr(9), &spec) || spec.set != kSet) {
        return bad("no or unknown features line (want 'features url' or 'features url-site')");
      }
    }
    if (!std::getline(in, line) || line.rfind("origin ", 0) != 0) return bad("no origin");
    origin_ = line.substr(7);
    size_t n = 0;
    if (!std::getline(in, line) || std::sscanf(line.c_str(), "examples %zu", &n) != 1) {
      return bad("no example count");
    }
    SvmDataset examples;
    examples.feature_names = hub::HubSpecFeatureNames(spec);
    const size_t dims = examples.feature_names.size();
    for (size_t i = 0; i < n; ++i) {
      if (!std::getline(in, line)) return bad("truncated examples");
      std::istringstream row(line);
      int label = -1;
      std::vector<double> x(dims);
      row >> label;
      for (double& v : x) row >> v;
      if (row.fail()) return bad("malformed example " + std::to_string(i));
      examples.Add(std::move(x), label);
    }
    if (Status s = examples.Validate(); !s.ok()) return bad(s.message());
    if (!std::getline(in, line) || line != "model") return bad("no model section");
    std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!rest.empty()) {
      // The model must read the features the state says (its kind).
      auto m = SvmModel::Parse(rest, hub::HubSpecModelKind(spec), "hubs round policy state");
      if (!m.ok()) return m.status();
      if (Status c = m->CheckFeatures(examples.feature_names); !c.ok()) return bad(c.message());
      model_ = std::move(m).value();
    }
    spec_ = spec;
    examples_ = std::move(examples);
    return Status::Ok();
  }

 private:
  Status FirstModel(RoundHistory& history) {
    if (!model_file_.empty()) {
      auto m = SvmModel::Load(model_file_, "");
      if (!m.ok()) return m.status();
      // The file's kind says which features it reads: raw or site-relative
      // before-download features; a full-set model needs page sizes the
      // plan does not use.
      HubFeatureSpec spec;
      if (!hub::HubSpecFromModelKind(m->kind(), &spec) || spec.set != kSet) {
        return Status::Error(model_file_ + ": is a '" + m->kind() +
                             "' model; the hubs round policy needs a before-download hub URL "
                             "model (train hub-svm --features url or url-site: kind " +
                             std::string(hub::HubSpecModelKind({kSet, hub::HubFeatureReading::kRaw})) +
                             " or " + std::string(hub::kSiteRelativeModelKind) + ")");
      }
      if (Status s = m->CheckFeatures(hub::HubSpecFeatureNames(spec)); !s.ok()) {
        return Status::Error(model_file_ + ": " + s.message());
      }
      if (examples_.size() > 0 && spec.reading != spec_.reading) {
        return Status::Error(model_file_ + ": reads " + hub::HubFeatureSpecName(spec) +
                             " features, but the policy's saved examples are " +
                             hub::HubFeatureSpecName(spec_));
      }
      spec_ = spec;
      examples_.feature_names = hub::HubSpecFeatureNames(spec_);
      model_ = std::move(m).value();
      origin_ = "file " + model_file_;
      return Status::Ok();
    }
    return Bootstrap(history);
  }

  // The structural label on the crawl's own graph, then a model on it.
  Status Bootstrap(RoundHistory& history) {
    auto g = RoundGraph::Read(history);
    if (!g.ok()) return g.status();
    std::vector<uint32_t> pages;  // dense ids of stored pages
    std::vector<uint32_t> index(g->url.size(), UINT32_MAX);
    for (uint32_t i = 0; i < g->url.size(); ++i) {
      if (g->hub.pages[i].crawled) {
        index[i] = static_cast<uint32_t>(pages.size());
        pages.push_back(i);
      }
    }
    std::vector<std::string> hosts(pages.size());
    std::vector<std::vector<size_t>> out(pages.size());
    for (size_t k = 0; k < pages.size(); ++k) {
      const uint32_t i = pages[k];
      hosts[k] = g->sites[g->hub.pages[i].site];
      for (uint32_t j : g->hub.links.Children(i)) {
        if (j != i && index[j] != UINT32_MAX && g->hub.pages[j].site == g->hub.pages[i].site) {
          out[k].push_back(index[j]);
        }
      }
      std::sort(out[k].begin(), out[k].end());
      out[k].erase(std::unique(out[k].begin(), out[k].end()), out[k].end());
    }
    hub::StructuralOptions options;
    hub::DropTemplateLinks(hosts, options.template_share, &out);
    const std::vector<int> labels = hub::StructuralLabels(hosts, out, options);
    absl::flat_hash_map<UrlId, int> label;
    for (size_t k = 0; k < pages.size(); ++k) label[g->url_id[pages[k]]] = labels[k];

    SvmDataset all;
    all.feature_names = hub::HubSpecFeatureNames(spec_);
    if (Status added = AddLabelled(history, label, &all); !added.ok()) return added;
    SvmDataset data = Sample(all, kBootstrapSample, seed_);
    const auto positives = std::count(data.labels.begin(), data.labels.end(), 1);
    if (positives < 2 || data.size() - positives < 2) {
      return Status::Error(
          "hubs round policy: the crawl's link graph gives " + std::to_string(positives) +
          " structural hubs among " + std::to_string(data.size()) +
          " sampled pages, too few to train a model; give one with --model "
          "(topicrawl train hub-svm --features url)");
    }
    auto m = SvmModel::Train(data, std::string(hub::HubSpecModelKind(spec_)), SmallGrid(seed_));
    if (!m.ok()) return m.status();
    model_ = std::move(m).value();
    origin_ = "structural labels of round " + std::to_string(history.last_round()) + " (" +
              std::to_string(positives) + " hubs of " + std::to_string(data.size()) + " pages)";
    return Status::Ok();
  }

  // Adds to `out` one row per stored URL that `label` names, encoded with
  // the model's feature reading (site-relative: percentiles among the
  // crawl's stored pages of its site; a URL of a site without reference
  // pages is left out). The learning step after a round and the bootstrap
  // from structural labels share it.
  Status AddLabelled(RoundHistory& history, const absl::flat_hash_map<UrlId, int>& label,
                     SvmDataset* out) const {
    auto stats_or = CrawlSiteStatistics(spec_, history);
    if (!stats_or.ok()) return stats_or.status();
    const std::optional<hub::SiteStatistics>& stats = *stats_or;
    Status encode = Status::Ok();
    std::vector<double> x(hub::HubFeatureNames(kSet).size());
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      auto it = label.find(u.url_id);
      if (it == label.end() || (stats && stats->SiteSize(u.host) == 0)) return true;
      encode = Encode(spec_, stats ? &*stats : nullptr, u, x.data());
      if (!encode.ok()) return false;
      out->Add(x, it->second);
      return true;
    });
    if (!s.ok()) return s;
    return encode;
  }

  // Up to `n` rows, stratified by label (the share of positives kept).
  static SvmDataset Sample(const SvmDataset& all, size_t n, uint64_t seed) {
    if (all.size() <= n) return all;
    const std::vector<int> folds = StratifiedFolds(all.labels, static_cast<int>(
        (all.size() + n - 1) / n), seed);
    SvmDataset out;
    out.feature_names = all.feature_names;
    for (size_t i = 0; i < all.size(); ++i) {
      if (folds[i] == 0) out.Add(all.rows[i], all.labels[i]);
    }
    return out;
  }

  Status Retrain(int round) {
    const auto positives = std::count(examples_.labels.begin(), examples_.labels.end(), 1);
    if (positives < 2 || examples_.size() - positives < 2) return Status::Ok();
    SvmTrainReport report;
    auto m = SvmModel::Train(examples_, std::string(hub::HubSpecModelKind(spec_)),
                             SmallGrid(seed_), &report);
    if (!m.ok()) return m.status();
    double old_accuracy = -1;
    if (model_) {
      size_t right = 0;
      for (size_t i = 0; i < examples_.size(); ++i) {
        right += model_->Predict(examples_.rows[i]) == examples_.labels[i];
      }
      old_accuracy = static_cast<double>(right) / static_cast<double>(examples_.size());
    }
    if (report.best.cv_accuracy >= old_accuracy) {
      model_ = std::move(m).value();
      origin_ = "retrained after round " + std::to_string(round) + " on " +
                std::to_string(examples_.size()) + " revisits (" + std::to_string(positives) +
                " yielded new pages)";
    }
    return Status::Ok();
  }

  std::string model_file_;
  uint64_t seed_ = 1;
  std::optional<SvmModel> model_;
  std::string origin_;
  // Which features the model reads (its kind); raw until a site-relative
  // model file or state says otherwise.
  HubFeatureSpec spec_{kSet, hub::HubFeatureReading::kRaw};
  SvmDataset examples_{hub::HubFeatureNames(kSet), {}, {}, {}};
};

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> NewHubsRoundPolicy(const RoundPolicyContext& context) {
  return std::unique_ptr<RoundPolicy>(new HubsRoundPolicy(context));
}

}  // namespace topicrawl
