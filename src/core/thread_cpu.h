// CPU time of this process's threads, summed by thread name (Linux: read
// from /proc/self/task/*/stat). Threads still running are counted up to now;
// threads that have exited are gone from the list.
#ifndef TOPICRAWL_CORE_THREAD_CPU_H_
#define TOPICRAWL_CORE_THREAD_CPU_H_

#include <map>
#include <string>

namespace topicrawl {

// name -> user + system seconds. Empty when /proc is unreadable.
std::map<std::string, double> ThreadCpuSecondsByName();

// "name 1.23 s, other 4.56 s" in descending order of time.
std::string FormatThreadCpu(const std::map<std::string, double>& by_name);

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_THREAD_CPU_H_
