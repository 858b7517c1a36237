// Per-host libcurl routing lists for --connect-to crawls.
//
// CurlRoutes turns the user's connect_to rules (curl syntax,
// "HOST:PORT:CONNECT-HOST:CONNECT-PORT") and resolve entries into the
// CURLOPT_CONNECT_TO / CURLOPT_RESOLVE lists one hop to host:port should use.
// For a host that the first matching rule sends to an IPv4 literal it builds
// that host's own pair ("host:port::PORT" + "host:PORT:ADDRESS"): the same
// route, but libcurl then files the connection under the request's host, so
// a new transfer checks only that host's idle connections (see the .cc).
// Otherwise the shared lists (the user's rules as given) apply.
//
// Not thread-safe: one instance per fetcher, used on its Poll() thread.
#ifndef TOPICRAWL_FETCH_CURL_ROUTES_H_
#define TOPICRAWL_FETCH_CURL_ROUTES_H_

#include <curl/curl.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "fetch/address_policy.h"

namespace topicrawl {

// Host (lower case, as curl matches connect_to) and effective port (the
// scheme's default when the URL has none) of `url`; false if curl cannot
// parse it.
bool HostAndPort(const std::string& url, std::string* host, int* port);

class CurlRoutes {
 public:
  // The lists a hop sets on its easy handle (owned by CurlRoutes; valid
  // until it is destroyed). Both null when there are no rules.
  struct Lists {
    curl_slist* connect_to = nullptr;
    curl_slist* resolve = nullptr;
  };

  // Malformed rules are kept in the shared list (curl reports them on the
  // transfer) but never match a host here.
  CurlRoutes(const std::vector<std::string>& connect_to,
             const std::vector<std::string>& resolve);
  ~CurlRoutes();
  CurlRoutes(const CurlRoutes&) = delete;
  CurlRoutes& operator=(const CurlRoutes&) = delete;

  // The user's lists as given (set on every new easy handle).
  const Lists& shared() const { return shared_; }
  // The parsed rules, in the user's order.
  const std::vector<ConnectToRule>& rules() const { return rules_; }
  // True when a rule maps host:port (such hosts may be private addresses).
  bool Mapped(const std::string& host, int port) const;
  // The lists for a hop to host:port (host lower case, as HostAndPort gives).
  const Lists& For(const std::string& host, int port);
  // Hosts that have their own lists so far (for tests and stats).
  size_t own_routes() const { return own_.size(); }

 private:
  std::vector<ConnectToRule> rules_;
  bool has_resolve_ = false;
  Lists shared_;
  // "host:port" -> its own lists, for hosts a rule sends to an IPv4 literal.
  std::unordered_map<std::string, Lists> own_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_FETCH_CURL_ROUTES_H_
