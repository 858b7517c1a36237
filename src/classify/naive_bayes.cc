#include "classify/naive_bayes.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "nlohmann/json.hpp"

namespace topicrawl {
namespace {

constexpr char kFormatName[] = "topicrawl-naive-bayes";

// log(exp(a) / (exp(a) + exp(b))) without overflow: the posterior of a two-
// class model from its joint log-probabilities.
double PosteriorOfFirst(double a, double b) {
  const double d = b - a;
  if (d > 0) {
    const double e = std::exp(-d);
    return e / (1.0 + e);
  }
  return 1.0 / (1.0 + std::exp(d));
}

// The format name and version of a parsed model file.
Status CheckNbModelHeader(const nlohmann::json& j, const std::string& where) {
  if (j.value("format", std::string()) != kFormatName) {
    return Status::Error(where + ": not a topicrawl Naive Bayes model (format is not \"" +
                         kFormatName + "\")");
  }
  if (!j.contains("version") || !j["version"].is_number_integer()) {
    return Status::Error(where + ": model has no integer \"version\"");
  }
  const int64_t version = j["version"].get<int64_t>();
  if (version != NaiveBayes::kFormatVersion) {
    return Status::Error(where + ": model format version " + std::to_string(version) +
                         " is not supported (this topicrawl reads version " +
                         std::to_string(NaiveBayes::kFormatVersion) +
                         "); retrain it with `topicrawl train`");
  }
  return Status::Ok();
}

// The per-feature class counts of "features", checked against the sample
// counts (binary events: a feature occurs at most once a sample); *sum gets
// their totals. Throws nlohmann::json::exception on a wrong type.
Status ReadNbFeatureCounts(const nlohmann::json& features, NbEventModel event_model,
                           const std::array<int64_t, 2>& samples, const std::string& where,
                           StringMap<std::array<int64_t, 2>>* counts,
                           std::array<int64_t, 2>* sum) {
  for (const auto& [f, c] : features.items()) {
    auto v = c.get<std::vector<int64_t>>();
    if (v.size() != 2 || v[0] < 0 || v[1] < 0) {
      return Status::Error(where + ": bad counts for feature \"" + f + "\"");
    }
    if (event_model == NbEventModel::kBinary && (v[0] > samples[0] || v[1] > samples[1])) {
      return Status::Error(where + ": feature \"" + f + "\" occurs in more samples than exist");
    }
    (*counts)[f] = {v[0], v[1]};
    (*sum)[0] += v[0];
    (*sum)[1] += v[1];
  }
  return Status::Ok();
}

}  // namespace

std::string_view NbEventModelName(NbEventModel model) {
  return model == NbEventModel::kBinary ? "binary" : "multinomial";
}

std::string_view NbModelKindName(NbModelKind kind) {
  return kind == NbModelKind::kLink ? "link" : "page";
}

NaiveBayes::NaiveBayes(NbModelKind kind, NbEventModel event_model,
                       double smoothing)
    : kind_(kind), event_model_(event_model), smoothing_(smoothing) {}

void NaiveBayes::Add(const std::vector<std::string>& features, bool positive) {
  const int c = positive ? 1 : 0;
  ++samples_[c];
  if (event_model_ == NbEventModel::kMultinomial) {
    for (const auto& f : features) ++counts_[f][c];
    totals_[c] += static_cast<int64_t>(features.size());
    return;
  }
  StringSet seen;
  for (const auto& f : features) {
    if (!seen.insert(f).second) continue;
    ++counts_[f][c];
    ++totals_[c];
  }
}

double NaiveBayes::LogLikelihood(const std::array<int64_t, 2>& count,
                                 int c) const {
  const double a = smoothing_;
  double denominator;
  if (event_model_ == NbEventModel::kBinary) {
    denominator = static_cast<double>(samples_[c]) + 2 * a;
  } else {
    denominator = static_cast<double>(totals_[c]) +
                  a * static_cast<double>(counts_.size());
  }
  return std::log((static_cast<double>(count[c]) + a) / denominator);
}

double NaiveBayes::FeatureProbability(std::string_view feature,
                                      bool positive) const {
  auto it = counts_.find(feature);
  std::array<int64_t, 2> zero{0, 0};
  return std::exp(LogLikelihood(it == counts_.end() ? zero : it->second,
                                positive ? 1 : 0));
}

NbScore NaiveBayes::Score(const std::vector<std::string>& features) const {
  NbScore s;
  const double n = static_cast<double>(samples_[0] + samples_[1]);
  s.log_negative = std::log(static_cast<double>(samples_[0]) / n);
  s.log_positive = std::log(static_cast<double>(samples_[1]) / n);
  auto add = [&](std::string_view f) {
    auto it = counts_.find(f);
    if (it == counts_.end()) {
      ++s.unknown;
      return;
    }
    ++s.known;
    s.log_negative += LogLikelihood(it->second, 0);
    s.log_positive += LogLikelihood(it->second, 1);
  };
  if (event_model_ == NbEventModel::kBinary) {
    StringSet seen;
    for (const auto& f : features) {
      if (seen.insert(f).second) add(f);
    }
  } else {
    for (const auto& f : features) add(f);
  }
  s.p_positive = PosteriorOfFirst(s.log_positive, s.log_negative);
  return s;
}

std::string NaiveBayes::ToJson() const {
  nlohmann::json j;
  j["format"] = kFormatName;
  j["version"] = kFormatVersion;
  j["kind"] = NbModelKindName(kind_);
  j["event_model"] = NbEventModelName(event_model_);
  j["smoothing"] = smoothing_;
  j["feature_group"] = feature_group;
  j["dictionary"] = dictionary;
  j["classes"] = {"-", "+"};
  j["samples"] = {samples_[0], samples_[1]};
  j["feature_totals"] = {totals_[0], totals_[1]};
  nlohmann::json features = nlohmann::json::object();
  for (const auto& [f, c] : counts_) features[f] = {c[0], c[1]};
  j["features"] = std::move(features);
  // Invalid UTF-8 in a feature must not make dump() throw.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

StatusOr<NaiveBayes> NaiveBayes::FromJson(std::string_view json,
                                          std::string_view source) {
  const std::string where(source);
  nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::Error(where + ": not a JSON model file");
  }
  if (Status s = CheckNbModelHeader(j, where); !s.ok()) return s;
  try {
    const std::string kind = j.at("kind").get<std::string>();
    const std::string em = j.at("event_model").get<std::string>();
    if (kind != "link" && kind != "page") {
      return Status::Error(where + ": unknown model kind \"" + kind + "\"");
    }
    if (em != "binary" && em != "multinomial") {
      return Status::Error(where + ": unknown event_model \"" + em + "\"");
    }
    const double a = j.at("smoothing").get<double>();
    if (!(a > 0) || !std::isfinite(a)) {
      return Status::Error(where + ": smoothing must be > 0");
    }
    NaiveBayes nb(kind == "link" ? NbModelKind::kLink : NbModelKind::kPage,
                  em == "binary" ? NbEventModel::kBinary : NbEventModel::kMultinomial, a);
    nb.feature_group = j.value("feature_group", 0);
    nb.dictionary = j.value("dictionary", std::vector<std::string>{});
    const auto samples = j.at("samples").get<std::vector<int64_t>>();
    const auto totals = j.at("feature_totals").get<std::vector<int64_t>>();
    if (samples.size() != 2 || totals.size() != 2) {
      return Status::Error(where + ": samples and feature_totals need two classes");
    }
    nb.samples_ = {samples[0], samples[1]};
    nb.totals_ = {totals[0], totals[1]};
    std::array<int64_t, 2> sum{0, 0};
    if (Status s = ReadNbFeatureCounts(j.at("features"), nb.event_model_, nb.samples_, where,
                                       &nb.counts_, &sum);
        !s.ok()) {
      return s;
    }
    if (sum != nb.totals_) {
      return Status::Error(where + ": feature counts do not add up to feature_totals");
    }
    if (!nb.Trainable()) {
      return Status::Error(where + ": model needs samples of both classes");
    }
    return nb;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(where + ": malformed model: " + e.what());
  }
}

Status NaiveBayes::Save(const std::string& path) const {
  if (!Trainable()) {
    return Status::Error("cannot save a model without samples of both classes");
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Error("cannot write " + tmp);
    out << ToJson();
    out.flush();
    if (!out) return Status::Error("write failed: " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::Error("cannot rename " + tmp + " to " + path);
  }
  return Status::Ok();
}

StatusOr<NaiveBayes> NaiveBayes::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read model file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return FromJson(ss.str(), path);
}

}  // namespace topicrawl
