// Character-set detection and conversion of fetched bodies to UTF-8.
//
// Follows the WHATWG Encoding Standard (labels and decoders) and the HTML
// Standard's encoding sniffing algorithm (§13.2.3.2 "Determining the character
// encoding"), in this order:
//
//   1. byte order mark (UTF-8, UTF-16BE, UTF-16LE)          source "bom"
//   2. charset parameter of the HTTP Content-Type            source "http"
//   3. <meta charset> / <meta http-equiv=content-type>
//      prescan of the first 1024 bytes (HTML §13.2.3.2)      source "meta"
//   4. the statistical detector (libuchardet)                source "detector"
//   5. UTF-8                                                 source "default"
//
// A crawler sees many pages whose declaration is wrong, so unlike a browser we
// check a declaration (steps 2 and 3) against the bytes. The rule, applied in
// DecodeToUtf8():
//   * A legacy (non-UTF) declaration is overridden by UTF-8 when the whole body
//     is valid UTF-8 and contains at least one multi-byte sequence: legacy CJK
//     or Latin text is practically never valid UTF-8 by accident.
//   * A declaration is "clearly wrong" when decoding with it substitutes
//     U+FFFD for a large share of the non-ASCII input (UTF-8: more than one
//     invalid sequence per ten valid multi-byte ones; legacy: more than one
//     replacement per fifty non-ASCII bytes). Then the detector is asked, and
//     its answer is used when it names a different encoding that decodes with
//     fewer replacements.
//   An override reports source "http-override" or "meta-override" and the
//   charset that was actually used.
//   Known limit: a Big5 page declared as GBK decodes without a single invalid
//   sequence (GB18030 maps every Big5 byte pair), so it is not overridden.
//
// Conversion never drops bytes silently: ICU converters substitute U+FFFD for
// every invalid or unmappable sequence, and each substitution is counted in
// DecodedText::replaced.
//
// Thread-safe: every function may be called from many threads at once.
#ifndef TOPICRAWL_FETCH_CHARSET_H_
#define TOPICRAWL_FETCH_CHARSET_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace topicrawl {

struct DecodedText {
  std::string utf8;     // the body as UTF-8 (BOM removed)
  std::string charset;  // WHATWG encoding name used, e.g. "GBK", "UTF-8"
  // Why that charset: "bom" | "http" | "meta" | "detector" | "default" |
  // "http-override" | "meta-override" (see the file comment).
  std::string source;
  size_t replaced = 0;  // number of U+FFFD substitutions made while decoding
};

// Decodes `body` to UTF-8. `content_type` is the raw Content-Type header value
// (may be empty). Never fails: undecodable input becomes U+FFFD.
DecodedText DecodeToUtf8(std::string_view body, std::string_view content_type);

// Lower-level pieces, exposed for tests and tools.

// WHATWG Encoding §4.2 "get an encoding": maps a label (case-insensitive,
// surrounding ASCII whitespace ignored) to the encoding's canonical name, e.g.
// "latin1" -> "windows-1252", "gb2312" -> "GBK", "x-sjis" -> "Shift_JIS".
// Returns "" for an unknown label. "replacement" is returned for the labels
// the standard maps to the replacement decoder (iso-2022-kr, hz-gb-2312...).
std::string EncodingForLabel(std::string_view label);

// The charset parameter of a Content-Type header value (RFC 9110 §8.3),
// unquoted, or "" when absent.
std::string CharsetParameter(std::string_view content_type);

// HTML §13.2.3.2 "prescan a byte stream to determine its encoding" over the
// first 1024 bytes of `head`. Returns the canonical encoding name or "".
// Per the standard, a UTF-16 declaration yields "UTF-8" and x-user-defined
// yields "windows-1252".
std::string PrescanMetaCharset(std::string_view head);

// Runs libuchardet over (a prefix of) `body`; returns a canonical encoding
// name, or "" when the detector has no answer or names an encoding outside the
// WHATWG set. Pure ASCII yields "".
std::string DetectEncoding(std::string_view body);

// Decodes `body` (no BOM handling) with the named encoding (a canonical name
// from EncodingForLabel). Counts substitutions in *replaced. Returns false
// when the encoding cannot be opened (then *out is untouched).
bool ConvertToUtf8(std::string_view body, std::string_view encoding,
                   std::string* out, size_t* replaced);

}  // namespace topicrawl

#endif  // TOPICRAWL_FETCH_CHARSET_H_
