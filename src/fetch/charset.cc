#include "fetch/charset.h"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace topicrawl {
namespace {

// ---------------------------------------------------------------------------
// WHATWG Encoding §4.2: every label of every encoding. The table is the
// standard's encodings.json, flattened; the first column is the canonical
// name, which is also what DecodedText::charset reports.
struct LabelEntry {
  const char* label;
  const char* encoding;
};

constexpr LabelEntry kLabels[] = {
    {"unicode-1-1-utf-8", "UTF-8"}, {"unicode11utf8", "UTF-8"},
    {"unicode20utf8", "UTF-8"}, {"utf-8", "UTF-8"}, {"utf8", "UTF-8"},
    {"x-unicode20utf8", "UTF-8"},
    {"866", "IBM866"}, {"cp866", "IBM866"}, {"csibm866", "IBM866"},
    {"ibm866", "IBM866"},
    {"csisolatin2", "ISO-8859-2"}, {"iso-8859-2", "ISO-8859-2"},
    {"iso-ir-101", "ISO-8859-2"}, {"iso8859-2", "ISO-8859-2"},
    {"iso88592", "ISO-8859-2"}, {"iso_8859-2", "ISO-8859-2"},
    {"iso_8859-2:1987", "ISO-8859-2"}, {"l2", "ISO-8859-2"},
    {"latin2", "ISO-8859-2"},
    {"csisolatin3", "ISO-8859-3"}, {"iso-8859-3", "ISO-8859-3"},
    {"iso-ir-109", "ISO-8859-3"}, {"iso8859-3", "ISO-8859-3"},
    {"iso88593", "ISO-8859-3"}, {"iso_8859-3", "ISO-8859-3"},
    {"iso_8859-3:1988", "ISO-8859-3"}, {"l3", "ISO-8859-3"},
    {"latin3", "ISO-8859-3"},
    {"csisolatin4", "ISO-8859-4"}, {"iso-8859-4", "ISO-8859-4"},
    {"iso-ir-110", "ISO-8859-4"}, {"iso8859-4", "ISO-8859-4"},
    {"iso88594", "ISO-8859-4"}, {"iso_8859-4", "ISO-8859-4"},
    {"iso_8859-4:1988", "ISO-8859-4"}, {"l4", "ISO-8859-4"},
    {"latin4", "ISO-8859-4"},
    {"csisolatincyrillic", "ISO-8859-5"}, {"cyrillic", "ISO-8859-5"},
    {"iso-8859-5", "ISO-8859-5"}, {"iso-ir-144", "ISO-8859-5"},
    {"iso8859-5", "ISO-8859-5"}, {"iso88595", "ISO-8859-5"},
    {"iso_8859-5", "ISO-8859-5"}, {"iso_8859-5:1988", "ISO-8859-5"},
    {"arabic", "ISO-8859-6"}, {"asmo-708", "ISO-8859-6"},
    {"csiso88596e", "ISO-8859-6"}, {"csiso88596i", "ISO-8859-6"},
    {"csisolatinarabic", "ISO-8859-6"}, {"ecma-114", "ISO-8859-6"},
    {"iso-8859-6", "ISO-8859-6"}, {"iso-8859-6-e", "ISO-8859-6"},
    {"iso-8859-6-i", "ISO-8859-6"}, {"iso-ir-127", "ISO-8859-6"},
    {"iso8859-6", "ISO-8859-6"}, {"iso88596", "ISO-8859-6"},
    {"iso_8859-6", "ISO-8859-6"}, {"iso_8859-6:1987", "ISO-8859-6"},
    {"csisolatingreek", "ISO-8859-7"}, {"ecma-118", "ISO-8859-7"},
    {"elot_928", "ISO-8859-7"}, {"greek", "ISO-8859-7"},
    {"greek8", "ISO-8859-7"}, {"iso-8859-7", "ISO-8859-7"},
    {"iso-ir-126", "ISO-8859-7"}, {"iso8859-7", "ISO-8859-7"},
    {"iso88597", "ISO-8859-7"}, {"iso_8859-7", "ISO-8859-7"},
    {"iso_8859-7:1987", "ISO-8859-7"}, {"sun_eu_greek", "ISO-8859-7"},
    {"csiso88598e", "ISO-8859-8"}, {"csisolatinhebrew", "ISO-8859-8"},
    {"hebrew", "ISO-8859-8"}, {"iso-8859-8", "ISO-8859-8"},
    {"iso-8859-8-e", "ISO-8859-8"}, {"iso-ir-138", "ISO-8859-8"},
    {"iso8859-8", "ISO-8859-8"}, {"iso88598", "ISO-8859-8"},
    {"iso_8859-8", "ISO-8859-8"}, {"iso_8859-8:1988", "ISO-8859-8"},
    {"visual", "ISO-8859-8"},
    {"csiso88598i", "ISO-8859-8-I"}, {"iso-8859-8-i", "ISO-8859-8-I"},
    {"logical", "ISO-8859-8-I"},
    {"csisolatin6", "ISO-8859-10"}, {"iso-8859-10", "ISO-8859-10"},
    {"iso-ir-157", "ISO-8859-10"}, {"iso8859-10", "ISO-8859-10"},
    {"iso885910", "ISO-8859-10"}, {"l6", "ISO-8859-10"},
    {"latin6", "ISO-8859-10"},
    {"iso-8859-13", "ISO-8859-13"}, {"iso8859-13", "ISO-8859-13"},
    {"iso885913", "ISO-8859-13"},
    {"iso-8859-14", "ISO-8859-14"}, {"iso8859-14", "ISO-8859-14"},
    {"iso885914", "ISO-8859-14"},
    {"csisolatin9", "ISO-8859-15"}, {"iso-8859-15", "ISO-8859-15"},
    {"iso8859-15", "ISO-8859-15"}, {"iso885915", "ISO-8859-15"},
    {"iso_8859-15", "ISO-8859-15"}, {"l9", "ISO-8859-15"},
    {"iso-8859-16", "ISO-8859-16"},
    {"cskoi8r", "KOI8-R"}, {"koi", "KOI8-R"}, {"koi8", "KOI8-R"},
    {"koi8-r", "KOI8-R"}, {"koi8_r", "KOI8-R"},
    {"koi8-ru", "KOI8-U"}, {"koi8-u", "KOI8-U"},
    {"csmacintosh", "macintosh"}, {"mac", "macintosh"},
    {"macintosh", "macintosh"}, {"x-mac-roman", "macintosh"},
    {"dos-874", "windows-874"}, {"iso-8859-11", "windows-874"},
    {"iso8859-11", "windows-874"}, {"iso885911", "windows-874"},
    {"tis-620", "windows-874"}, {"windows-874", "windows-874"},
    {"cp1250", "windows-1250"}, {"windows-1250", "windows-1250"},
    {"x-cp1250", "windows-1250"},
    {"cp1251", "windows-1251"}, {"windows-1251", "windows-1251"},
    {"x-cp1251", "windows-1251"},
    {"ansi_x3.4-1968", "windows-1252"}, {"ascii", "windows-1252"},
    {"cp1252", "windows-1252"}, {"cp819", "windows-1252"},
    {"csisolatin1", "windows-1252"}, {"ibm819", "windows-1252"},
    {"iso-8859-1", "windows-1252"}, {"iso-ir-100", "windows-1252"},
    {"iso8859-1", "windows-1252"}, {"iso88591", "windows-1252"},
    {"iso_8859-1", "windows-1252"}, {"iso_8859-1:1987", "windows-1252"},
    {"l1", "windows-1252"}, {"latin1", "windows-1252"},
    {"us-ascii", "windows-1252"}, {"windows-1252", "windows-1252"},
    {"x-cp1252", "windows-1252"},
    {"cp1253", "windows-1253"}, {"windows-1253", "windows-1253"},
    {"x-cp1253", "windows-1253"},
    {"cp1254", "windows-1254"}, {"csisolatin5", "windows-1254"},
    {"iso-8859-9", "windows-1254"}, {"iso-ir-148", "windows-1254"},
    {"iso8859-9", "windows-1254"}, {"iso88599", "windows-1254"},
    {"iso_8859-9", "windows-1254"}, {"iso_8859-9:1989", "windows-1254"},
    {"l5", "windows-1254"}, {"latin5", "windows-1254"},
    {"windows-1254", "windows-1254"}, {"x-cp1254", "windows-1254"},
    {"cp1255", "windows-1255"}, {"windows-1255", "windows-1255"},
    {"x-cp1255", "windows-1255"},
    {"cp1256", "windows-1256"}, {"windows-1256", "windows-1256"},
    {"x-cp1256", "windows-1256"},
    {"cp1257", "windows-1257"}, {"windows-1257", "windows-1257"},
    {"x-cp1257", "windows-1257"},
    {"cp1258", "windows-1258"}, {"windows-1258", "windows-1258"},
    {"x-cp1258", "windows-1258"},
    {"x-mac-cyrillic", "x-mac-cyrillic"}, {"x-mac-ukrainian", "x-mac-cyrillic"},
    {"chinese", "GBK"}, {"csgb2312", "GBK"}, {"csiso58gb231280", "GBK"},
    {"gb2312", "GBK"}, {"gb_2312", "GBK"}, {"gb_2312-80", "GBK"},
    {"gbk", "GBK"}, {"iso-ir-58", "GBK"}, {"x-gbk", "GBK"},
    {"gb18030", "gb18030"},
    {"big5", "Big5"}, {"big5-hkscs", "Big5"}, {"cn-big5", "Big5"},
    {"csbig5", "Big5"}, {"x-x-big5", "Big5"},
    {"cseucpkdfmtjapanese", "EUC-JP"}, {"euc-jp", "EUC-JP"},
    {"x-euc-jp", "EUC-JP"},
    {"csiso2022jp", "ISO-2022-JP"}, {"iso-2022-jp", "ISO-2022-JP"},
    {"csshiftjis", "Shift_JIS"}, {"ms932", "Shift_JIS"},
    {"ms_kanji", "Shift_JIS"}, {"shift-jis", "Shift_JIS"},
    {"shift_jis", "Shift_JIS"}, {"sjis", "Shift_JIS"},
    {"windows-31j", "Shift_JIS"}, {"x-sjis", "Shift_JIS"},
    {"cseuckr", "EUC-KR"}, {"csksc56011987", "EUC-KR"}, {"euc-kr", "EUC-KR"},
    {"iso-ir-149", "EUC-KR"}, {"korean", "EUC-KR"},
    {"ks_c_5601-1987", "EUC-KR"}, {"ks_c_5601-1989", "EUC-KR"},
    {"ksc5601", "EUC-KR"}, {"ksc_5601", "EUC-KR"}, {"windows-949", "EUC-KR"},
    {"csiso2022kr", "replacement"}, {"hz-gb-2312", "replacement"},
    {"iso-2022-cn", "replacement"}, {"iso-2022-cn-ext", "replacement"},
    {"iso-2022-kr", "replacement"}, {"replacement", "replacement"},
    {"unicodefffe", "UTF-16BE"}, {"utf-16be", "UTF-16BE"},
    {"csunicode", "UTF-16LE"}, {"iso-10646-ucs-2", "UTF-16LE"},
    {"ucs-2", "UTF-16LE"}, {"unicode", "UTF-16LE"},
    {"unicodefeff", "UTF-16LE"}, {"utf-16", "UTF-16LE"},
    {"utf-16le", "UTF-16LE"},
    {"x-user-defined", "x-user-defined"},
};

// The ICU converter that implements each WHATWG decoder. GBK uses the
// gb18030 decoder (WHATWG §10.1: "the gbk decoder is the gb18030 decoder");
// Big5 is Big5-HKSCS (WHATWG's index is HKSCS-based); Shift_JIS and EUC-KR
// are the Windows supersets (windows-31j, windows-949) as in the standard.
const char* IcuNameFor(std::string_view encoding) {
  if (encoding == "GBK" || encoding == "gb18030") return "gb18030";
  if (encoding == "Big5") return "ibm-1375_P100-2008";
  if (encoding == "Shift_JIS") return "windows-31j";
  if (encoding == "EUC-KR") return "windows-949";
  if (encoding == "ISO-8859-8-I") return "ISO-8859-8";
  return nullptr;  // the canonical name is also an ICU alias
}

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string_view TrimAscii(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool StartsWithNoCase(std::string_view s, size_t pos, std::string_view prefix) {
  if (s.size() - std::min(pos, s.size()) < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (AsciiLower(s[pos + i]) != prefix[i]) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// UTF-8 validation per WHATWG Encoding §8.1.1 (maximal subparts count as one
// invalid sequence each, exactly as the decoder substitutes them).
struct Utf8Stats {
  size_t multibyte = 0;  // valid sequences of 2..4 bytes
  size_t invalid = 0;    // sequences the decoder replaces with U+FFFD
};

Utf8Stats ScanUtf8(std::string_view s) {
  Utf8Stats st;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    // ASCII fast path, 8 bytes at a time.
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ULL) break;
      i += 8;
    }
    if (i >= n) break;
    unsigned char b = p[i];
    if (b < 0x80) {
      ++i;
      continue;
    }
    int need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      need = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      need = 2;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      need = 3;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      ++st.invalid;
      ++i;
      continue;
    }
    size_t j = i + 1;
    bool ok = true;
    for (int k = 0; k < need; ++k, ++j) {
      if (j >= n || p[j] < lo || p[j] > hi) {
        ok = false;
        break;
      }
      lo = 0x80;
      hi = 0xBF;
    }
    if (ok) {
      ++st.multibyte;
    } else {
      ++st.invalid;  // the offending byte is reprocessed
    }
    i = j;
  }
  return st;
}

