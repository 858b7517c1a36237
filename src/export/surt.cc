#include "export/surt.h"

#include <algorithm>
#include <vector>

namespace topicrawl {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// "www.", "www1." ... at the start of a host (the library's host massage).
std::string_view DropWww(std::string_view host) {
  if (host.substr(0, 3) != "www") return host;
  size_t i = 3;
  while (i < host.size() && host[i] >= '0' && host[i] <= '9') ++i;
  if (i < host.size() && host[i] == '.' && i + 1 < host.size()) {
    return host.substr(i + 1);
  }
  return host;
}

std::string ReversedHost(std::string_view host) {
  if (!host.empty() && host.front() == '[') return std::string(host);  // IPv6
  bool numeric = !host.empty();
  for (char c : host) numeric = numeric && ((c >= '0' && c <= '9') || c == '.');
  if (numeric) return std::string(host);  // IPv4 stays in order
  std::vector<std::string_view> labels;
  while (!host.empty()) {
    const size_t dot = host.find('.');
    labels.push_back(host.substr(0, dot));
    host = dot == std::string_view::npos ? std::string_view() : host.substr(dot + 1);
  }
  std::string out;
  for (size_t i = labels.size(); i-- > 0;) {
    if (labels[i].empty()) continue;  // a trailing dot
    if (!out.empty()) out.push_back(',');
    out.append(labels[i]);
  }
  return out;
}

std::string SortedQuery(std::string_view query) {
  std::vector<std::string_view> args;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    if (amp != 0) args.push_back(query.substr(0, amp));
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
  }
  std::sort(args.begin(), args.end());
  std::string out;
  for (std::string_view a : args) {
    if (!out.empty()) out.push_back('&');
    out.append(a);
  }
  return out;
}

}  // namespace

std::string SurtKey(std::string_view url) {
  const std::string lower = Lower(url);
  std::string_view rest = lower;
  size_t default_port_len = 0;
  if (rest.substr(0, 7) == "http://") {
    rest.remove_prefix(7);
    default_port_len = 3;  // ":80"
  } else if (rest.substr(0, 8) == "https://") {
    rest.remove_prefix(8);
    default_port_len = 4;  // ":443"
  } else {
    return lower;
  }
  rest = rest.substr(0, rest.find('#'));
  const size_t path_at = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, path_at);
  std::string_view path_query =
      path_at == std::string_view::npos ? std::string_view() : rest.substr(path_at);
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);  // user info is not part of the key
  }
  std::string_view host = authority, port;
  if (const size_t colon = authority.rfind(':');
      colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon);
  }
  if (port == ":" || (port.size() == default_port_len &&
                      port == (default_port_len == 3 ? ":80" : ":443"))) {
    port = {};
  }
  while (!host.empty() && host.back() == '.') host.remove_suffix(1);
  std::string out = ReversedHost(DropWww(host));
  out.append(port);
  out.push_back(')');

  std::string_view path = path_query.substr(0, path_query.find('?'));
  std::string_view query;
  if (const size_t q = path_query.find('?'); q != std::string_view::npos) {
    query = path_query.substr(q + 1);
  }
  if (path.empty()) path = "/";
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  out.append(path);
  if (std::string sorted = SortedQuery(query); !sorted.empty()) {
    out.push_back('?');
    out.append(sorted);
  }
  return out;
}

}  // namespace topicrawl
