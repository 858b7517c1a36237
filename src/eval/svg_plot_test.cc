#include "eval/svg_plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#ifdef TOPICRAWL_HAVE_EXPAT
#include <expat.h>
#endif

namespace topicrawl::eval {
namespace {

// Well-formedness (XML 1.0) checked by a real parser, plus the root element.
::testing::AssertionResult IsWellFormedSvg(const std::string& svg) {
#ifdef TOPICRAWL_HAVE_EXPAT
  XML_Parser parser = XML_ParserCreate("UTF-8");
  struct State {
    std::string root;
  } state;
  XML_SetUserData(parser, &state);
  XML_SetStartElementHandler(parser, [](void* data, const XML_Char* name, const XML_Char**) {
    auto* s = static_cast<State*>(data);
    if (s->root.empty()) s->root = name;
  });
  XML_Status ok = XML_Parse(parser, svg.data(), static_cast<int>(svg.size()), 1);
  std::string error = ok == XML_STATUS_OK ? "" : XML_ErrorString(XML_GetErrorCode(parser));
  unsigned long line = XML_GetCurrentLineNumber(parser);
  XML_ParserFree(parser);
  if (ok != XML_STATUS_OK) {
    return ::testing::AssertionFailure() << "line " << line << ": " << error;
  }
  if (state.root != "svg") return ::testing::AssertionFailure() << "root is " << state.root;
  return ::testing::AssertionSuccess();
#else
  (void)svg;
  return ::testing::AssertionFailure() << "built without expat";
#endif
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::vector<PlotSeries> TwoStrategies() {
  PlotSeries a, b, oracle;
  a.name = "wl & best-first <v2>";
  b.name = "bfs";
  for (int i = 1; i <= 3000; ++i) {
    a.x.push_back(i);
    a.y.push_back(0.5 + 0.3 * std::sin(i / 300.0));
    a.band_low.push_back(a.y.back() - 0.05);
    a.band_high.push_back(a.y.back() + 0.05);
    b.x.push_back(i);
    b.y.push_back(i == 1500 ? std::nan("") : 0.2);
  }
  oracle.name = "oracle bound";
  oracle.dashed = true;
  oracle.x = {1, 955, 3000};
  oracle.y = {1, 1, 955.0 / 3000};
  return {a, b, oracle};
}

TEST(SvgPlotTest, NiceTicksUseRoundSteps) {
  // By hand: 5 ticks over [0, 1] -> raw step 0.25, rounded down to the
  // nice step 0.2 -> 0, 0.2, ..., 1 (six ticks; compared to the decimal
  // values, not to a particular floating-point rounding of 3 x 0.2).
  const std::vector<double> want = {0, 0.2, 0.4, 0.6, 0.8, 1};
  std::vector<double> unit = NiceTicks(0, 1, 5);
  ASSERT_EQ(unit.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(unit[i], want[i], 1e-12) << i;
  std::vector<double> t = NiceTicks(0, 15000, 8);
  ASSERT_EQ(t.size(), 8u);
  EXPECT_EQ(t[1], 2000);
  EXPECT_EQ(t.back(), 14000);
  EXPECT_EQ(NiceTicks(3, 3, 5), (std::vector<double>{3}));
}

TEST(SvgPlotTest, ChartIsWellFormedWithLegendBandAndBrokenLine) {
  ChartOptions o;
  o.title = "Harvest \"rate\" vs pages";
  o.x_label = "pages downloaded";
  o.y_label = "harvest";
  o.y_min = 0;
  o.y_max = 1;
  std::string svg = RenderLineChart(o, TwoStrategies());
  EXPECT_TRUE(IsWellFormedSvg(svg));
  EXPECT_NE(svg.find("wl &amp; best-first &lt;v2&gt;"), std::string::npos);
  EXPECT_NE(svg.find("Harvest &quot;rate&quot; vs pages"), std::string::npos);
  EXPECT_EQ(Count(svg, "<polygon"), 1u);          // one band
  EXPECT_EQ(Count(svg, "<polyline"), 4u);         // a, b split by NaN, oracle
  EXPECT_EQ(Count(svg, "stroke-dasharray"), 2u);  // oracle line + its legend key
  EXPECT_NE(svg.find(">pages downloaded<"), std::string::npos);
  // Every plotted coordinate lies inside the canvas.
  std::regex pair(R"((-?[0-9.]+),(-?[0-9.]+))");
  size_t points = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pair);
       it != std::sregex_iterator(); ++it, ++points) {
    double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    ASSERT_GE(x, 0);
    ASSERT_LE(x, o.width);
    ASSERT_GE(y, 0);
    ASSERT_LE(y, o.height);
  }
  EXPECT_GT(points, 1000u);
  EXPECT_LT(points, 8000u);  // thinned to <= 1500 points per series
}

TEST(SvgPlotTest, EmptyAndDegenerateInputsStillRender) {
  EXPECT_TRUE(IsWellFormedSvg(RenderLineChart(ChartOptions(), {})));
  PlotSeries flat;
  flat.name = "one point";
  flat.x = {5};
  flat.y = {0.5};
  EXPECT_TRUE(IsWellFormedSvg(RenderLineChart(ChartOptions(), {flat})));
  PlotSeries control;
  control.name = std::string("bad\x01name");
  EXPECT_TRUE(IsWellFormedSvg(RenderLineChart(ChartOptions(), {control})));
}

TEST(SvgPlotTest, XmlEscapeEscapesAllFive) {
  EXPECT_EQ(XmlEscape("a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
}

}  // namespace
}  // namespace topicrawl::eval
