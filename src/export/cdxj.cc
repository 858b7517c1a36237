#include "export/cdxj.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <queue>
#include <strings.h>

#include "export/surt.h"
#include "nlohmann/json.hpp"

namespace topicrawl {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Status code and media type (lower case, no parameters) of an HTTP
// response head; empty when absent.
void HttpStatusAndMime(std::string_view block, std::string* status, std::string* mime) {
  std::string_view head = block.substr(0, block.find("\r\n\r\n"));
  size_t eol = head.find("\r\n");
  const std::string_view first = head.substr(0, eol);
  if (first.substr(0, 5) == "HTTP/") {
    const size_t sp = first.find(' ');
    if (sp != std::string_view::npos) *status = std::string(Trim(first.substr(sp + 1, 3)));
  }
  while (eol != std::string_view::npos) {
    head.remove_prefix(eol + 2);
    eol = head.find("\r\n");
    const std::string_view line = head.substr(0, eol);
    if (line.size() > 13 && strncasecmp(line.data(), "Content-Type:", 13) == 0) {
      std::string_view value = Trim(line.substr(13));
      mime->assign(Trim(value.substr(0, value.find(';'))));
      for (char& c : *mime) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      }
      return;
    }
  }
}

struct RunFile {
  std::ifstream in;
  std::string line;
};

// Sorted runs of lines, spilled to `<out>.run-N.tmp` files when memory
// fills, merged into the output at the end.
class LineSorter {
 public:
  LineSorter(std::string out_path, size_t max_run_bytes)
      : out_path_(std::move(out_path)), max_run_bytes_(max_run_bytes) {}
  ~LineSorter() {
    std::error_code ec;
    for (const std::string& run : runs_) std::filesystem::remove(run, ec);
  }

  Status Add(std::string line) {
    bytes_ += line.size() + sizeof(std::string);
    lines_.push_back(std::move(line));
    return bytes_ >= max_run_bytes_ ? Spill() : Status::Ok();
  }

  // Writes every line, sorted, to `out`.
  Status Finish(std::ostream& out) {
    if (runs_.empty()) {
      std::sort(lines_.begin(), lines_.end());
      for (const std::string& l : lines_) out << l << '\n';
      return out ? Status::Ok() : Status::Error("write failed");
    }
    if (Status s = Spill(); !s.ok()) return s;
    return Merge(out);
  }

  int64_t runs() const { return static_cast<int64_t>(runs_.size()); }

 private:
  Status Spill() {
    if (lines_.empty()) return Status::Ok();
    std::sort(lines_.begin(), lines_.end());
    const std::string path = out_path_ + ".run-" + std::to_string(runs_.size()) + ".tmp";
    runs_.push_back(path);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    for (const std::string& l : lines_) f << l << '\n';
    f.close();
    if (!f) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
    lines_.clear();
    lines_.shrink_to_fit();
    bytes_ = 0;
    return Status::Ok();
  }

  Status Merge(std::ostream& out) {
    std::vector<RunFile> files(runs_.size());
    auto later = [&](size_t a, size_t b) { return files[a].line > files[b].line; };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
    for (size_t i = 0; i < runs_.size(); ++i) {
      files[i].in.open(runs_[i], std::ios::binary);
      if (std::getline(files[i].in, files[i].line)) heap.push(i);
    }
    while (!heap.empty()) {
      const size_t i = heap.top();
      heap.pop();
      out << files[i].line << '\n';
      if (std::getline(files[i].in, files[i].line)) heap.push(i);
    }
    return out ? Status::Ok() : Status::Error("write failed");
  }

  const std::string out_path_;
  const size_t max_run_bytes_;
  std::vector<std::string> lines_;
  size_t bytes_ = 0;
  std::vector<std::string> runs_;
};

bool IsWarcName(const std::string& name) {
  auto ends = [&](std::string_view suffix) {
    return name.size() > suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".warc.gz") || ends(".warc.zst");
}

}  // namespace

std::string CdxjTimestamp(std::string_view warc_date) {
  std::string ts;
  for (char c : warc_date) {
    if (c >= '0' && c <= '9') ts.push_back(c);
    if (ts.size() == 14) return ts;
  }
  return {};
}

std::optional<std::string> CdxjLine(const ParsedWarcRecord& record, std::string_view filename) {
  const std::string_view type = record.Header("WARC-Type");
  if (type != "response" && type != "revisit" && type != "resource") return std::nullopt;
  const std::string_view url = record.Header("WARC-Target-URI");
  const std::string ts = CdxjTimestamp(record.Header("WARC-Date"));
  if (url.empty() || ts.empty()) return std::nullopt;
  std::string status, mime;
  if (type == "resource") {
    mime = std::string(Trim(record.Header("Content-Type").substr(
        0, record.Header("Content-Type").find(';'))));
  } else {
    HttpStatusAndMime(record.block, &status, &mime);
  }
  if (type == "revisit") mime = "warc/revisit";
  nlohmann::ordered_json j;
  j["url"] = url;
  if (!mime.empty()) j["mime"] = mime;
  if (!status.empty()) j["status"] = status;
  if (std::string_view d = record.Header("WARC-Payload-Digest"); !d.empty()) j["digest"] = d;
  j["length"] = std::to_string(record.length);
  j["offset"] = std::to_string(record.offset);
  j["filename"] = filename;
  return SurtKey(url) + " " + ts + " " +
         j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

StatusOr<CdxjStats> WriteCdxjIndex(const std::vector<std::string>& warc_paths,
                                   const std::string& out_path, size_t max_run_bytes) {
  CdxjStats stats;
  LineSorter sorter(out_path, max_run_bytes);
  for (const std::string& path : warc_paths) {
    const std::string name = std::filesystem::path(path).filename().string();
    Status add;
    Status s = ReadWarcFile(path, [&](ParsedWarcRecord& r) {
      ++stats.records;
      if (std::optional<std::string> line = CdxjLine(r, name)) {
        ++stats.lines;
        add = sorter.Add(std::move(*line));
      }
      return add.ok();
    });
    if (!add.ok()) return add;
    if (!s.ok()) return Status::Error("cannot index: " + s.message());
    ++stats.files;
  }
  const std::string tmp = out_path + ".tmp";
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
  Status s = sorter.Finish(out);
  out.close();
  if (s.ok() && !out) s = Status::Error("write failed for " + tmp);
  if (s.ok() && std::rename(tmp.c_str(), out_path.c_str()) != 0) {
    s = Status::Error("cannot rename " + tmp + " to " + out_path + ": " + std::strerror(errno));
  }
  if (!s.ok()) {
    std::remove(tmp.c_str());
    return s;
  }
  stats.runs = sorter.runs();
  return stats;
}

StatusOr<std::vector<std::string>> CrawlWarcFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/warc", ec)) {
    if (IsWarcName(e.path().filename().string())) files.push_back(e.path().string());
  }
  if (ec) return Status::Error("cannot list " + dir + "/warc: " + ec.message());
  if (files.empty()) return Status::Error("no WARC files in " + dir + "/warc");
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace topicrawl
