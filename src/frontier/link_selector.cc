#include "frontier/link_selector.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace topicrawl {

LinkRef SampleByScore(const SelectionView& view, HostId host,
                      std::mt19937_64& rng, int max_draws, bool* fell_back) {
  if (fell_back) *fell_back = false;
  HostStats stats = view.Stats(host);
  // Negative scores have zero weight; an empty wheel falls back to the top.
  if (stats.in_ram > 1 && stats.max_score > 0) {
    std::uniform_int_distribution<uint32_t> pick(
        0, static_cast<uint32_t>(stats.in_ram - 1));
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (int draw = 0; draw < max_draws; ++draw) {
      LinkRef ref{host, pick(rng)};
      double s = view.ScoreAt(ref);
      // Accept with s / s_max (Lipowski & Lipowska 2012, eq. 1).
      if (s > 0 && coin(rng) * stats.max_score < s) return ref;
    }
    if (fell_back) *fell_back = true;
  } else if (stats.in_ram > 1 && fell_back) {
    *fell_back = true;
  }
  return view.Top(host);
}

namespace {

using Factory =
    std::function<std::unique_ptr<LinkSelector>(const LinkSelectorOptions&)>;

// Adding a selector = one .cc, one test, one line here, one CMake line.
const std::vector<std::pair<std::string, Factory>>& Registry() {
  static const auto* registry = new std::vector<std::pair<std::string, Factory>>{
      {"bfs", [](const LinkSelectorOptions&) { return NewBfsLinkSelector(); }},
      {"best-first",
       [](const LinkSelectorOptions&) { return NewBestFirstLinkSelector(); }},
      {"region-roulette",
       [](const LinkSelectorOptions& o) {
         return NewRegionRouletteLinkSelector(o);
       }},
  };
  return *registry;
}

}  // namespace

std::vector<std::string> LinkSelectorNames() {
  std::vector<std::string> names;
  for (const auto& entry : Registry()) names.push_back(entry.first);
  return names;
}

StatusOr<std::unique_ptr<LinkSelector>> MakeLinkSelector(
    std::string_view name, const LinkSelectorOptions& options) {
  for (const auto& [known, factory] : Registry()) {
    if (known == name) return factory(options);
  }
  std::string message = "unknown link selector '" + std::string(name) +
                        "'; known selectors:";
  for (const auto& known : LinkSelectorNames()) message += " " + known;
  return Status::Error(message);
}

}  // namespace topicrawl