size_t CountNonAscii(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += c >> 7;
  return n;
}

// ---------------------------------------------------------------------------
// ICU conversion with a counting substitution callback.

struct CallbackContext {
  size_t replaced = 0;
  bool windows1252 = false;
};

// ICU calls this for every illegal, irregular or unmapped input sequence. We
// write U+FFFD and count it. windows-1252's five undefined bytes (0x81, 0x8D,
// 0x8F, 0x90, 0x9D) decode to the C1 control of the same value per the WHATWG
// index, which ICU's table lacks.
void CountingSubstitute(const void* context, UConverterToUnicodeArgs* args,
                        const char* code_units, int32_t length,
                        UConverterCallbackReason reason, UErrorCode* err) {
  if (reason > UCNV_IRREGULAR) return;  // reset/close/clone: nothing to do
  auto* ctx = static_cast<CallbackContext*>(const_cast<void*>(context));
  UChar out = 0xFFFD;
  if (ctx->windows1252 && length == 1) {
    unsigned char b = static_cast<unsigned char>(code_units[0]);
    if (b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D) {
      out = b;
    }
  }
  if (out == 0xFFFD) ++ctx->replaced;
  *err = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &out, 1, 0, err);
}

// One converter per (thread, ICU name): opening a converter takes a lock in
// ICU and costs microseconds, so parse-pool threads keep theirs.
class ConverterCache {
 public:
  ~ConverterCache() {
    for (auto& [name, cnv] : cnvs_) ucnv_close(cnv);
  }
  UConverter* Get(const std::string& icu_name) {
    auto it = cnvs_.find(icu_name);
    if (it != cnvs_.end()) {
      ucnv_reset(it->second);
      return it->second;
    }
    UErrorCode err = U_ZERO_ERROR;
    UConverter* cnv = ucnv_open(icu_name.c_str(), &err);
    if (U_FAILURE(err)) cnv = nullptr;
    cnvs_.emplace(icu_name, cnv);  // remember failures too
    return cnv;
  }

