#include "web/web_builder.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "web/site_index.h"
#include "web/subprocess.h"

namespace topicrawl::web {
namespace fs = std::filesystem;
namespace {

struct DebFile {
  std::string path;
  std::string version;
};

class Builder {
 public:
  Builder(const Manifest& manifest, const BuildOptions& options)
      : manifest_(manifest), options_(options) {}

  StatusOr<BuildReport> Build();

 private:
  void Log(const std::string& line) {
    if (options_.log != nullptr) *options_.log << "web build: " << line << std::endl;
  }
  std::string Capture(const std::vector<std::string>& argv, bool* ok);
  std::vector<DebFile> DebsOf(const std::string& package);
  StatusOr<DebFile> Fetch(const std::string& package);
  Status Verify(const std::string& package, const DebFile& deb);
  Status Extract(const std::string& package, const DebFile& deb);

  const Manifest& manifest_;
  const BuildOptions& options_;
  std::string dir_, debs_, root_, stamps_;
  BuildReport report_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string FieldValue(const std::string& text, const std::string& field) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ": ", 0) == 0) return line.substr(field.size() + 2);
  }
  return {};
}

std::string Sha256Of(const std::string& output) {
  return output.size() >= 64 ? output.substr(0, 64) : std::string();
}

std::string Capture(const std::string& log_path, const std::vector<std::string>& argv, bool* ok) {
  RunResult r = RunCommand(argv, Captured(log_path));
  *ok = r.ok();
  return r.output;
}

std::string Builder::Capture(const std::vector<std::string>& argv, bool* ok) {
  return web::Capture(dir_ + "/logs/command.log", argv, ok);
}

// Every DIR/debs/<package>_*.deb whose control file names `package`.
std::vector<DebFile> Builder::DebsOf(const std::string& package) {
  std::vector<DebFile> debs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(debs_, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(package + "_", 0) != 0 || entry.path().extension() != ".deb") continue;
    bool ok = false;
    std::string fields =
        Capture({"dpkg-deb", "-f", entry.path().string(), "Package", "Version"}, &ok);
    if (ok && FieldValue(fields, "Package") == package) {
      debs.push_back({entry.path().string(), FieldValue(fields, "Version")});
    }
  }
  return debs;
}

StatusOr<DebFile> Builder::Fetch(const std::string& package) {
  auto pin = options_.pins.find(package);
  const std::string want = pin == options_.pins.end() ? std::string() : pin->second.version;
  for (const DebFile& d : DebsOf(package)) {
    if (want.empty() || d.version == want) {
      ++report_.reused;
      return d;
    }
  }
  if (!want.empty()) {
    RunResult r = RunCommand({"apt-get", "download", package + "=" + want},
                      Captured(dir_ + "/logs/apt-get.log", debs_));
    if (!r.ok()) {
      report_.warnings.push_back(package + ": version " + want +
                                 " is not available; using the candidate version");
      Log("warning: " + report_.warnings.back());
    }
  } else {
    report_.warnings.push_back(package + ": not in the packages file; using the candidate version");
    Log("warning: " + report_.warnings.back());
  }
  std::vector<DebFile> have = DebsOf(package);
  for (const DebFile& d : have) {
    if (!want.empty() && d.version == want) {
      ++report_.downloaded;
      return d;
    }
  }
  RunResult r = RunCommand({"apt-get", "download", package},
                    Captured(dir_ + "/logs/apt-get.log", debs_));
  have = DebsOf(package);
  if (!r.ok() || have.empty()) {
    return Status::Error("apt-get download " + package + " failed (has `apt-get update` run?):\n" +
                         r.output);
  }
  ++report_.downloaded;
  if (!want.empty()) {
    report_.warnings.push_back(package + ": got version " + have.back().version + ", labels were made for " + want);
    Log("warning: " + report_.warnings.back());
  }
  return have.back();
}

Status Builder::Verify(const std::string& package, const DebFile& deb) {
  auto pin = options_.pins.find(package);
  if (pin == options_.pins.end() || pin->second.sha256.empty() ||
      pin->second.version != deb.version) {
    return Status::Ok();
  }
  bool ok = false;
  std::string out = Capture({"sha256sum", deb.path}, &ok);
  if (!ok) return Status::Error("sha256sum " + deb.path + " failed: " + out);
  std::string got = Sha256Of(out);
  if (got != pin->second.sha256) {
    report_.mismatches.push_back(package + " " + deb.version + ": sha256 " + got +
                                 " but the packages file says " + pin->second.sha256);
    Log("MISMATCH: " + report_.mismatches.back());
  }
  return Status::Ok();
}

Status Builder::Extract(const std::string& package, const DebFile& deb) {
  const std::string stamp_path = stamps_ + "/" + package;
  const std::string stamp = fs::path(deb.path).filename().string() + "\n";
  if (ReadFile(stamp_path) == stamp) return Status::Ok();
  RunResult r = RunCommand({"dpkg-deb", "-x", deb.path, root_},
                    Captured(dir_ + "/logs/dpkg-deb.log"));
  if (!r.ok()) return Status::Error("dpkg-deb -x " + deb.path + " failed:\n" + r.output);
  std::ofstream(stamp_path, std::ios::trunc) << stamp;
  ++report_.extracted;
  return Status::Ok();
}

StatusOr<BuildReport> Builder::Build() {
  auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  fs::create_directories(options_.dir, ec);
  dir_ = fs::absolute(options_.dir, ec).lexically_normal().string();
  if (!dir_.empty() && dir_.back() == '/') dir_.pop_back();
  debs_ = dir_ + "/debs";
  root_ = dir_ + "/root";
  stamps_ = dir_ + "/extracted";
  for (const std::string& d : {debs_, root_, stamps_, dir_ + "/logs"}) {
    fs::create_directories(d, ec);
    if (ec) return Status::Error("cannot create " + d + ": " + ec.message());
  }
  for (const std::string& package : manifest_.Packages()) {
    StatusOr<DebFile> deb = Fetch(package);
    if (!deb.ok()) return deb.status();
    if (Status s = Verify(package, *deb); !s.ok()) return s;
    if (Status s = Extract(package, *deb); !s.ok()) return s;
    Log(package + " " + deb->version + " ok");
  }
  {
    std::ofstream out(dir_ + "/manifest.tsv", std::ios::binary | std::ios::trunc);
    out << options_.manifest_text;
    if (!out.flush()) return Status::Error("cannot write " + dir_ + "/manifest.tsv");
  }
  StatusOr<std::vector<SiteFile>> files = ListServedHtml(manifest_, root_);
  if (!files.ok()) return files.status();
  if (Status s = WriteSiteIndex(*files, dir_ + "/site-index.tsv"); !s.ok()) return s;
  report_.html_pages = files->size();
  report_.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report_;
}

}  // namespace

StatusOr<BuildReport> BuildWeb(const Manifest& manifest, const BuildOptions& options) {
  Builder builder(manifest, options);
  return builder.Build();
}

}  // namespace topicrawl::web
