// Self-contained SVG line charts for crawl curves (harvest / recall vs pages
// downloaded): axes with "nice" ticks, grid, axis labels, title, a legend,
// one polyline per series, an optional shaded band per series (mean +- sd),
// dashed reference lines (the oracle bound). Output is a complete standalone
// SVG 1.1 document that browsers and rsvg-convert open directly.
#ifndef TOPICRAWL_EVAL_SVG_PLOT_H_
#define TOPICRAWL_EVAL_SVG_PLOT_H_

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

struct PlotSeries {
  std::string name;        // legend text
  std::vector<double> x;   // same length as y; NaN y breaks the line
  std::vector<double> y;
  // Optional band, both empty or both x.size() long (e.g. mean -+ sd).
  std::vector<double> band_low;
  std::vector<double> band_high;
  bool dashed = false;     // reference lines (oracle)
  std::string color;       // CSS colour; empty: next palette colour
};

struct ChartOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  int width = 860;
  int height = 500;
  // Axis ranges; nullopt: from the data (y includes 0).
  std::optional<double> x_min, x_max, y_min, y_max;
  // Polylines are thinned to at most this many points (first and last kept).
  size_t max_points_per_series = 1500;
};

// Renders the chart. Series without points still get a legend entry.
std::string RenderLineChart(const ChartOptions& options,
                            const std::vector<PlotSeries>& series);

// About `target` evenly spaced round tick values (1, 2 or 5 x 10^k steps)
// covering [lo, hi]. Returns {lo} when lo == hi.
std::vector<double> NiceTicks(double lo, double hi, int target);

// Escapes & < > " ' for XML text and attribute values.
std::string XmlEscape(const std::string& text);

// Writes `content` to `path` (truncating).
Status WriteTextFile(const std::string& path, const std::string& content);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_SVG_PLOT_H_
