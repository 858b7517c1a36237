// The WHATWG "basic URL parser" (§4.4) for the special schemes http/https.
//
// Why not liburiparser plus a pre-pass (the option measured in DEPS.md)?
// RFC 3986 rejects much of what browsers accept ("a b", "|", "%zz", several
// '@', "http:foo" meaning a relative link), and the pre-pass needed to make
// it accept them (component-aware percent-encoding with four different
// encode sets, WHATWG slash and "same scheme" rules, host parsing) is the
// state machine itself. Written out directly for two schemes it is one pass
// over the input with no intermediate copies, which is also what makes
// ResolveLink fast.
//
// State names in comments refer to the standard's states.
#include "url/url.h"
#include "url/plain_url.h"

#include <cstdint>
#include <string>

#include "url/url_host.h"

namespace topicrawl {
namespace {

using url_internal::ParseHost;

// A parsed http(s) URL. `path` is the serialised path ("/a/b"), never empty
// after a successful parse.
struct Url {
  bool https = false;
  std::string username;
  std::string password;
  std::string host;
  int port = -1;  // -1: none or default
  std::string path;
  bool has_query = false;
  std::string query;
  bool has_fragment = false;
  std::string fragment;

  // Back to the default state, keeping the strings' capacity.
  void Reset() {
    https = false;
    username.clear();
    password.clear();
    host.clear();
    port = -1;
    path.clear();
    has_query = false;
    query.clear();
    has_fragment = false;
    fragment.clear();
  }
};

// A set of bytes as a 256-bit table.
struct ByteSet {
  uint64_t bits[4] = {0, 0, 0, 0};
  constexpr void Add(unsigned char c) { bits[c >> 6] |= uint64_t{1} << (c & 63); }
  constexpr bool Has(unsigned char c) const { return (bits[c >> 6] >> (c & 63)) & 1; }
};

constexpr ByteSet MakeByteSet(const char* chars) {
  ByteSet s;
  for (const char* p = chars; *p != '\0'; ++p) s.Add(static_cast<unsigned char>(*p));
  return s;
}

// Percent-encode sets (§1.3): C0 controls, every byte >= 0x7F (non-ASCII
// input is UTF-8, encoded byte by byte) and `extra`.
using EncodeSet = ByteSet;
constexpr EncodeSet MakeSet(const char* extra) {
  EncodeSet s = MakeByteSet(extra);
  for (int c = 0; c < 0x20; ++c) s.Add(static_cast<unsigned char>(c));
  for (int c = 0x7F; c < 0x100; ++c) s.Add(static_cast<unsigned char>(c));
  return s;
}

// fragment: C0 + space " < > `
constexpr EncodeSet kFragmentSet = MakeSet(" \"<>`");
// special-query: C0 + space " # < > '
constexpr EncodeSet kSpecialQuerySet = MakeSet(" \"#<>'");
// path: query set + ? ` { }
constexpr EncodeSet kPathSet = MakeSet(" \"#<>?`{}");
// userinfo: path set + / : ; = @ [ \ ] ^ |
constexpr EncodeSet kUserinfoSet = MakeSet(" \"#<>?`{}/:;=@[\\]^|");

constexpr char kHexUpper[] = "0123456789ABCDEF";

void AppendEncoded(std::string_view in, const EncodeSet& set, std::string* out) {
  for (char ch : in) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (set.Has(c)) {
      out->push_back('%');
      out->push_back(kHexUpper[c >> 4]);
      out->push_back(kHexUpper[c & 15]);
    } else {
      out->push_back(ch);
    }
  }
}

constexpr ByteSet kTabNewlineSet = MakeByteSet("\t\n\r");
constexpr ByteSet kAuthorityEndSet = MakeByteSet("/\\?#");
constexpr ByteSet kPathEndSet = MakeByteSet("?#");

// Index of the first byte of `s` in `set` (npos when none).
// std::string_view::find_first_of calls memchr over the set once per input
// byte; on hrefs a table lookup per byte is several times faster.
size_t FindAny(std::string_view s, const ByteSet& set) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (set.Has(static_cast<unsigned char>(s[i]))) return i;
  }
  return std::string_view::npos;
}