 private:
  std::unordered_map<std::string, UConverter*> cnvs_;
};

ConverterCache& Converters() {
  thread_local ConverterCache cache;
  return cache;
}

// x-user-defined (WHATWG §14.5): 0x80..0xFF -> U+F780..U+F7FF.
void DecodeUserDefined(std::string_view body, std::string* out) {
  out->clear();
  out->reserve(body.size());
  for (unsigned char c : body) {
    if (c < 0x80) {
      out->push_back(static_cast<char>(c));
    } else {
      unsigned cp = 0xF780 + (c - 0x80);
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
}

// ---------------------------------------------------------------------------
// HTML §13.2.3.2 prescan helpers.

struct Attribute {
  std::string name;
  std::string value;
};

// "Get an attribute" (HTML §13.2.3.2). Returns false when there is no further
// attribute (at '>' or end of input); *eof is set when input ran out.
bool GetAttribute(std::string_view s, size_t* pos, Attribute* attr, bool* eof) {
  size_t& p = *pos;
  const size_t n = s.size();
  attr->name.clear();
  attr->value.clear();
  while (p < n && (IsAsciiSpace(s[p]) || s[p] == '/')) ++p;
  if (p >= n) return (*eof = true, false);
  if (s[p] == '>') return false;
  // Name.
  for (;; ++p) {
    if (p >= n) return (*eof = true, false);
    char c = s[p];
    if (c == '=' && !attr->name.empty()) {
      ++p;
      goto value;
    }
    if (IsAsciiSpace(c)) break;
    if (c == '/' || c == '>') return true;
    attr->name.push_back(AsciiLower(c));
  }
  // Spaces before '='.
  while (p < n && IsAsciiSpace(s[p])) ++p;
  if (p >= n) return (*eof = true, false);
  if (s[p] != '=') return true;
  ++p;
value:
  while (p < n && IsAsciiSpace(s[p])) ++p;
  if (p >= n) return (*eof = true, false);
  if (s[p] == '"' || s[p] == '\'') {
    const char quote = s[p];
    for (++p;; ++p) {
      if (p >= n) return (*eof = true, false);
      if (s[p] == quote) {
        ++p;
        return true;
      }
      attr->value.push_back(AsciiLower(s[p]));
    }
  }
  if (s[p] == '>') return true;
  for (;; ++p) {
    if (p >= n) return (*eof = true, false);
    if (IsAsciiSpace(s[p]) || s[p] == '>') return true;
    attr->value.push_back(AsciiLower(s[p]));
  }
}

// HTML §2.5.x "algorithm for extracting a character encoding from a meta
// element" over an (already lower-cased) content attribute value.
std::string ExtractCharsetFromContent(std::string_view v) {
  size_t pos = 0;
  for (;;) {
    size_t at = v.find("charset", pos);
    if (at == std::string_view::npos) return {};
    pos = at + 7;
    while (pos < v.size() && IsAsciiSpace(v[pos])) ++pos;
    if (pos >= v.size() || v[pos] != '=') continue;
    ++pos;
    while (pos < v.size() && IsAsciiSpace(v[pos])) ++pos;
    if (pos >= v.size()) return {};
    if (v[pos] == '"' || v[pos] == '\'') {
      size_t end = v.find(v[pos], pos + 1);
      if (end == std::string_view::npos) return {};
      return std::string(v.substr(pos + 1, end - pos - 1));
    }
    size_t end = pos;
    while (end < v.size() && !IsAsciiSpace(v[end]) && v[end] != ';') ++end;
    return std::string(v.substr(pos, end - pos));
  }
}

// Processes one <meta ...> whose attributes start at *pos. Returns the
// encoding it declares or "".
std::string PrescanMeta(std::string_view s, size_t* pos, bool* eof) {
  bool got_pragma = false;
  int need_pragma = -1;  // -1 null, 0 false, 1 true
  std::string charset;
  std::vector<std::string> seen;
  Attribute attr;
  while (GetAttribute(s, pos, &attr, eof)) {
    if (std::find(seen.begin(), seen.end(), attr.name) != seen.end()) continue;
    seen.push_back(attr.name);
    if (attr.name == "http-equiv") {
      if (attr.value == "content-type") got_pragma = true;
    } else if (attr.name == "content") {
      if (charset.empty()) {
        std::string c = ExtractCharsetFromContent(attr.value);
        if (!c.empty()) {
          charset = std::move(c);
          need_pragma = 1;
        }
      }
    } else if (attr.name == "charset") {
      charset = attr.value;
      need_pragma = 0;
    }
  }
  if (*eof || need_pragma == -1) return {};
  if (need_pragma == 1 && !got_pragma) return {};
  std::string enc = EncodingForLabel(charset);
  if (enc == "UTF-16BE" || enc == "UTF-16LE") return "UTF-8";
  if (enc == "x-user-defined") return "windows-1252";
  return enc;
}

bool IsAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// ---------------------------------------------------------------------------

// Decode with a declared encoding and apply the override rule of the header.
DecodedText DecodeDeclared(std::string_view body, const std::string& declared,
                           const std::string& source) {
  DecodedText out;
  out.charset = declared;
  out.source = source;
  Utf8Stats utf8 = ScanUtf8(body);
  bool clearly_wrong = false;
  if (declared == "UTF-8") {
    if (utf8.invalid == 0) {
      out.utf8.assign(body);
      return out;
    }
    ConvertToUtf8(body, "UTF-8", &out.utf8, &out.replaced);
    clearly_wrong = utf8.invalid * 10 > utf8.multibyte;
  } else if (declared == "UTF-16BE" || declared == "UTF-16LE") {
    ConvertToUtf8(body, declared, &out.utf8, &out.replaced);
    return out;
  } else {
    if (utf8.invalid == 0 && utf8.multibyte > 0 && declared != "replacement") {
      out.utf8.assign(body);
      out.charset = "UTF-8";
      out.source = source + "-override";
      return out;
    }
    if (!ConvertToUtf8(body, declared, &out.utf8, &out.replaced)) {
      // Declared but not available in this ICU: decode as UTF-8 instead.
      ConvertToUtf8(body, "UTF-8", &out.utf8, &out.replaced);
      out.charset = "UTF-8";
      out.source = "default";
      return out;
    }
    clearly_wrong = out.replaced > 0 && out.replaced * 50 > CountNonAscii(body);
  }
  if (!clearly_wrong) return out;
  std::string detected = DetectEncoding(body);
  if (detected.empty() || detected == declared) return out;
  std::string alt;
  size_t alt_replaced = 0;
  if (!ConvertToUtf8(body, detected, &alt, &alt_replaced)) return out;
  if (alt_replaced >= out.replaced) return out;
  out.utf8 = std::move(alt);
  out.replaced = alt_replaced;
  out.charset = detected;
  out.source = source + "-override";
  return out;
}

}  // namespace

std::string EncodingForLabel(std::string_view label) {
  label = TrimAscii(label);
  if (label.empty() || label.size() > 32) return {};
  char lower[33];
  for (size_t i = 0; i < label.size(); ++i) lower[i] = AsciiLower(label[i]);
  std::string_view key(lower, label.size());
  for (const auto& e : kLabels) {
    if (key == e.label) return e.encoding;
  }
  return {};
}

std::string CharsetParameter(std::string_view content_type) {
  std::string_view ct = content_type;
  const size_t n = ct.size();
  size_t i = ct.find(';');
  // Invariant at the top of the loop: i is at a ';' (or npos).
  while (i != std::string_view::npos && i < n) {
    ++i;
    size_t name_start = i;
    while (i < n && ct[i] != '=' && ct[i] != ';') ++i;
    std::string_view name = TrimAscii(ct.substr(name_start, i - name_start));
    if (i >= n) break;
    if (ct[i] == ';') continue;
    ++i;  // past '='
    while (i < n && IsAsciiSpace(ct[i])) ++i;
    std::string value;
    if (i < n && ct[i] == '"') {
      // quoted-string (RFC 9110 §5.6.4) with backslash escapes.
      for (++i; i < n && ct[i] != '"'; ++i) {
        if (ct[i] == '\\' && i + 1 < n) ++i;
        value.push_back(ct[i]);
      }
      i = ct.find(';', std::min(i, n));
    } else {
      size_t end = ct.find(';', i);
      value = std::string(TrimAscii(ct.substr(i, end == std::string_view::npos ? n - i : end - i)));
      i = end;
    }
    if (name.size() == 7 && StartsWithNoCase(name, 0, "charset")) {
      return std::string(TrimAscii(value));
    }
  }
  return {};
}

std::string PrescanMetaCharset(std::string_view head) {
  std::string_view s = head.substr(0, std::min<size_t>(head.size(), 1024));
  const size_t n = s.size();
  size_t p = 0;
  bool eof = false;
  Attribute attr;
  while (p < n) {
    if (s[p] != '<') {
      ++p;
      continue;
    }
    if (s.substr(p, 4) == "<!--") {
      size_t end = s.find("-->", p + 2);
      if (end == std::string_view::npos) return {};
      p = end + 3;
      continue;
    }
    if (StartsWithNoCase(s, p, "<meta") && p + 5 < n &&
        (IsAsciiSpace(s[p + 5]) || s[p + 5] == '/')) {
      p += 5;
      std::string enc = PrescanMeta(s, &p, &eof);
      if (eof) return {};
      if (!enc.empty()) return enc;
      ++p;
      continue;
    }
    if ((p + 1 < n && IsAsciiAlpha(s[p + 1])) ||
        (p + 2 < n && s[p + 1] == '/' && IsAsciiAlpha(s[p + 2]))) {
      while (p < n && !IsAsciiSpace(s[p]) && s[p] != '>') ++p;
      while (GetAttribute(s, &p, &attr, &eof)) {
      }
      if (eof) return {};
      ++p;
      continue;
    }
    if (p + 1 < n && (s[p + 1] == '!' || s[p + 1] == '/' || s[p + 1] == '?')) {
      size_t end = s.find('>', p + 2);
      if (end == std::string_view::npos) return {};
      p = end + 1;
      continue;
    }
    ++p;
  }
  return {};
}

std::string DetectEncoding(std::string_view body) {
  // uchardet reaches its answer on the first few KB of real pages; a bounded
  // prefix keeps the cost flat for 10 MiB bodies.
  constexpr size_t kMaxDetectBytes = 64 * 1024;
  struct Detector {
    uchardet_t ud = uchardet_new();
    ~Detector() { uchardet_delete(ud); }
  };
  thread_local Detector det;
  uchardet_reset(det.ud);
  std::string_view sample = body.substr(0, std::min(body.size(), kMaxDetectBytes));
  if (uchardet_handle_data(det.ud, sample.data(), sample.size()) != 0) return {};
  uchardet_data_end(det.ud);
  std::string name = uchardet_get_charset(det.ud);
  for (auto& c : name) c = AsciiLower(c);
  if (name.empty() || name == "ascii") return {};
  // uchardet names outside the WHATWG label set.
  if (name == "mac-cyrillic") name = "x-mac-cyrillic";
  if (name == "uhc" || name == "cp949") name = "euc-kr";
  if (name == "utf-16") name = "utf-16le";
  std::string enc = EncodingForLabel(name);
  if (enc == "replacement") return {};
  return enc;
}

bool ConvertToUtf8(std::string_view body, std::string_view encoding,
                   std::string* out, size_t* replaced) {
  *replaced = 0;
  if (encoding == "x-user-defined") {
    DecodeUserDefined(body, out);
    return true;
  }
  if (encoding == "replacement") {
    // WHATWG §14.1: the whole stream decodes to one U+FFFD (or nothing).
    out->assign(body.empty() ? "" : "\xEF\xBF\xBD");
    *replaced = body.empty() ? 0 : 1;
    return true;
  }
  const char* icu = IcuNameFor(encoding);
  std::string icu_name = icu ? icu : std::string(encoding);
  UConverter* src = Converters().Get(icu_name);
  UConverter* utf8 = Converters().Get("UTF-8");
  if (src == nullptr || utf8 == nullptr) return false;
  CallbackContext ctx;
  ctx.windows1252 = encoding == "windows-1252";
  UErrorCode err = U_ZERO_ERROR;
  ucnv_setToUCallBack(src, CountingSubstitute, &ctx, nullptr, nullptr, &err);
  if (U_FAILURE(err)) return false;

  std::string result;
  result.reserve(body.size() + body.size() / 2 + 16);
  const char* in = body.data();
  const char* in_end = in + body.size();
  UChar pivot[4096];
  UChar* pivot_source = pivot;
  UChar* pivot_target = pivot;
  char buf[64 * 1024];
  bool reset = true;
  for (;;) {
    char* t = buf;
    err = U_ZERO_ERROR;
    ucnv_convertEx(utf8, src, &t, buf + sizeof(buf), &in, in_end, pivot,
                   &pivot_source, &pivot_target, pivot + 4096, reset,
                   /*flush=*/true, &err);
    reset = false;
    result.append(buf, static_cast<size_t>(t - buf));
    if (err == U_BUFFER_OVERFLOW_ERROR) continue;
    if (U_FAILURE(err)) {
      ucnv_setToUCallBack(src, UCNV_TO_U_CALLBACK_SUBSTITUTE, nullptr, nullptr,
                          nullptr, &err);
      return false;
    }
    break;
  }
  err = U_ZERO_ERROR;
  ucnv_setToUCallBack(src, UCNV_TO_U_CALLBACK_SUBSTITUTE, nullptr, nullptr,
                      nullptr, &err);
  *out = std::move(result);
  *replaced = ctx.replaced;
  return true;
}

DecodedText DecodeToUtf8(std::string_view body, std::string_view content_type) {
  // 1. Byte order mark (HTML §13.2.3.1 step 1; WHATWG "BOM sniff").
  auto has_prefix = [&](std::string_view bom) {
    return body.substr(0, bom.size()) == bom;
  };
  std::string bom_enc;
  if (has_prefix("\xEF\xBB\xBF")) {
    bom_enc = "UTF-8";
    body.remove_prefix(3);
  } else if (has_prefix("\xFE\xFF")) {
    bom_enc = "UTF-16BE";
    body.remove_prefix(2);
  } else if (has_prefix("\xFF\xFE")) {
    bom_enc = "UTF-16LE";
    body.remove_prefix(2);
  }
  if (!bom_enc.empty()) {
    DecodedText out;
    out.charset = bom_enc;
    out.source = "bom";
    if (bom_enc == "UTF-8" && ScanUtf8(body).invalid == 0) {
      out.utf8.assign(body);
    } else {
      ConvertToUtf8(body, bom_enc, &out.utf8, &out.replaced);
    }
    return out;
  }
  // 2. HTTP charset.
  std::string declared = EncodingForLabel(CharsetParameter(content_type));
  if (!declared.empty()) return DecodeDeclared(body, declared, "http");
  // 3. <meta> prescan.
  declared = PrescanMetaCharset(body);
  if (!declared.empty()) return DecodeDeclared(body, declared, "meta");
  // 4. Detector. Valid UTF-8 needs no statistics: take it directly.
  DecodedText out;
  Utf8Stats utf8 = ScanUtf8(body);
  if (utf8.invalid == 0) {
    out.utf8.assign(body);
    out.charset = "UTF-8";
    out.source = utf8.multibyte > 0 ? "detector" : "default";
    return out;
  }
  std::string detected = DetectEncoding(body);
  if (!detected.empty() &&
      ConvertToUtf8(body, detected, &out.utf8, &out.replaced)) {
    out.charset = detected;
    out.source = "detector";
    return out;
  }
  // 5. Default.
  ConvertToUtf8(body, "UTF-8", &out.utf8, &out.replaced);
  out.charset = "UTF-8";
  out.source = "default";
  return out;
}

}  // namespace topicrawl
