#include "crawl/config_reference.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "crawl/crawl_config.h"
#include "text/strategy_params_recorder.h"

namespace topicrawl {
namespace {

// A keyword topic without [strategy.*] tables: every key a factory reads
// then falls back to its default, which is what the reference lists.
constexpr const char* kScratchTopic =
    "[topic]\nname = \"reference\"\nkeywords = { \"reference\" = 1.0 }\n";

std::string TomlType(const toml::node& node) {
  if (node.is_boolean()) return "bool";
  if (node.is_integer()) return "integer";
  if (node.is_floating_point()) return "number";
  if (node.is_array()) return "array";
  return "string";
}

// CrawlConfigToToml of a default CrawlConfig lists every key in the order
// of the key table, one `key = value` line each.
std::vector<ConfigKeyRow> CrawlKeys() {
  std::vector<ConfigKeyRow> rows;
  std::istringstream lines(CrawlConfigToToml(CrawlConfig{}));
  std::string line;
  while (std::getline(lines, line)) {
    const size_t eq = line.find(" = ");
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    const std::string value = line.substr(eq + 3);
    const toml::table parsed = toml::parse("v = " + value);
    rows.push_back({"crawl", key, TomlType(*parsed.get("v")), value, "crawl"});
  }
  return rows;
}

void AddReads(const StrategyParamsRecorder& recorder, const std::string& read_by,
              std::vector<ConfigKeyRow>* rows) {
  for (const StrategyParamRead& r : recorder.reads()) {
    rows->push_back({"strategy." + r.table, r.key, r.type, r.fallback, read_by});
  }
}

}  // namespace

StatusOr<std::vector<ConfigKeyRow>> ListConfigKeys(const std::string& scratch_dir,
                                                   const ConfigKeySources& sources) {
  std::error_code ec;
  std::filesystem::create_directories(scratch_dir, ec);
  const std::string topic_file = scratch_dir + "/reference-topic.toml";
  {
    std::ofstream out(topic_file);
    out << kScratchTopic;
    if (!out) return Status::Error("cannot write " + topic_file);
  }
  std::vector<ConfigKeyRow> rows = CrawlKeys();
  for (const std::string& name : sources.strategy_names) {
    StrategyParamsRecorder recorder;
    StrategyContext context;
    context.topic_file = topic_file;
    context.out_dir = scratch_dir;
    auto strategy = sources.make_strategy(name, context);
    if (strategy.ok() && strategy->make_selector) (void)strategy->make_selector();
    AddReads(recorder, "strategy " + name, &rows);
  }
  for (const std::string& name : sources.policy_names) {
    StrategyParamsRecorder recorder;
    RoundPolicyContext context;
    context.topic_file = topic_file;
    context.out_dir = scratch_dir;
    (void)sources.make_policy(name, context);
    AddReads(recorder, "round policy " + name, &rows);
  }
  return rows;
}

std::string ConfigKeyRowsTsv(const std::vector<ConfigKeyRow>& rows) {
  std::string out = "section\tkey\ttype\tdefault\tread_by\n";
  for (const ConfigKeyRow& r : rows) {
    out += r.section + "\t" + r.key + "\t" + r.type + "\t" + r.fallback + "\t" + r.read_by + "\n";
  }
  return out;
}

}  // namespace topicrawl
