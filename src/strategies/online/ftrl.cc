#include "strategies/online/ftrl.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "crawl/state_blob.h"

namespace topicrawl {

double Sigmoid(double t) {
  t = std::clamp(t, -35.0, 35.0);
  return 1.0 / (1.0 + std::exp(-t));
}

double Logit(double p) {
  p = std::clamp(p, 1e-6, 1.0 - 1e-6);
  return std::log(p / (1.0 - p));
}

FtrlProximal::FtrlProximal(const FtrlParams& params)
    : params_(params),
      mask_((uint64_t{1} << std::clamp(params.bits, 10, 26)) - 1),
      z_(mask_ + 1, 0.0f),
      n_(mask_ + 1, 0.0f) {
  params_.bits = std::clamp(params.bits, 10, 26);
}

double FtrlProximal::Weight(uint32_t slot) const {
  const double z = z_[slot];
  if (std::abs(z) <= params_.lambda1) return 0.0;
  const double sign = z < 0 ? -1.0 : 1.0;
  return -(z - sign * params_.lambda1) /
         ((params_.beta + std::sqrt(static_cast<double>(n_[slot]))) / params_.alpha +
          params_.lambda2);
}

double FtrlProximal::Logit(const std::vector<HashedFeature>& x, double margin) const {
  double t = margin;
  for (const HashedFeature& f : x) t += Weight(f.slot) * f.value;
  return t;
}

double FtrlProximal::Predict(const std::vector<HashedFeature>& x, double margin) const {
  return Sigmoid(Logit(x, margin));
}

double FtrlProximal::Update(const std::vector<HashedFeature>& x, double margin, double y) {
  // The weights of this step are those of the prediction (the paper
  // computes every w_i first, then updates z and n).
  std::vector<double> w(x.size());
  double t = margin;
  for (size_t k = 0; k < x.size(); ++k) {
    w[k] = Weight(x[k].slot);
    t += w[k] * x[k].value;
  }
  const double p = Sigmoid(t);
  for (size_t k = 0; k < x.size(); ++k) {
    const uint32_t i = x[k].slot;
    const double g = (p - y) * x[k].value;
    const double n = n_[i];
    const double sigma = (std::sqrt(n + g * g) - std::sqrt(n)) / params_.alpha;
    z_[i] = static_cast<float>(z_[i] + g - sigma * w[k]);
    n_[i] = static_cast<float>(n + g * g);
  }
  ++updates_;
  return p;
}

namespace {
constexpr uint32_t kFtrlVersion = 1;

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}
}  // namespace

void FtrlProximal::Save(StateWriter* out) const {
  out->Section("ftrl", kFtrlVersion);
  out->F64(params_.alpha);
  out->F64(params_.beta);
  out->F64(params_.lambda1);
  out->F64(params_.lambda2);
  out->U32(static_cast<uint32_t>(params_.bits));
  out->U64(updates_);
  uint64_t used = 0;
  for (float n : n_) used += n > 0 ? 1 : 0;
  out->U64(used);
  uint64_t last = 0;
  for (uint64_t i = 0; i < n_.size(); ++i) {
    if (!(n_[i] > 0)) continue;
    out->Var(i - last);
    last = i;
    out->U32(FloatBits(z_[i]));
    out->U32(FloatBits(n_[i]));
  }
}

Status FtrlProximal::Restore(StateReader* in) {
  uint32_t version = 0;
  if (Status s = in->Section("ftrl", kFtrlVersion, &version); !s.ok()) return s;
  FtrlParams p;
  uint32_t bits = 0;
  uint64_t updates = 0, used = 0;
  if (!in->F64(&p.alpha, "alpha") || !in->F64(&p.beta, "beta") ||
      !in->F64(&p.lambda1, "lambda1") || !in->F64(&p.lambda2, "lambda2") ||
      !in->U32(&bits, "bits") || !in->U64(&updates, "updates") ||
      !in->Count(&used, 9, "weights")) {
    return in->status();
  }
  if (p.alpha != params_.alpha || p.beta != params_.beta || p.lambda1 != params_.lambda1 ||
      p.lambda2 != params_.lambda2 || static_cast<int>(bits) != params_.bits) {
    return Status::Error(
        "ftrl: the saved model was trained with other [strategy.online] learner settings "
        "(alpha, beta, lambda1, lambda2, hash_bits)");
  }
  std::fill(z_.begin(), z_.end(), 0.0f);
  std::fill(n_.begin(), n_.end(), 0.0f);
  uint64_t slot = 0;
  for (uint64_t k = 0; k < used; ++k) {
    uint64_t delta = 0;
    uint32_t z = 0, n = 0;
    if (!in->Var(&delta, "slot") || !in->U32(&z, "z") || !in->U32(&n, "n")) return in->status();
    slot += delta;
    if (slot >= n_.size() || (k > 0 && delta == 0)) {
      return Status::Error("ftrl: weight slot out of range or repeated");
    }
    const float zf = BitsFloat(z), nf = BitsFloat(n);
    if (!std::isfinite(zf) || !std::isfinite(nf) || nf <= 0) {
      return Status::Error("ftrl: a saved weight is not a finite number");
    }
    z_[slot] = zf;
    n_[slot] = nf;
  }
  updates_ = updates;
  return Status::Ok();
}

}  // namespace topicrawl
