#include "frontier/host_key.h"

#include <cctype>

namespace topicrawl {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool IsDefaultPort(std::string_view scheme, std::string_view port) {
  return (scheme == "http" && port == "80") ||
         (scheme == "https" && port == "443");
}

}  // namespace

std::optional<std::string> HostKeyOfUrl(std::string_view url) {
  size_t sep = url.find("://");
  if (sep == std::string_view::npos || sep == 0) return std::nullopt;
  std::string scheme = Lower(url.substr(0, sep));
  std::string_view rest = url.substr(sep + 3);
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  // The port colon is the last ':' after any IPv6 literal's closing ']'.
  size_t bracket = authority.rfind(']');
  size_t colon = authority.rfind(':');
  std::string_view host = authority;
  std::string_view port;
  if (colon != std::string_view::npos &&
      (bracket == std::string_view::npos || colon > bracket)) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return std::nullopt;
  std::string key = Lower(host);
  if (!port.empty() && !IsDefaultPort(scheme, port)) {
    key += ':';
    key += port;
  }
  return key;
}

}  // namespace topicrawl
