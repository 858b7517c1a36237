#include "crawl/strategy_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/hash.h"
#include "crawl/state_blob.h"

namespace topicrawl {
namespace {

constexpr std::string_view kMagic = "TRSTATE\n";

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Error("cannot write " + path + ": " + std::strerror(errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status FsyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return Status::Error("cannot open " + dir + ": " + std::strerror(errno));
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Status::Error("cannot fsync " + dir + ": " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace

std::string StrategyStatePath(const std::string& crawl_dir) {
  return crawl_dir + "/state/strategy.bin";
}

std::string PackStrategyState(std::string_view strategy_name, std::string_view payload) {
  StateWriter w;
  std::string out(kMagic);
  w.U32(kStrategyStateFormatVersion);
  w.Str(strategy_name);
  w.U64(payload.size());
  w.U64(Hash64(payload));
  out += w.data();
  out.append(payload);
  return out;
}

StatusOr<std::string> UnpackStrategyState(std::string_view bytes,
                                          std::string_view strategy_name,
                                          const std::string& source) {
  auto err = [&](const std::string& what) {
    return Status::Error(source + ": " + what);
  };
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    return err("not a topicrawl strategy state file (bad magic)");
  }
  StateReader r(bytes.substr(kMagic.size()));
  uint32_t version = 0;
  std::string name;
  uint64_t length = 0, checksum = 0;
  if (!r.U32(&version, "format version")) return err(r.status().message());
  if (version != kStrategyStateFormatVersion) {
    return err("strategy state format version " + std::to_string(version) +
               ", this build reads version " + std::to_string(kStrategyStateFormatVersion));
  }
  if (!r.Str(&name, "strategy name") || !r.U64(&length, "payload length") ||
      !r.U64(&checksum, "checksum")) {
    return err("truncated header: " + r.status().message());
  }
  if (name != strategy_name) {
    return err("state of strategy '" + name + "', but this crawl runs '" +
               std::string(strategy_name) + "'");
  }
  if (length != r.remaining()) {
    return err("corrupt or truncated: payload of " + std::to_string(r.remaining()) +
               " bytes, header says " + std::to_string(length));
  }
  std::string_view payload = bytes.substr(bytes.size() - r.remaining());
  if (Hash64(payload) != checksum) return err("corrupt: checksum mismatch");
  return std::string(payload);
}

Status SaveStrategyState(const Strategy& strategy, const std::string& crawl_dir) {
  std::string payload;
  Status s = strategy.learner->SaveState(&payload);
  if (!s.ok()) return Status::Error("saving the strategy state: " + s.message());
  const std::string path = StrategyStatePath(crawl_dir);
  const std::string dir = crawl_dir + "/state";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
  s = WriteAll(fd, PackStrategyState(strategy.name, payload), tmp);
  if (s.ok() && ::fsync(fd) != 0) {
    s = Status::Error("cannot fsync " + tmp + ": " + std::strerror(errno));
  }
  if (::close(fd) != 0 && s.ok()) {
    s = Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
  }
  if (s.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) {
    s = Status::Error("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
  }
  if (!s.ok()) {
    std::remove(tmp.c_str());
    return s;
  }
  return FsyncDir(dir);
}

Status RestoreStrategyState(Strategy& strategy, const std::string& crawl_dir,
                            bool* found) {
  if (found) *found = false;
  const std::string path = StrategyStatePath(crawl_dir);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Status::Ok();
    return Status::Error("cannot read " + path);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::Error("cannot read " + path);
  auto payload = UnpackStrategyState(ss.str(), strategy.name, path);
  if (!payload.ok()) return payload.status();
  Status s = strategy.learner->RestoreState(*payload);
  if (!s.ok()) return Status::Error(path + ": " + s.message());
  if (found) *found = true;
  return Status::Ok();
}

}  // namespace topicrawl
