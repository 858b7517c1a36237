#include "strategies/naive_bayes/link_dataset.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/tsv.h"
#include "nlohmann/json.hpp"

namespace topicrawl {
namespace {

constexpr char kLinkHeader[] =
    "label\tsplit\tfrom_url\tto_url\tanchor\tcontext\tanchor_tokens\tcontext_tokens\t"
    "anchor_dict\tcontext_dict";
constexpr char kPageHeader[] = "label\tsplit\turl\ttitle\ttokens";

// A field never holds a tab or a line break: they become spaces.
std::string Clean(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

std::string JoinTokens(const std::vector<std::string>& tokens) {
  std::string out;
  for (const auto& t : tokens) {
    if (t.empty()) continue;
    if (!out.empty()) out += ' ';
    out += Clean(t);
  }
  return out;
}

std::vector<std::string> SplitTokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

Status ParseLabel(std::string_view s, int* label) {
  if (s == "1") *label = 1;
  else if (s == "0") *label = 0;
  else if (s == "-1") *label = -1;
  else return Status::Error("label must be 1, 0 or -1, got \"" + std::string(s) + "\"");
  return Status::Ok();
}

Status ParseSplit(std::string_view s, Split* split) {
  if (s == "train") *split = Split::kTrain;
  else if (s == "test") *split = Split::kTest;
  else if (s == "-") *split = Split::kNone;
  else return Status::Error("split must be train, test or -, got \"" + std::string(s) + "\"");
  return Status::Ok();
}

// Reads `path` line by line, checking the header and column count; `row`
// parses one split line.
template <typename Row>
StatusOr<std::vector<Row>> ReadTsv(
    const std::string& path, std::string_view header, size_t columns,
    const std::function<Status(const std::vector<std::string_view>&, Row*)>& row) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read " + path);
  std::string line;
  if (!std::getline(in, line) || line != header) {
    return Status::Error(path + ":1: not a topicrawl data file (expected header \"" +
                         std::string(header) + "\")");
  }
  std::vector<Row> rows;
  size_t n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    auto cols = SplitTabs(line);
    if (cols.size() != columns) {
      return Status::Error(path + ":" + std::to_string(n) + ": expected " +
                           std::to_string(columns) + " columns, got " +
                           std::to_string(cols.size()));
    }
    Row r;
    Status s = row(cols, &r);
    if (!s.ok()) return Status::Error(path + ":" + std::to_string(n) + ": " + s.message());
    rows.push_back(std::move(r));
  }
  return rows;
}

Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path);
  out << text;
  out.flush();
  return out ? Status::Ok() : Status::Error("write failed: " + path);
}

}  // namespace

std::string_view SplitName(Split split) {
  switch (split) {
    case Split::kTrain: return "train";
    case Split::kTest: return "test";
    case Split::kNone: break;
  }
  return "-";
}

Status WriteLinkTsv(const std::string& path, const std::vector<LinkExample>& rows) {
  std::string text = std::string(kLinkHeader) + "\n";
  for (const auto& r : rows) {
    text += std::to_string(r.label) + '\t' + std::string(SplitName(r.split)) + '\t' +
            Clean(r.from_url) + '\t' + Clean(r.to_url) + '\t' + Clean(r.anchor) + '\t' +
            Clean(r.context) + '\t' + JoinTokens(r.tokens.anchor) + '\t' +
            JoinTokens(r.tokens.context) + '\t' + (r.tokens.anchor_has_dict ? "1" : "0") +
            '\t' + (r.tokens.context_has_dict ? "1" : "0") + '\n';
  }
  return WriteFile(path, text);
}

Status WritePageTsv(const std::string& path, const std::vector<PageExample>& rows) {
  std::string text = std::string(kPageHeader) + "\n";
  for (const auto& r : rows) {
    text += std::to_string(r.label) + '\t' + std::string(SplitName(r.split)) + '\t' +
            Clean(r.url) + '\t' + Clean(r.title) + '\t' + JoinTokens(r.tokens) + '\n';
  }
  return WriteFile(path, text);
}

StatusOr<std::vector<LinkExample>> ReadLinkTsv(const std::string& path) {
  return ReadTsv<LinkExample>(
      path, kLinkHeader, 10,
      [](const std::vector<std::string_view>& c, LinkExample* r) -> Status {
        Status s = ParseLabel(c[0], &r->label);
        if (!s.ok()) return s;
        s = ParseSplit(c[1], &r->split);
        if (!s.ok()) return s;
        r->from_url = std::string(c[2]);
        r->to_url = std::string(c[3]);
        r->anchor = std::string(c[4]);
        r->context = std::string(c[5]);
        r->tokens.anchor = SplitTokens(c[6]);
        r->tokens.context = SplitTokens(c[7]);
        if ((c[8] != "0" && c[8] != "1") || (c[9] != "0" && c[9] != "1")) {
          return Status::Error("anchor_dict/context_dict must be 0 or 1");
        }
        r->tokens.anchor_has_dict = c[8] == "1";
        r->tokens.context_has_dict = c[9] == "1";
        return Status::Ok();
      });
}

StatusOr<std::vector<PageExample>> ReadPageTsv(const std::string& path) {
  return ReadTsv<PageExample>(
      path, kPageHeader, 5,
      [](const std::vector<std::string_view>& c, PageExample* r) -> Status {
        Status s = ParseLabel(c[0], &r->label);
        if (!s.ok()) return s;
        s = ParseSplit(c[1], &r->split);
        if (!s.ok()) return s;
        r->url = std::string(c[2]);
        r->title = std::string(c[3]);
        r->tokens = SplitTokens(c[4]);
        return Status::Ok();
      });
}

StatusOr<std::vector<std::string>> ReadDatasetDictionary(const std::string& data_dir) {
  const std::string path = data_dir + "/dataset.json";
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read " + path + " (run `topicrawl collect-links`)");
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() ||
      j.value("format", std::string()) != "topicrawl-link-dataset") {
    return Status::Error(path + ": not a topicrawl link data set");
  }
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"] != 1) {
    return Status::Error(path + ": unsupported data set version (this topicrawl reads 1)");
  }
  try {
    return j.value("dictionary", std::vector<std::string>{});
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(path + ": bad dictionary: " + e.what());
  }
}

uint64_t SplitMix64::Next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t SplitMix64::Below(uint64_t n) {
  // Rejection sampling: no modulo bias.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do {
    x = Next();
  } while (x >= limit);
  return x % n;
}

std::vector<size_t> ShuffledIndexes(size_t n, SplitMix64* rng) {
  std::vector<size_t> idx(n);
  for (size_t i = 0; i < n; ++i) idx[i] = i;
  for (size_t i = n; i > 1; --i) {
    size_t j = static_cast<size_t>(rng->Below(i));
    std::swap(idx[i - 1], idx[j]);
  }
  return idx;
}

std::vector<Split> StratifiedSplit(const std::vector<int>& labels,
                                   double train_fraction, uint64_t seed) {
  std::vector<Split> out(labels.size(), Split::kNone);
  SplitMix64 rng(seed);
  for (int cls : {1, 0}) {
    std::vector<size_t> members;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == cls) members.push_back(i);
    }
    std::vector<size_t> order = ShuffledIndexes(members.size(), &rng);
    const size_t n_train = static_cast<size_t>(
        std::llround(train_fraction * static_cast<double>(members.size())));
    for (size_t k = 0; k < order.size(); ++k) {
      out[members[order[k]]] = k < n_train ? Split::kTrain : Split::kTest;
    }
  }
  return out;
}

}  // namespace topicrawl
