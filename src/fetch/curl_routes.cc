#include "fetch/curl_routes.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cctype>
#include <cstdlib>

namespace topicrawl {

bool HostAndPort(const std::string& url, std::string* host, int* port) {
  CURLU* u = curl_url();
  char* h = nullptr;
  char* p = nullptr;
  bool ok = curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
            curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK &&
            curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) == CURLUE_OK;
  if (ok) {
    *host = h;
    for (char& c : *host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    *port = std::atoi(p);
  }
  curl_free(h);
  curl_free(p);
  curl_url_cleanup(u);
  return ok;
}

CurlRoutes::CurlRoutes(const std::vector<std::string>& connect_to,
                       const std::vector<std::string>& resolve)
    : has_resolve_(!resolve.empty()) {
  for (const auto& rule : connect_to) {
    shared_.connect_to = curl_slist_append(shared_.connect_to, rule.c_str());
    if (auto parsed = ParseConnectTo(rule, nullptr)) rules_.push_back(*parsed);
  }
  for (const auto& entry : resolve) shared_.resolve = curl_slist_append(shared_.resolve, entry.c_str());
}

CurlRoutes::~CurlRoutes() {
  curl_slist_free_all(shared_.connect_to);
  curl_slist_free_all(shared_.resolve);
  for (auto& [key, lists] : own_) {
    curl_slist_free_all(lists.connect_to);
    curl_slist_free_all(lists.resolve);
  }
}

bool CurlRoutes::Mapped(const std::string& host, int port) const {
  return IsMappedByConnectTo(rules_, host, port);
}

// Why per-host lists: curl 7.88 files a connection made through a connect_to
// rule under the rule's target ("port/127.0.0.1"), not the request's host,
// so with one rule for every host (the benchmark webs: "--connect-to
// :80:127.0.0.1:PORT") all idle connections share one bundle, and each new
// transfer checks every idle connection in it for liveness with a poll()
// before it picks one of its own host (ConnectionExists, extract_if_dead):
// ~100 poll() calls a fetched page at 6 x 10^4 pages of the synthetic web,
// more as the crawl spreads over hosts and the cache of up to 256 idle
// connections fills (docs/notebook/performance.md, "speed decay"). The same route
// expressed as "host:port::PORT" (the host kept, only the port changed)
// plus a resolve entry "host:PORT:ADDRESS" files the connection under its
// own host: the scan covers that host's connections only. Done only when the
// first rule that matches (the one curl applies) targets an IPv4 literal and
// the caller gave no resolve list of its own (a per-handle list would hide
// it); otherwise the shared lists apply as before.
const CurlRoutes::Lists& CurlRoutes::For(const std::string& host, int port) {
  if (has_resolve_ || host.empty() || host.find_first_of(":[]") != std::string::npos) {
    return shared_;
  }
  // The rule curl applies is the first that matches; hosts no rule sends
  // to an IPv4 literal are not remembered (own_ holds mapped hosts only).
  const ConnectToRule* rule = nullptr;
  for (const ConnectToRule& r : rules_) {
    if (r.Matches(host, port)) {
      rule = &r;
      break;
    }
  }
  in_addr v4{};
  if (rule == nullptr || rule->connect_host.empty() ||
      inet_pton(AF_INET, rule->connect_host.c_str(), &v4) != 1) {
    return shared_;
  }
  const std::string key = host + ":" + std::to_string(port);
  auto [it, added] = own_.try_emplace(key);
  if (!added) return it->second;
  const std::string target = std::to_string(rule->connect_port >= 0 ? rule->connect_port : port);
  it->second.connect_to = curl_slist_append(nullptr, (key + "::" + target).c_str());
  it->second.resolve =
      curl_slist_append(nullptr, (host + ":" + target + ":" + rule->connect_host).c_str());
  return it->second;
}

}  // namespace topicrawl
