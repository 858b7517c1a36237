#include <iostream>

#include "cli/commands.h"

namespace topicrawl::cli {

void AddVersionCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("version", "Print the topicrawl version");
  cmd->callback([exit_code] {
    std::cout << "topicrawl 0.1.0\n";
    *exit_code = kExitOk;
  });
}

}  // namespace topicrawl::cli
