#include "eval/wl_diagnostics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "eval/labels.h"
#include "eval/svg_plot.h"

namespace topicrawl::eval {
namespace {

// Splits one TSV line into doubles; false if any field is not a number.
bool ParseNumbers(const std::string& line, std::vector<double>* out) {
  out->clear();
  std::istringstream fields(line);
  std::string field;
  while (std::getline(fields, field, '\t')) {
    try {
      size_t used = 0;
      double v = std::stod(field, &used);
      if (used != field.size() && field.find_first_not_of(" \r", used) != std::string::npos) {
        return false;
      }
      out->push_back(v);
    } catch (const std::exception&) {
      return false;
    }
  }
  return !out->empty();
}

int EnergyBin(double e) {
  // The epsilon keeps bin edges exact: 0.30 / 0.02 is 14.999... in binary
  // floating point but belongs to [0.30, 0.32) (seed 000: 0.621 -> [0.62, 0.64)).
  int bin = static_cast<int>(std::floor(e / kWlBinWidth + 1e-9));
  return std::clamp(bin, 0, kWlBins - 1);
}

// min/mean over the positive entries; 0 when there are none.
template <typename Container>
double Flatness(const Container& h, int* visited) {
  double sum = 0, min = 0;
  int n = 0;
  for (double v : h) {
    if (v <= 0) continue;
    min = n == 0 ? v : std::min(min, v);
    sum += v;
    ++n;
  }
  if (visited) *visited = n;
  return n == 0 ? 0.0 : min / (sum / n);
}

class StageBuilder {
 public:
  void Add(int64_t step, double e1, double e2, bool accepted, double ln_f) {
    if (stages_.empty() || stages_.back().ln_f != ln_f) Close(), Open(step, ln_f);
    WlStage& s = stages_.back();
    ++s.steps;
    if (accepted) ++s.accepted;
    h_[EnergyBin(accepted ? e2 : e1)] += 1;
  }
  std::vector<WlStage> Finish() {
    Close();
    return std::move(stages_);
  }

