// Two-class Naive Bayes (positive "+" = on topic, negative "-" = off topic)
// for seed 001 (001_596420367c7d3764, §3.1 eq. 1-2) and the page judge of
// seeds 001 §4.3.2 and 004.
//
//   class(x) = argmax_c P(c) * prod_j P(F_j | c)                   (eq. 1)
//   Score    = P(+ | x) = 1 / (1 + exp(log P(-, x) - log P(+, x)))
//
// Everything is computed in log space (a page has thousands of words; the
// product underflows a double after ~700 of them).
//
// Two event models:
//   * kBinary (the seed's eq. 2, used for links): a sample is the SET of its
//     features. Count(F, c) = samples of class c that contain F, Count_c =
//     samples of class c, smoothed with Laplace's rule for a two-outcome
//     event (present / absent):
//         P(F | c) = (Count(F, c) + a) / (Count_c + 2a),   a = 1
//     As in eq. 1, only the features the link HAS enter the product (not a
//     full Bernoulli model, which would also multiply 1 - P(F|c) for every
//     absent vocabulary word): link contexts are a dozen words against a
//     vocabulary of tens of thousands, and absent words carry little
//     information while costing O(|V|) per link.
//   * kMultinomial (pages; seed 004 says multinomial with Laplace): a sample
//     is a bag of words; n(w, c) = occurrences of w in class c, N_c = all
//     word occurrences in class c, |V| = training vocabulary:
//         P(w | c) = (n(w, c) + a) / (N_c + a |V|)
//     Long documents are exactly what this model is made for (McCallum &
//     Nigam 1998: multinomial beats the binary model at large vocabularies).
//
// Priors are the class frequencies of the training samples, P(c) = Count_c /
// N. A feature never seen in training (in neither class) is ignored in both
// models: it carries no evidence about the class, and counting it would only
// add a length-dependent constant. Such features are reported as `unknown`.
//
// Thread-safety: const methods may be called from many threads at once; Add()
// needs exclusive access.
#ifndef TOPICRAWL_CLASSIFY_NAIVE_BAYES_H_
#define TOPICRAWL_CLASSIFY_NAIVE_BAYES_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/utf8_util.h"

namespace topicrawl {

enum class NbEventModel { kBinary, kMultinomial };
std::string_view NbEventModelName(NbEventModel model);

// What the classifier is for; the crawler refuses a model of the wrong kind.
enum class NbModelKind { kLink, kPage };
std::string_view NbModelKindName(NbModelKind kind);

// The posterior of one sample with the parts that made it.
struct NbScore {
  double p_positive = 0.5;   // P(+ | x)
  double log_positive = 0;   // log P(+) + sum log P(F_j | +)
  double log_negative = 0;   // log P(-) + sum log P(F_j | -)
  int known = 0;             // features (occurrences) that entered the product
  int unknown = 0;           // features ignored: never seen in training
  bool positive() const { return p_positive >= 0.5; }
};

class NaiveBayes {
 public:
  // The file format this build writes and reads.
  static constexpr int kFormatVersion = 1;

  NaiveBayes(NbModelKind kind, NbEventModel event_model,
             double smoothing = 1.0);

  // Training: adds one labelled sample. kBinary de-duplicates the features
  // of a sample itself (a set).
  void Add(const std::vector<std::string>& features, bool positive);

  // P(+ | features) with its log-space parts. REQUIRES: Trainable().
  NbScore Score(const std::vector<std::string>& features) const;

  // Both classes have at least one sample (otherwise P(c) = 0 and the model
  // cannot score).
  bool Trainable() const { return samples_[0] > 0 && samples_[1] > 0; }

  // Smoothed P(F | c) (class 1 = positive); for tests and explanations.
  double FeatureProbability(std::string_view feature, bool positive) const;

  // Model file: JSON {"format":"topicrawl-naive-bayes","version":1,...}.
  // Save fails on I/O errors or an untrainable model; Load fails on I/O
  // errors, a foreign format, an unknown version (the message names both
  // versions) or inconsistent counts.
  std::string ToJson() const;
  static StatusOr<NaiveBayes> FromJson(std::string_view json,
                                       std::string_view source);
  Status Save(const std::string& path) const;
  static StatusOr<NaiveBayes> Load(const std::string& path);

  // Metadata stored with the model: the link feature group (1 or 2; 0 for
  // pages) and the domain dictionary the features were extracted with, so
  // that the crawler extracts exactly the same features.
  int feature_group = 0;
  std::vector<std::string> dictionary;

  NbModelKind kind() const { return kind_; }
  NbEventModel event_model() const { return event_model_; }
  double smoothing() const { return smoothing_; }
  int64_t samples(bool positive) const { return samples_[positive]; }
  // kBinary: sum over samples of distinct features; kMultinomial: N_c.
  int64_t feature_total(bool positive) const { return totals_[positive]; }
  size_t vocabulary_size() const { return counts_.size(); }

 private:
  double LogLikelihood(const std::array<int64_t, 2>& count, int c) const;

  NbModelKind kind_;
  NbEventModel event_model_;
  double smoothing_;
  std::array<int64_t, 2> samples_{0, 0};  // [negative, positive]
  std::array<int64_t, 2> totals_{0, 0};
  StringMap<std::array<int64_t, 2>> counts_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CLASSIFY_NAIVE_BAYES_H_
