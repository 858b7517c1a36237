// The state of one URL in one crawl round (issue 11), shared by the store
// (fetches.state holds the integer value), the crawler that detects it, the
// round policies that plan with it and `eval`.
#ifndef TOPICRAWL_CORE_URL_STATE_H_
#define TOPICRAWL_CORE_URL_STATE_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace topicrawl {

enum class UrlState : uint8_t {
  kNotFetched = 0,        // not fetched in that round
  kNew = 1,               // first successful fetch of the URL
  kChanged = 2,           // new content: SimHash Hamming distance > 3
  kTriviallyChanged = 3,  // new content, Hamming distance <= 3 (template edit)
  kUnchanged = 4,         // 304 Not Modified, or 200 with an equal digest
  kGone = 5,              // 404 / 410; kept with its history
  kFailed = 6,            // any other failure; the stored version stays valid
};
std::string_view UrlStateName(UrlState state);
// nullopt for an unknown name.
std::optional<UrlState> ParseUrlState(std::string_view name);

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_URL_STATE_H_
