// FtrlProximal: online logistic regression over hashed sparse features with
// per-coordinate learning rates, "FTRL-Proximal" of McMahan et al., "Ad Click
// Prediction: a View from the Trenches", KDD 2013, Algorithm 1:
//
//   w_i = 0                                          if |z_i| <= lambda1
//       = -(z_i - sgn(z_i) lambda1) / ((beta + sqrt(n_i)) / alpha + lambda2)
//   p   = sigmoid(margin + sum_i w_i x_i)
//   g_i = (p - y) x_i
//   sigma_i = (sqrt(n_i + g_i^2) - sqrt(n_i)) / alpha
//   z_i += g_i - sigma_i w_i ;  n_i += g_i^2
//
// Two departures from the paper, both to fit a crawl: the label y may be any
// value in [0, 1] (a discounted reward, not a click), which keeps the
// log-loss gradient (p - y) x; and `margin` is a fixed per-example offset
// (the cold-start prior, as XGBoost's base_margin), so that an untrained
// model predicts sigmoid(margin) and learns only the correction.
//
// Memory is bounded: 2^bits slots of two floats (z, n); features are hashed
// into them (collisions are accepted, as in the paper's §4.3 "hashing
// trick"). bits = 20 is 8 MiB.
//
// Not thread-safe: the caller serialises Update against Predict.
#ifndef TOPICRAWL_STRATEGIES_ONLINE_FTRL_H_
#define TOPICRAWL_STRATEGIES_ONLINE_FTRL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class StateWriter;
class StateReader;

struct FtrlParams {
  double alpha = 0.1;    // per-coordinate rate scale
  double beta = 1.0;     // rate smoothing
  double lambda1 = 0.5;  // L1: coordinates with |z| below it stay at 0
  double lambda2 = 1.0;  // L2
  int bits = 20;         // 2^bits weight slots; 10..26
};

// One active feature: slot index and value x_i.
struct HashedFeature {
  uint32_t slot = 0;
  float value = 1.0f;
};

class FtrlProximal {
 public:
  explicit FtrlProximal(const FtrlParams& params);

  const FtrlParams& params() const { return params_; }
  uint32_t Slot(uint64_t feature_hash) const {
    return static_cast<uint32_t>(feature_hash & mask_);
  }
  // w_i of a slot (the closed form above).
  double Weight(uint32_t slot) const;
  // margin + sum_i w_i x_i, and its sigmoid.
  double Logit(const std::vector<HashedFeature>& x, double margin) const;
  double Predict(const std::vector<HashedFeature>& x, double margin) const;
  // One step on (x, y) with y in [0, 1]; returns the prediction before it.
  double Update(const std::vector<HashedFeature>& x, double margin, double y);

  uint64_t updates() const { return updates_; }
  size_t MemoryBytes() const { return (z_.size() + n_.size()) * sizeof(float); }

  // Section "ftrl" v1: the params, the update count, then the slots with
  // n_i > 0 in increasing order (delta-coded slot, f32 z, f32 n). Restore
  // refuses a state of other params.
  void Save(StateWriter* out) const;
  Status Restore(StateReader* in);

 private:
  FtrlParams params_;
  uint64_t mask_;
  std::vector<float> z_;
  std::vector<float> n_;
  uint64_t updates_ = 0;
};

double Sigmoid(double t);
double Logit(double p);  // p clamped to [1e-6, 1 - 1e-6]

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ONLINE_FTRL_H_