bool IsAsciiAlpha(char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool IsSlash(char c) { return c == '/' || c == '\\'; }

// Pre-pass (§4.4 steps 1-3): strip leading/trailing C0 control or space,
// remove every tab, LF and CR. Returns a view into `input` or `*scratch`.
std::string_view Clean(std::string_view input, std::string* scratch) {
  while (!input.empty() && static_cast<unsigned char>(input.front()) <= 0x20) {
    input.remove_prefix(1);
  }
  while (!input.empty() && static_cast<unsigned char>(input.back()) <= 0x20) {
    input.remove_suffix(1);
  }
  if (FindAny(input, kTabNewlineSet) == std::string_view::npos) return input;
  scratch->clear();
  for (char c : input) {
    if (c != '\t' && c != '\n' && c != '\r') scratch->push_back(c);
  }
  return *scratch;
}

// Returns 1 for "." segments, 2 for "..", 0 otherwise; "%2e" counts as ".".
int DotSegment(std::string_view s) {
  auto dot_at = [&](size_t& i) {
    if (i < s.size() && s[i] == '.') {
      i += 1;
      return true;
    }
    if (i + 2 < s.size() && s[i] == '%' && s[i + 1] == '2' &&
        (s[i + 2] | 0x20) == 'e') {
      i += 3;
      return true;
    }
    return false;
  };
  size_t i = 0;
  if (!dot_at(i)) return 0;
  if (i == s.size()) return 1;
  if (!dot_at(i)) return 0;
  return i == s.size() ? 2 : 0;
}

void ShortenPath(std::string* path) {
  size_t slash = path->rfind('/');
  if (slash != std::string::npos) path->resize(slash);
}

class Parser {
 public:
  Parser(Url* url, std::string* error) : url_(url), error_(error) {}

  // Entry: `input` already cleaned. `base` may be null.
  bool Parse(std::string_view input, const Url* base) {
    size_t colon = SchemeEnd(input);
    if (colon == std::string_view::npos) {
      if (base == nullptr) return Fail("relative URL without a base");
      return Relative(input, *base);
    }
    std::string_view scheme = input.substr(0, colon);
    if (!EqualsLower(scheme, "http") && !EqualsLower(scheme, "https")) {
      std::string lower(scheme);
      for (char& c : lower) c = static_cast<char>(c | 0x20);
      return Fail("unsupported scheme: " + lower);
    }
    url_->https = scheme.size() == 5;
    std::string_view rest = input.substr(colon + 1);
    // "special relative or authority state": same scheme as the base and not
    // followed by "//" means a relative reference ("http:foo").
    if (base != nullptr && base->https == url_->https &&
        !(rest.size() >= 2 && rest[0] == '/' && rest[1] == '/')) {
      return Relative(rest, *base);
    }
    return AuthorityAfterSlashes(rest);
  }

 private:
  bool Fail(std::string message) {
    *error_ = std::move(message);
    return false;
  }

  static bool EqualsLower(std::string_view s, std::string_view lower) {
    if (s.size() != lower.size()) return false;
    for (size_t i = 0; i < s.size(); ++i) {
      if ((s[i] | 0x20) != lower[i]) return false;
    }
    return true;
  }

  // Position of the ':' ending a scheme ("scheme start/scheme state"), npos
  // when the input has no scheme.
  static size_t SchemeEnd(std::string_view in) {
    if (in.empty() || !IsAsciiAlpha(in[0])) return std::string_view::npos;
    for (size_t i = 1; i < in.size(); ++i) {
      char c = in[i];
      if (c == ':') return i;
      if (!(IsAsciiAlpha(c) || (c >= '0' && c <= '9') || c == '+' ||
            c == '-' || c == '.')) {
        return std::string_view::npos;
      }
    }
    return std::string_view::npos;
  }

  // "relative state" (the base is http or https).
  bool Relative(std::string_view in, const Url& base) {
    url_->https = base.https;
    if (!in.empty() && IsSlash(in[0])) {
      // "relative slash state"
      if (in.size() >= 2 && IsSlash(in[1])) return AuthorityAfterSlashes(in);
      CopyAuthority(base);
      url_->path.clear();
      return PathAndRest(in.substr(1));
    }
    CopyAuthority(base);
    url_->path = base.path;
    if (in.empty()) {
      url_->has_query = base.has_query;
      url_->query = base.query;
      return true;
    }
    if (in[0] == '?') return QueryAndRest(in.substr(1));
    if (in[0] == '#') {
      url_->has_query = base.has_query;
      url_->query = base.query;
      return Fragment(in.substr(1));
    }
    ShortenPath(&url_->path);
    return PathAndRest(in);
  }

  void CopyAuthority(const Url& base) {
    url_->username = base.username;
    url_->password = base.password;
    url_->host = base.host;
    url_->port = base.port;
  }

  // "special authority ignore slashes state" then "authority state".
  bool AuthorityAfterSlashes(std::string_view in) {
    size_t i = 0;
    while (i < in.size() && IsSlash(in[i])) ++i;
    in.remove_prefix(i);
    size_t end = FindAny(in, kAuthorityEndSet);
    std::string_view authority = in.substr(0, end);
    std::string_view after =
        end == std::string_view::npos ? std::string_view() : in.substr(end);
    size_t at = authority.rfind('@');
    if (at != std::string_view::npos) {
      std::string_view creds = authority.substr(0, at);
      authority.remove_prefix(at + 1);
      if (authority.empty()) return Fail("empty host");
      size_t colon = creds.find(':');
      AppendEncoded(creds.substr(0, colon), kUserinfoSet, &url_->username);
      if (colon != std::string_view::npos) {
        AppendEncoded(creds.substr(colon + 1), kUserinfoSet, &url_->password);
      }
    }
    if (!HostAndPort(authority)) return false;
    // "path start state": a leading slash belongs to the path syntax.
    if (!after.empty() && IsSlash(after[0])) after.remove_prefix(1);
    url_->path.clear();
    return PathAndRest(after);
  }

  // "host state" and "port state".
  bool HostAndPort(std::string_view hp) {
    bool in_brackets = false;
    size_t colon = std::string_view::npos;
    for (size_t i = 0; i < hp.size(); ++i) {
      if (hp[i] == '[') in_brackets = true;
      if (hp[i] == ']') in_brackets = false;
      if (hp[i] == ':' && !in_brackets) {
        colon = i;
        break;
      }
    }
    std::string_view host = hp.substr(0, colon);
    if (host.empty()) return Fail("empty host");
    if (!ParseHost(host, &url_->host, error_)) return false;
    url_->port = -1;
    if (colon == std::string_view::npos) return true;
    std::string_view port = hp.substr(colon + 1);
    if (port.empty()) return true;
    uint32_t value = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return Fail("invalid port");
      value = value * 10 + (c - '0');
      if (value > 65535) return Fail("port out of range");
    }
    if (value != (url_->https ? 443u : 80u)) url_->port = static_cast<int>(value);
    return true;
  }

  // "path state" over segments up to '?' / '#', appending to url_->path.
  bool PathAndRest(std::string_view in) {
    size_t end = FindAny(in, kPathEndSet);
    std::string_view path = in.substr(0, end);
    size_t start = 0;
    while (true) {
      size_t stop = start;
      while (stop < path.size() && !IsSlash(path[stop])) ++stop;
      bool last = stop == path.size();
      std::string_view segment = path.substr(start, stop - start);
      int dots = DotSegment(segment);
      if (dots == 2) {
        ShortenPath(&url_->path);
        if (last) url_->path.push_back('/');
      } else if (dots == 1) {
        if (last) url_->path.push_back('/');
      } else {
        url_->path.push_back('/');
        AppendEncoded(segment, kPathSet, &url_->path);
      }
      if (last) break;
      start = stop + 1;
    }
    if (end == std::string_view::npos) return true;
    if (in[end] == '?') return QueryAndRest(in.substr(end + 1));
    return Fragment(in.substr(end + 1));
  }

  bool QueryAndRest(std::string_view in) {
    size_t hash = in.find('#');
    url_->has_query = true;
    url_->query.clear();
    AppendEncoded(in.substr(0, hash), kSpecialQuerySet, &url_->query);
    if (hash == std::string_view::npos) return true;
    return Fragment(in.substr(hash + 1));
  }

  bool Fragment(std::string_view in) {
    url_->has_fragment = true;
    url_->fragment.clear();
    AppendEncoded(in, kFragmentSet, &url_->fragment);
    return true;
  }

  Url* url_;
  std::string* error_;
};

