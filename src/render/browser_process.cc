#include "render/browser_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace topicrawl {

StatusOr<std::string> FindChromium() {
  if (const char* env = std::getenv("TOPICRAWL_CHROMIUM"); env != nullptr && *env != '\0') {
    if (access(env, X_OK) == 0) return std::string(env);
    return Status::Error(std::string("TOPICRAWL_CHROMIUM=") + env + " is not executable");
  }
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(path, X_OK) == 0) return std::string(path);
  }
  return Status::Error(
      "--render needs Chromium, and none was found (/usr/bin/chromium): install Debian's "
      "`chromium` package (apt-get install chromium) or set TOPICRAWL_CHROMIUM; "
      "--render never crawls without it");
}

namespace {

std::vector<std::string> ChromiumArgs(const std::string& exe, const std::string& profile,
                                      int js_heap_mb) {
  std::vector<std::string> args = {
      exe,
      "--headless",
      "--disable-gpu",
      "--remote-debugging-port=0",
      "--user-data-dir=" + profile,
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-default-apps",
      "--disable-sync",
      "--disable-breakpad",
      "--disable-dev-shm-usage",
      "--mute-audio",
      "--hide-scrollbars",
      "--window-size=1280,1600",
      "--blink-settings=imagesEnabled=false",
      // Every page is rendered as if in front: no timer throttling or
      // lowered priority for the pages of a browser rendering several.
      "--disable-background-timer-throttling",
      "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
      // A tab navigates from page to page and never goes back: no page is
      // kept alive (memory, a renderer process) in the back-forward cache.
      "--disable-features=BackForwardCache",
      // Only the render worker reaches the network (Fetch.fulfillRequest).
      "--proxy-server=http://127.0.0.1:9",
      "--proxy-bypass-list=<-loopback>",
      "--host-resolver-rules=MAP * ~NOTFOUND",
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      "--js-flags=--max-old-space-size=" + std::to_string(js_heap_mb),
      // No first tab: the workers open their own targets, each in a browser
      // context of its own, and never use it. Without it a browser start
      // costs ~0.5 CPU s instead of ~2.2 (the first tab's renderer and its
      // navigation; docs/notebook/2026-11-28-render-auto.md).
      "--no-startup-window",
  };
  // Chromium's sandbox refuses to run as root; containers that run crawls as
  // root get the renderer isolation of the process boundary only.
  if (geteuid() == 0) args.insert(args.begin() + 1, "--no-sandbox");
  return args;
}

// Reads "PORT\n/devtools/browser/ID" from the profile's DevToolsActivePort.
bool ReadActivePort(const std::string& profile, std::string* ws_url) {
  std::ifstream in(profile + "/DevToolsActivePort");
  std::string port, path;
  if (!std::getline(in, port) || !std::getline(in, path)) return false;
  if (port.empty() || path.empty()) return false;
  *ws_url = "ws://127.0.0.1:" + port + path;
  return true;
}

// The forked child: its own process group, death with the crawler, the
// niceness asked for, the log as stdout and stderr, then Chromium.
[[noreturn]] void ExecChild(std::vector<char*>& argv, const std::string& log, pid_t parent,
                            int nice) {
  setpgid(0, 0);
  // The browser dies with the crawler (a crash or kill -9 of topicrawl
  // leaves no Chromium behind); its renderers exit when it goes. The
  // signal follows the launching thread: a render worker, or the thread
  // that called RenderPool::Start (a browser lost early is relaunched).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (nice > 0) {
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, 0);
    if (errno == 0) setpriority(PRIO_PROCESS, 0, current + nice);
  }
  if (getppid() != parent) _exit(127);
  int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) dup2(null_fd, 0);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
  }
  execv(argv[0], argv.data());
  _exit(127);
}

// The last line of Chromium's log that is not about D-Bus: usually why it
// did not start.
std::string LastLogLine(const std::string& log) {
  std::string tail;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("dbus") != std::string::npos) continue;
    tail = line;
  }
  return tail;
}

}  // namespace

