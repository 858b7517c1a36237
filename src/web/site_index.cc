#include "web/site_index.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

namespace topicrawl::web {
namespace fs = std::filesystem;
namespace {

bool IsHtmlName(const std::string& name) {
  auto ends_with = [&](std::string_view suffix) {
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".html") || ends_with(".htm");
}

// The longest url_prefix of `host` that `path` starts with.
const std::string* LongestPrefix(const std::vector<std::string>& prefixes, std::string_view path) {
  const std::string* best = nullptr;
  for (const std::string& p : prefixes) {
    if (path.substr(0, p.size()) == p && (best == nullptr || p.size() > best->size())) best = &p;
  }
  return best;
}

struct Location {
  const ManifestRow* row;  // first row of the overlay group
  std::string packages;
};

Status WalkLocation(const Location& loc, const std::string& root,
                    const std::vector<std::string>& host_prefixes, std::vector<SiteFile>* out) {
  fs::path dir = fs::path(root) / loc.row->html_root;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Status::Error("manifest line " + std::to_string(loc.row->line) + ": html_root " +
                         dir.string() + " is not a directory (package " + loc.packages +
                         " not extracted?)");
  }
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) return Status::Error("cannot read " + dir.string() + ": " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return Status::Error("cannot read " + dir.string() + ": " + ec.message());
    const fs::directory_entry& entry = *it;
    std::error_code file_ec;
    if (entry.is_directory(file_ec)) continue;  // symlinked dirs: not descended
    if (!fs::is_regular_file(entry.path(), file_ec)) continue;  // follows links
    std::string name = entry.path().filename().string();
    if (!IsHtmlName(name)) continue;
    std::string rel = entry.path().lexically_relative(dir).generic_string();
    if (MatchesAnyGlob(loc.row->exclude, rel)) continue;
    std::string url_path = loc.row->url_prefix + rel;
    if (*LongestPrefix(host_prefixes, url_path) != loc.row->url_prefix) continue;
    out->push_back({UrlForFile(*loc.row, rel), loc.row->host, loc.packages, rel});
  }
  return Status::Ok();
}

}  // namespace

std::string UrlForFile(const ManifestRow& row, std::string_view relpath) {
  return "http://" + row.host + row.url_prefix + PercentEncodePath(relpath);
}

StatusOr<std::vector<SiteFile>> ListServedHtml(const Manifest& manifest,
                                               const std::string& root) {
  // Group overlay rows: one location per (host, prefix); the manifest reader
  // already guarantees one html_root and one exclude list per pair.
  std::map<std::pair<std::string, std::string>, Location> locations;
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::string, std::vector<std::string>> prefixes_by_host;
  for (const ManifestRow& row : manifest.rows) {
    auto key = std::make_pair(row.host, row.url_prefix);
    auto [it, inserted] = locations.emplace(key, Location{&row, row.package});
    if (inserted) {
      order.push_back(key);
      prefixes_by_host[row.host].push_back(row.url_prefix);
    } else if (("," + it->second.packages + ",").find("," + row.package + ",") ==
               std::string::npos) {
      it->second.packages += "," + row.package;
    }
  }
  std::vector<SiteFile> files;
  for (const auto& key : order) {
    Status s = WalkLocation(locations.at(key), root, prefixes_by_host[key.first], &files);
    if (!s.ok()) return s;
  }
  std::sort(files.begin(), files.end(),
            [](const SiteFile& a, const SiteFile& b) { return a.url < b.url; });
  files.erase(std::unique(files.begin(), files.end(),
                          [](const SiteFile& a, const SiteFile& b) { return a.url == b.url; }),
              files.end());
  return files;
}

Status WriteSiteIndex(const std::vector<SiteFile>& files, const std::string& path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Error("cannot write " + tmp);
    out << "url\thost\tpackages\trelpath\n";
    for (const SiteFile& f : files) {
      out << f.url << '\t' << f.host << '\t' << f.packages << '\t' << f.relpath << '\n';
    }
    if (!out.flush()) return Status::Error("write failed: " + tmp);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Status::Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
  return Status::Ok();
}

}  // namespace topicrawl::web
