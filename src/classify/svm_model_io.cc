// The SVM module's model file (format in the comment below): writing, and
// the strict, checked reading that refuses foreign, truncated or edited files.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "classify/svm_model.h"
#include "classify/svm_model_internal.h"
#include "core/hash.h"

namespace topicrawl {
namespace {

using svm_internal::ValidName;

constexpr std::string_view kMagic = "topicrawl-svm-model";
constexpr int kFormatVersion = 2;
// Version 1 (no weight and threshold lines) is still read: weight 1,
// threshold 0, which is what a version-1 model did.
constexpr int kOldestReadableVersion = 1;
constexpr size_t kMaxModelBytes = size_t{1} << 30;

std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------------------
// File format (one item per line, fields separated by one space):
//   topicrawl-svm-model 2
//   kind <name>
//   features <d>
//   feature <name> <min> <max>          (d lines, in vector order)
//   scale <lower> <upper>
//   c <C>
//   gamma <gamma>
//   cv <accuracy> <folds>
//   train <examples> <positives>
//   rho <rho>
//   platt <A> <B>
//   weight <positive class's C multiplier>   (version 2)
//   threshold <decision threshold>           (version 2)
//   sv <n>
//   <coef> <x_1> ... <x_d>              (n lines, scaled values)
//   checksum <Hash64Hex of all bytes above>

std::string SvmModel::Serialize() const {
  std::string s;
  s += std::string(kMagic) + " " + std::to_string(kFormatVersion) + "\n";
  s += "kind " + kind_ + "\n";
  s += "features " + std::to_string(feature_names_.size()) + "\n";
  for (size_t k = 0; k < feature_names_.size(); ++k) {
    s += "feature " + feature_names_[k] + " " + Num(scaler_.mins()[k]) + " " +
         Num(scaler_.maxs()[k]) + "\n";
  }
  s += "scale " + Num(scaler_.lower()) + " " + Num(scaler_.upper()) + "\n";
  s += "c " + Num(c_) + "\n";
  s += "gamma " + Num(gamma_) + "\n";
  s += "cv " + Num(cv_accuracy_) + " " + std::to_string(cv_folds_) + "\n";
  s += "train " + std::to_string(train_examples_) + " " + std::to_string(train_positives_) + "\n";
  s += "rho " + Num(rho_) + "\n";
  s += "platt " + Num(platt_a_) + " " + Num(platt_b_) + "\n";
  s += "weight " + Num(positive_weight_) + "\n";
  s += "threshold " + Num(threshold_) + "\n";
  s += "sv " + std::to_string(coef_.size()) + "\n";
  const size_t d = feature_names_.size();
  for (size_t i = 0; i < coef_.size(); ++i) {
    s += Num(coef_[i]);
    for (size_t k = 0; k < d; ++k) s += " " + Num(sv_[i * d + k]);
    s += "\n";
  }
  s += "checksum " + Hash64Hex(s) + "\n";
  return s;
}

Status SvmModel::Save(const std::string& path) const {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Error("cannot write " + tmp);
    out << Serialize();
    out.flush();
    if (!out) return Status::Error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::Error("cannot rename " + tmp + " to " + path);
  }
  return Status::Ok();
}

namespace {

// Strict line reader for the model file: every value must parse completely.
class ModelReader {
 public:
  ModelReader(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Status Error(const std::string& what) const {
    return Status::Error(std::string(source_) + ": line " + std::to_string(line_no_) + ": " + what);
  }
  // Next line split on single spaces; false at end of text.
  bool Next(std::vector<std::string_view>* fields) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++line_no_;
    fields->clear();
    size_t p = 0;
    while (p <= line.size()) {
      size_t q = line.find(' ', p);
      if (q == std::string_view::npos) q = line.size();
      fields->push_back(line.substr(p, q - p));
      p = q + 1;
    }
    return true;
  }
  // Reads a line "<key> v1 .. vn" with exactly n values.
  Status Expect(std::string_view key, size_t n, std::vector<std::string_view>* f) {
    if (!Next(f)) return Error("unexpected end of file, expected '" + std::string(key) + "'");
    if ((*f)[0] != key) return Error("expected '" + std::string(key) + "'");
    if (f->size() != n + 1) return Error("'" + std::string(key) + "' needs " + std::to_string(n) + " values");
    return Status::Ok();
  }
  Status Double(std::string_view s, double* v) const {
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(*v)) {
      return Error("bad number '" + std::string(s.substr(0, 40)) + "'");
    }
    return Status::Ok();
  }
  Status Size(std::string_view s, size_t max, size_t* v) const {
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || *v > max) {
      return Error("bad count '" + std::string(s.substr(0, 40)) + "'");
    }
    return Status::Ok();
  }

