#include "eval/round_truth.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace topicrawl::eval {
namespace {

namespace fs = std::filesystem;

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

bool ParseChange(const std::string& s, PageChange* out) {
  for (PageChange c : {PageChange::kNew, PageChange::kChanged, PageChange::kUnchanged, PageChange::kGone}) {
    if (s == PageChangeName(c)) {
      *out = c;
      return true;
    }
  }
  return false;
}

// Calls row(line_no, url, second) for every data row; checks the header.
template <typename Row>
Status ReadTsv(const std::string& path, const std::string& header, Row row) {
  std::string text;
  if (!ReadFile(path, &text)) return Status::Error("cannot read " + path);
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_no == 1) {
      if (line != header) return Status::Error(path + ": line 1 is not the header '" + header + "'");
      continue;
    }
    if (line.empty()) continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos || line.find('\t', tab + 1) != std::string::npos) {
      return Status::Error(path + ":" + std::to_string(line_no) + ": expected two tab-separated fields");
    }
    if (Status s = row(line_no, line.substr(0, tab), line.substr(tab + 1)); !s.ok()) {
      return Status::Error(path + ":" + std::to_string(line_no) + ": " + s.message());
    }
  }
  return Status::Ok();
}

}  // namespace

const char* PageChangeName(PageChange c) {
  switch (c) {
    case PageChange::kNew: return "new";
    case PageChange::kChanged: return "changed";
    case PageChange::kUnchanged: return "unchanged";
    case PageChange::kGone: return "gone";
  }
  return "?";
}

size_t RoundTruth::Count(PageChange c) const {
  size_t n = 0;
  for (const auto& [url, s] : state) n += s == c ? 1 : 0;
  return n;
}

StatusOr<int> TruthRounds(const std::string& dir) {
  if (fs::exists(dir + "/EVOLVING")) {
    return Status::Error(dir + " holds an interrupted `web evolve` (EVOLVING): its truth is incomplete");
  }
  std::string text;
  if (!ReadFile(dir + "/evolve.tsv", &text)) {
    return Status::Error(dir + " is not an evolved web (no evolve.tsv; see `topicrawl web evolve`)");
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("rounds\t", 0) == 0) {
      try {
        int rounds = std::stoi(line.substr(7));
        if (rounds >= 0) return rounds;
      } catch (...) {
      }
      break;
    }
  }
  return Status::Error(dir + "/evolve.tsv: no valid `rounds` line");
}

StatusOr<RoundTruth> ReadRoundTruth(const std::string& dir, int round) {
  StatusOr<int> rounds = TruthRounds(dir);
  if (!rounds.ok()) return rounds.status();
  if (round < 0 || round > *rounds) {
    return Status::Error("round " + std::to_string(round) + " is out of range: " + dir + " has rounds 0.." +
                         std::to_string(*rounds));
  }
  RoundTruth truth;
  truth.round = round;
  const std::string k = std::to_string(round);
  Status s = ReadTsv(dir + "/truth/round-" + k + ".tsv", "url\tstate",
                     [&](int, const std::string& url, const std::string& state) {
                       PageChange c;
                       if (!ParseChange(state, &c)) return Status::Error("unknown state '" + state + "'");
                       if (!truth.state.emplace(url, c).second) return Status::Error(url + " listed twice");
                       return Status::Ok();
                     });
  if (!s.ok()) return s;
  s = ReadTsv(dir + "/truth/hubs-" + k + ".tsv", "url\tnew_links",
              [&](int, const std::string& url, const std::string& count) {
                size_t n = 0;
                try {
                  n = std::stoul(count);
                } catch (...) {
                  return Status::Error("new_links is not a number: '" + count + "'");
                }
                if (!truth.hubs.emplace(url, n).second) return Status::Error(url + " listed twice");
                return Status::Ok();
              });
  if (!s.ok()) return s;
  return truth;
}

}  // namespace topicrawl::eval
