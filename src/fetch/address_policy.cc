#include "fetch/address_policy.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

namespace topicrawl {
namespace {

struct V4Rule {
  uint32_t net;
  int bits;
  const char* name;
};
// RFC 6890 special-purpose ranges a public-web crawler must not reach.
constexpr V4Rule kV4Rules[] = {
    {0x00000000, 8, "0.0.0.0/8 (this network)"},
    {0x0A000000, 8, "10.0.0.0/8 (private)"},
    {0x64400000, 10, "100.64.0.0/10 (carrier-grade NAT)"},
    {0x7F000000, 8, "127.0.0.0/8 (loopback)"},
    {0xA9FE0000, 16, "169.254.0.0/16 (link-local)"},
    {0xAC100000, 12, "172.16.0.0/12 (private)"},
    {0xC0000000, 24, "192.0.0.0/24 (IETF protocol assignments)"},
    {0xC0A80000, 16, "192.168.0.0/16 (private)"},
    {0xC6120000, 15, "198.18.0.0/15 (benchmarking)"},
    {0xE0000000, 4, "224.0.0.0/4 (multicast)"},
    {0xF0000000, 4, "240.0.0.0/4 (reserved, broadcast)"},
};

const char* V4Rule(uint32_t a) {  // host byte order; nullptr: public
  for (const auto& r : kV4Rules) {
    uint32_t mask = r.bits == 0 ? 0 : ~uint32_t{0} << (32 - r.bits);
    if ((a & mask) == r.net) return r.name;
  }
  return nullptr;
}

uint32_t V4At(const uint8_t* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

// The rule an IPv6 address falls under; "" when public. Forms that embed an
// IPv4 address (mapped, compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are
// judged by that address: each can reach it.
std::string V6Rule(const in6_addr& a) {
  const uint8_t* b = a.s6_addr;
  static const uint8_t kZero[16] = {};
  if (std::memcmp(b, kZero, 15) == 0 && b[15] == 0) return "::/128 (unspecified)";
  if (std::memcmp(b, kZero, 15) == 0 && b[15] == 1) return "::1/128 (loopback)";
  if ((b[0] & 0xFE) == 0xFC) return "fc00::/7 (unique local)";
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return "fe80::/10 (link-local)";
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0) return "fec0::/10 (site-local, deprecated)";
  if (b[0] == 0xFF) return "ff00::/8 (multicast)";
  auto embedded = [](const char* form, const uint8_t* v4) -> std::string {
    const char* rule = V4Rule(V4At(v4));
    return rule ? std::string(form) + " of " + rule : std::string();
  };
  if (std::memcmp(b, kZero, 10) == 0 && b[10] == 0xFF && b[11] == 0xFF) {
    return embedded("IPv4-mapped ::ffff:0:0/96", b + 12);
  }
  if (std::memcmp(b, kZero, 12) == 0) return embedded("IPv4-compatible ::/96", b + 12);
  static const uint8_t kNat64[12] = {0x00, 0x64, 0xff, 0x9b};
  if (std::memcmp(b, kNat64, 12) == 0) return embedded("NAT64 64:ff9b::/96", b + 12);
  if (b[0] == 0x20 && b[1] == 0x02) return embedded("6to4 2002::/16", b + 2);
  return {};
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

std::string PrivateAddressRule(const sockaddr* address) {
  if (address == nullptr) return "no address";
  if (address->sa_family == AF_INET) {
    const auto* in4 = reinterpret_cast<const sockaddr_in*>(address);
    const char* rule = V4Rule(ntohl(in4->sin_addr.s_addr));
    return rule ? rule : "";
  }
  if (address->sa_family == AF_INET6) {
    return V6Rule(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
  }
  return "address family " + std::to_string(address->sa_family) + " (cannot be judged)";
}

bool IsPrivateAddress(const sockaddr* address) { return !PrivateAddressRule(address).empty(); }

std::string PrivateAddressRuleText(std::string_view ip) {
  std::string s(ip);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  in_addr a4{};
  if (inet_pton(AF_INET, s.c_str(), &a4) == 1) {
    const char* rule = V4Rule(ntohl(a4.s_addr));
    return rule ? rule : "";
  }
  in6_addr a6{};
  if (inet_pton(AF_INET6, s.c_str(), &a6) == 1) return V6Rule(a6);
  return {};
}

bool IsPrivateAddressText(std::string_view ip) { return !PrivateAddressRuleText(ip).empty(); }

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
