#include "eval/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

namespace topicrawl::eval {
namespace {

// Tableau 10: distinguishable, colour-blind tolerant.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                    "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                    "#9c755f", "#bab0ac"};

struct Frame {
  double left = 72, right = 190, top = 44, bottom = 58;  // margins (px)
  double width = 0, height = 0;                          // whole chart
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;                 // data ranges
  double PlotW() const { return width - left - right; }
  double PlotH() const { return height - top - bottom; }
  double X(double v) const { return left + (v - x0) / (x1 - x0) * PlotW(); }
  double Y(double v) const { return top + (y1 - v) / (y1 - y0) * PlotH(); }
};

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string TickLabel(double v, double step) {
  int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), v);
  return buf;
}

void DataRange(const std::vector<PlotSeries>& series, bool want_x, double* lo,
               double* hi) {
  *lo = std::numeric_limits<double>::infinity();
  *hi = -std::numeric_limits<double>::infinity();
  auto take = [&](const std::vector<double>& v) {
    for (double d : v) {
      if (std::isfinite(d)) {
        *lo = std::min(*lo, d);
        *hi = std::max(*hi, d);
      }
    }
  };
  for (const PlotSeries& s : series) {
    if (want_x) {
      take(s.x);
    } else {
      take(s.y);
      take(s.band_low);
      take(s.band_high);
    }
  }
  if (!std::isfinite(*lo)) *lo = 0, *hi = 1;
}

Frame MakeFrame(const ChartOptions& o, const std::vector<PlotSeries>& series) {
  Frame f;
  f.width = o.width;
  f.height = o.height;
  double lo, hi;
  DataRange(series, true, &lo, &hi);
  f.x0 = o.x_min.value_or(lo);
  f.x1 = o.x_max.value_or(hi);
  DataRange(series, false, &lo, &hi);
  f.y0 = o.y_min.value_or(std::min(0.0, lo));
  f.y1 = o.y_max.value_or(hi);
  if (!(f.x1 > f.x0)) f.x1 = f.x0 + 1;
  if (!(f.y1 > f.y0)) f.y1 = f.y0 + 1;
  // Round the automatic ends outwards to the tick grid.
  if (!o.y_max) {
    std::vector<double> t = NiceTicks(f.y0, f.y1, 6);
    if (t.size() > 1) {
      double step = t[1] - t[0];
      f.y1 = std::ceil(f.y1 / step - 1e-9) * step;
    }
  }
  return f;
}

// Evenly thinned indices of the first n points, first and last kept. Points
// whose y is not finite are always kept: a gap in the data stays a gap.
std::vector<size_t> Thin(size_t n, size_t max_points, const std::vector<double>& y) {
  std::vector<size_t> idx;
  if (n == 0) return idx;
  size_t stride = max_points < 2 ? 1 : std::max<size_t>(1, (n + max_points - 1) / max_points);
  for (size_t i = 0; i < n; ++i) {
    if (i % stride == 0 || i == n - 1 || (i < y.size() && !std::isfinite(y[i]))) {
      idx.push_back(i);
    }
  }
  return idx;
}

void Axes(const Frame& f, const ChartOptions& o, std::ostringstream& out) {
  out << "<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n";
  std::vector<double> xt = NiceTicks(f.x0, f.x1, 8), yt = NiceTicks(f.y0, f.y1, 6);
  double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1, ystep = yt.size() > 1 ? yt[1] - yt[0] : 1;
  for (double v : xt) {
    out << "<line x1=\"" << Num(f.X(v)) << "\" y1=\"" << Num(f.top) << "\" x2=\""
        << Num(f.X(v)) << "\" y2=\"" << Num(f.top + f.PlotH()) << "\"/>\n";
  }
  for (double v : yt) {
    out << "<line x1=\"" << Num(f.left) << "\" y1=\"" << Num(f.Y(v)) << "\" x2=\""
        << Num(f.left + f.PlotW()) << "\" y2=\"" << Num(f.Y(v)) << "\"/>\n";
  }
  out << "</g>\n<g class=\"axes\" stroke=\"#333\" stroke-width=\"1.2\" fill=\"none\">\n"
      << "<rect x=\"" << Num(f.left) << "\" y=\"" << Num(f.top) << "\" width=\""
      << Num(f.PlotW()) << "\" height=\"" << Num(f.PlotH()) << "\"/>\n</g>\n";
  out << "<g class=\"ticks\" font-size=\"12\" fill=\"#333\">\n";
  for (double v : xt) {
    out << "<text x=\"" << Num(f.X(v)) << "\" y=\"" << Num(f.top + f.PlotH() + 18)
        << "\" text-anchor=\"middle\">" << TickLabel(v, xstep) << "</text>\n";
  }
  for (double v : yt) {
    out << "<text x=\"" << Num(f.left - 8) << "\" y=\"" << Num(f.Y(v) + 4)
        << "\" text-anchor=\"end\">" << TickLabel(v, ystep) << "</text>\n";
  }
  out << "</g>\n<g class=\"labels\" fill=\"#111\">\n";
  out << "<text x=\"" << Num(f.left + f.PlotW() / 2) << "\" y=\"" << Num(f.height - 14)
      << "\" text-anchor=\"middle\" font-size=\"14\">" << XmlEscape(o.x_label) << "</text>\n";
  double ymid = f.top + f.PlotH() / 2;
  out << "<text x=\"18\" y=\"" << Num(ymid) << "\" text-anchor=\"middle\" font-size=\"14\" "
      << "transform=\"rotate(-90 18 " << Num(ymid) << ")\">" << XmlEscape(o.y_label)
      << "</text>\n";
  out << "<text x=\"" << Num(f.left + f.PlotW() / 2) << "\" y=\"26\" text-anchor=\"middle\" "
      << "font-size=\"16\" font-weight=\"bold\">" << XmlEscape(o.title) << "</text>\n</g>\n";
}

