#include "web/manifest.h"

#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "core/tsv.h"

namespace topicrawl::web {
namespace {

// Splits text into lines, dropping a trailing '\r' (files edited on Windows).
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line =
        text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

Status LineError(std::string_view source, int line, const std::string& what) {
  return Status::Error(std::string(source) + ":" + std::to_string(line) + ": " + what);
}

bool IsHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

// A DNS name as it appears in a Host header: lower case, dots, no port.
bool ValidHost(std::string_view host) {
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.') {
    return false;
  }
  for (char c : host) {
    if (!IsHostChar(c)) return false;
  }
  return host.find("..") == std::string_view::npos;
}

// Characters that nginx's config tokenizer or an HTTP path cannot carry as-is.
bool HasUnsafeChar(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == ' ' || c == '"' || c == '\'' || c == '\\' || c == '$' ||
        c == '{' || c == '}' || c == ';' || c == '#' || c == '?') {
      return true;
    }
  }
  return false;
}

std::string ValidatePrefix(std::string_view prefix) {
  if (prefix.empty() || prefix.front() != '/' || prefix.back() != '/') {
    return "url_prefix must start and end with '/': '" + std::string(prefix) + "'";
  }
  if (HasUnsafeChar(prefix) || prefix.find("//") != std::string_view::npos ||
      prefix.find("/../") != std::string_view::npos ||
      prefix.find("/./") != std::string_view::npos) {
    return "url_prefix has an unsupported character or segment: '" + std::string(prefix) + "'";
  }
  return {};
}

std::string ValidateHtmlRoot(std::string_view root) {
  if (root.empty()) return "html_root is empty";
  if (root.front() == '/' || root.back() == '/') {
    return "html_root must be relative, without leading or trailing '/': '" +
           std::string(root) + "'";
  }
  if (HasUnsafeChar(root)) {
    return "html_root has an unsupported character: '" + std::string(root) + "'";
  }
  std::string padded = "/" + std::string(root) + "/";
  if (padded.find("/../") != std::string::npos || padded.find("/./") != std::string::npos ||
      padded.find("//") != std::string::npos) {
    return "html_root must not contain '.', '..' or empty segments: '" + std::string(root) + "'";
  }
  return {};
}

std::vector<std::string> SplitGlobs(std::string_view field) {
  std::vector<std::string> globs;
  size_t start = 0;
  while (start <= field.size()) {
    size_t comma = field.find(',', start);
    if (comma == std::string_view::npos) comma = field.size();
    globs.emplace_back(field.substr(start, comma - start));
    start = comma + 1;
  }
  return globs;
}

// Cross-row checks: one html_root per (host, prefix); overlays agree on
// excludes (a union of differently filtered rows cannot be served by one
// nginx location).
Status CheckConsistency(const Manifest& m, std::string_view source) {
  std::map<std::pair<std::string, std::string>, const ManifestRow*> by_prefix;
  for (const ManifestRow& row : m.rows) {
    auto [it, inserted] = by_prefix.emplace(std::make_pair(row.host, row.url_prefix), &row);
    if (inserted) continue;
    const ManifestRow& first = *it->second;
    if (first.html_root != row.html_root) {
      return LineError(source, row.line,
                       "host " + row.host + " prefix " + row.url_prefix +
                           " is already mapped to html_root " + first.html_root + " (line " +
                           std::to_string(first.line) + ")");
    }
    if (first.exclude != row.exclude) {
      return LineError(source, row.line,
                       "overlay row must have the same exclude list as line " +
                           std::to_string(first.line));
    }
  }
  return Status::Ok();
}

