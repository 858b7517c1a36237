#include "core/fetch_status.h"

#include <array>
#include <utility>

namespace topicrawl {
namespace {

constexpr std::array<std::pair<FetchStatus, std::string_view>, 19> kNames = {{
    {FetchStatus::kOk, "ok"},
    {FetchStatus::kNotModified, "not_modified"},
    {FetchStatus::kHttpError, "http_error"},
    {FetchStatus::kRobotsDenied, "robots_denied"},
    {FetchStatus::kFilteredOut, "filtered_out"},
    {FetchStatus::kContentTypeRejected, "content_type_rejected"},
    {FetchStatus::kTooLarge, "too_large"},
    {FetchStatus::kTooManyRedirects, "too_many_redirects"},
    {FetchStatus::kRedirectLoop, "redirect_loop"},
    {FetchStatus::kTimeout, "timeout"},
    {FetchStatus::kConnectError, "connect_error"},
    {FetchStatus::kDnsError, "dns_error"},
    {FetchStatus::kTlsError, "tls_error"},
    {FetchStatus::kPrivateAddress, "refused_address"},
    {FetchStatus::kBudgetExceeded, "budget_exceeded"},
    {FetchStatus::kParseError, "parse_error"},
    {FetchStatus::kOtherError, "other_error"},
    {FetchStatus::kHostFailed, "host_failed"},
    {FetchStatus::kTrapRefused, "trap_refused"},
}};

}  // namespace

std::string_view FetchStatusName(FetchStatus status) {
  for (const auto& [s, name] : kNames) {
    if (s == status) return name;
  }
  return "other_error";
}

std::optional<FetchStatus> FetchStatusFromName(std::string_view name) {
  if (name == "private_address") return FetchStatus::kPrivateAddress;  // before v0.2
  for (const auto& [s, n] : kNames) {
    if (n == name) return s;
  }
  return std::nullopt;
}

bool IsTransient(FetchStatus status, int http_code) {
  switch (status) {
    case FetchStatus::kTimeout:
    case FetchStatus::kConnectError:
    case FetchStatus::kDnsError:
      return true;
    case FetchStatus::kHttpError:
      return http_code == 429 || http_code == 503 || http_code == 502 ||
             http_code == 504;
    default:
      return false;
  }
}

}  // namespace topicrawl
