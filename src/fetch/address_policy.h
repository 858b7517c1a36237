// Which network destinations the fetcher may connect to, and how curl's
// --connect-to rules map hosts. Pure functions, unit-tested without sockets.
#ifndef TOPICRAWL_FETCH_ADDRESS_POLICY_H_
#define TOPICRAWL_FETCH_ADDRESS_POLICY_H_

#include <sys/socket.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

// True for addresses a public-web crawler must not reach unless told to:
// IPv4 0/8, 10/8, 100.64/10 (CGNAT), 127/8, 169.254/16, 172.16/12,
// 192.0.0/24, 192.168/16, 198.18/15, 224/4 (multicast), 240/4 and broadcast
// (RFC 6890 special-purpose registry); IPv6 ::, ::1, fc00::/7, fe80::/10,
// ff00::/8, and IPv4-mapped/compatible addresses whose IPv4 part is private.
// Unknown families count as private (refuse what we cannot judge).
// IPv6 forms that embed an IPv4 address (NAT64 64:ff9b::/96, 6to4
// 2002::/16, mapped, compatible) are judged by that IPv4 address.
bool IsPrivateAddress(const sockaddr* address);
// Same for a textual IPv4/IPv6 address; false when `ip` is not an address.
bool IsPrivateAddressText(std::string_view ip);
// The rule that makes `address` private, e.g. "127.0.0.0/8 (loopback)";
// empty when the address is public. Recorded with every refusal.
std::string PrivateAddressRule(const sockaddr* address);
std::string PrivateAddressRuleText(std::string_view ip);

// One curl --connect-to rule "HOST:PORT:CONNECT-HOST:CONNECT-PORT".
// HOST may be a bracketed IPv6 literal.
struct ConnectToRule {
  std::string host;  // lower case; empty: any host
  int port = -1;     // -1: any port
  std::string connect_host;  // empty: the request's host
  int connect_port = -1;     // -1: the request's port

  // True when a request to host:port is redirected by this rule.
  bool Matches(std::string_view request_host, int request_port) const;
};

// Parses one rule; nullopt (and `error` set) when malformed.
std::optional<ConnectToRule> ParseConnectTo(std::string_view rule, std::string* error);

// True when any rule maps host:port (used to exempt mapped hosts from the
// private-address refusal).
bool IsMappedByConnectTo(const std::vector<ConnectToRule>& rules,
                         std::string_view host, int port);

}  // namespace topicrawl

#endif  // TOPICRAWL_FETCH_ADDRESS_POLICY_H_
