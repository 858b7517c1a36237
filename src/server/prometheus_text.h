// Prometheus text exposition format 0.0.4, written by hand (no prometheus-cpp
// in Debian): `# HELP` and `# TYPE` lines, then samples. Counters end in
// _total; units are seconds and bytes (in the metric name). No per-host
// labels (one series a host would grow without bound).
//
// ParsePrometheusText() is a strict reader of the same format, used by the
// tests (and usable by anyone checking an exposition): it rejects what a
// Prometheus server would reject, and a few things it tolerates but that are
// bugs in a writer (a sample without TYPE, a counter not ending in _total,
// duplicate series).
#ifndef TOPICRAWL_SERVER_PROMETHEUS_TEXT_H_
#define TOPICRAWL_SERVER_PROMETHEUS_TEXT_H_

#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class PrometheusWriter {
 public:
  // Starts a metric family; type is "counter" or "gauge".
  void Family(const std::string& name, const std::string& type, const std::string& help);
  // A sample of the current family; `labels` as name -> value (escaped here).
  void Sample(double value, const std::map<std::string, std::string>& labels = {});
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  std::string family_;
};

struct PrometheusSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};
struct PrometheusFamily {
  std::string name, type, help;
  std::vector<PrometheusSample> samples;
};

StatusOr<std::map<std::string, PrometheusFamily>> ParsePrometheusText(const std::string& text);

}  // namespace topicrawl

#endif  // TOPICRAWL_SERVER_PROMETHEUS_TEXT_H_