 private:
  std::string_view text_, source_;
  size_t pos_ = 0;
  int line_no_ = 0;
};

// The checksum covers every byte before the last line ("checksum <hex>");
// *body is what it covers.
Status CheckModelEnvelope(std::string_view text, const std::string& src, std::string_view* body) {
  if (text.substr(0, kMagic.size()) != kMagic) {
    return Status::Error(src + ": not a topicrawl SVM model (no '" + std::string(kMagic) +
                         "' header)");
  }
  size_t last = text.size() >= 2 ? text.rfind('\n', text.size() - 2) : std::string_view::npos;
  if (text.empty() || text.back() != '\n' || last == std::string_view::npos ||
      text.substr(last + 1, 9) != "checksum ") {
    return Status::Error(src + ": truncated model file (no checksum line)");
  }
  *body = text.substr(0, last + 1);
  std::string_view sum = text.substr(last + 10, text.size() - last - 11);
  if (sum != Hash64Hex(*body)) {
    return Status::Error(src + ": model file checksum mismatch (corrupted or edited)");
  }
  return Status::Ok();
}

// The model file's fields in file order, before they become an SvmModel.
struct ModelFileFields {
  int version = 0;
  std::string kind;
  std::vector<std::string> feature_names;
  std::vector<double> mins, maxs;
  double lower = 0, upper = 0;
  double c = 0, gamma = 0, cv_accuracy = 0;
  size_t folds = 0, train_examples = 0, train_positives = 0;
  double rho = 0, platt_a = 0, platt_b = 0;
  double positive_weight = 1, threshold = 0;  // version 1 files: the defaults
  std::vector<double> coef, sv;
};

// The format version and kind lines.
Status ReadModelHeader(ModelReader& r, std::string_view expected_kind, const std::string& src,
                       ModelFileFields* m) {
  std::vector<std::string_view> f;
  if (Status s = r.Expect(kMagic, 1, &f); !s.ok()) return s;
  for (int v = kOldestReadableVersion; v <= kFormatVersion; ++v) {
    if (f[1] == std::to_string(v)) m->version = v;
  }
  if (m->version == 0) {
    return r.Error("unsupported model format version " + std::string(f[1]) + " (this build reads " +
                   std::to_string(kOldestReadableVersion) + ".." + std::to_string(kFormatVersion) +
                   ")");
  }
  if (Status s = r.Expect("kind", 1, &f); !s.ok()) return s;
  m->kind = std::string(f[1]);
  if (!ValidName(m->kind)) return r.Error("bad kind");
  if (!expected_kind.empty() && m->kind != expected_kind) {
    return Status::Error(src + ": is a '" + m->kind + "' model, expected '" +
                         std::string(expected_kind) + "'");
  }
  return Status::Ok();
}

// The features with their training ranges, and the scaled range.
Status ReadModelScaling(ModelReader& r, ModelFileFields* m) {
  std::vector<std::string_view> f;
  size_t d = 0;
  if (Status s = r.Expect("features", 1, &f); !s.ok()) return s;
  if (Status s = r.Size(f[1], 4096, &d); !s.ok()) return s;
  if (d == 0) return r.Error("no features");
  m->mins.resize(d);
  m->maxs.resize(d);
  for (size_t k = 0; k < d; ++k) {
    if (Status s = r.Expect("feature", 3, &f); !s.ok()) return s;
    if (!ValidName(f[1])) return r.Error("bad feature name");
    m->feature_names.emplace_back(f[1]);
    if (Status s = r.Double(f[2], &m->mins[k]); !s.ok()) return s;
    if (Status s = r.Double(f[3], &m->maxs[k]); !s.ok()) return s;
    if (m->maxs[k] < m->mins[k]) return r.Error("feature max below min");
  }
  if (Status s = r.Expect("scale", 2, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m->lower); !s.ok()) return s;
  if (Status s = r.Double(f[2], &m->upper); !s.ok()) return s;
  if (!(m->upper > m->lower)) return r.Error("scale upper must exceed lower");
  return Status::Ok();
}

