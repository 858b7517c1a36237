#include "scoring/scorer.h"

#include <algorithm>

#include "scoring/explanation.h"

namespace topicrawl {

nlohmann::json TermsJson(const std::vector<TermWeight>& terms,
                         size_t max_terms) {
  nlohmann::json out = nlohmann::json::array();
  const size_t n = std::min(terms.size(), max_terms);
  for (size_t i = 0; i < n; ++i) {
    const TermWeight& t = terms[i];
    out.push_back({t.term, t.count, t.tf, t.idf, t.topic_weight});
  }
  return out;
}

nlohmann::json ExplanationBase(const LinkScore& score) {
  nlohmann::json parts = nlohmann::json::object();
  for (const LinkScorePart& p : score.parts) parts[p.name] = p.value;
  return {{"s", score.score}, {"parts", parts}};
}

std::string DumpCompact(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string PageScore::ExplanationJson() const {
  return DumpCompact(
      {{"r", relevance}, {"n", total_terms}, {"terms", TermsJson(terms)}});
}

}  // namespace topicrawl