void Band(const Frame& f, const PlotSeries& s, const std::string& color,
          const std::vector<size_t>& idx, std::ostringstream& out) {
  if (s.band_low.size() != s.x.size() || s.band_high.size() != s.x.size()) return;
  std::ostringstream pts;
  for (size_t i : idx) pts << Num(f.X(s.x[i])) << ',' << Num(f.Y(s.band_high[i])) << ' ';
  for (auto it = idx.rbegin(); it != idx.rend(); ++it) {
    pts << Num(f.X(s.x[*it])) << ',' << Num(f.Y(s.band_low[*it])) << ' ';
  }
  out << "<polygon fill=\"" << color << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\""
      << pts.str() << "\"/>\n";
}

void Line(const Frame& f, const PlotSeries& s, const std::string& color,
          const std::vector<size_t>& idx, std::ostringstream& out) {
  std::string style = "fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" +
                      (s.dashed ? "1.6\" stroke-dasharray=\"6 4\"" : "2.2\"") +
                      " stroke-linejoin=\"round\"";
  std::ostringstream pts;
  size_t count = 0;
  auto flush = [&] {
    if (count > 0) out << "<polyline " << style << " points=\"" << pts.str() << "\"/>\n";
    pts.str("");
    count = 0;
  };
  for (size_t i : idx) {
    if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i])) {
      flush();
      continue;
    }
    pts << Num(f.X(s.x[i])) << ',' << Num(f.Y(s.y[i])) << ' ';
    ++count;
  }
  flush();
}

void Legend(const Frame& f, const std::vector<PlotSeries>& series,
            const std::vector<std::string>& colors, std::ostringstream& out) {
  double x = f.left + f.PlotW() + 16, y = f.top + 8;
  out << "<g class=\"legend\" font-size=\"13\" fill=\"#111\">\n";
  for (size_t i = 0; i < series.size(); ++i) {
    double cy = y + 22.0 * static_cast<double>(i);
    out << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(cy) << "\" x2=\"" << Num(x + 26)
        << "\" y2=\"" << Num(cy) << "\" stroke=\"" << colors[i] << "\" stroke-width=\"3\""
        << (series[i].dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>\n";
    out << "<text x=\"" << Num(x + 32) << "\" y=\"" << Num(cy + 4) << "\">"
        << XmlEscape(series[i].name) << "</text>\n";
  }
  out << "</g>\n";
}

}  // namespace

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!(hi > lo) || target < 1) return {lo};
  double raw = (hi - lo) / target;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  double first = std::ceil(lo / step - 1e-9) * step;
  for (double v = first; v <= hi + step * 1e-9; v += step) {
    ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  return ticks;
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string RenderLineChart(const ChartOptions& options,
                            const std::vector<PlotSeries>& series) {
  Frame f = MakeFrame(options, series);
  std::vector<std::string> colors;
  size_t next = 0;
  for (const PlotSeries& s : series) {
    colors.push_back(!s.color.empty() ? s.color : kPalette[next++ % std::size(kPalette)]);
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << options.width
      << "\" height=\"" << options.height << "\" viewBox=\"0 0 " << options.width << ' '
      << options.height << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      << "<title>" << XmlEscape(options.title) << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  Axes(f, options, out);
  out << "<defs><clipPath id=\"plot\"><rect x=\"" << Num(f.left) << "\" y=\"" << Num(f.top)
      << "\" width=\"" << Num(f.PlotW()) << "\" height=\"" << Num(f.PlotH())
      << "\"/></clipPath></defs>\n<g clip-path=\"url(#plot)\">\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const PlotSeries& si = series[i];
    Band(f, si, colors[i], Thin(si.x.size(), options.max_points_per_series, {}), out);
  }
  for (size_t i = 0; i < series.size(); ++i) {
    size_t n = std::min(series[i].x.size(), series[i].y.size());
    Line(f, series[i], colors[i], Thin(n, options.max_points_per_series, series[i].y), out);
  }
  out << "</g>\n";
  Legend(f, series, colors, out);
  out << "</svg>\n";
  return out.str();
}

Status WriteTextFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path);
  out << content;
  out.close();
  if (!out) return Status::Error("error writing " + path);
  return Status::Ok();
}

}  // namespace topicrawl::eval
