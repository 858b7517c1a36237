// Benchmark-web manifests: which Debian package directory is served under
// which http://host/prefix/ (format: ../shared/corpus/README.md §1).
//
// A manifest is a TSV file with the header
//
//   host  url_prefix  package  html_root  exclude
//
// Each row maps T/<html_root>/ (T = the directory every package of the web is
// extracted into) to http://<host><url_prefix>. `exclude` is a
// comma-separated list of fnmatch globs matched against the path relative to
// html_root with Python `fnmatch.fnmatchcase` semantics: `*` also matches
// `/`. Rows that share host, url_prefix and html_root overlay (their files
// are served as one union); that is how two packages installing into one
// directory are served.
//
// A packages file (packages-*.tsv) pins the exact versions:
//
//   package  version  deb_sha256
//
// Parsing never throws: a malformed file yields an error Status whose message
// names the source and the 1-based line number of the first bad row.
#ifndef TOPICRAWL_WEB_MANIFEST_H_
#define TOPICRAWL_WEB_MANIFEST_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl::web {

struct ManifestRow {
  std::string host;        // lower-case DNS name, no port
  std::string url_prefix;  // starts and ends with '/'; decoded path form
  std::string package;     // Debian package name
  std::string html_root;   // relative to T, no leading or trailing '/'
  std::vector<std::string> exclude;  // fnmatch globs; empty = nothing excluded
  int line = 0;            // 1-based line in the manifest (for messages)
};

struct Manifest {
  std::vector<ManifestRow> rows;  // in file order

  // Distinct hosts in first-appearance order.
  std::vector<std::string> Hosts() const;
  // Distinct package names in first-appearance order.
  std::vector<std::string> Packages() const;
};

struct PackagePin {
  std::string package;
  std::string version;  // Debian version, epoch included ("1:2.39.5-0+deb12u3")
  std::string sha256;   // lower-case hex, 64 characters; empty when unknown
  int line = 0;
};

// Parses manifest text. `source` names the input in error messages.
// Checks: the exact header, 5 tab-separated fields (the last may be empty or
// missing), a valid host, a url_prefix that starts and ends with '/', a
// relative html_root without "..", non-empty globs, and consistency across
// rows: a (host, url_prefix) pair maps to one html_root, and overlay rows
// (same host, url_prefix and html_root) carry the same exclude list.
// Blank lines and lines starting with '#' are skipped.
StatusOr<Manifest> ParseManifest(std::string_view text, std::string_view source);
StatusOr<Manifest> ReadManifestFile(const std::string& path);

// Parses a packages file (header `package version deb_sha256`); the sha256
// column may be empty. A package listed twice is an error.
StatusOr<std::map<std::string, PackagePin>> ParsePackagePins(std::string_view text,
                                                            std::string_view source);
StatusOr<std::map<std::string, PackagePin>> ReadPackagePinsFile(const std::string& path);

// Python fnmatch.fnmatchcase(name, pattern): '*' matches any run of
// characters including '/', '?' one character, '[seq]' / '[!seq]' a set
// (ranges allowed; an unclosed '[' is a literal). Bytes, case-sensitive.
bool FnmatchCase(std::string_view pattern, std::string_view name);

// The same pattern as a PCRE fragment (no anchors), equivalent to
// FnmatchCase; used for nginx `location ~` blocks.
std::string FnmatchToRegex(std::string_view pattern);

// True when `relpath` matches one of `globs`.
bool MatchesAnyGlob(const std::vector<std::string>& globs, std::string_view relpath);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_MANIFEST_H_