bool ParseInto(std::string_view input, const Url* base, Url* url,
               std::string* error) {
  std::string scratch;
  std::string_view cleaned = Clean(input, &scratch);
  return Parser(url, error).Parse(cleaned, base);
}

// Remembers the last base this thread parsed: a page's links share one base.
struct BaseCache {
  std::string text;
  bool ok = false;
  Url url;
  std::string error;
};

// Returns the parsed base, or null with *error set when it is invalid.
const Url* ParseBase(std::string_view base, std::string* error) {
  thread_local BaseCache cache;
  if (cache.text != base || cache.text.empty()) {
    cache.text.assign(base);
    cache.url = Url();
    cache.error.clear();
    cache.ok = ParseInto(base, nullptr, &cache.url, &cache.error);
  }
  if (!cache.ok) {
    *error = "invalid base URL: " + cache.error;
    return nullptr;
  }
  return &cache.url;
}

bool ParseWithBase(std::string_view input, std::string_view base, Url* url,
                   std::string* error) {
  const Url* base_url = nullptr;
  if (!base.empty()) {
    std::string base_error;
    base_url = ParseBase(base, &base_error);
    if (base_url == nullptr) {
      // An absolute input does not need the base.
      if (ParseInto(input, nullptr, url, error)) return true;
      if (*error == "relative URL without a base") *error = base_error;
      return false;
    }
  }
  return ParseInto(input, base_url, url, error);
}

