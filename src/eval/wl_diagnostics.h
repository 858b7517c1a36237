// Diagnostics of a Wang-Landau crawl (seed 000, Algorithm 1), read from the
// files the WL link selector writes into the crawl directory:
//   wl_steps.tsv  one row per WL step: L, E1, E2, accepted (0/1), ln_f, flat
//                 (0/1: the flatness test passed at this step). Optional
//                 header row.
//   wl_dos.tsv    final state per energy bin: bin, energy, ln_g, H.
// Both are optional: a crawl with another strategy has neither, and a
// missing file is reported as absent, never as an error. Malformed rows are
// counted and skipped.
#ifndef TOPICRAWL_EVAL_WL_DIAGNOSTICS_H_
#define TOPICRAWL_EVAL_WL_DIAGNOSTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace topicrawl::eval {

// Seed 000: 50 energy bins of width 0.02 over R(l) in [0, 1].
constexpr int kWlBins = 50;
constexpr double kWlBinWidth = 0.02;

// One modification-factor stage: the steps run with one value of ln f.
struct WlStage {
  double ln_f = 0;
  int64_t first_step = 0;  // L of the first row with this ln f
  int64_t steps = 0;
  int64_t accepted = 0;
  double acceptance_rate = 0;
  int visited_bins = 0;  // bins with H > 0 in this stage (H resets per stage)
  // min H / mean H over the visited bins, rebuilt from the steps (seed 000:
  // accepted -> H(E2)++, rejected -> H(E1)++). 1 = perfectly flat.
  double flatness = 0;
};

struct WlStepSummary {
  int64_t steps = 0;
  int64_t accepted = 0;
  double acceptance_rate = 0;
  int64_t flat_steps = 0;     // rows with flat = 1
  int64_t malformed_rows = 0;
  std::vector<WlStage> stages;  // stage i+1 starts where ln f changed (halving)
};

struct WlDosBin {
  int bin = 0;
  double energy = 0;
  double ln_g = 0;
  double h = 0;
};

struct WlDos {
  std::vector<WlDosBin> bins;
  int64_t malformed_rows = 0;
  double flatness = 0;  // min H / mean H over bins with H > 0 (0 if none)
};

struct WlDiagnostics {
  std::optional<WlStepSummary> steps;  // nullopt: wl_steps.tsv absent
  std::optional<WlDos> dos;            // nullopt: wl_dos.tsv absent
  bool present() const { return steps || dos; }
};

// Parsers over file contents (for tests) and the directory reader.
WlStepSummary SummarizeWlSteps(const std::string& tsv);
WlDos ParseWlDos(const std::string& tsv);
WlDiagnostics ReadWlDiagnostics(const std::string& crawl_dir);

nlohmann::json WlDiagnosticsToJson(const WlDiagnostics& wl);
std::string WlDiagnosticsToText(const WlDiagnostics& wl);
// ln g over energy as an SVG line chart; bins never visited (ln g = H = 0)
// are left out.
std::string RenderDosChart(const WlDos& dos, const std::string& title);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_WL_DIAGNOSTICS_H_
