#include "fetch/address_policy.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace topicrawl {
namespace {

bool IsPrivateV4(uint32_t a) {  // host byte order
  auto in = [a](uint32_t net, int bits) {
    uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
    return (a & mask) == net;
  };
  return in(0x00000000, 8) || in(0x0A000000, 8) || in(0x64400000, 10) ||
         in(0x7F000000, 8) || in(0xA9FE0000, 16) || in(0xAC100000, 12) ||
         in(0xC0000000, 24) || in(0xC0A80000, 16) || in(0xC6120000, 15) ||
         in(0xE0000000, 4) || in(0xF0000000, 4);
}

bool IsPrivateV6(const in6_addr& a) {
  const uint8_t* b = a.s6_addr;
  static const uint8_t kZero[16] = {};
  if (std::memcmp(b, kZero, 15) == 0 && (b[15] == 0 || b[15] == 1)) return true;
  if ((b[0] & 0xFE) == 0xFC) return true;                   // fc00::/7
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return true;   // fe80::/10
  if (b[0] == 0xFF) return true;                            // multicast
  bool mapped = std::memcmp(b, kZero, 10) == 0 && b[10] == 0xFF && b[11] == 0xFF;
  bool compat = std::memcmp(b, kZero, 12) == 0;
  if (mapped || compat) {
    uint32_t v4 = (uint32_t{b[12]} << 24) | (uint32_t{b[13]} << 16) |
                  (uint32_t{b[14]} << 8) | b[15];
    return IsPrivateV4(v4);
  }
  return false;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits off one "host" field (bracketed IPv6 allowed) up to the next ':'.
bool TakeHost(std::string_view* rest, std::string* host) {
  if (!rest->empty() && rest->front() == '[') {
    size_t close = rest->find(']');
    if (close == std::string_view::npos) return false;
    *host = std::string(rest->substr(0, close + 1));
    rest->remove_prefix(close + 1);
  } else {
    size_t colon = rest->find(':');
    *host = std::string(rest->substr(0, colon));
    rest->remove_prefix(colon == std::string_view::npos ? rest->size() : colon);
  }
  if (rest->empty() || rest->front() != ':') return false;
  rest->remove_prefix(1);
  return true;
}

// Parses an optional port field; empty -> -1.
bool TakePort(std::string_view field, int* port) {
  if (field.empty()) {
    *port = -1;
    return true;
  }
  auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), *port);
  return ec == std::errc() && ptr == field.data() + field.size() && *port > 0 &&
         *port < 65536;
}

}  // namespace

bool IsPrivateAddress(const sockaddr* address) {
  if (address == nullptr) return true;
  if (address->sa_family == AF_INET) {
    const auto* in4 = reinterpret_cast<const sockaddr_in*>(address);
    return IsPrivateV4(ntohl(in4->sin_addr.s_addr));
  }
  if (address->sa_family == AF_INET6) {
    return IsPrivateV6(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
  }
  return true;
}

bool IsPrivateAddressText(std::string_view ip) {
  std::string s(ip);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  in_addr a4{};
  if (inet_pton(AF_INET, s.c_str(), &a4) == 1) return IsPrivateV4(ntohl(a4.s_addr));
  in6_addr a6{};
  if (inet_pton(AF_INET6, s.c_str(), &a6) == 1) return IsPrivateV6(a6);
  return false;
}

bool ConnectToRule::Matches(std::string_view request_host, int request_port) const {
  if (port != -1 && port != request_port) return false;
  return host.empty() || host == Lower(request_host);
}

std::optional<ConnectToRule> ParseConnectTo(std::string_view rule, std::string* error) {
  ConnectToRule out;
  std::string_view rest = rule;
  size_t colon;
  bool ok = TakeHost(&rest, &out.host) && (colon = rest.find(':')) != std::string_view::npos &&
            TakePort(rest.substr(0, colon), &out.port);
  if (ok) {
    rest.remove_prefix(colon + 1);
    ok = TakeHost(&rest, &out.connect_host) && TakePort(rest, &out.connect_port);
  }
  if (!ok) {
    if (error) {
      *error = "bad connect_to rule \"" + std::string(rule) +
               "\" (want HOST:PORT:CONNECT-HOST:CONNECT-PORT)";
    }
    return std::nullopt;
  }
  out.host = Lower(out.host);
  return out;
}

bool IsMappedByConnectTo(const std::vector<ConnectToRule>& rules, std::string_view host,
                         int port) {
  return std::any_of(rules.begin(), rules.end(),
                     [&](const ConnectToRule& r) { return r.Matches(host, port); });
}

}  // namespace topicrawl
