// Friedman ranks and the Friedman test, as seed 000 uses them (tables 2, 4,
// 6): each metric is a block, each crawl strategy a treatment; strategies
// are ranked within each metric (1 = best), ties get the average of the
// ranks they span, and the average rank per strategy summarises it.
//
// The test statistic (Friedman 1937; with the usual tie correction, e.g.
// Conover, "Practical Nonparametric Statistics", §5.8):
//   chi2_F = [12 / (n k (k+1))] sum_j R_j^2 - 3 n (k+1)
//            ---------------------------------------------
//            1 - sum_blocks sum_ties (t^3 - t) / (n k (k^2 - 1))
// with n blocks, k treatments, R_j the rank sum of treatment j; under H0 it is
// approximately chi-square with k-1 degrees of freedom. The p-value uses the
// regularized upper incomplete gamma function Q(df/2, chi2/2) implemented
// here (Numerical Recipes §6.2: series for x < a+1, continued fraction
// otherwise); no external statistics library.
#ifndef TOPICRAWL_EVAL_FRIEDMAN_H_
#define TOPICRAWL_EVAL_FRIEDMAN_H_

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

enum class Direction { kHigherIsBetter, kLowerIsBetter };

// Ranks `values` (1 = best under `direction`); tied values share the mean of
// their ranks. NaN values rank last (tied among themselves).
std::vector<double> RankWithTies(const std::vector<double>& values, Direction direction);

struct FriedmanResult {
  int blocks = 0;                        // n (metrics)
  int treatments = 0;                    // k (strategies)
  std::vector<std::vector<double>> ranks;  // [block][treatment]
  std::vector<double> mean_ranks;        // per treatment
  double chi_square = 0;                 // tie-corrected statistic
  int df = 0;                            // k - 1
  double p_value = 1;                    // P(chi2_{df} >= chi_square)
  // Iman-Davenport F = (n-1) chi2 / (n(k-1) - chi2), reported for reference
  // (no p-value: it would need the F distribution). nullopt when undefined.
  std::optional<double> iman_davenport_f;
};

// scores[b][t]: metric b of strategy t; directions[b]: how metric b ranks.
// Fails when there are fewer than 2 treatments or 1 block, when rows have
// different lengths, or directions.size() != scores.size().
StatusOr<FriedmanResult> FriedmanTest(const std::vector<std::vector<double>>& scores,
                                      const std::vector<Direction>& directions);

// Regularized lower / upper incomplete gamma functions P(a, x), Q(a, x) for
// a > 0, x >= 0 (absolute accuracy ~1e-14).
double RegularizedGammaP(double a, double x);
double RegularizedGammaQ(double a, double x);
// P(X >= x) for X ~ chi-square with `df` degrees of freedom.
double ChiSquareSurvival(double x, int df);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_FRIEDMAN_H_