void AppendAuthority(const Url& url, std::string* out) {
  out->append(url.https ? "https://" : "http://");
  if (!url.username.empty() || !url.password.empty()) {
    out->append(url.username);
    if (!url.password.empty()) {
      out->push_back(':');
      out->append(url.password);
    }
    out->push_back('@');
  }
  out->append(url.host);
  if (url.port >= 0) {
    out->push_back(':');
    out->append(std::to_string(url.port));
  }
}

std::string Serialize(const Url& url) {
  std::string out;
  out.reserve(16 + url.host.size() + url.path.size() + url.query.size() +
              url.fragment.size());
  AppendAuthority(url, &out);
  out.append(url.path);
  if (url.has_query) {
    out.push_back('?');
    out.append(url.query);
  }
  if (url.has_fragment) {
    out.push_back('#');
    out.append(url.fragment);
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsUnreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

// RFC 3986 §6.2.2.1-2: upper-case hex in escapes, decode unreserved,
// encode a '%' that starts no escape.
void AppendNormalizedEscapes(std::string_view in, std::string* out) {
  for (size_t i = 0; i < in.size(); ++i) {
    int hi, lo;
    if (in[i] == '%' && i + 2 < in.size() &&
        (hi = HexValue(in[i + 1])) >= 0 && (lo = HexValue(in[i + 2])) >= 0) {
      unsigned char decoded = static_cast<unsigned char>(hi * 16 + lo);
      if (IsUnreserved(decoded)) {
        out->push_back(static_cast<char>(decoded));
      } else {
        out->push_back('%');
        out->push_back(kHexUpper[hi]);
        out->push_back(kHexUpper[lo]);
      }
      i += 2;
    } else if (in[i] == '%') {
      // A stray '%' becomes "%25"; left bare it could join a decoded hex
      // digit into a new escape ("%3%37" -> "%37") and break idempotence.
      out->append("%25");
    } else {
      out->push_back(in[i]);
    }
  }
}

// The canonical form (see url.h). Decoding "%2E" can create "." segments
// again only inside a segment ("a%2Eb" -> "a.b"): whole-segment "%2e" was
// already removed as a dot segment by the parser.
std::string SerializeCanonical(const Url& url) {
  std::string out;
  out.reserve(16 + url.host.size() + url.path.size() + url.query.size());
  out.append(url.https ? "https://" : "http://");
  if (!url.username.empty() || !url.password.empty()) {
    AppendNormalizedEscapes(url.username, &out);
    if (!url.password.empty()) {
      out.push_back(':');
      AppendNormalizedEscapes(url.password, &out);
    }
    out.push_back('@');
  }
  out.append(url.host);
  if (url.port >= 0) {
    out.push_back(':');
    out.append(std::to_string(url.port));
  }
  if (url.path.empty()) {
    out.push_back('/');
  } else {
    AppendNormalizedEscapes(url.path, &out);
  }
  if (url.has_query) {
    out.push_back('?');
    AppendNormalizedEscapes(url.query, &out);
  }
  return out;
}

}  // namespace

UrlParseResult ParseUrl(std::string_view input, std::string_view base) {
  UrlParseResult result;
  Url url;
  result.ok = ParseWithBase(input, base, &url, &result.error);
  if (result.ok) result.href = Serialize(url);
  return result;
}

std::string CanonicalizeUrl(std::string_view href) {
  Url url;
  std::string error;
  if (!ParseInto(href, nullptr, &url, &error)) return std::string();
  return SerializeCanonical(url);
}

std::optional<std::string> ResolveLink(std::string_view base,
                                       std::string_view href) {
  // A page resolves hundreds of links on its parse thread: one Url per
  // thread keeps its strings' buffers instead of allocating them per link.
  thread_local Url url;
  url.Reset();
  std::string error;
  if (!ParseWithBase(href, base, &url, &error)) return std::nullopt;
  std::string canonical = SerializeCanonical(url);
  if (canonical.size() > kMaxUrlLength) return std::nullopt;
  return canonical;
}

namespace {

bool IsLowerOrDigit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Characters of a path or query that no canonicalisation step rewrites.
bool IsPlainPathChar(char c) {
  if (IsLowerOrDigit(c) || (c >= 'A' && c <= 'Z')) return true;
  switch (c) {
    case '-': case '.': case '_': case '~': case '!': case '$': case '&': case '(':
    case ')': case '*': case '+': case ',': case ';': case '=': case ':': case '@':
      return true;
    default:
      return false;
  }
}

// The host part of IsPlainCanonicalUrl; `end` receives the index of the
// path's '/'.
bool IsPlainHost(std::string_view u, size_t start, size_t* end) {
  size_t i = start, label = start;
  bool alpha = false;
  for (; i < u.size() && u[i] != '/'; ++i) {
    const char c = u[i];
    if (c == '.') {
      if (i == label) return false;  // empty label
      label = i + 1;
      alpha = false;
    } else if (IsLowerOrDigit(c) || c == '-') {
      alpha = alpha || (c >= 'a' && c <= 'z');
      if (i == label && u.compare(i, 4, "xn--") == 0) return false;
    } else {
      return false;
    }
  }
  if (i == u.size() || i == label || !alpha) return false;  // no path, trailing dot, number
  if (u.compare(label, 2, "0x") == 0) return false;         // an IPv4 hex number
  *end = i;
  return true;
}

bool IsDotSegment(std::string_view segment) { return segment == "." || segment == ".."; }

}  // namespace

bool IsPlainCanonicalUrl(std::string_view u) {
  size_t i = 0;
  if (u.compare(0, 7, "http://") == 0) {
    i = 7;
  } else if (u.compare(0, 8, "https://") == 0) {
    i = 8;
  } else {
    return false;
  }
  if (u.size() > kMaxUrlLength || !IsPlainHost(u, i, &i)) return false;
  size_t segment = i;  // the '/' before the current path segment
  bool query = false;
  for (++i; i < u.size(); ++i) {
    const char c = u[i];
    if (!query && (c == '/' || c == '?')) {
      if (IsDotSegment(u.substr(segment + 1, i - segment - 1))) return false;
      segment = i;
      query = c == '?';
    } else if (!IsPlainPathChar(c) && !(query && (c == '/' || c == '?'))) {
      return false;
    }
  }
  if (query) return u.back() != '?';
  return !IsDotSegment(u.substr(segment + 1));
}

std::string UrlHostPort(std::string_view href) {
  Url url;
  std::string error;
  if (!ParseInto(href, nullptr, &url, &error)) return std::string();
  std::string out = url.host;
  if (url.port >= 0) {
    out.push_back(':');
    out.append(std::to_string(url.port));
  }
  return out;
}

std::string UrlHost(std::string_view href) {
  Url url;
  std::string error;
  if (!ParseInto(href, nullptr, &url, &error)) return std::string();
  return url.host;
}

}  // namespace topicrawl
