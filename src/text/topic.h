// The topic a crawl is focused on: a weighted keyword vector TK =
// {(tk_i, w_tk_i)} (seed 000 eq. 1-2) plus the optional extras the other
// seeds use (domain dictionary, example pages, known on/off-topic hosts,
// ontology terms, contradiction words) and free-form per-strategy
// parameters. Format reference: docs/guides/define-a-topic.md.
//
// Two file formats:
//   * TOML (file name ends in .toml):
//       [topic]
//       name = "typhoon"
//       keywords = { "台风" = 0.8, "风暴潮" = 0.5 }   # or [[topic.keywords]]
//       beta = 0.67          # R(P) >= beta: page is relevant
//       alpha = 0.3          # anchor weight in eq. 5
//       dictionary = ["热带气旋"]  # or "terms.txt" (relative to the topic file)
//       on_topic_prefixes = ["www.cma.gov.cn/"]
//       off_topic_prefixes = ["ads.example.com"]
//       ontology_terms = [...]       contradiction_words = [...]
//       [topic.ontology]  "加密" = 0.8   "漏洞" = { weight = 0.7, synonyms = ["缺陷"] }
//       [topic.examples]  positive = [...]  negative = [...]
//       [strategy.shark-search]  delta = 0.5  ...   # free-form
//   * plain keyword lists (any other name): `keyword<TAB>weight` per line,
//     '#' comments, blank lines ignored (../shared/corpus/topics/*.txt).
//
// Errors name the file and line. Unknown keys in [topic] and unknown
// top-level tables are ERRORS (a typo must not silently change a crawl);
// keys inside [strategy.<name>] are free-form and never checked here.
#ifndef TOPICRAWL_TEXT_TOPIC_H_
#define TOPICRAWL_TEXT_TOPIC_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/status.h"

namespace topicrawl {

// One term of seed 002's static ontology ([topic.ontology]): a weighted
// term and the synonyms that count as it.
struct OntologyTerm {
  std::string term;
  double weight = 1.0;  // > 0
  std::vector<std::string> synonyms;
};

struct TopicKeyword {
  std::string term;  // as written in the file
  double weight = 0;  // > 0
  int line = 0;       // source line, for messages
};

// One [strategy.<name>] table: flat key -> value. Nested tables are
// flattened with dots ("bins.count").
class StrategyParams {
 public:
  using Value = std::variant<bool, int64_t, double, std::string,
                             std::vector<std::string>>;

  // Numbers accept integers and floats. A key of the wrong type is an error
  // naming the key; an absent key gives `fallback`.
  StatusOr<double> Number(std::string_view key, double fallback) const;
  StatusOr<int64_t> Integer(std::string_view key, int64_t fallback) const;
  StatusOr<bool> Bool(std::string_view key, bool fallback) const;
  StatusOr<std::string> String(std::string_view key,
                               std::string fallback) const;
  bool Has(std::string_view key) const { return values_.count(std::string(key)) > 0; }
  // Keys not in `known` (for a strategy that wants to reject typos).
  std::vector<std::string> UnknownKeys(
      const std::vector<std::string_view>& known) const;

  void Set(std::string key, Value value) { values_[std::move(key)] = std::move(value); }
  const std::map<std::string, Value>& values() const { return values_; }
  std::string name;  // the <name> of [strategy.<name>]

 private:
  std::map<std::string, Value> values_;
};

struct Topic {
  std::string name;
  std::vector<TopicKeyword> keywords;  // non-empty, no duplicates
  // Relevance threshold: a page with R(P) >= beta counts as relevant (LP).
  // Default 0.62, the seed's value for its rainstorm topic.
  double beta = 0.62;
  // Anchor weight in R(l) = alpha R(anchor) + (1 - alpha) R(P_l) (eq. 5).
  double alpha = 0.3;
  std::vector<std::string> dictionary;  // domain terms (kept whole by the tokeniser)
  std::vector<std::string> on_topic_prefixes;   // "host" or "host/path"
  std::vector<std::string> off_topic_prefixes;
  std::vector<std::string> positive_examples;   // URLs or file paths
  std::vector<std::string> negative_examples;
  std::vector<std::string> ontology_terms;   // weight 1, no synonyms
  std::vector<OntologyTerm> ontology;        // [topic.ontology] (seed 002)
  std::vector<std::string> contradiction_words;
  std::map<std::string, StrategyParams> strategies;
  std::string source;  // file the topic came from

  // The [strategy.<name>] table; an empty one when absent.
  const StrategyParams& Strategy(std::string_view name) const;
};

// Reads a topic file; the format follows the file name (see above).
StatusOr<Topic> LoadTopicFile(const std::string& path);

// `source` names the text in error messages; `base_dir` resolves a
// `dictionary = "file"` path (empty: the working directory).
StatusOr<Topic> ParseTopicToml(std::string_view text, std::string_view source,
                               std::string_view base_dir = {});
StatusOr<Topic> ParseKeywordList(std::string_view text,
                                 std::string_view source);

// A topic from keyword weights given in code (tests, tools).
Topic MakeTopic(std::string name,
                std::vector<std::pair<std::string, double>> keywords);

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_TOPIC_H_
