// Opt-out signals of a stored page: what its publisher says about indexing,
// archiving, text and data mining and AI use, read from the stored HTTP
// response head and the page's <meta> elements.
//   X-Robots-Tag header and <meta name="robots"> (or "<agent>bot"):
//     noindex, noarchive, none, noai, noimageai (the directives of the
//     robots meta tag spec plus the "noai" family sites use for AI opt-out)
//   TDMRep (W3C Community Group report, 2024): the `tdm-reservation` header
//     and <meta name="tdm-reservation"> with value 1 reserve TDM rights;
//     `tdm-policy` (header or meta) is recorded with it.
// Each signal found is one string "<where>: <value>", e.g.
// "x-robots-tag: noai", "meta robots: noindex", "tdm-reservation: 1".
// Not covered here (need crawl-time fetches this reader does not have):
// robots.txt Content-Usage / Content-Signal lines (IETF aipref drafts) and
// /.well-known/tdmrep.json.
#ifndef TOPICRAWL_EXPORT_OPTOUT_H_
#define TOPICRAWL_EXPORT_OPTOUT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topicrawl {

struct OptOutSignals {
  std::vector<std::string> signals;
  bool reserved = false;  // a signal that excludes the page from a corpus
};

// `http_head`: the response head as stored (status line + fields, CRLF);
// `meta`: MainContent::opt_out_meta of the page.
OptOutSignals DetectOptOut(std::string_view http_head,
                           const std::vector<std::pair<std::string, std::string>>& meta);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_OPTOUT_H_
