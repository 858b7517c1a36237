#include "server/prometheus_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace topicrawl {
namespace {

bool ValidName(const std::string& n, bool label) {
  if (n.empty()) return false;
  for (size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                       (!label && c == ':');
    const bool digit = c >= '0' && c <= '9';
    if (!(alpha || (i > 0 && digit))) return false;
  }
  return !(label && n.rfind("__", 0) == 0);
}

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string EscapeLabel(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out.push_back(c);
  }
  return out;
}

std::string EscapeHelp(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out.push_back(c);
  }
  return out;
}

}  // namespace

void PrometheusWriter::Family(const std::string& name, const std::string& type,
                              const std::string& help) {
  family_ = name;
  out_ += "# HELP " + name + " " + EscapeHelp(help) + "\n";
  out_ += "# TYPE " + name + " " + type + "\n";
}

void PrometheusWriter::Sample(double value, const std::map<std::string, std::string>& labels) {
  out_ += family_;
  if (!labels.empty()) {
    out_ += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
      if (!first) out_ += ',';
      first = false;
      out_ += k + "=\"" + EscapeLabel(v) + "\"";
    }
    out_ += '}';
  }
  out_ += ' ' + FormatValue(value) + '\n';
}

StatusOr<std::map<std::string, PrometheusFamily>> ParsePrometheusText(const std::string& text) {
  std::map<std::string, PrometheusFamily> families;
  std::set<std::string> series;
  std::string current;  // family of the last TYPE line
  size_t line_no = 0;
  size_t pos = 0;
  if (!text.empty() && text.back() != '\n') return Status::Error("last line lacks '\\n'");
  auto err = [&](const std::string& m) {
    return Status::Error("line " + std::to_string(line_no) + ": " + m);
  };
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line.find('\r') != std::string::npos) return err("carriage return");
    if (line[0] == '#') {
      std::istringstream in(line.substr(1));
      std::string kind, name;
      in >> kind >> name;
      if (kind != "HELP" && kind != "TYPE") continue;  // a comment
      if (!ValidName(name, false)) return err("bad metric name '" + name + "'");
      std::string rest;
      std::getline(in, rest);
      if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
      PrometheusFamily& f = families[name];
      f.name = name;
      if (kind == "HELP") {
        if (!f.help.empty()) return err("second HELP for " + name);
        if (!f.samples.empty()) return err("HELP after samples of " + name);
        f.help = rest;
      } else {
        if (!f.type.empty()) return err("second TYPE for " + name);
        if (!f.samples.empty()) return err("TYPE after samples of " + name);
        static const std::set<std::string> kTypes = {"counter", "gauge", "histogram",
                                                     "summary", "untyped"};
        if (!kTypes.count(rest)) return err("bad type '" + rest + "'");
        if (rest == "counter" && name.size() < 6) return err("counter without _total");
        if (rest == "counter" && name.compare(name.size() - 6, 6, "_total") != 0) {
          return err("counter " + name + " does not end in _total");
        }
        f.type = rest;
        current = name;
      }
      continue;
    }
    // name{labels} value [timestamp]
    size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    PrometheusSample s;
    s.name = line.substr(0, i);
    if (!ValidName(s.name, false)) return err("bad sample name '" + s.name + "'");
    if (i < line.size() && line[i] == '{') {
      ++i;
      while (i < line.size() && line[i] != '}') {
        size_t eq = line.find('=', i);
        if (eq == std::string::npos) return err("label without '='");
        std::string lname = line.substr(i, eq - i);
        if (!ValidName(lname, true)) return err("bad label name '" + lname + "'");
        if (eq + 1 >= line.size() || line[eq + 1] != '"') return err("label value not quoted");
        std::string value;
        size_t j = eq + 2;
        for (; j < line.size() && line[j] != '"'; ++j) {
          if (line[j] == '\\') {
            if (++j >= line.size()) return err("dangling escape");
            if (line[j] == 'n') value.push_back('\n');
            else if (line[j] == '\\' || line[j] == '"') value.push_back(line[j]);
            else return err("bad escape");
          } else {
            value.push_back(line[j]);
          }
        }
        if (j >= line.size()) return err("unterminated label value");
        if (s.labels.count(lname)) return err("duplicate label " + lname);
        s.labels[lname] = value;
        i = j + 1;
        if (i < line.size() && line[i] == ',') ++i;
      }
      if (i >= line.size()) return err("unterminated label set");
      ++i;
    }
    if (i >= line.size() || line[i] != ' ') return err("no value");
    std::istringstream in(line.substr(i + 1));
    std::string value, ts, extra;
    in >> value >> ts >> extra;
    if (!extra.empty()) return err("trailing text");
    if (value == "NaN") s.value = NAN;
    else if (value == "+Inf") s.value = INFINITY;
    else if (value == "-Inf") s.value = -INFINITY;
    else {
      char* endp = nullptr;
      s.value = std::strtod(value.c_str(), &endp);
      if (value.empty() || *endp != '\0') return err("bad value '" + value + "'");
    }
    if (!ts.empty()) {
      char* endp = nullptr;
      std::strtoll(ts.c_str(), &endp, 10);
      if (*endp != '\0') return err("bad timestamp");
    }
    if (current.empty() || s.name != current) return err("sample " + s.name + " without TYPE");
    std::string key = s.name + "{";
    for (const auto& [k, v] : s.labels) key += k + "=" + v + ",";
    if (!series.insert(key).second) return err("duplicate series " + key + "}");
    PrometheusFamily& f = families[current];
    if (f.type == "counter" && (s.value < 0 || std::isnan(s.value))) {
      return err("negative counter " + s.name);
    }
    f.samples.push_back(std::move(s));
  }
  for (const auto& [name, f] : families) {
    if (f.type.empty()) return Status::Error(name + " has HELP but no TYPE");
  }
  return families;
}

}  // namespace topicrawl