StatusOr<std::unique_ptr<BrowserProcess>> BrowserProcess::Launch(
    const BrowserLaunchOptions& options) {
  std::string exe = options.chromium;
  if (exe.empty()) {
    auto found = FindChromium();
    if (!found.ok()) return found.status();
    exe = *found;
  }
  char tmpl[] = "/tmp/topicrawl-chromium-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    return Status::Error(std::string("cannot create a Chromium profile dir: ") + strerror(errno));
  }
  std::unique_ptr<BrowserProcess> b(new BrowserProcess());
  b->profile_dir_ = tmpl;
  std::vector<std::string> args = ChromiumArgs(exe, b->profile_dir_, options.js_heap_mb);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log = b->profile_dir_ + "/chromium.log";
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) return Status::Error(std::string("fork: ") + strerror(errno));
  if (pid == 0) ExecChild(argv, log, parent, options.nice);
  setpgid(pid, pid);  // either side may win the race; both set the same group
  b->pid_ = pid;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.start_timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    if (ReadActivePort(b->profile_dir_, &b->ws_url_)) return b;
    if (!b->Alive()) break;
    if (options.cancel != nullptr && options.cancel->load()) {
      return Status::Error(exe + ": launch cancelled (the render pool is closing)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::string tail = LastLogLine(log);
  return Status::Error(exe + " did not open its DevTools port within " +
                       std::to_string(options.start_timeout_ms) + " ms" +
                       (tail.empty() ? std::string() : ": " + tail));
}

bool BrowserProcess::Alive() {
  if (reaped_) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) reaped_ = true;
  return !reaped_;
}

BrowserProcess::~BrowserProcess() {
  if (pid_ > 0) {
    // A process in the idle class also exits only on spare CPU: on a busy
    // machine the wait below took seconds.
    if (idle_) SetIdleClass(false);
    kill(-pid_, SIGKILL);
    if (!reaped_) waitpid(pid_, nullptr, 0);
  }
  if (!profile_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(profile_dir_, ec);
  }
}

std::vector<pid_t> BrowserProcess::GroupPids() const {
  std::vector<pid_t> out;
  DIR* dir = opendir("/proc");
  if (dir == nullptr) return out;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // Fields after "(comm)": state ppid pgrp ...
    size_t close = line.rfind(')');
    if (close == std::string::npos || close + 2 >= line.size()) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string state;
    long ppid = 0, pgrp = 0;
    if (!(rest >> state >> ppid >> pgrp) || pgrp != pid_) continue;
    out.push_back(static_cast<pid_t>(std::strtol(e->d_name, nullptr, 10)));
  }
  closedir(dir);
  return out;
}

uint64_t BrowserProcess::MemoryBytes() const {
  // Proportional set size: pages shared between the browser's processes
  // (the binary, shared memory) are counted once, not once per process.
  uint64_t total = 0;
  for (pid_t p : GroupPids()) {
    std::ifstream smaps("/proc/" + std::to_string(p) + "/smaps_rollup");
    std::string line;
    while (std::getline(smaps, line)) {
      if (line.rfind("Pss:", 0) == 0) {
        total += std::strtoull(line.c_str() + 4, nullptr, 10) * 1024;
        break;
      }
    }
  }
  return total;
}

bool BrowserProcess::SetIdleClass(bool idle) {
  idle_ = idle;
  bool ok = true;
  const sched_param param{};
  for (pid_t p : GroupPids()) {
    DIR* tasks = opendir(("/proc/" + std::to_string(p) + "/task").c_str());
    if (tasks == nullptr) continue;  // the process ended meanwhile
    while (dirent* t = readdir(tasks)) {
      if (t->d_name[0] < '0' || t->d_name[0] > '9') continue;
      const pid_t tid = static_cast<pid_t>(std::strtol(t->d_name, nullptr, 10));
      if (sched_setscheduler(tid, idle ? SCHED_IDLE : SCHED_OTHER, &param) != 0 &&
          errno != ESRCH) {
        ok = false;
      }
    }
    closedir(tasks);
  }
  return ok;
}

}  // namespace topicrawl
