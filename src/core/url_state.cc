#include "core/url_state.h"

#include <iterator>

namespace topicrawl {
namespace {

constexpr std::string_view kStateNames[] = {
    "not_fetched", "new", "changed", "trivially_changed", "unchanged", "gone", "failed"};

}  // namespace

std::string_view UrlStateName(UrlState state) {
  const auto i = static_cast<size_t>(state);
  return i < std::size(kStateNames) ? kStateNames[i] : "unknown";
}

std::optional<UrlState> ParseUrlState(std::string_view name) {
  for (size_t i = 0; i < std::size(kStateNames); ++i) {
    if (kStateNames[i] == name) return static_cast<UrlState>(i);
  }
  return std::nullopt;
}

}  // namespace topicrawl
