// topicrawl robots --agent UA ROBOTS_FILE URL...
// Parses ROBOTS_FILE (RFC 9309) and prints one line per URL: "allowed" or
// "disallowed". Lines the parser ignored or repaired go to stderr as
// "robots.txt:<line>: <problem>". Exit 2 when the file cannot be read.
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "robots/robots_rules.h"

namespace topicrawl::cli {

void AddRobotsCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "robots", "Check URLs against a robots.txt file (RFC 9309)");
  auto agent = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  auto urls = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--agent", *agent, "User-Agent (its product token is matched)")
      ->required();
  cmd->add_option("robots_file", *file, "robots.txt file")->required();
  cmd->add_option("urls", *urls, "Absolute URLs to check")->required();
  cmd->callback([exit_code, agent, file, urls] {
    std::ifstream in(*file, std::ios::binary);
    if (!in) {
      std::cerr << "topicrawl robots: cannot read " << *file << "\n";
      *exit_code = kExitUsage;
      return;
    }
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    RobotsRules rules = RobotsRules::Parse(body);
    for (const RobotsIssue& issue : rules.issues()) {
      std::cerr << *file << ":" << issue.line << ": " << issue.problem << "\n";
    }
    for (const std::string& url : *urls) {
      std::cout << (rules.Allowed(*agent, url) ? "allowed" : "disallowed") << "\n";
    }
    *exit_code = kExitOk;
  });
}

}  // namespace topicrawl::cli
