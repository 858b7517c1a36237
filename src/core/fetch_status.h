// The fate of one URL, recorded as data (never an exception, never an exit).
//
// Every URL the crawler admits ends with exactly one FetchStatus stored with
// it, including robots denials, filter rejections and parse problems.
#ifndef TOPICRAWL_CORE_FETCH_STATUS_H_
#define TOPICRAWL_CORE_FETCH_STATUS_H_

#include <optional>
#include <string_view>

namespace topicrawl {

enum class FetchStatus {
  kOk = 0,                // 2xx with an accepted body
  kNotModified,           // 304 on a conditional GET
  kHttpError,             // 4xx/5xx (http_code says which)
  kRobotsDenied,          // robots.txt disallows the URL
  kFilteredOut,           // URL filter (scope, length, scheme) rejected it
  kContentTypeRejected,   // Content-Type not in the accepted list
  kTooLarge,              // body exceeded the maximum size; aborted
  kTooManyRedirects,      // more redirects than the limit
  kRedirectLoop,          // a redirect chain revisited a URL
  kTimeout,               // connect, total or low-speed timeout
  kConnectError,          // refused, reset, unreachable
  kDnsError,              // host did not resolve
  kTlsError,              // certificate or handshake failure
  // The address connected to (after DNS, after redirects) is private,
  // loopback, link-local... and not allowed; stored as "refused_address"
  // with the address and the rule in the error text.
  kPrivateAddress,
  kBudgetExceeded,        // per-host page budget spent
  kParseError,            // body could not be parsed (recorded, page kept)
  kOtherError,            // anything else; the error text says what
  kHostFailed,            // the host exceeded its failure budget; not fetched
  kTrapRefused,           // a URL-trap rule refused it (pattern budget, params)
};

// Stable lower_snake_case name used in the database, logs and CLI output.
std::string_view FetchStatusName(FetchStatus status);

// Inverse of FetchStatusName; nullopt for an unknown name.
std::optional<FetchStatus> FetchStatusFromName(std::string_view name);

// True for statuses worth retrying later with back-off (timeouts, 429/503,
// connection failures).
bool IsTransient(FetchStatus status, int http_code);

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_FETCH_STATUS_H_
