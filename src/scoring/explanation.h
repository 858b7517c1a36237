// Helpers for the compact JSON explanations of scores (internal to scoring).
#ifndef TOPICRAWL_SCORING_EXPLANATION_H_
#define TOPICRAWL_SCORING_EXPLANATION_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scoring/scorer.h"

namespace topicrawl {

// {"s": score, "parts": {name: value, ...}}
nlohmann::json ExplanationBase(const LinkScore& score);
// [[term, count, tf, idf, topic weight], ...], at most `max_terms`.
nlohmann::json TermsJson(const std::vector<TermWeight>& terms,
                         size_t max_terms = 10);
// One line, invalid UTF-8 replaced.
std::string DumpCompact(const nlohmann::json& j);

}  // namespace topicrawl

#endif  // TOPICRAWL_SCORING_EXPLANATION_H_
