#include "text/topic.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "core/number_text.h"
#include "text/strategy_params_recorder.h"
#include "text/tokenizer.h"

namespace topicrawl {
namespace {

std::string At(std::string_view source, int64_t line) {
  return std::string(source) + ":" + std::to_string(line) + ": ";
}

std::string At(std::string_view source, const toml::node& node) {
  return At(source, node.source().begin.line);
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string TrimSpace(std::string_view s) {
  auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// Weight of a keyword: a finite number > 0.
Status CheckWeight(double w, const std::string& where, std::string_view term) {
  if (!std::isfinite(w) || w <= 0) {
    std::ostringstream msg;
    msg << where << "keyword `" << term << "` has weight " << w
        << "; weights must be finite numbers > 0";
    return Status::Error(msg.str());
  }
  return Status::Ok();
}

// Adds a keyword unless a keyword with the same normal form exists.
Status AddKeyword(Topic* topic, std::string term, double weight, int line,
                  std::set<std::string>* seen, std::string_view source) {
  if (TrimSpace(term).empty()) {
    return Status::Error(At(source, line) + "empty keyword");
  }
  Status s = CheckWeight(weight, At(source, line), term);
  if (!s.ok()) return s;
  std::string key = FoldCase(TrimSpace(term));
  if (!seen->insert(key).second) {
    for (const TopicKeyword& k : topic->keywords) {
      if (FoldCase(TrimSpace(k.term)) == key) {
        return Status::Error(At(source, line) + "duplicate keyword `" + term +
                             "` (first on line " + std::to_string(k.line) +
                             ")");
      }
    }
  }
  topic->keywords.push_back({TrimSpace(term), weight, line});
  return Status::Ok();
}

StatusOr<std::vector<std::string>> StringList(const toml::node& node,
                                              std::string_view key,
                                              std::string_view source) {
  const toml::array* array = node.as_array();
  if (!array) {
    return Status::Error(At(source, node) + "`" + std::string(key) +
                         "` must be an array of strings");
  }
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    auto s = item.value<std::string>();
    if (!s) {
      return Status::Error(At(source, item) + "`" + std::string(key) +
                           "` must contain only strings");
    }
    out.push_back(*s);
  }
  return out;
}

Status ParseKeywords(const toml::node& node, Topic* topic,
                     std::string_view source) {
  std::set<std::string> seen;
  if (const toml::table* table = node.as_table()) {
    for (auto&& [key, value] : *table) {
      auto w = value.value<double>();
      int line = static_cast<int>(value.source().begin.line);
      if (!w) {
        return Status::Error(At(source, line) + "keyword `" +
                             std::string(key.str()) + "` needs a numeric weight");
      }
      Status s = AddKeyword(topic, std::string(key.str()), *w, line, &seen, source);
      if (!s.ok()) return s;
    }
  } else if (const toml::array* array = node.as_array()) {
    for (const toml::node& item : *array) {
      const toml::table* entry = item.as_table();
      int line = static_cast<int>(item.source().begin.line);
      auto term = entry ? (*entry)["term"].value<std::string>() : std::nullopt;
      auto w = entry ? (*entry)["weight"].value<double>() : std::nullopt;
      if (!term || !w) {
        return Status::Error(At(source, line) +
                             "each [[topic.keywords]] needs term = \"...\" and "
                             "weight = <number>");
      }
      for (auto&& [k, v] : *entry) {
        if (k.str() != "term" && k.str() != "weight") {
          return Status::Error(At(source, v) + "unknown key `" +
                               std::string(k.str()) + "` in [[topic.keywords]]");
        }
      }
      Status s = AddKeyword(topic, *term, *w, line, &seen, source);
      if (!s.ok()) return s;
    }
  } else {
    return Status::Error(At(source, node) +
                         "keywords must be a table { \"term\" = weight, ... } "
                         "or an array of tables");
  }
  if (topic->keywords.empty()) {
    return Status::Error(At(source, node) + "keywords is empty");
  }
  return Status::Ok();
}

StatusOr<double> UnitNumber(const toml::node& node, std::string_view key,
                            std::string_view source) {
  auto v = node.value<double>();
  if (!v || !(*v >= 0 && *v <= 1)) {
    return Status::Error(At(source, node) + "`" + std::string(key) +
                         "` must be a number in [0, 1]");
  }
  return *v;
}

Status ParseDictionary(const toml::node& node, std::string_view base_dir,
                       Topic* topic, std::string_view source) {
  if (auto path = node.value<std::string>()) {
    std::filesystem::path p(*path);
    if (p.is_relative() && !base_dir.empty()) p = std::filesystem::path(base_dir) / p;
    auto text = ReadFile(p.string());
    if (!text.ok()) {
      return Status::Error(At(source, node) + "dictionary: " +
                           text.status().message());
    }
    std::istringstream lines(*text);
    std::string line;
    while (std::getline(lines, line)) {
      line = TrimSpace(line);
      if (line.empty() || line[0] == '#') continue;
      // jieba user-dictionary lines: `word [freq] [tag]`; keep the word.
      topic->dictionary.push_back(line.substr(0, line.find_first_of(" \t")));
    }
    return Status::Ok();
  }
  auto list = StringList(node, "dictionary", source);
  if (!list.ok()) {
    return Status::Error(At(source, node) +
                         "dictionary must be an array of terms or a file path");
  }
  topic->dictionary = std::move(*list);
  return Status::Ok();
}

Status ParseExamples(const toml::node& node, Topic* topic,
                     std::string_view source) {
  const toml::table* table = node.as_table();
  if (!table) {
    return Status::Error(At(source, node) +
                         "examples must be a table with positive/negative");
  }
  for (auto&& [key, value] : *table) {
    std::vector<std::string>* target = nullptr;
    if (key.str() == "positive") target = &topic->positive_examples;
    if (key.str() == "negative") target = &topic->negative_examples;
    if (!target) {
      return Status::Error(At(source, value) + "unknown key `" +
                           std::string(key.str()) +
                           "` in [topic.examples] (positive, negative)");
    }
    auto list = StringList(value, key.str(), source);
    if (!list.ok()) return list.status();
    *target = std::move(*list);
  }
  return Status::Ok();
}

// [topic.ontology]: "term" = weight, or "term" = { weight = w, synonyms =
// [...] } (seed 002's static ontology with synonyms).
Status ParseOntology(const toml::node& node, Topic* topic,
                     std::string_view source) {
  const toml::table* table = node.as_table();
  if (!table) {
    return Status::Error(At(source, node) +
                         "ontology must be a table { \"term\" = weight or "
                         "{ weight = w, synonyms = [...] } }");
  }
  for (auto&& [key, value] : *table) {
    OntologyTerm term;
    term.term = std::string(key.str());
    std::optional<double> w = value.value<double>();
    if (const toml::table* entry = value.as_table()) {
      w = (*entry)["weight"].value<double>();
      if (!(*entry).contains("weight")) w = 1.0;
      for (auto&& [k, v] : *entry) {
        if (k.str() == "synonyms") {
          auto list = StringList(v, "synonyms", source);
          if (!list.ok()) return list.status();
          term.synonyms = std::move(*list);
        } else if (k.str() != "weight") {
          return Status::Error(At(source, v) + "unknown key `" +
                               std::string(k.str()) +
                               "` in an ontology term (weight, synonyms)");
        }
      }
    }
    if (!w || !std::isfinite(*w) || *w <= 0) {
      return Status::Error(At(source, value) + "ontology term `" + term.term +
                           "` needs a weight > 0");
    }
    term.weight = *w;
    topic->ontology.push_back(std::move(term));
  }
  return Status::Ok();
}

Status ParseTopicTable(const toml::table& t, std::string_view base_dir,
                       Topic* topic, std::string_view source) {
  static const std::map<std::string_view, std::vector<std::string> Topic::*>
      kLists = {{"on_topic_prefixes", &Topic::on_topic_prefixes},
                {"off_topic_prefixes", &Topic::off_topic_prefixes},
                {"ontology_terms", &Topic::ontology_terms},
                {"contradiction_words", &Topic::contradiction_words}};
  bool has_keywords = false;
  for (auto&& [key, value] : t) {
    const std::string_view k = key.str();
    Status s;
    if (k == "name") {
      auto v = value.value<std::string>();
      if (!v) return Status::Error(At(source, value) + "name must be a string");
      topic->name = *v;
    } else if (k == "keywords") {
      has_keywords = true;
      s = ParseKeywords(value, topic, source);
    } else if (k == "beta" || k == "alpha") {
      auto v = UnitNumber(value, k, source);
      if (!v.ok()) return v.status();
      (k == "beta" ? topic->beta : topic->alpha) = *v;
    } else if (k == "dictionary") {
      s = ParseDictionary(value, base_dir, topic, source);
    } else if (k == "examples") {
      s = ParseExamples(value, topic, source);
    } else if (k == "ontology") {
      s = ParseOntology(value, topic, source);
    } else if (auto it = kLists.find(k); it != kLists.end()) {
      auto list = StringList(value, k, source);
      if (!list.ok()) return list.status();
      topic->*(it->second) = std::move(*list);
    } else {
      return Status::Error(
          At(source, value) + "unknown key `" + std::string(k) +
          "` in [topic] (known: name, keywords, beta, alpha, dictionary, "
          "examples, on_topic_prefixes, off_topic_prefixes, ontology_terms, "
          "ontology, contradiction_words)");
    }
    if (!s.ok()) return s;
  }
  if (!has_keywords) {
    return Status::Error(std::string(source) + ": [topic] has no keywords");
  }
  return Status::Ok();
}

Status FlattenParams(const toml::table& table, const std::string& prefix,
                     StrategyParams* params, std::string_view source) {
  for (auto&& [key, value] : table) {
    std::string name = prefix + std::string(key.str());
    if (const toml::table* sub = value.as_table()) {
      Status s = FlattenParams(*sub, name + ".", params, source);
      if (!s.ok()) return s;
    } else if (auto b = value.value_exact<bool>()) {
      params->Set(name, *b);
    } else if (auto i = value.value_exact<int64_t>()) {
      params->Set(name, *i);
    } else if (auto d = value.value_exact<double>()) {
      params->Set(name, *d);
    } else if (auto str = value.value_exact<std::string>()) {
      params->Set(name, *str);
    } else if (value.is_array()) {
      auto list = StringList(value, name, source);
      if (!list.ok()) return list.status();
      params->Set(name, std::move(*list));
    } else {
      return Status::Error(At(source, value) + "unsupported value for `" +
                           name + "`");
    }
  }
  return Status::Ok();
}

}  // namespace

namespace {

thread_local StrategyParamsRecorder* current_recorder = nullptr;

void RecordRead(std::string_view key, std::string type, std::string fallback) {
  if (current_recorder != nullptr) {
    current_recorder->Record(key, std::move(type), std::move(fallback));
  }
}

}  // namespace

StrategyParamsRecorder::StrategyParamsRecorder() { current_recorder = this; }

StrategyParamsRecorder::~StrategyParamsRecorder() { current_recorder = nullptr; }

StrategyParamsRecorder* StrategyParamsRecorder::Current() { return current_recorder; }

void StrategyParamsRecorder::Record(std::string_view key, std::string type,
                                    std::string fallback) {
  for (const StrategyParamRead& r : reads_) {
    if (r.table == table_ && r.key == key && (r.type == type || type == "known")) return;
  }
  // A read after the key list names the key's type and default.
  for (StrategyParamRead& r : reads_) {
    if (r.table == table_ && r.key == key && r.type == "known") {
      r.type = std::move(type);
      r.fallback = std::move(fallback);
      return;
    }
  }
  reads_.push_back({table_, std::string(key), std::move(type), std::move(fallback)});
}

StatusOr<double> StrategyParams::Number(std::string_view key,
                                        double fallback) const {
  RecordRead(key, "number", TomlNumber(fallback));
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return fallback;
  if (auto* d = std::get_if<double>(&it->second)) return *d;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  return Status::Error("[strategy." + name + "] " + std::string(key) +
                       " must be a number");
}

StatusOr<int64_t> StrategyParams::Integer(std::string_view key,
                                          int64_t fallback) const {
  RecordRead(key, "integer", std::to_string(fallback));
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return fallback;
  if (auto* i = std::get_if<int64_t>(&it->second)) return *i;
  return Status::Error("[strategy." + name + "] " + std::string(key) +
                       " must be an integer");
}

StatusOr<bool> StrategyParams::Bool(std::string_view key, bool fallback) const {
  RecordRead(key, "bool", fallback ? "true" : "false");
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return fallback;
  if (auto* b = std::get_if<bool>(&it->second)) return *b;
  return Status::Error("[strategy." + name + "] " + std::string(key) +
                       " must be true or false");
}

StatusOr<std::string> StrategyParams::String(std::string_view key,
                                             std::string fallback) const {
  std::ostringstream quoted;
  quoted << toml::value<std::string>(fallback);
  RecordRead(key, "string", quoted.str());
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return fallback;
  if (auto* s = std::get_if<std::string>(&it->second)) return *s;
  return Status::Error("[strategy." + name + "] " + std::string(key) +
                       " must be a string");
}

std::vector<std::string> StrategyParams::UnknownKeys(
    const std::vector<std::string_view>& known) const {
  for (std::string_view k : known) RecordRead(k, "known", "");
  std::vector<std::string> unknown;
  for (const auto& [key, value] : values_) {
    bool found = false;
    for (std::string_view k : known) found = found || k == key;
    if (!found) unknown.push_back(key);
  }
  return unknown;
}

const StrategyParams& Topic::Strategy(std::string_view name) const {
  static const StrategyParams kEmpty;
  if (current_recorder != nullptr) current_recorder->EnterTable(name);
  auto it = strategies.find(std::string(name));
  return it == strategies.end() ? kEmpty : it->second;
}

StatusOr<Topic> ParseTopicToml(std::string_view text, std::string_view source,
                               std::string_view base_dir) {
  toml::table root;
  try {
    root = toml::parse(text, std::string(source));
  } catch (const toml::parse_error& e) {
    return Status::Error(At(source, e.source().begin.line) +
                         std::string(e.description()));
  }
  Topic topic;
  topic.source = std::string(source);
  const toml::table* topic_table = nullptr;
  for (auto&& [key, value] : root) {
    if (key.str() == "topic" && value.is_table()) {
      topic_table = value.as_table();
    } else if (key.str() == "strategy" && value.is_table()) {
      for (auto&& [name, params] : *value.as_table()) {
        const toml::table* t = params.as_table();
        if (!t) {
          return Status::Error(At(source, params) + "[strategy." +
                               std::string(name.str()) + "] must be a table");
        }
        StrategyParams p;
        p.name = std::string(name.str());
        Status s = FlattenParams(*t, "", &p, source);
        if (!s.ok()) return s;
        topic.strategies[p.name] = std::move(p);
      }
    } else {
      return Status::Error(At(source, value) + "unknown top-level key `" +
                           std::string(key.str()) +
                           "` (expected the tables [topic] and [strategy.<name>])");
    }
  }
  if (!topic_table) {
    return Status::Error(std::string(source) + ": missing [topic] table");
  }
  Status s = ParseTopicTable(*topic_table, base_dir, &topic, source);
  if (!s.ok()) return s;
  return topic;
}

StatusOr<Topic> ParseKeywordList(std::string_view text,
                                 std::string_view source) {
  Topic topic;
  topic.source = std::string(source);
  std::set<std::string> seen;
  std::istringstream lines{std::string(text)};
  std::string line;
  int line_no = 0;
  while (std::getline(lines, line)) {
    ++line_no;
    if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    std::string trimmed = TrimSpace(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    // keyword<TAB>weight; a keyword may contain spaces, so split at the tab
    // (or, without a tab, at the last run of spaces).
    size_t sep = trimmed.find('\t');
    if (sep == std::string::npos) sep = trimmed.find_last_of(' ');
    if (sep == std::string::npos) {
      return Status::Error(At(source, line_no) +
                           "expected `keyword<TAB>weight`, got `" + trimmed + "`");
    }
    std::string term = TrimSpace(trimmed.substr(0, sep));
    std::string weight_text = TrimSpace(trimmed.substr(sep + 1));
    char* end = nullptr;
    double weight = std::strtod(weight_text.c_str(), &end);
    if (weight_text.empty() || *end != '\0') {
      return Status::Error(At(source, line_no) + "bad weight `" + weight_text +
                           "` for keyword `" + term + "`");
    }
    Status s = AddKeyword(&topic, term, weight, line_no, &seen, source);
    if (!s.ok()) return s;
  }
  if (topic.keywords.empty()) {
    return Status::Error(std::string(source) + ": no keywords");
  }
  topic.name = std::filesystem::path(std::string(source)).stem().string();
  return topic;
}

StatusOr<Topic> LoadTopicFile(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  std::filesystem::path p(path);
  if (p.extension() == ".toml") {
    return ParseTopicToml(*text, path, p.parent_path().string());
  }
  return ParseKeywordList(*text, path);
}

Topic MakeTopic(std::string name,
                std::vector<std::pair<std::string, double>> keywords) {
  Topic topic;
  topic.name = std::move(name);
  topic.source = "(code)";
  int line = 0;
  for (auto& [term, weight] : keywords) {
    topic.keywords.push_back({std::move(term), weight, ++line});
  }
  return topic;
}

}  // namespace topicrawl
