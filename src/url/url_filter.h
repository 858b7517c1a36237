// Scope rules for URLs, in the manner of Heritrix's DecideRules: each filter
// looks at one canonical URL and answers accept, reject or "no opinion";
// a UrlFilterChain applies its filters in order and the last opinion wins.
//
//   UrlFilterChain chain(FilterDecision::kReject);         // default: reject
//   chain.Add(NewHostUrlFilter({"example.com"}, FilterDecision::kAccept,
//                              /*match_subdomains=*/true));
//   chain.Add(NewRegexUrlFilter(R"(\.pdf$)", FilterDecision::kReject).value());
//   chain.Decide("https://www.example.com/a.pdf") == FilterDecision::kReject
//
// Filters are immutable after construction and safe to call from many
// threads at once.
#ifndef TOPICRAWL_URL_URL_FILTER_H_
#define TOPICRAWL_URL_URL_FILTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

enum class FilterDecision { kNoOpinion = 0, kAccept, kReject };

// "accept", "reject", "no_opinion".
std::string_view FilterDecisionName(FilterDecision decision);

class UrlFilter {
 public:
  virtual ~UrlFilter() = default;
  // `url` is a canonical absolute http(s) URL (url/url.h CanonicalizeUrl).
  virtual FilterDecision Decide(std::string_view url) const = 0;
  // Human-readable description for logs ("host in {example.com} -> accept").
  virtual std::string Describe() const = 0;
};

// Answers `on_match` when the URL's host (port ignored) equals one of
// `hosts`, or — with match_subdomains — ends with "." + one of them
// ("www.example.com" matches "example.com"; "badexample.com" does not);
// otherwise kNoOpinion. Entries may be bare hosts or URLs (their host is
// used) and are normalised like URL hosts (lower case, IDN to punycode).
// Empty entries are ignored.
std::unique_ptr<UrlFilter> NewHostUrlFilter(std::vector<std::string> hosts,
                                            FilterDecision on_match,
                                            bool match_subdomains);

// Answers `on_match` when the ECMAScript regular expression `pattern` is
// found anywhere in the URL (use ^...$ to anchor); otherwise kNoOpinion.
// Returns an error Status for an invalid pattern.
StatusOr<std::unique_ptr<UrlFilter>> NewRegexUrlFilter(
    std::string_view pattern, FilterDecision on_match);

// Answers `on_match` for URLs longer than max_length bytes (the crawler's
// standard length rule is kMaxUrlLength in url/url.h); else kNoOpinion.
std::unique_ptr<UrlFilter> NewMaxLengthUrlFilter(size_t max_length,
                                                 FilterDecision on_match);

// An ordered list of filters. Decide() returns the last non-kNoOpinion
// answer, or the chain's default when every filter has no opinion.
class UrlFilterChain {
 public:
  explicit UrlFilterChain(FilterDecision default_decision = FilterDecision::kAccept)
      : default_decision_(default_decision) {}
  void Add(std::unique_ptr<UrlFilter> filter) {
    filters_.push_back(std::move(filter));
  }
  FilterDecision Decide(std::string_view url) const;
  // True when Decide(url) is kAccept.
  bool Accepts(std::string_view url) const {
    return Decide(url) == FilterDecision::kAccept;
  }
  size_t size() const { return filters_.size(); }

 private:
  FilterDecision default_decision_;
  std::vector<std::unique_ptr<UrlFilter>> filters_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_URL_URL_FILTER_H_
