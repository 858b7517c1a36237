#include "export/optout.h"

#include <strings.h>

#include "nlohmann/json.hpp"

namespace topicrawl {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Robots directives that keep a page out of a corpus.
bool IsReservingDirective(std::string_view d) {
  return d == "noindex" || d == "noarchive" || d == "none" || d == "noai" ||
         d == "noimageai";
}

// Adds "<where>: <directive>" for each reserving directive of a robots
// value ("noindex, nofollow", or X-Robots-Tag's "agent: noai").
void RobotsDirectives(std::string_view where, std::string_view value, OptOutSignals* out) {
  std::string v = Lower(value);
  std::string_view rest = v;
  while (!rest.empty()) {
    const size_t comma = rest.find_first_of(", ");
    std::string_view token = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (const size_t colon = token.rfind(':'); colon != std::string_view::npos) {
      token = Trim(token.substr(colon + 1));  // "googlebot: noindex"
    }
    if (IsReservingDirective(token)) {
      out->signals.push_back(std::string(where) + ": " + std::string(token));
      out->reserved = true;
    }
  }
}

void TdmReservation(std::string_view where, std::string_view value, OptOutSignals* out) {
  value = Trim(value);
  out->signals.push_back(std::string(where) + ": " + std::string(value));
  if (value == "1") out->reserved = true;
}

}  // namespace

bool UsageReserves(std::string_view preferences) {
  const std::string v = Lower(preferences);
  std::string_view rest = v;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view member = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t eq = member.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;  // a bare key is "true"
    std::string_view value = Trim(member.substr(eq + 1));
    if (const size_t semi = value.find(';'); semi != std::string_view::npos) {
      value = Trim(value.substr(0, semi));  // Structured Fields parameters
    }
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    if (value == "n" || value == "no") return true;
  }
  return false;
}

StatusOr<std::vector<TdmRepRule>> ParseTdmRepJson(std::string_view body) {
  nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Error("tdmrep.json is not JSON");
  if (!j.is_array()) return Status::Error("tdmrep.json is not a JSON array");
  std::vector<TdmRepRule> rules;
  for (const nlohmann::json& e : j) {
    if (!e.is_object() || !e.contains("location") || !e["location"].is_string()) continue;
    TdmRepRule r;
    r.location = e["location"].get<std::string>();
    const auto res = e.find("tdm-reservation");
    if (res != e.end() && res->is_number_integer()) r.reservation = res->get<int>();
    if (res != e.end() && res->is_string()) r.reservation = res->get<std::string>() == "1";
    const auto pol = e.find("tdm-policy");
    if (pol != e.end() && pol->is_string()) r.policy = pol->get<std::string>();
    rules.push_back(std::move(r));
  }
  return rules;
}

OptOutSignals DetectOptOut(std::string_view http_head,
                           const std::vector<std::pair<std::string, std::string>>& meta) {
  OptOutSignals out;
  size_t eol = http_head.find("\r\n");
  while (eol != std::string_view::npos) {
    http_head.remove_prefix(eol + 2);
    eol = http_head.find("\r\n");
    const std::string_view line = http_head.substr(0, eol);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = Lower(Trim(line.substr(0, colon)));
    const std::string_view value = Trim(line.substr(colon + 1));
    if (name == "x-robots-tag") RobotsDirectives("x-robots-tag", value, &out);
    if (name == "tdm-reservation") TdmReservation("tdm-reservation", value, &out);
    if (name == "tdm-policy") out.signals.push_back("tdm-policy: " + std::string(value));
    if (name == "content-usage") {
      out.signals.push_back("content-usage: " + std::string(value));
      out.reserved = out.reserved || UsageReserves(value);
    }
  }
  for (const auto& [name, content] : meta) {
    if (name == "tdm-reservation") {
      TdmReservation("meta tdm-reservation", content, &out);
    } else if (name == "tdm-policy") {
      out.signals.push_back("meta tdm-policy: " + content);
    } else {
      RobotsDirectives("meta " + name, content, &out);
    }
  }
  return out;
}

}  // namespace topicrawl
