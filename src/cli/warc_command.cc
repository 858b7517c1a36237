// topicrawl warc PATH... [--check] [--at OFFSET]
// Reads WARC files written by topicrawl (one gzip member per record) with
// the strict reader of store/warc_reader.h. PATH is a .warc.gz or .warc.zst
// file or a crawl directory (all of DIR/warc/*.warc.{gz,zst}). Default: one line per record,
// "offset length type content-length target-uri". --check: one summary line
// per file. --at OFFSET (one file): prints that record's header and block.
// Exit 1 when a file cannot be read or does not parse.
// topicrawl warc index DIR [--out FILE]: the CDXJ index (pywb's format) of
// the crawl's WARC files, default DIR/index.cdxj (export/cdxj.h).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "export/cdxj.h"
#include "store/warc_reader.h"

namespace topicrawl::cli {
namespace {

struct WarcFlags {
  std::vector<std::string> paths;
  bool check = false;
  int64_t at = -1;
};

std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator(path + "/warc", ec)) {
      const std::string name = e.path().filename().string();
      if ((name.size() > 8 && name.substr(name.size() - 8) == ".warc.gz") ||
          (name.size() > 9 && name.substr(name.size() - 9) == ".warc.zst")) {
        found.push_back(e.path().string());
      }
    }
    std::sort(found.begin(), found.end());
    if (found.empty()) files.push_back(path + "/warc/*.warc.gz");  // reports
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int PrintRecordAt(const std::string& file, int64_t offset) {
  StatusOr<ParsedWarcRecord> r = ReadWarcRecordAt(file, uint64_t(offset));
  if (!r.ok()) {
    std::cerr << "topicrawl warc: " << r.status().message() << "\n";
    return kExitFailure;
  }
  std::cout << r->version << "\r\n";
  for (const WarcField& f : r->headers) std::cout << f.name << ": " << f.value << "\r\n";
  std::cout << "\r\n" << r->block;
  return kExitOk;
}

int RunWarc(const WarcFlags& flags) {
  if (flags.paths.empty()) {
    std::cerr << "topicrawl warc: give WARC files or crawl directories (or: warc index DIR)\n";
    return kExitUsage;
  }
  const std::vector<std::string> files = ExpandPaths(flags.paths);
  if (flags.at >= 0) {
    if (files.size() != 1) {
      std::cerr << "topicrawl warc: --at needs exactly one file\n";
      return kExitUsage;
    }
    return PrintRecordAt(files[0], flags.at);
  }
  for (const std::string& file : files) {
    std::map<std::string, int64_t> types;
    int64_t records = 0;
    Status s = ReadWarcFile(file, [&](ParsedWarcRecord& r) {
      ++records;
      ++types[std::string(r.Header("WARC-Type"))];
      if (!flags.check) {
        std::cout << r.offset << ' ' << r.length << ' ' << r.Header("WARC-Type")
                  << ' ' << r.block.size() << ' ' << r.Header("WARC-Target-URI")
                  << '\n';
      }
      return true;
    });
    if (!s.ok()) {
      std::cerr << "topicrawl warc: " << s.message() << "\n";
      return kExitFailure;
    }
    if (flags.check) {
      std::cout << file << ": ok, " << records << " records";
      for (const auto& [type, n] : types) std::cout << ", " << type << "=" << n;
      std::cout << '\n';
    }
  }
  return kExitOk;
}

struct WarcIndexFlags {
  std::string dir;
  std::string out;
};

int RunWarcIndex(const WarcIndexFlags& flags) {
  auto files = CrawlWarcFiles(flags.dir);
  if (!files.ok()) {
    std::cerr << "topicrawl warc index: " << files.status().message() << "\n";
    return kExitFailure;
  }
  const std::string out = flags.out.empty() ? flags.dir + "/index.cdxj" : flags.out;
  auto stats = WriteCdxjIndex(*files, out);
  if (!stats.ok()) {
    std::cerr << "topicrawl warc index: " << stats.status().message() << "\n";
    return kExitFailure;
  }
  std::cerr << "wrote " << out << ": " << stats->lines << " CDXJ lines for " << stats->records
            << " records in " << stats->files << " WARC files\n";
  return kExitOk;
}

}  // namespace

void AddWarcCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<WarcFlags>();
  auto* cmd = app.add_subcommand(
      "warc", "List or check the records of topicrawl WARC files");
  cmd->add_option("paths", flags->paths, "WARC files or crawl directories");
  cmd->require_subcommand(0, 1);
  cmd->add_flag("--check", flags->check, "Only validate; one line per file");
  cmd->add_option("--at", flags->at, "Print the record at this offset");
  cmd->callback([cmd, flags, exit_code] {
    if (cmd->get_subcommands().empty()) *exit_code = RunWarc(*flags);
  });
  auto index_flags = std::make_shared<WarcIndexFlags>();
  auto* index = cmd->add_subcommand(
      "index", "Write the CDXJ index (pywb's format; responses and revisits) of a crawl's WARC "
               "files");
  index->add_option("DIR", index_flags->dir, "Crawl directory")->required();
  index->add_option("--out", index_flags->out, "Output file (default DIR/index.cdxj)");
  index->callback([index_flags, exit_code] { *exit_code = RunWarcIndex(*index_flags); });
}

}  // namespace topicrawl::cli
