#include "crawl/crawl_config.h"

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <variant>

#include <toml++/toml.h>

#include "core/number_text.h"

namespace topicrawl {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(line);
  while (std::getline(in, cur, '\t')) out.push_back(Trim(cur));
  if (!line.empty() && line.back() == '\t') out.push_back("");
  return out;
}

bool LooksLikeHttpUrl(const std::string& s) {
  return s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0;
}

// One configuration key: its TOML name and how to read/write it. A table of
// these keeps parsing, validation messages and the snapshot in one place.
using Field = std::variant<std::string CrawlConfig::*, bool CrawlConfig::*,
                           int CrawlConfig::*, int64_t CrawlConfig::*,
                           uint64_t CrawlConfig::*, double CrawlConfig::*,
                           std::vector<std::string> CrawlConfig::*>;

const std::vector<std::pair<std::string, Field>>& Fields() {
  static const auto* fields = new std::vector<std::pair<std::string, Field>>{
      {"seeds_file", &CrawlConfig::seeds_file},
      {"seeds_from_sitemaps", &CrawlConfig::seeds_from_sitemaps},
      {"strategy", &CrawlConfig::strategy},
      {"topic_file", &CrawlConfig::topic_file},
      {"max_pages", &CrawlConfig::max_pages},
      {"max_depth", &CrawlConfig::max_depth},
      {"rng_seed", &CrawlConfig::rng_seed},
      {"deterministic", &CrawlConfig::deterministic},
      {"include_hosts", &CrawlConfig::include_hosts},
      {"exclude_hosts", &CrawlConfig::exclude_hosts},
      {"include_regex", &CrawlConfig::include_regex},
      {"exclude_regex", &CrawlConfig::exclude_regex},
      {"follow_nofollow", &CrawlConfig::follow_nofollow},
      {"dedup_ignore_scheme", &CrawlConfig::dedup_ignore_scheme},
      {"respect_robots", &CrawlConfig::respect_robots},
      {"fetch_tdmrep", &CrawlConfig::fetch_tdmrep},
      {"delay_s", &CrawlConfig::delay_s},
      {"per_host_connections", &CrawlConfig::per_host_connections},
      {"concurrency", &CrawlConfig::concurrency},
      {"max_pages_per_host", &CrawlConfig::max_pages_per_host},
      {"max_retries", &CrawlConfig::max_retries},
      {"retry_delay_s", &CrawlConfig::retry_delay_s},
      {"backoff_max_s", &CrawlConfig::backoff_max_s},
      {"max_retry_after_s", &CrawlConfig::max_retry_after_s},
      {"host_failure_budget", &CrawlConfig::host_failure_budget},
      {"max_urls_per_pattern", &CrawlConfig::max_urls_per_pattern},
      {"max_url_params", &CrawlConfig::max_url_params},
      {"queue_in_ram", &CrawlConfig::queue_in_ram},
      {"queue_in_ram_per_host", &CrawlConfig::queue_in_ram_per_host},
      {"focus_tolerance", &CrawlConfig::focus_tolerance},
      {"focus_window", &CrawlConfig::focus_window},
      {"user_agent", &CrawlConfig::user_agent},
      {"robots_agent", &CrawlConfig::robots_agent},
      {"connect_to", &CrawlConfig::connect_to},
      {"resolve", &CrawlConfig::resolve},
      {"cacert", &CrawlConfig::cacert},
      {"proxy", &CrawlConfig::proxy},
      {"allow_private", &CrawlConfig::allow_private},
      {"connect_timeout_s", &CrawlConfig::connect_timeout_s},
      {"total_timeout_s", &CrawlConfig::total_timeout_s},
      {"low_speed_time_s", &CrawlConfig::low_speed_time_s},
      {"max_body_bytes", &CrawlConfig::max_body_bytes},
      {"max_redirects", &CrawlConfig::max_redirects},
      {"connection_cache", &CrawlConfig::connection_cache},
      {"parse_threads", &CrawlConfig::parse_threads},
      {"store_links", &CrawlConfig::store_links},
      {"store_link_details", &CrawlConfig::store_link_details},
      {"near_duplicate_follow_links", &CrawlConfig::near_duplicate_follow_links},
      {"write_warc", &CrawlConfig::write_warc},
      {"warc_compression", &CrawlConfig::warc_compression},
      {"progress_interval_ms", &CrawlConfig::progress_interval_ms},
      {"state_interval_s", &CrawlConfig::state_interval_s},
      {"render", &CrawlConfig::render},
      {"render_workers", &CrawlConfig::render_workers},
      {"render_tabs", &CrawlConfig::render_tabs},
      {"render_timeout_s", &CrawlConfig::render_timeout_s},
      {"render_browser_mb", &CrawlConfig::render_browser_mb},
      {"render_pages_per_browser", &CrawlConfig::render_pages_per_browser},
      {"render_samples", &CrawlConfig::render_samples},
      {"render_max_share", &CrawlConfig::render_max_share},
  };
  return *fields;
}

