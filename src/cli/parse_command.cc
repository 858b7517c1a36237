// topicrawl parse FILE [--base URL] [--charset-from-http CT]
// Decodes FILE's bytes with DecodeToUtf8 (BOM -> HTTP charset -> <meta> ->
// uchardet), parses them with ParseHtml and prints the page as JSON: title,
// description, keywords, canonical, noindex, nofollow, headings, text,
// text_blocks, links (url, raw_href, anchor, context, dom_context, rel,
// kind), charset and the parse diagnostics. Exit 1 when FILE cannot be read.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "fetch/charset.h"
#include "parse/html_parser.h"

namespace topicrawl::cli {
namespace {

const char* LinkKindName(LinkKind kind) {
  switch (kind) {
    case LinkKind::kAnchor: return "anchor";
    case LinkKind::kArea: return "area";
    case LinkKind::kMetaRefresh: return "meta-refresh";
    case LinkKind::kFrame: return "frame";
    case LinkKind::kCanonical: return "canonical";
  }
  return "unknown";
}

struct ParseFlags {
  std::string file;
  std::string base;
  std::string content_type;
  ParseOptions options;
};

int RunParse(const ParseFlags& flags) {
  std::ifstream in(flags.file, std::ios::binary);
  if (!in) {
    std::cerr << "topicrawl parse: cannot read " << flags.file << "\n";
    return kExitFailure;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string base = flags.base;
  if (base.empty()) {
    std::string name = flags.file.substr(flags.file.find_last_of('/') + 1);
    base = "http://localhost/" + name;
  }
  DecodedText decoded = DecodeToUtf8(bytes.str(), flags.content_type);
  ParseStats stats;
  ParsedPage page = ParseHtml(decoded.utf8, base, flags.options, &stats);

  nlohmann::ordered_json out;
  out["url"] = base;
  out["base_url"] = page.base_url;
  out["charset"] = decoded.charset;
  out["charset_source"] = decoded.source;
  out["replaced_bytes"] = decoded.replaced;
  out["title"] = page.title;
  out["description"] = page.description;
  out["keywords"] = page.keywords;
  out["canonical"] = page.canonical;
  out["noindex"] = page.noindex;
  out["nofollow"] = page.nofollow;
  out["headings"] = page.headings;
  out["text"] = page.text;
  out["text_blocks"] = page.text_blocks;
  auto& links = out["links"] = nlohmann::ordered_json::array();
  for (const Outlink& l : page.links) {
    links.push_back({{"url", l.url},
                     {"raw_href", l.raw_href},
                     {"anchor", l.anchor},
                     {"context", l.context},
                     {"dom_context", l.dom_context},
                     {"rel", l.nofollow ? "nofollow" : ""},
                     {"kind", LinkKindName(l.kind)}});
  }
  out["truncated"] = page.truncated;
  out["warning"] = page.warning;
  out["stats"] = {{"input_bytes", stats.input_bytes},
                  {"nodes", stats.nodes},
                  {"links_unresolved", stats.links_unresolved},
                  {"depth_tags_dropped", stats.depth_tags_dropped},
                  {"parse_seconds", stats.parse_seconds},
                  {"extract_seconds", stats.extract_seconds}};
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
  return kExitOk;
}

}  // namespace

void AddParseCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "parse", "Decode and parse an HTML file; print the extracted page as JSON");
  auto flags = std::make_shared<ParseFlags>();
  cmd->add_option("file", flags->file, "HTML file (raw bytes, any charset)")
      ->required();
  cmd->add_option("--base", flags->base,
                  "URL the page was served at (default http://localhost/<file name>)");
  cmd->add_option("--charset-from-http", flags->content_type,
                  "Content-Type header value, e.g. 'text/html; charset=gbk'");
  cmd->add_option("--context-words", flags->options.context_window_words,
                  "Seed 001 context window, words per side")
      ->capture_default_str();
  cmd->add_option("--dom-delta", flags->options.dom_delta,
                  "Seed 004 DOM context distance")
      ->capture_default_str();
  cmd->add_option("--max-depth", flags->options.max_depth,
                  "Nesting depth cap (deeper markup is flattened)")
      ->capture_default_str();
  cmd->callback([exit_code, flags] { *exit_code = RunParse(*flags); });
}

}  // namespace topicrawl::cli
