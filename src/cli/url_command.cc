// topicrawl url [--base BASE] INPUT...
// Prints one line per input: "<parsed-href>\t<canonical-url>" or
// "invalid\t<reason>". Exit code 0 when every input parsed, 1 otherwise.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "url/url.h"

namespace topicrawl::cli {

void AddUrlCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "url", "Parse URLs (WHATWG) and print href and canonical form");
  auto base = std::make_shared<std::string>();
  auto inputs = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--base", *base, "Base URL for relative inputs");
  cmd->add_option("inputs", *inputs, "URLs or relative references")->required();
  cmd->callback([exit_code, base, inputs] {
    *exit_code = kExitOk;
    for (const std::string& input : *inputs) {
      UrlParseResult r = ParseUrl(input, *base);
      if (r.ok) {
        std::cout << r.href << '\t' << CanonicalizeUrl(r.href) << '\n';
      } else {
        std::cout << "invalid\t" << r.error << '\n';
        *exit_code = kExitFailure;
      }
    }
  });
}

}  // namespace topicrawl::cli