std::string Where(const toml::node& node) {
  const auto& src = node.source();
  return "line " + std::to_string(src.begin.line);
}

Status ApplyField(const std::string& key, const toml::node& node,
                  const Field& field, CrawlConfig* config) {
  auto type_error = [&](const char* want) {
    return Status::Error("config key '" + key + "' (" + Where(node) +
                         "): expected " + want);
  };
  return std::visit(
      [&](auto member) -> Status {
        using T = std::remove_reference_t<decltype(config->*member)>;
        if constexpr (std::is_same_v<T, std::string>) {
          auto v = node.value<std::string>();
          if (!v) return type_error("a string");
          config->*member = *v;
        } else if constexpr (std::is_same_v<T, bool>) {
          auto v = node.value<bool>();
          if (!v || !node.is_boolean()) return type_error("true or false");
          config->*member = *v;
        } else if constexpr (std::is_same_v<T, double>) {
          auto v = node.value<double>();
          if (!v) return type_error("a number");
          config->*member = *v;
        } else if constexpr (std::is_integral_v<T>) {
          if (!node.is_integer()) return type_error("an integer");
          int64_t v = *node.value<int64_t>();
          if constexpr (std::is_unsigned_v<T>) {
            if (v < 0) return type_error("a non-negative integer");
          }
          config->*member = static_cast<T>(v);
        } else {
          const toml::array* arr = node.as_array();
          if (!arr) return type_error("an array of strings");
          std::vector<std::string> out;
          for (const auto& el : *arr) {
            auto s = el.value<std::string>();
            if (!s) return type_error("an array of strings");
            out.push_back(*s);
          }
          config->*member = std::move(out);
        }
        return Status::Ok();
      },
      field);
}

template <typename T>
void WriteValue(std::ostringstream& out, const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    out << toml::value<std::string>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    out << (v ? "true" : "false");
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    toml::array arr;
    for (const auto& s : v) arr.push_back(s);
    out << arr;
  } else if constexpr (std::is_same_v<T, double>) {
    out << TomlNumber(v);
  } else {
    out << static_cast<int64_t>(v);
  }
}

}  // namespace

StatusOr<std::vector<std::string>> ReadSeedsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot open seeds file '" + path + "'");
  std::vector<std::string> seeds;
  std::string line;
  int line_no = 0;
  int url_col = -1;  // TSV mode when >= 0
  while (std::getline(in, line)) {
    ++line_no;
    std::string t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (line_no == 1 || (seeds.empty() && url_col < 0 && !LooksLikeHttpUrl(t))) {
      if (line.find('\t') != std::string::npos) {
        auto cols = SplitTabs(line);
        for (size_t i = 0; i < cols.size(); ++i) {
          if (cols[i] == "url" || cols[i] == "home_url") url_col = int(i);
        }
        if (url_col < 0) {
          return Status::Error(path + ":" + std::to_string(line_no) +
                               ": TSV header has no 'url' or 'home_url' column");
        }
        continue;
      }
    }
    std::string url = t;
    if (url_col >= 0) {
      auto cols = SplitTabs(line);
      if (int(cols.size()) <= url_col) {
        return Status::Error(path + ":" + std::to_string(line_no) +
                             ": missing url column");
      }
      url = cols[url_col];
    }
    if (!LooksLikeHttpUrl(url)) {
      return Status::Error(path + ":" + std::to_string(line_no) +
                           ": not an http(s) URL: '" + url + "'");
    }
    seeds.push_back(url);
  }
  if (seeds.empty()) return Status::Error("seeds file '" + path + "' has no URLs");
  return seeds;
}

Status LoadSeedsAndValidate(CrawlConfig* config) {
  if (!config->resume) {
    if (config->seeds_file.empty()) {
      return Status::Error("--seeds FILE is required (or --resume DIR)");
    }
    auto seeds = ReadSeedsFile(config->seeds_file);
    if (!seeds.ok()) return seeds.status();
    config->seeds = std::move(seeds).value();
  }
  return ValidateCrawlConfig(*config);
}

