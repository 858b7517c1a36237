// The automatic link labels of seed 001 (001_596420367c7d3764 §3.2.2): a
// link whose target lies under a known on-topic site is a positive example,
// one under a known off-topic site a negative one, any other link is
// unlabelled. The seed lists domains ("http://finance.sina.com.cn/"); we
// accept a host or a host plus path prefix (the topic file's
// on_topic_prefixes / off_topic_prefixes), because on a documentation web a
// topic is often one directory of a big site
// ("www.kernel.org/doc/html/latest/networking/").
//
// Prefix syntax: [http(s)://]host[:port][/path...]. The scheme and port are
// ignored (http and https are one site, as in the crawler's de-duplication);
// the host is compared case-insensitively.
//   * "host": the URL's host equals it or is a subdomain of it
//     ("sina.com.cn" covers "finance.sina.com.cn").
//   * "host/path": the host is equal and the URL's path (with its query)
//     starts with "/path" (a plain string prefix, so write the trailing '/'
//     for a directory).
// The most specific matching prefix wins (host+path over host, longer over
// shorter, exact host over subdomain), so an on-topic directory can sit
// inside an off-topic site and vice versa.
//
// Thread-safety: immutable after Create(); Label() is thread-safe.
#ifndef TOPICRAWL_STRATEGIES_NAIVE_BAYES_URL_PREFIX_LABELER_H_
#define TOPICRAWL_STRATEGIES_NAIVE_BAYES_URL_PREFIX_LABELER_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

enum class PrefixLabel { kUnlabelled = -1, kNegative = 0, kPositive = 1 };

class UrlPrefixLabeler {
 public:
  // Errors: both lists empty, an empty or host-less prefix, or one prefix in
  // both lists.
  static StatusOr<UrlPrefixLabeler> Create(
      const std::vector<std::string>& on_topic,
      const std::vector<std::string>& off_topic);

  // The label of an absolute http(s) URL; anything unparsable is unlabelled.
  PrefixLabel Label(std::string_view url) const;

 private:
  struct Prefix {
    std::string host;  // lower case, no port
    std::string path;  // "" or starting with '/'
    PrefixLabel label = PrefixLabel::kUnlabelled;
    std::string text;  // as written
  };
  static StatusOr<Prefix> ParsePrefix(std::string_view text, PrefixLabel label);

  std::vector<Prefix> prefixes_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_NAIVE_BAYES_URL_PREFIX_LABELER_H_