std::string ReadAll(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// --- fnmatch -----------------------------------------------------------------

struct GlobSet {
  bool negate = false;
  std::vector<std::pair<unsigned char, unsigned char>> ranges;  // inclusive
  bool Contains(unsigned char c) const {
    bool in = false;
    for (auto [lo, hi] : ranges) in = in || (c >= lo && c <= hi);
    return in != negate;
  }
};

enum class GlobKind { kLiteral, kAny, kStar, kSet };
struct GlobToken {
  GlobKind kind = GlobKind::kLiteral;
  unsigned char literal = 0;
  GlobSet set;
};

GlobToken Token(GlobKind kind, unsigned char literal = 0) {
  GlobToken t;
  t.kind = kind;
  t.literal = literal;
  return t;
}

// Tokenises like Python's fnmatch.translate: a '[' with no closing ']' is a
// literal; ']' right after '[' or '[!' belongs to the set; inside a set,
// "a-z" is a range and a leading or trailing '-' is literal.
std::vector<GlobToken> TokenizeGlob(std::string_view p) {
  std::vector<GlobToken> tokens;
  size_t i = 0;
  const size_t n = p.size();
  while (i < n) {
    char c = p[i++];
    if (c == '*') {
      if (tokens.empty() || tokens.back().kind != GlobKind::kStar) {
        tokens.push_back(Token(GlobKind::kStar));
      }
    } else if (c == '?') {
      tokens.push_back(Token(GlobKind::kAny));
    } else if (c == '[') {
      size_t j = i;
      if (j < n && p[j] == '!') ++j;
      if (j < n && p[j] == ']') ++j;
      while (j < n && p[j] != ']') ++j;
      if (j >= n) {
        tokens.push_back(Token(GlobKind::kLiteral, '['));
        continue;
      }
      std::string_view stuff = p.substr(i, j - i);
      i = j + 1;
      GlobToken t = Token(GlobKind::kSet);
      if (!stuff.empty() && stuff[0] == '!') {
        t.set.negate = true;
        stuff.remove_prefix(1);
      }
      for (size_t k = 0; k < stuff.size();) {
        unsigned char lo = stuff[k];
        if (k + 2 < stuff.size() && stuff[k + 1] == '-') {
          unsigned char hi = stuff[k + 2];
          if (lo <= hi) t.set.ranges.emplace_back(lo, hi);  // reversed = empty
          k += 3;
        } else {
          t.set.ranges.emplace_back(lo, lo);
          k += 1;
        }
      }
      tokens.push_back(std::move(t));
    } else {
      tokens.push_back(Token(GlobKind::kLiteral, static_cast<unsigned char>(c)));
    }
  }
  return tokens;
}

bool TokenMatches(const GlobToken& t, unsigned char c) {
  switch (t.kind) {
    case GlobKind::kLiteral:
      return t.literal == c;
    case GlobKind::kAny:
      return true;
    case GlobKind::kSet:
      return t.set.Contains(c);
    case GlobKind::kStar:
      return false;
  }
  return false;
}

void AppendRegexLiteral(unsigned char c, std::string* out) {
  static constexpr std::string_view kMeta = "\\^$.|?*+()[]{}";
  if (kMeta.find(static_cast<char>(c)) != std::string_view::npos) out->push_back('\\');
  out->push_back(static_cast<char>(c));
}

void AppendRegexSetChar(unsigned char c, std::string* out) {
  if (c == '\\' || c == ']' || c == '[' || c == '^' || c == '-') out->push_back('\\');
  out->push_back(static_cast<char>(c));
}

}  // namespace

std::vector<std::string> Manifest::Hosts() const {
  std::vector<std::string> hosts;
  std::set<std::string> seen;
  for (const ManifestRow& row : rows) {
    if (seen.insert(row.host).second) hosts.push_back(row.host);
  }
  return hosts;
}

std::vector<std::string> Manifest::Packages() const {
  std::vector<std::string> packages;
  std::set<std::string> seen;
  for (const ManifestRow& row : rows) {
    if (seen.insert(row.package).second) packages.push_back(row.package);
  }
  return packages;
}

StatusOr<Manifest> ParseManifest(std::string_view text, std::string_view source) {
  std::vector<std::string_view> lines = SplitLines(text);
  Manifest manifest;
  bool saw_header = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    std::string_view line = lines[i];
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string_view> f = SplitTabs(line);
    if (!saw_header) {
      if (f.size() != 5 || f[0] != "host" || f[1] != "url_prefix" || f[2] != "package" ||
          f[3] != "html_root" || f[4] != "exclude") {
        return LineError(source, line_no,
                         "expected header 'host<TAB>url_prefix<TAB>package<TAB>html_root<TAB>"
                         "exclude'");
      }
      saw_header = true;
      continue;
    }
    if (f.size() == 4) f.push_back({});
    if (f.size() != 5) {
      return LineError(source, line_no,
                       "expected 5 tab-separated fields, got " + std::to_string(f.size()));
    }
    ManifestRow row;
    row.host = std::string(f[0]);
    row.url_prefix = std::string(f[1]);
    row.package = std::string(f[2]);
    row.html_root = std::string(f[3]);
    row.line = line_no;
    if (!ValidHost(row.host)) {
      return LineError(source, line_no, "invalid host '" + row.host + "' (lower-case DNS name)");
    }
    if (std::string e = ValidatePrefix(row.url_prefix); !e.empty()) {
      return LineError(source, line_no, e);
    }
    if (row.package.empty() || HasUnsafeChar(row.package) ||
        row.package.find('/') != std::string::npos) {
      return LineError(source, line_no, "invalid package name '" + row.package + "'");
    }
    if (std::string e = ValidateHtmlRoot(row.html_root); !e.empty()) {
      return LineError(source, line_no, e);
    }
    if (!f[4].empty()) {
      row.exclude = SplitGlobs(f[4]);
      for (const std::string& g : row.exclude) {
        if (g.empty()) return LineError(source, line_no, "empty glob in exclude list");
      }
    }
    manifest.rows.push_back(std::move(row));
  }
  if (!saw_header) return Status::Error(std::string(source) + ": missing header line");
  if (manifest.rows.empty()) return Status::Error(std::string(source) + ": no rows");
  if (Status s = CheckConsistency(manifest, source); !s.ok()) return s;
  return manifest;
}

