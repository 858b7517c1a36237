// WHATWG URL Standard §3.5 "host parsing" for special schemes: IPv6, IPv4
// (including the legacy number forms 0x7f.1, 017700000001, 2130706433),
// and domains through UTS #46 (libidn2, non-transitional).
#include "url/url_host.h"

#include <idn2.h>

#include <cstdint>
#include <cstdlib>

namespace topicrawl::url_internal {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// --- IPv6 (§3.5 "IPv6 parser", transcribed step by step) -----------------

// The parser's IPv4 part ("::ffff:1.2.3.4") from in[p], into the pieces
// from *piece on (two of them); false unless it is four decimal numbers
// <= 255 without leading zeros.
bool ParseIpv6EmbeddedIpv4(std::string_view in, size_t p, uint16_t address[8], int* piece) {
  const size_t n = in.size();
  auto at = [&](size_t i) { return i < n ? in[i] : '\0'; };
  int numbers_seen = 0;
  while (p < n) {
    int ipv4_piece = -1;
    if (numbers_seen > 0) {
      if (in[p] == '.' && numbers_seen < 4) {
        ++p;
      } else {
        return false;
      }
    }
    if (!IsDigit(at(p))) return false;
    while (IsDigit(at(p))) {
      int number = in[p] - '0';
      if (ipv4_piece == -1) {
        ipv4_piece = number;
      } else if (ipv4_piece == 0) {
        return false;  // leading zero
      } else {
        ipv4_piece = ipv4_piece * 10 + number;
      }
      if (ipv4_piece > 255) return false;
      ++p;
    }
    address[*piece] = static_cast<uint16_t>(address[*piece] * 0x100 + ipv4_piece);
    ++numbers_seen;
    if (numbers_seen == 2 || numbers_seen == 4) ++*piece;
  }
  return numbers_seen == 4;
}

// The parser's last step: the pieces after "::" (at `compress`) move to the
// end; without "::" all eight pieces must be there.
bool FinishIpv6Compression(uint16_t address[8], int piece, int compress) {
  if (compress != -1) {
    int swaps = piece - compress;
    piece = 7;
    while (piece != 0 && swaps > 0) {
      std::swap(address[piece], address[compress + swaps - 1]);
      --piece;
      --swaps;
    }
  } else if (piece != 8) {
    return false;
  }
  return true;
}

bool ParseIpv6(std::string_view in, uint16_t address[8]) {
  for (int i = 0; i < 8; ++i) address[i] = 0;
  int piece = 0;
  int compress = -1;
  size_t p = 0;
  const size_t n = in.size();
  auto at = [&](size_t i) { return i < n ? in[i] : '\0'; };
  if (at(p) == ':') {
    if (at(p + 1) != ':') return false;
    p += 2;
    compress = ++piece;
  }
  while (p < n) {
    if (piece == 8) return false;
    if (in[p] == ':') {
      if (compress != -1) return false;
      ++p;
      compress = ++piece;
      continue;
    }
    int value = 0, length = 0;
    while (length < 4 && p < n && HexValue(in[p]) >= 0) {
      value = value * 16 + HexValue(in[p]);
      ++p;
      ++length;
    }
    if (at(p) == '.') {
      if (length == 0) return false;
      p -= length;
      if (piece > 6) return false;
      if (!ParseIpv6EmbeddedIpv4(in, p, address, &piece)) return false;
      break;
    } else if (at(p) == ':') {
      ++p;
      if (p >= n) return false;
    } else if (p < n) {
      return false;
    }
    address[piece] = static_cast<uint16_t>(value);
    ++piece;
  }
  return FinishIpv6Compression(address, piece, compress);
}

// §3.7 "IPv6 serializer": lower-case hex, longest run (>= 2) of zero pieces
// compressed to "::", first run on ties.
void SerializeIpv6(const uint16_t address[8], std::string* out) {
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    if (address[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && address[j] == 0) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('[');
  bool ignore0 = false;
  for (int i = 0; i < 8; ++i) {
    if (ignore0 && address[i] == 0) continue;
    ignore0 = false;
    if (best == i) {
      out->append(i == 0 ? "::" : ":");
      ignore0 = true;
      continue;
    }
    uint16_t v = address[i];
    char buf[4];
    int len = 0;
    do {
      buf[len++] = kHex[v & 0xF];
      v >>= 4;
    } while (v != 0);
    while (len > 0) out->push_back(buf[--len]);
    if (i != 7) out->push_back(':');
  }
  out->push_back(']');
}

// --- IPv4 (§3.5 "IPv4 parser") ----------------------------------------------

// "IPv4 number parser": decimal, 0x hex, 0-prefixed octal. Saturates at
// 2^40 (any value that large fails the range checks anyway).
bool ParseIpv4Number(std::string_view in, uint64_t* out) {
  if (in.empty()) return false;
  int radix = 10;
  if (in.size() >= 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X')) {
    in.remove_prefix(2);
    radix = 16;
  } else if (in.size() >= 2 && in[0] == '0') {
    in.remove_prefix(1);
    radix = 8;
  }
  uint64_t value = 0;
  for (char c : in) {
    int d = HexValue(c);
    if (d < 0 || d >= radix) return false;
    value = value * radix + d;
    if (value > (uint64_t{1} << 40)) value = uint64_t{1} << 40;
  }
  *out = value;
  return true;
}

// Splits on '.', dropping one trailing empty label ("1.2.3.4.").
int SplitLabels(std::string_view in, std::string_view parts[], int max_parts) {
  int n = 0;
  size_t start = 0;
  while (true) {
    size_t dot = in.find('.', start);
    std::string_view part = in.substr(start, dot == std::string_view::npos
                                                 ? std::string_view::npos
                                                 : dot - start);
    if (n < max_parts) parts[n] = part;
    ++n;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (n > 1 && n <= max_parts && parts[n - 1].empty()) --n;
  return n;
}

// "ends in a number checker": the last label is all digits or a valid
// IPv4 number (0x...).
bool EndsInANumber(std::string_view domain) {
  if (!domain.empty() && domain.back() == '.') domain.remove_suffix(1);
  size_t dot = domain.rfind('.');
  std::string_view last =
      dot == std::string_view::npos ? domain : domain.substr(dot + 1);
  if (last.empty()) return false;
  bool all_digits = true;
  for (char c : last) all_digits = all_digits && IsDigit(c);
  if (all_digits) return true;
  uint64_t ignored;
  return ParseIpv4Number(last, &ignored);
}

bool ParseIpv4(std::string_view in, std::string* out, std::string* error) {
  std::string_view parts[5];
  int n = SplitLabels(in, parts, 5);
  if (n > 4) {
    *error = "invalid IPv4 address (too many parts)";
    return false;
  }
  uint64_t numbers[4];
  for (int i = 0; i < n; ++i) {
    if (!ParseIpv4Number(parts[i], &numbers[i])) {
      *error = "invalid IPv4 address";
      return false;
    }
  }
  for (int i = 0; i + 1 < n; ++i) {
    if (numbers[i] > 255) {
      *error = "invalid IPv4 address (part > 255)";
      return false;
    }
  }
  if (numbers[n - 1] >= (uint64_t{1} << (8 * (5 - n)))) {
    *error = "invalid IPv4 address (out of range)";
    return false;
  }
  uint64_t ipv4 = numbers[n - 1];
  for (int i = 0; i + 1 < n; ++i) ipv4 += numbers[i] << (8 * (3 - i));
  out->clear();
  for (int shift = 24; shift >= 0; shift -= 8) {
    out->append(std::to_string((ipv4 >> shift) & 0xFF));
    if (shift != 0) out->push_back('.');
  }
  return true;
}

// --- Domains ----------------------------------------------------------------

// "forbidden domain code point" (ASCII part): forbidden host code points
// plus C0 controls, '%' and DEL.
bool IsForbiddenDomainByte(unsigned char c) {
  if (c <= 0x20 || c == 0x7F) return true;
  switch (c) {
    case '#': case '%': case '/': case ':': case '<': case '>': case '?':
    case '@': case '[': case '\\': case ']': case '^': case '|':
      return true;
    default:
      return false;
  }
}

void PercentDecode(std::string_view in, std::string* out) {
  out->clear();
  out->reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && HexValue(in[i + 1]) >= 0 &&
        HexValue(in[i + 2]) >= 0) {
      out->push_back(static_cast<char>(HexValue(in[i + 1]) * 16 +
                                       HexValue(in[i + 2])));
      i += 2;
    } else {
      out->push_back(in[i]);
    }
  }
}

bool NeedsIdna(std::string_view domain) {
  for (size_t i = 0; i < domain.size(); ++i) {
    unsigned char c = domain[i];
    if (c >= 0x80) return true;
    // An A-label ("xn--") must be validated by punycode decoding.
    if ((i == 0 || domain[i - 1] == '.') && i + 4 <= domain.size() &&
        (domain[i] | 0x20) == 'x' && (domain[i + 1] | 0x20) == 'n' &&
        domain[i + 2] == '-' && domain[i + 3] == '-') {
      return true;
    }
  }
  return false;
}

// UTS #46 ToASCII. For pure ASCII input without A-labels the mapping is
// exactly ASCII lower-casing (UseSTD3ASCIIRules=false, CheckHyphens=false,
// VerifyDnsLength=false as the URL Standard asks), so libidn2 is only called
// for the rare non-ASCII or xn-- host. libidn2 checks hyphens and DNS lengths,
// which the URL Standard does not: such hosts fail here (known difference).
bool DomainToAscii(const std::string& domain, std::string* out,
                   std::string* error) {
  if (!NeedsIdna(domain)) {
    out->assign(domain);
    for (char& c : *out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    }
    return true;
  }
  char* result = nullptr;
  int rc = idn2_lookup_u8(reinterpret_cast<const uint8_t*>(domain.c_str()),
                          reinterpret_cast<uint8_t**>(&result),
                          IDN2_NONTRANSITIONAL);
  if (rc != IDN2_OK) {
    *error = std::string("IDNA error: ") + idn2_strerror(rc);
    return false;
  }
  out->assign(result);
  idn2_free(result);
  for (char& c : *out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return true;
}

}  // namespace

bool ParseHost(std::string_view input, std::string* out, std::string* error) {
  out->clear();
  if (!input.empty() && input[0] == '[') {
    uint16_t address[8];
    if (input.back() != ']' ||
        !ParseIpv6(input.substr(1, input.size() - 2), address)) {
      *error = "invalid IPv6 address";
      return false;
    }
    SerializeIpv6(address, out);
    return true;
  }
  std::string domain;
  PercentDecode(input, &domain);
  std::string ascii;
  if (!DomainToAscii(domain, &ascii, error)) return false;
  if (ascii.empty()) {
    *error = "empty host";
    return false;
  }
  for (unsigned char c : ascii) {
    if (IsForbiddenDomainByte(c)) {
      *error = "forbidden host code point";
      return false;
    }
  }
  if (EndsInANumber(ascii)) return ParseIpv4(ascii, out, error);
  *out = std::move(ascii);
  return true;
}

}  // namespace topicrawl::url_internal