 private:
  void Open(int64_t step, double ln_f) {
    stages_.push_back(WlStage{ln_f, step, 0, 0, 0, 0, 0});
    h_.fill(0);
  }
  void Close() {
    if (stages_.empty()) return;
    WlStage& s = stages_.back();
    s.acceptance_rate = s.steps ? static_cast<double>(s.accepted) / s.steps : 0;
    s.flatness = Flatness(h_, &s.visited_bins);
  }
  std::vector<WlStage> stages_;
  std::array<double, kWlBins> h_{};
};

template <typename Fn>
void ForEachDataLine(const std::string& tsv, Fn fn) {
  std::istringstream in(tsv);
  std::string line;
  bool first = true;
  std::vector<double> v;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    bool ok = ParseNumbers(line, &v);
    if (first && !ok) {  // header row
      first = false;
      continue;
    }
    first = false;
    fn(ok, v);
  }
}

std::string F(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

WlStepSummary SummarizeWlSteps(const std::string& tsv) {
  WlStepSummary s;
  StageBuilder stages;
  ForEachDataLine(tsv, [&](bool ok, const std::vector<double>& v) {
    if (!ok || v.size() < 6) {
      ++s.malformed_rows;
      return;
    }
    bool accepted = v[3] != 0;
    ++s.steps;
    if (accepted) ++s.accepted;
    if (v[5] != 0) ++s.flat_steps;
    stages.Add(static_cast<int64_t>(v[0]), v[1], v[2], accepted, v[4]);
  });
  s.acceptance_rate = s.steps ? static_cast<double>(s.accepted) / s.steps : 0;
  s.stages = stages.Finish();
  return s;
}

WlDos ParseWlDos(const std::string& tsv) {
  WlDos dos;
  ForEachDataLine(tsv, [&](bool ok, const std::vector<double>& v) {
    if (!ok || v.size() < 4) {
      ++dos.malformed_rows;
      return;
    }
    dos.bins.push_back({static_cast<int>(v[0]), v[1], v[2], v[3]});
  });
  std::vector<double> h;
  for (const WlDosBin& b : dos.bins) h.push_back(b.h);
  dos.flatness = Flatness(h, nullptr);
  return dos;
}

WlDiagnostics ReadWlDiagnostics(const std::string& crawl_dir) {
  WlDiagnostics wl;
  std::filesystem::path dir(crawl_dir);
  if (!std::filesystem::is_directory(dir)) dir = dir.parent_path();
  std::string text;
  if (ReadWholeFile((dir / "wl_steps.tsv").string(), &text).ok()) {
    wl.steps = SummarizeWlSteps(text);
  }
  if (ReadWholeFile((dir / "wl_dos.tsv").string(), &text).ok()) {
    wl.dos = ParseWlDos(text);
  }
  return wl;
}

nlohmann::json WlDiagnosticsToJson(const WlDiagnostics& wl) {
  nlohmann::json j = nlohmann::json::object();
  if (wl.steps) {
    nlohmann::json stages = nlohmann::json::array();
    for (const WlStage& st : wl.steps->stages) {
      stages.push_back({{"ln_f", st.ln_f},
                        {"first_step", st.first_step},
                        {"steps", st.steps},
                        {"accepted", st.accepted},
                        {"acceptance_rate", st.acceptance_rate},
                        {"visited_bins", st.visited_bins},
                        {"flatness", st.flatness}});
    }
    j["steps"] = {{"steps", wl.steps->steps},
                  {"accepted", wl.steps->accepted},
                  {"acceptance_rate", wl.steps->acceptance_rate},
                  {"flat_steps", wl.steps->flat_steps},
                  {"malformed_rows", wl.steps->malformed_rows},
                  {"stages", stages}};
  }
  if (wl.dos) {
    j["dos"] = {{"bins", wl.dos->bins.size()},
                {"flatness", wl.dos->flatness},
                {"malformed_rows", wl.dos->malformed_rows}};
  }
  return j;
}

std::string WlDiagnosticsToText(const WlDiagnostics& wl) {
  std::ostringstream out;
  if (wl.steps) {
    const WlStepSummary& s = *wl.steps;
    out << "WL steps " << s.steps << ", accepted " << s.accepted << " ("
        << F(100 * s.acceptance_rate, 1) << " %), flat checks passed " << s.flat_steps;
    if (s.malformed_rows) out << ", malformed rows " << s.malformed_rows;
    out << "\n  ln f schedule (stage starts at step L):\n";
    for (const WlStage& st : s.stages) {
      out << "    L=" << st.first_step << "  ln f=" << F(st.ln_f, 6) << "  steps "
          << st.steps << "  accept " << F(100 * st.acceptance_rate, 1) << " %  bins "
          << st.visited_bins << "  flatness(min/mean H) " << F(st.flatness, 3) << '\n';
    }
  }
  if (wl.dos) {
    out << "WL final DOS: " << wl.dos->bins.size() << " bins, histogram flatness "
        << F(wl.dos->flatness, 3) << " (min/mean H over visited bins)\n";
  }
  return out.str();
}

std::string RenderDosChart(const WlDos& dos, const std::string& title) {
  PlotSeries s;
  s.name = "ln g(E)";
  for (const WlDosBin& b : dos.bins) {
    if (b.ln_g == 0 && b.h == 0) continue;  // never visited: g unknown
    s.x.push_back(b.energy);
    s.y.push_back(b.ln_g);
  }
  ChartOptions o;
  o.title = title;
  o.x_label = "energy E = R(l) (bin width 0.02)";
  o.y_label = "ln g(E)";
  o.x_min = 0;
  o.x_max = 1;
  return RenderLineChart(o, {s});
}

}  // namespace topicrawl::eval