// C, gamma, the cross-validation and training figures, rho, Platt's
// sigmoid and (version 2) the class weight and threshold.
Status ReadModelFit(ModelReader& r, ModelFileFields* m) {
  std::vector<std::string_view> f;
  if (Status s = r.Expect("c", 1, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m->c); !s.ok()) return s;
  if (Status s = r.Expect("gamma", 1, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m->gamma); !s.ok()) return s;
  if (!(m->c > 0) || !(m->gamma > 0)) return r.Error("C and gamma must be > 0");
  if (Status s = r.Expect("cv", 2, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m->cv_accuracy); !s.ok()) return s;
  if (Status s = r.Size(f[2], 1u << 20, &m->folds); !s.ok()) return s;
  if (Status s = r.Expect("train", 2, &f); !s.ok()) return s;
  if (Status s = r.Size(f[1], size_t{1} << 40, &m->train_examples); !s.ok()) return s;
  if (Status s = r.Size(f[2], m->train_examples, &m->train_positives); !s.ok()) return s;
  if (Status s = r.Expect("rho", 1, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m->rho); !s.ok()) return s;
  if (Status s = r.Expect("platt", 2, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m->platt_a); !s.ok()) return s;
  if (Status s = r.Double(f[2], &m->platt_b); !s.ok()) return s;
  if (m->version >= 2) {
    if (Status s = r.Expect("weight", 1, &f); !s.ok()) return s;
    if (Status s = r.Double(f[1], &m->positive_weight); !s.ok()) return s;
    if (!(m->positive_weight > 0)) return r.Error("weight must be > 0");
    if (Status s = r.Expect("threshold", 1, &f); !s.ok()) return s;
    if (Status s = r.Double(f[1], &m->threshold); !s.ok()) return s;
  }
  return Status::Ok();
}

// "sv n", then n lines "coef x_1 .. x_d", then the end of the body.
Status ReadSupportVectors(ModelReader& r, size_t body_size, ModelFileFields* m) {
  std::vector<std::string_view> f;
  const size_t d = m->mins.size();
  size_t nsv = 0;
  if (Status s = r.Expect("sv", 1, &f); !s.ok()) return s;
  if (Status s = r.Size(f[1], body_size / (2 * (d + 1)), &nsv); !s.ok()) return s;
  m->coef.resize(nsv);
  m->sv.resize(nsv * d);
  for (size_t i = 0; i < nsv; ++i) {
    if (!r.Next(&f)) return r.Error("unexpected end of support vectors");
    if (f.size() != d + 1) return r.Error("support vector needs " + std::to_string(d + 1) + " values");
    if (Status s = r.Double(f[0], &m->coef[i]); !s.ok()) return s;
    for (size_t k = 0; k < d; ++k) {
      if (Status s = r.Double(f[k + 1], &m->sv[i * d + k]); !s.ok()) return s;
    }
  }
  if (r.Next(&f)) return r.Error("unexpected content after the support vectors");
  return Status::Ok();
}

}  // namespace

StatusOr<SvmModel> SvmModel::Parse(std::string_view text, std::string_view expected_kind,
                                   std::string_view source) {
  const std::string src(source);
  std::string_view body;
  if (Status s = CheckModelEnvelope(text, src, &body); !s.ok()) return s;
  ModelReader r(body, source);
  ModelFileFields fields;
  if (Status s = ReadModelHeader(r, expected_kind, src, &fields); !s.ok()) return s;
  if (Status s = ReadModelScaling(r, &fields); !s.ok()) return s;
  if (Status s = ReadModelFit(r, &fields); !s.ok()) return s;
  if (Status s = ReadSupportVectors(r, body.size(), &fields); !s.ok()) return s;
  SvmModel m;
  m.kind_ = std::move(fields.kind);
  m.feature_names_ = std::move(fields.feature_names);
  m.scaler_ = FeatureScaler(std::move(fields.mins), std::move(fields.maxs), fields.lower,
                            fields.upper);
  m.c_ = fields.c;
  m.gamma_ = fields.gamma;
  m.cv_accuracy_ = fields.cv_accuracy;
  m.cv_folds_ = static_cast<int>(fields.folds);
  m.train_examples_ = fields.train_examples;
  m.train_positives_ = fields.train_positives;
  m.rho_ = fields.rho;
  m.platt_a_ = fields.platt_a;
  m.platt_b_ = fields.platt_b;
  m.positive_weight_ = fields.positive_weight;
  m.threshold_ = fields.threshold;
  m.coef_ = std::move(fields.coef);
  m.sv_ = std::move(fields.sv);
  m.BuildPredictionLayout();
  return m;
}

StatusOr<SvmModel> SvmModel::Load(const std::string& path, std::string_view expected_kind) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read model " + path);
  in.seekg(0, std::ios::end);
  auto size = static_cast<std::streamoff>(in.tellg());
  if (size < 0 || static_cast<size_t>(size) > kMaxModelBytes) {
    return Status::Error(path + ": not a topicrawl SVM model (unreadable or larger than 1 GiB)");
  }
  in.seekg(0);
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), size);
  if (!in) return Status::Error("cannot read model " + path);
  return Parse(text, expected_kind, path);
}


}  // namespace topicrawl
