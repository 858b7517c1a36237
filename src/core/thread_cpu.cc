#include "core/thread_cpu.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace topicrawl {

std::map<std::string, double> ThreadCpuSecondsByName() {
  std::map<std::string, double> out;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr || ticks <= 0) {
    if (dir != nullptr) closedir(dir);
    return out;
  }
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/stat");
    std::string line;
    if (!std::getline(in, line)) continue;  // the thread exited meanwhile
    // "tid (comm) state ..."; comm may hold spaces and parentheses.
    size_t open = line.find('(');
    size_t close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    std::string name = line.substr(open + 1, close - open - 1);
    std::istringstream fields(line.substr(close + 1));
    std::vector<std::string> f;
    for (std::string tok; fields >> tok;) f.push_back(tok);
    // After the comm: state(3) ... utime(14) stime(15), i.e. f[11], f[12].
    if (f.size() < 13) continue;
    out[name] += (std::stod(f[11]) + std::stod(f[12])) / ticks;
  }
  closedir(dir);
  return out;
}

std::string FormatThreadCpu(const std::map<std::string, double>& by_name) {
  std::vector<std::pair<double, std::string>> v;
  for (const auto& [name, s] : by_name) v.emplace_back(s, name);
  std::sort(v.rbegin(), v.rend());
  std::string out;
  for (const auto& [s, name] : v) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "%s%s %.2f s", out.empty() ? "" : ", ", name.c_str(), s);
    out += buf;
  }
  return out;
}

}  // namespace topicrawl
