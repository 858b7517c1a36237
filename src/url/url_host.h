// Internal to url/: the WHATWG "host parser" for special schemes.
#ifndef TOPICRAWL_URL_URL_HOST_H_
#define TOPICRAWL_URL_URL_HOST_H_

#include <string>
#include <string_view>

namespace topicrawl::url_internal {

// Parses the host part of an http(s) authority (brackets included for IPv6,
// still percent-encoded) into its serialisation: lower-case ASCII domain
// (punycode for IDN), dotted-decimal IPv4, or "[compressed IPv6]".
// Returns false and sets *error on failure (the URL is then invalid).
bool ParseHost(std::string_view input, std::string* out, std::string* error);

}  // namespace topicrawl::url_internal

#endif  // TOPICRAWL_URL_URL_HOST_H_
