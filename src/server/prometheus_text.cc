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

namespace {

// `# HELP name text` or `# TYPE name type` (any other comment is skipped);
// a TYPE line makes `name` the family that samples may follow.
Status ParsePrometheusMetaLine(const std::string& line,
                               std::map<std::string, PrometheusFamily>* families,
                               std::string* current) {
  std::istringstream in(line.substr(1));
  std::string kind, name;
  in >> kind >> name;
  if (kind != "HELP" && kind != "TYPE") return Status::Ok();  // a comment
  if (!ValidName(name, false)) return Status::Error("bad metric name '" + name + "'");
  std::string rest;
  std::getline(in, rest);
  if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
  PrometheusFamily& f = (*families)[name];
  f.name = name;
  if (kind == "HELP") {
    if (!f.help.empty()) return Status::Error("second HELP for " + name);
    if (!f.samples.empty()) return Status::Error("HELP after samples of " + name);
    f.help = rest;
    return Status::Ok();
  }
  if (!f.type.empty()) return Status::Error("second TYPE for " + name);
  if (!f.samples.empty()) return Status::Error("TYPE after samples of " + name);
  static const std::set<std::string> kTypes = {"counter", "gauge", "histogram", "summary",
                                               "untyped"};
  if (!kTypes.count(rest)) return Status::Error("bad type '" + rest + "'");
  if (rest == "counter" && name.size() < 6) return Status::Error("counter without _total");
  if (rest == "counter" && name.compare(name.size() - 6, 6, "_total") != 0) {
    return Status::Error("counter " + name + " does not end in _total");
  }
  f.type = rest;
  *current = name;
  return Status::Ok();
}

// A quoted label value from line[*j] (just after the opening quote), with
// the escapes \n, \\ and \"; *j ends on the closing quote.
Status ParsePrometheusLabelValue(const std::string& line, size_t* j, std::string* value) {
  for (; *j < line.size() && line[*j] != '"'; ++*j) {
    if (line[*j] == '\\') {
      if (++*j >= line.size()) return Status::Error("dangling escape");
      if (line[*j] == 'n') value->push_back('\n');
      else if (line[*j] == '\\' || line[*j] == '"') value->push_back(line[*j]);
      else return Status::Error("bad escape");
    } else {
      value->push_back(line[*j]);
    }
  }
  if (*j >= line.size()) return Status::Error("unterminated label value");
  return Status::Ok();
}

// The label set {name="value",...} from just after its '{'; *i ends just
// after the '}'.
Status ParsePrometheusLabels(const std::string& line, size_t* i, PrometheusSample* s) {
  while (*i < line.size() && line[*i] != '}') {
    size_t eq = line.find('=', *i);
    if (eq == std::string::npos) return Status::Error("label without '='");
    std::string lname = line.substr(*i, eq - *i);
    if (!ValidName(lname, true)) return Status::Error("bad label name '" + lname + "'");
    if (eq + 1 >= line.size() || line[eq + 1] != '"') {
      return Status::Error("label value not quoted");
    }
    std::string value;
    size_t j = eq + 2;
    if (Status st = ParsePrometheusLabelValue(line, &j, &value); !st.ok()) return st;
    if (s->labels.count(lname)) return Status::Error("duplicate label " + lname);
    s->labels[lname] = value;
    *i = j + 1;
    if (*i < line.size() && line[*i] == ',') ++*i;
  }
  if (*i >= line.size()) return Status::Error("unterminated label set");
  ++*i;
  return Status::Ok();
}

// "value [timestamp]": a float (or NaN, +Inf, -Inf) and an integer.
Status ParsePrometheusValue(const std::string& text, PrometheusSample* s) {
  std::istringstream in(text);
  std::string value, ts, extra;
  in >> value >> ts >> extra;
  if (!extra.empty()) return Status::Error("trailing text");
  if (value == "NaN") s->value = NAN;
  else if (value == "+Inf") s->value = INFINITY;
  else if (value == "-Inf") s->value = -INFINITY;
  else {
    char* endp = nullptr;
    s->value = std::strtod(value.c_str(), &endp);
    if (value.empty() || *endp != '\0') return Status::Error("bad value '" + value + "'");
  }
  if (!ts.empty()) {
    char* endp = nullptr;
    std::strtoll(ts.c_str(), &endp, 10);
    if (*endp != '\0') return Status::Error("bad timestamp");
  }
  return Status::Ok();
}

// name{labels} value [timestamp], a sample of the family of the last TYPE
// line; `series` holds every series seen (a repeat is an error).
Status ParsePrometheusSample(const std::string& line, const std::string& current,
                             std::map<std::string, PrometheusFamily>* families,
                             std::set<std::string>* series) {
  size_t i = 0;
  while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
  PrometheusSample s;
  s.name = line.substr(0, i);
  if (!ValidName(s.name, false)) return Status::Error("bad sample name '" + s.name + "'");
  if (i < line.size() && line[i] == '{') {
    ++i;
    if (Status st = ParsePrometheusLabels(line, &i, &s); !st.ok()) return st;
  }
  if (i >= line.size() || line[i] != ' ') return Status::Error("no value");
  if (Status st = ParsePrometheusValue(line.substr(i + 1), &s); !st.ok()) return st;
  if (current.empty() || s.name != current) {
    return Status::Error("sample " + s.name + " without TYPE");
  }
  std::string key = s.name + "{";
  for (const auto& [k, v] : s.labels) key += k + "=" + v + ",";
  if (!series->insert(key).second) return Status::Error("duplicate series " + key + "}");
  PrometheusFamily& f = (*families)[current];
  if (f.type == "counter" && (s.value < 0 || std::isnan(s.value))) {
    return Status::Error("negative counter " + s.name);
  }
  f.samples.push_back(std::move(s));
  return Status::Ok();
}

}  // namespace

StatusOr<std::map<std::string, PrometheusFamily>> ParsePrometheusText(const std::string& text) {
  std::map<std::string, PrometheusFamily> families;
  std::set<std::string> series;
  std::string current;  // family of the last TYPE line
  size_t line_no = 0;
  size_t pos = 0;
  if (!text.empty() && text.back() != '\n') return Status::Error("last line lacks '\\n'");
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty()) continue;
    Status st;
    if (line.find('\r') != std::string::npos) {
      st = Status::Error("carriage return");
    } else if (line[0] == '#') {
      st = ParsePrometheusMetaLine(line, &families, &current);
    } else {
      st = ParsePrometheusSample(line, current, &families, &series);
    }
    if (!st.ok()) return Status::Error("line " + std::to_string(line_no) + ": " + st.message());
  }
  for (const auto& [name, f] : families) {
    if (f.type.empty()) return Status::Error(name + " has HELP but no TYPE");
  }
  return families;
}

}  // namespace topicrawl
