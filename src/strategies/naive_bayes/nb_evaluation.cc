#include "strategies/naive_bayes/nb_evaluation.h"

#include <cmath>

namespace topicrawl {
namespace {

double Ratio(int64_t a, int64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

}  // namespace

void BinaryMetrics::Add(bool predicted_positive, bool actual_positive) {
  if (predicted_positive) {
    ++(actual_positive ? tp : fp);
  } else {
    ++(actual_positive ? fn : tn);
  }
}

double BinaryMetrics::precision() const { return Ratio(tp, tp + fp); }
double BinaryMetrics::recall() const { return Ratio(tp, tp + fn); }
double BinaryMetrics::accuracy() const { return Ratio(tp + tn, total()); }
double BinaryMetrics::f1() const {
  const double p = precision(), r = recall();
  return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
}

NaiveBayes TrainLinkModel(const std::vector<LinkExample>& links, int group,
                          Split split, const std::vector<std::string>& dictionary) {
  NaiveBayes nb(NbModelKind::kLink, NbEventModel::kBinary);
  nb.feature_group = group;
  nb.dictionary = dictionary;
  for (const auto& l : links) {
    if (l.label < 0 || (split != Split::kNone && l.split != split)) continue;
    nb.Add(LinkFeatures(l.tokens, group), l.label == 1);
  }
  return nb;
}

NaiveBayes TrainPageModel(const std::vector<PageExample>& pages, Split split,
                          const std::vector<std::string>& dictionary) {
  NaiveBayes nb(NbModelKind::kPage, NbEventModel::kMultinomial);
  nb.dictionary = dictionary;
  for (const auto& p : pages) {
    if (p.label < 0 || (split != Split::kNone && p.split != split)) continue;
    nb.Add(p.tokens, p.label == 1);
  }
  return nb;
}

BinaryMetrics EvaluateLinks(const NaiveBayes& model, const std::vector<LinkExample>& links,
                            Split split, LinkView view) {
  BinaryMetrics m;
  if (!model.Trainable()) return m;
  for (const auto& l : links) {
    if (l.label < 0 || (split != Split::kNone && l.split != split)) continue;
    const auto x = view == LinkView::kFeatures ? LinkFeatures(l.tokens, model.feature_group)
                                               : LinkAsPageWords(l.tokens);
    m.Add(model.Score(x).positive(), l.label == 1);
  }
  return m;
}

void AddWords(const std::vector<std::string>& words, WordCounts* counts) {
  for (const auto& w : words) ++(*counts)[w];
}

KlResult KlDivergence(const WordCounts& p, const WordCounts& q) {
  KlResult r;
  r.vocabulary_p = p.size();
  r.vocabulary_q = q.size();
  for (const auto& [w, c] : p) {
    auto it = q.find(w);
    if (it == q.end() || c <= 0 || it->second <= 0) continue;
    ++r.common;
    r.tokens_p += c;
    r.tokens_q += it->second;
  }
  if (r.common == 0) return r;
  const double np = static_cast<double>(r.tokens_p);
  const double nq = static_cast<double>(r.tokens_q);
  for (const auto& [w, c] : p) {
    auto it = q.find(w);
    if (it == q.end() || c <= 0 || it->second <= 0) continue;
    const double pw = static_cast<double>(c) / np;
    const double qw = static_cast<double>(it->second) / nq;
    r.nats += pw * std::log(pw / qw);
  }
  r.bits = r.nats / std::log(2.0);
  return r;
}

}  // namespace topicrawl
