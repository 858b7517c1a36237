#include "eval/metrics_report.h"

#include <cstdio>
#include <sstream>

namespace topicrawl::eval {
namespace {

template <typename T>
nlohmann::json OrNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string Fixed(std::optional<double> v, int decimals = 4) {
  if (!v) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
  return buf;
}

std::string Cell(std::optional<double> v) {
  if (!v) return "";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}

template <typename T>
std::string Int(const std::optional<T>& v) {
  return v ? std::to_string(*v) : "-";
}

}  // namespace

nlohmann::json MetricsToJson(const CrawlMetrics& m) {
  nlohmann::json checkpoints = nlohmann::json::array();
  for (const CheckpointMetrics& c : m.checkpoints) {
    checkpoints.push_back({{"n", c.n},
                           {"dp", c.dp},
                           {"lp", c.lp},
                           {"accuracy", c.accuracy},
                           {"ardp", c.ardp},
                           {"sddp", c.sddp},
                           {"arlp", OrNull(c.arlp)},
                           {"sdlp", OrNull(c.sdlp)},
                           {"true_harvest", OrNull(c.true_harvest)},
                           {"recall", OrNull(c.recall)},
                           {"recall_reachable", OrNull(c.recall_reachable)},
                           {"relevant_found", OrNull(c.relevant_found)},
                           {"avg_harvest_rate", OrNull(c.avg_harvest_rate)},
                           {"avg_target_recall", OrNull(c.avg_target_recall)},
                           {"oracle_recall", OrNull(c.oracle_recall)},
                           {"share_of_oracle", OrNull(c.share_of_oracle)},
                           {"elapsed_s", OrNull(c.elapsed_s)}});
  }
  nlohmann::json judge = nullptr;
  if (m.judge) {
    judge = {{"tp", m.judge->tp},         {"fp", m.judge->fp},
             {"fn", m.judge->fn},         {"tn", m.judge->tn},
             {"precision", OrNull(m.judge->precision)},
             {"recall", OrNull(m.judge->recall)},
             {"f1", OrNull(m.judge->f1)}};
  }
  return {{"checkpoints", checkpoints},
          {"pages_to_recall_50", OrNull(m.pages_to_recall_50)},
          {"pages_to_recall_90", OrNull(m.pages_to_recall_90)},
          {"wall_s", OrNull(m.wall_s)},
          {"pages_per_s", OrNull(m.pages_per_s)},
          {"beta", m.beta},
          {"beta_source", m.beta_source},
          {"dp", m.dp},
          {"failed_rows", m.failed_rows},
          {"unscored_pages", m.unscored_pages},
          {"has_labels", m.has_labels},
          {"relevant_total", m.has_labels ? nlohmann::json(m.relevant_total) : nullptr},
          {"reachable_relevant_total", OrNull(m.reachable_relevant_total)},
          {"unlabelled_pages", m.has_labels ? nlohmann::json(m.unlabelled_pages) : nullptr},
          {"judge", judge},
          {"oracle_graph", OrNull(m.oracle_graph)},
          {"notes", m.notes}};
}

std::string MetricsToCsv(const CrawlMetrics& m) {
  std::ostringstream out;
  out << "n,dp,lp,accuracy,ardp,sddp,arlp,sdlp,true_harvest,recall,recall_reachable,"
         "relevant_found,avg_harvest_rate,avg_target_recall,oracle_recall,share_of_oracle,"
         "elapsed_s\n";
  for (const CheckpointMetrics& c : m.checkpoints) {
    out << c.n << ',' << c.dp << ',' << c.lp << ',' << Cell(c.accuracy) << ','
        << Cell(c.ardp) << ',' << Cell(c.sddp) << ',' << Cell(c.arlp) << ','
        << Cell(c.sdlp) << ',' << Cell(c.true_harvest) << ',' << Cell(c.recall) << ','
        << Cell(c.recall_reachable) << ','
        << (c.relevant_found ? std::to_string(*c.relevant_found) : "") << ','
        << Cell(c.avg_harvest_rate) << ',' << Cell(c.avg_target_recall) << ','
        << Cell(c.oracle_recall) << ',' << Cell(c.share_of_oracle) << ','
        << Cell(c.elapsed_s) << '\n';
  }
  return out.str();
}

std::string MetricsToTable(const CrawlMetrics& m) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line, "%8s %7s %8s %7s %7s %7s %7s", "DP", "LP", "Accuracy",
                "ARDP", "SDDP", "ARLP", "SDLP");
  out << line;
  if (m.has_labels) {
    std::snprintf(line, sizeof line, " %8s %7s %8s %8s %8s", "harvest", "recall", "recall_r",
                  "avgHR@N", "avgTR@N");
    out << line;
  }
  const bool oracle = m.oracle_graph.has_value();
  if (oracle) {
    std::snprintf(line, sizeof line, " %8s %8s", "oracle", "share");
    out << line;
  }
  out << "  elapsed_s\n";
  for (const CheckpointMetrics& c : m.checkpoints) {
    std::snprintf(line, sizeof line, "%8lld %7lld %8s %7s %7s %7s %7s",
                  static_cast<long long>(c.dp), static_cast<long long>(c.lp),
                  Fixed(c.accuracy).c_str(), Fixed(c.ardp).c_str(), Fixed(c.sddp).c_str(),
                  Fixed(c.arlp).c_str(), Fixed(c.sdlp).c_str());
    out << line;
    if (m.has_labels) {
      std::snprintf(line, sizeof line, " %8s %7s %8s %8s %8s", Fixed(c.true_harvest).c_str(),
                    Fixed(c.recall).c_str(), Fixed(c.recall_reachable).c_str(),
                    Fixed(c.avg_harvest_rate).c_str(), Fixed(c.avg_target_recall).c_str());
      out << line;
    }
    if (oracle) {
      std::snprintf(line, sizeof line, " %8s %8s", Fixed(c.oracle_recall).c_str(),
                    Fixed(c.share_of_oracle).c_str());
      out << line;
    }
    out << "  " << Fixed(c.elapsed_s, 1) << '\n';
  }
  out << "\nbeta " << Fixed(m.beta, 2) << " (" << m.beta_source << "); DP " << m.dp
      << "; failed rows " << m.failed_rows << "; unscored pages " << m.unscored_pages << '\n';
  if (m.has_labels) {
    out << "relevant pages " << m.relevant_total << " (reachable "
        << Int(m.reachable_relevant_total) << "); unlabelled downloads "
        << m.unlabelled_pages << "; pages to 50% recall " << Int(m.pages_to_recall_50)
        << ", to 90% " << Int(m.pages_to_recall_90) << '\n';
  }
  if (m.judge) {
    const JudgeQuality& j = *m.judge;
    out << "judge (R >= beta vs labels, distinct labelled downloads): precision "
        << Fixed(j.precision) << ", recall " << Fixed(j.recall) << ", F1 " << Fixed(j.f1)
        << " (tp " << j.tp << ", fp " << j.fp << ", fn " << j.fn << ", tn " << j.tn << ")\n";
  }
  if (m.oracle_graph) out << "oracle: " << *m.oracle_graph << '\n';
  out << "wall " << Fixed(m.wall_s, 1) << " s; " << Fixed(m.pages_per_s, 1) << " pages/s\n";
  for (const std::string& note : m.notes) out << "note: " << note << '\n';
  return out.str();
}

}  // namespace topicrawl::eval
