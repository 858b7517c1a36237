#include "url/url_filter.h"

// GCC 12's <regex> trips -Wmaybe-uninitialized inside libstdc++ when built
// with sanitizers (a false positive in std::function); silence it for the
// header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

#include "url/url.h"

namespace topicrawl {
namespace {

// The host of a canonical URL without re-parsing it: between "://" and the
// first '/', '?' or '#', after any userinfo, before any port. Canonical URLs
// already have lower-case hosts.
std::string_view CanonicalHost(std::string_view url) {
  size_t start = url.find("://");
  if (start == std::string_view::npos) return {};
  start += 3;
  size_t end = url.find_first_of("/?#", start);
  std::string_view authority = url.substr(start, end == std::string_view::npos
                                                     ? std::string_view::npos
                                                     : end - start);
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  size_t bracket = authority.rfind(']');
  size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos &&
      (bracket == std::string_view::npos || colon > bracket)) {
    authority = authority.substr(0, colon);
  }
  return authority;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

class HostUrlFilter : public UrlFilter {
 public:
  HostUrlFilter(std::vector<std::string> hosts, FilterDecision on_match,
                bool match_subdomains)
      : on_match_(on_match), match_subdomains_(match_subdomains) {
    for (std::string& h : hosts) {
      // Accept "https://Example.com/x" as well as "example.com"; the URL
      // parser gives the same host form as canonical URLs (punycode IDN,
      // dotted IPv4).
      std::string host =
          UrlHost(h.find("://") != std::string::npos ? h : "http://" + h);
      if (host.empty()) host = Lower(h);
      while (!host.empty() && host.back() == '.') host.pop_back();
      if (!host.empty()) hosts_.push_back(std::move(host));
    }
  }

  FilterDecision Decide(std::string_view url) const override {
    std::string_view host = CanonicalHost(url);
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    for (const std::string& h : hosts_) {
      if (host == h) return on_match_;
      if (match_subdomains_ && host.size() > h.size() &&
          host.substr(host.size() - h.size()) == h &&
          host[host.size() - h.size() - 1] == '.') {
        return on_match_;
      }
    }
    return FilterDecision::kNoOpinion;
  }

  std::string Describe() const override {
    std::string out = match_subdomains_ ? "host or subdomain of {" : "host in {";
    for (size_t i = 0; i < hosts_.size(); ++i) {
      if (i > 0) out += ", ";
      out += hosts_[i];
    }
    out += "} -> ";
    out += FilterDecisionName(on_match_);
    return out;
  }

 private:
  std::vector<std::string> hosts_;
  FilterDecision on_match_;
  bool match_subdomains_;
};

class RegexUrlFilter : public UrlFilter {
 public:
  RegexUrlFilter(std::string pattern, std::regex regex, FilterDecision on_match)
      : pattern_(std::move(pattern)), regex_(std::move(regex)), on_match_(on_match) {}

  FilterDecision Decide(std::string_view url) const override {
    return std::regex_search(url.begin(), url.end(), regex_)
               ? on_match_
               : FilterDecision::kNoOpinion;
  }

  std::string Describe() const override {
    return "regex /" + pattern_ + "/ -> " + std::string(FilterDecisionName(on_match_));
  }

 private:
  std::string pattern_;
  std::regex regex_;
  FilterDecision on_match_;
};

class MaxLengthUrlFilter : public UrlFilter {
 public:
  MaxLengthUrlFilter(size_t max_length, FilterDecision on_match)
      : max_length_(max_length), on_match_(on_match) {}
  FilterDecision Decide(std::string_view url) const override {
    return url.size() > max_length_ ? on_match_ : FilterDecision::kNoOpinion;
  }
  std::string Describe() const override {
    return "length > " + std::to_string(max_length_) + " -> " +
           std::string(FilterDecisionName(on_match_));
  }

 private:
  size_t max_length_;
  FilterDecision on_match_;
};

}  // namespace

std::string_view FilterDecisionName(FilterDecision decision) {
  switch (decision) {
    case FilterDecision::kAccept:
      return "accept";
    case FilterDecision::kReject:
      return "reject";
    case FilterDecision::kNoOpinion:
      break;
  }
  return "no_opinion";
}

std::unique_ptr<UrlFilter> NewHostUrlFilter(std::vector<std::string> hosts,
                                            FilterDecision on_match,
                                            bool match_subdomains) {
  return std::make_unique<HostUrlFilter>(std::move(hosts), on_match,
                                         match_subdomains);
}

StatusOr<std::unique_ptr<UrlFilter>> NewRegexUrlFilter(std::string_view pattern,
                                                       FilterDecision on_match) {
  try {
    std::regex regex(pattern.begin(), pattern.end(),
                     std::regex::ECMAScript | std::regex::optimize);
    return std::unique_ptr<UrlFilter>(std::make_unique<RegexUrlFilter>(
        std::string(pattern), std::move(regex), on_match));
  } catch (const std::regex_error& e) {
    return Status::Error("invalid URL regex '" + std::string(pattern) +
                         "': " + e.what());
  }
}

std::unique_ptr<UrlFilter> NewMaxLengthUrlFilter(size_t max_length,
                                                 FilterDecision on_match) {
  return std::make_unique<MaxLengthUrlFilter>(max_length, on_match);
}

FilterDecision UrlFilterChain::Decide(std::string_view url) const {
  FilterDecision decision = default_decision_;
  for (const auto& filter : filters_) {
    FilterDecision d = filter->Decide(url);
    if (d != FilterDecision::kNoOpinion) decision = d;
  }
  return decision;
}

}  // namespace topicrawl