Status LoadCrawlConfigToml(const std::string& path, CrawlConfig* config) {
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << path << ":" << e.source().begin.line << ": " << e.description();
    return Status::Error(msg.str());
  }
  for (const auto& [k, node] : table) {
    std::string key(k.str());
    const Field* field = nullptr;
    for (const auto& [name, f] : Fields()) {
      if (name == key) field = &f;
    }
    if (!field) {
      return Status::Error(path + ": unknown config key '" + key + "' (" +
                           Where(node) + ")");
    }
    Status s = ApplyField(key, node, *field, config);
    if (!s.ok()) return Status::Error(path + ": " + s.message());
  }
  return Status::Ok();
}

Status ValidateCrawlConfig(const CrawlConfig& c) {
  if (c.max_pages < 0) return Status::Error("max_pages must be >= 0");
  if (c.warc_compression != "gzip" && c.warc_compression != "zstd") {
    return Status::Error("warc_compression must be gzip or zstd, not '" + c.warc_compression +
                         "'");
  }
  if (!(c.state_interval_s > 0)) return Status::Error("state_interval_s must be > 0");
  if (c.delay_s < 0) return Status::Error("delay_s must be >= 0");
  if (c.retry_delay_s < 0) return Status::Error("retry_delay_s must be >= 0");
  if (c.backoff_max_s < 0) return Status::Error("backoff_max_s must be >= 0");
  if (c.max_retry_after_s < 0) return Status::Error("max_retry_after_s must be >= 0");
  if (c.host_failure_budget < 0) return Status::Error("host_failure_budget must be >= 0");
  if (c.max_urls_per_pattern < 0) return Status::Error("max_urls_per_pattern must be >= 0");
  if (c.queue_in_ram < 2) return Status::Error("queue_in_ram must be >= 2");
  if (c.queue_in_ram_per_host < 2) return Status::Error("queue_in_ram_per_host must be >= 2");
  if (c.per_host_connections < 1)
    return Status::Error("per_host_connections must be >= 1");
  if (c.concurrency < 1) return Status::Error("concurrency must be >= 1");
  if (c.parse_threads < 1) return Status::Error("parse_threads must be >= 1");
  if (c.render != "never" && c.render != "auto" && c.render != "always") {
    return Status::Error("render must be never, auto or always (got '" + c.render + "')");
  }
  if (c.render_workers < 1 || c.render_tabs < 1 || c.render_samples < 1 ||
      c.render_pages_per_browser < 1) {
    return Status::Error("render_workers, render_tabs, render_samples and "
                         "render_pages_per_browser must be >= 1");
  }
  if (c.render_timeout_s <= 0) return Status::Error("render_timeout_s must be > 0");
  if (c.render_browser_mb < 64) return Status::Error("render_browser_mb must be >= 64");
  if (c.render_max_share < 0 || c.render_max_share > 1) {
    return Status::Error("render_max_share must be within [0, 1]");
  }
  if (c.focus_window < 0) return Status::Error("focus_window must be >= 0");
  if (c.max_redirects < 0) return Status::Error("max_redirects must be >= 0");
  if (c.connection_cache < 0) return Status::Error("connection_cache must be >= 0");
  if (c.max_body_bytes < 1024)
    return Status::Error("max_body_bytes must be >= 1024");
  if (c.connect_timeout_s <= 0 || c.total_timeout_s <= 0)
    return Status::Error("timeouts must be > 0");
  for (const auto& ct : c.connect_to) {
    // HOST:PORT:CONNECT-HOST:CONNECT-PORT (IPv6 connect hosts in brackets).
    size_t colons = 0;
    bool in_brackets = false;
    for (char ch : ct) {
      if (ch == '[') in_brackets = true;
      if (ch == ']') in_brackets = false;
      if (ch == ':' && !in_brackets) ++colons;
    }
    if (colons != 3) {
      return Status::Error("bad --connect-to '" + ct +
                           "': expected HOST:PORT:CONNECT-HOST:CONNECT-PORT");
    }
  }
  if (c.out_dir.empty()) return Status::Error("an output directory is required");
  return Status::Ok();
}

std::string CrawlConfigToToml(const CrawlConfig& config) {
  std::ostringstream out;
  out << "# Effective configuration of this crawl (topicrawl).\n";
  for (const auto& [name, field] : Fields()) {
    out << name << " = ";
    std::visit([&](auto member) { WriteValue(out, config.*member); }, field);
    out << "\n";
  }
  return out.str();
}

}  // namespace topicrawl