StatusOr<Manifest> ReadManifestFile(const std::string& path) {
  bool ok = false;
  std::string text = ReadAll(path, &ok);
  if (!ok) return Status::Error("cannot read manifest " + path);
  return ParseManifest(text, path);
}

StatusOr<std::map<std::string, PackagePin>> ParsePackagePins(std::string_view text,
                                                            std::string_view source) {
  std::map<std::string, PackagePin> pins;
  bool saw_header = false;
  std::vector<std::string_view> lines = SplitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    std::string_view line = lines[i];
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string_view> f = SplitTabs(line);
    if (!saw_header) {
      if (f.size() != 3 || f[0] != "package" || f[1] != "version" || f[2] != "deb_sha256") {
        return LineError(source, line_no, "expected header 'package<TAB>version<TAB>deb_sha256'");
      }
      saw_header = true;
      continue;
    }
    if (f.size() == 2) f.push_back({});
    if (f.size() != 3) {
      return LineError(source, line_no,
                       "expected 3 tab-separated fields, got " + std::to_string(f.size()));
    }
    PackagePin pin{std::string(f[0]), std::string(f[1]), std::string(f[2]), line_no};
    if (pin.package.empty() || HasUnsafeChar(pin.package) ||
        pin.package.find('/') != std::string::npos) {
      return LineError(source, line_no, "invalid package name '" + pin.package + "'");
    }
    if (pin.version.empty() || HasUnsafeChar(pin.version)) {
      return LineError(source, line_no, "invalid version '" + pin.version + "'");
    }
    if (!pin.sha256.empty()) {
      bool hex = pin.sha256.size() == 64;
      for (char& c : pin.sha256) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
        hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
      }
      if (!hex) return LineError(source, line_no, "deb_sha256 must be 64 hex digits");
    }
    std::string name = pin.package;
    if (!pins.emplace(name, std::move(pin)).second) {
      return LineError(source, line_no, "package " + name + " listed twice");
    }
  }
  if (!saw_header) return Status::Error(std::string(source) + ": missing header line");
  return pins;
}

StatusOr<std::map<std::string, PackagePin>> ReadPackagePinsFile(const std::string& path) {
  bool ok = false;
  std::string text = ReadAll(path, &ok);
  if (!ok) return Status::Error("cannot read packages file " + path);
  return ParsePackagePins(text, path);
}

bool FnmatchCase(std::string_view pattern, std::string_view name) {
  std::vector<GlobToken> t = TokenizeGlob(pattern);
  // Iterative wildcard matching with one backtrack point (the last '*'):
  // linear in practice, no recursion.
  size_t ti = 0, ni = 0;
  size_t star_t = std::string::npos, star_n = 0;
  while (ni < name.size()) {
    if (ti < t.size() && t[ti].kind == GlobKind::kStar) {
      star_t = ti++;
      star_n = ni;
    } else if (ti < t.size() && TokenMatches(t[ti], static_cast<unsigned char>(name[ni]))) {
      ++ti;
      ++ni;
    } else if (star_t != std::string::npos) {
      ti = star_t + 1;
      ni = ++star_n;
    } else {
      return false;
    }
  }
  while (ti < t.size() && t[ti].kind == GlobKind::kStar) ++ti;
  return ti == t.size();
}

std::string FnmatchToRegex(std::string_view pattern) {
  std::string out;
  for (const GlobToken& t : TokenizeGlob(pattern)) {
    switch (t.kind) {
      case GlobKind::kLiteral:
        AppendRegexLiteral(t.literal, &out);
        break;
      case GlobKind::kAny:
        out += '.';
        break;
      case GlobKind::kStar:
        out += ".*";
        break;
      case GlobKind::kSet:
        if (t.set.ranges.empty()) {
          out += t.set.negate ? "." : "(?!)";
          break;
        }
        out += t.set.negate ? "[^" : "[";
        for (auto [lo, hi] : t.set.ranges) {
          AppendRegexSetChar(lo, &out);
          if (hi != lo) {
            out += '-';
            AppendRegexSetChar(hi, &out);
          }
        }
        out += ']';
        break;
    }
  }
  return out;
}

bool MatchesAnyGlob(const std::vector<std::string>& globs, std::string_view relpath) {
  for (const std::string& g : globs) {
    if (FnmatchCase(g, relpath)) return true;
  }
  return false;
}

}  // namespace topicrawl::web
