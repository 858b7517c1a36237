// Opt-out signals of a stored page: what its publisher says about indexing,
// archiving, text and data mining and AI use, read from the stored HTTP
// response head and the page's <meta> elements.
//   X-Robots-Tag header and <meta name="robots"> (or "<agent>bot"):
//     noindex, noarchive, none, noai, noimageai (the directives of the
//     robots meta tag spec plus the "noai" family sites use for AI opt-out)
//   TDMRep (W3C Community Group report, 2024): the `tdm-reservation` header
//     and <meta name="tdm-reservation"> with value 1 reserve TDM rights;
//     `tdm-policy` (header or meta) is recorded with it.
//   Content-Usage header (IETF aipref, draft-ietf-aipref-attach-04 §3) with
//     the preferences of draft-ietf-aipref-vocab ("train-ai=n, search=y").
// Each signal found is one string "<where>: <value>", e.g.
// "x-robots-tag: noai", "meta robots: noindex", "tdm-reservation: 1".
// The per-host signals (robots.txt Content-Usage / Content-Signal lines,
// /.well-known/tdmrep.json) are export/host_optout.h's.
#ifndef TOPICRAWL_EXPORT_OPTOUT_H_
#define TOPICRAWL_EXPORT_OPTOUT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace topicrawl {

struct OptOutSignals {
  std::vector<std::string> signals;
  bool reserved = false;  // a signal that excludes the page from a corpus
};

// `http_head`: the response head as stored (status line + fields, CRLF);
// `meta`: MainContent::opt_out_meta of the page.
OptOutSignals DetectOptOut(std::string_view http_head,
                           const std::vector<std::pair<std::string, std::string>>& meta);

// True when usage preferences ("train-ai=n, search=y" of Content-Usage,
// "search=yes, ai-train=no" of Content-Signal) deny some use: any member
// whose value is n or no (case-insensitive, quotes allowed). A corpus
// export serves search, analysis and training alike, so one denied use
// keeps the page out.
bool UsageReserves(std::string_view preferences);

// One rule of a TDMRep policy file (W3C TDMRep CG report §3.3): JSON array
// of {"location": pattern, "tdm-reservation": 0|1, "tdm-policy": URL}.
struct TdmRepRule {
  std::string location;  // robots.txt-style path pattern ('*', final '$')
  int reservation = 0;
  std::string policy;
};
// Rules in file order; an error for a body that is not such an array.
// Entries without a string location are skipped.
StatusOr<std::vector<TdmRepRule>> ParseTdmRepJson(std::string_view body);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_OPTOUT_H_
