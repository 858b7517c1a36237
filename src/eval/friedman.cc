#include "eval/friedman.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace topicrawl::eval {
namespace {

constexpr double kEps = 1e-16;
constexpr int kMaxIterations = 1000;

// P(a, x) by its power series; converges fast for x < a + 1.
double GammaPSeries(double a, double x) {
  double term = 1.0 / a;
  double sum = term;
  for (int i = 1; i < kMaxIterations; ++i) {
    term *= x / (a + i);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * kEps) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Q(a, x) by its continued fraction (modified Lentz); for x >= a + 1.
double GammaQContinuedFraction(double a, double x) {
  const double tiny = std::numeric_limits<double>::min() / kEps;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < kMaxIterations; ++i) {
    double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < kEps) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

// sum over tie groups of (t^3 - t) in one block's values.
double TieTerm(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  double term = 0;
  size_t i = 0;
  while (i < values.size()) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[i]) ++j;
    double t = static_cast<double>(j - i + 1);
    term += t * t * t - t;
    i = j + 1;
  }
  return term;
}

}  // namespace

double RegularizedGammaP(double a, double x) {
  if (x <= 0) return 0.0;
  if (x < a + 1.0) return GammaPSeries(a, x);
  return 1.0 - GammaQContinuedFraction(a, x);
}

double RegularizedGammaQ(double a, double x) {
  if (x <= 0) return 1.0;
  if (x < a + 1.0) return 1.0 - GammaPSeries(a, x);
  return GammaQContinuedFraction(a, x);
}

double ChiSquareSurvival(double x, int df) {
  return RegularizedGammaQ(df / 2.0, x / 2.0);
}

std::vector<double> RankWithTies(const std::vector<double>& values,
                                 Direction direction) {
  // Key: NaN is worst whatever the direction.
  auto key = [&](size_t i) {
    double v = values[i];
    if (std::isnan(v)) return std::numeric_limits<double>::infinity();
    return direction == Direction::kHigherIsBetter ? -v : v;
  };
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return key(a) < key(b); });
  std::vector<double> ranks(values.size());
  size_t i = 0;
  while (i < order.size()) {
    size_t j = i;
    while (j + 1 < order.size() && key(order[j + 1]) == key(order[i])) ++j;
    double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2;
    for (size_t t = i; t <= j; ++t) ranks[order[t]] = mean_rank;
    i = j + 1;
  }
  return ranks;
}

StatusOr<FriedmanResult> FriedmanTest(const std::vector<std::vector<double>>& scores,
                                      const std::vector<Direction>& directions) {
  if (scores.empty()) return Status::Error("Friedman test: no metrics (blocks)");
  if (directions.size() != scores.size()) {
    return Status::Error("Friedman test: one direction per metric is needed");
  }
  FriedmanResult r;
  r.blocks = static_cast<int>(scores.size());
  r.treatments = static_cast<int>(scores[0].size());
  if (r.treatments < 2) return Status::Error("Friedman test: needs >= 2 strategies");
  for (const auto& row : scores) {
    if (static_cast<int>(row.size()) != r.treatments) {
      return Status::Error("Friedman test: every metric needs a value per strategy");
    }
  }
  const double n = r.blocks, k = r.treatments;
  std::vector<double> rank_sums(r.treatments, 0.0);
  double tie_sum = 0;
  for (size_t b = 0; b < scores.size(); ++b) {
    std::vector<double> ranks = RankWithTies(scores[b], directions[b]);
    for (int t = 0; t < r.treatments; ++t) rank_sums[t] += ranks[t];
    tie_sum += TieTerm(ranks);
    r.ranks.push_back(std::move(ranks));
  }
  double sum_sq = 0;
  for (double s : rank_sums) {
    r.mean_ranks.push_back(s / n);
    sum_sq += s * s;
  }
  double chi = 12.0 / (n * k * (k + 1)) * sum_sq - 3.0 * n * (k + 1);
  double correction = 1.0 - tie_sum / (n * k * (k * k - 1));
  // All values tied in every block: no evidence of any difference.
  r.chi_square = correction > 0 ? std::max(0.0, chi / correction) : 0.0;
  r.df = r.treatments - 1;
  r.p_value = ChiSquareSurvival(r.chi_square, r.df);
  double denominator = n * (k - 1) - r.chi_square;
  if (n > 1 && denominator > 0) {
    r.iman_davenport_f = (n - 1) * r.chi_square / denominator;
  }
  return r;
}

}  // namespace topicrawl::eval
