#include "text/tfidf.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <mutex>
#include <unordered_set>

namespace topicrawl {

void DocumentFrequencies::ObserveDocument(
    const std::vector<std::string>& terms) {
  std::unordered_set<std::string_view> distinct(terms.begin(), terms.end());
  std::unique_lock lock(mu_);
  ++documents_;
  for (std::string_view t : distinct) {
    auto it = counts_.find(t);
    if (it == counts_.end()) {
      counts_.emplace(std::string(t), 1);
    } else {
      ++it->second;
    }
  }
}

int64_t DocumentFrequencies::documents() const {
  std::shared_lock lock(mu_);
  return documents_;
}

int64_t DocumentFrequencies::DocumentsWith(std::string_view term) const {
  std::shared_lock lock(mu_);
  auto it = counts_.find(term);
  return it == counts_.end() ? 0 : it->second;
}

double DocumentFrequencies::IdfLocked(int64_t d, int64_t di) const {
  if (d <= 0) return min_idf_;
  double idf = std::log10(static_cast<double>(d) / (1.0 + static_cast<double>(di)));
  return std::max(idf, min_idf_);
}

double DocumentFrequencies::Idf(std::string_view term) const {
  std::shared_lock lock(mu_);
  auto it = counts_.find(term);
  return IdfLocked(documents_, it == counts_.end() ? 0 : it->second);
}

std::vector<double> DocumentFrequencies::Idfs(
    const std::vector<std::string>& terms) const {
  std::vector<double> out;
  out.reserve(terms.size());
  std::shared_lock lock(mu_);
  for (const std::string& t : terms) {
    auto it = counts_.find(t);
    out.push_back(IdfLocked(documents_, it == counts_.end() ? 0 : it->second));
  }
  return out;
}

int64_t DocumentFrequencies::Counts(
    std::vector<std::pair<std::string, int64_t>>* counts) const {
  int64_t documents;
  {
    std::shared_lock lock(mu_);
    documents = documents_;
    counts->assign(counts_.begin(), counts_.end());
  }
  std::sort(counts->begin(), counts->end());
  return documents;
}

void DocumentFrequencies::SetCounts(
    int64_t documents, const std::vector<std::pair<std::string, int64_t>>& counts) {
  StringMap<int64_t> fresh;
  fresh.reserve(counts.size());
  for (const auto& [term, n] : counts) fresh[term] = n;
  std::unique_lock lock(mu_);
  documents_ = documents;
  counts_ = std::move(fresh);
}

Status DocumentFrequencies::WriteSnapshot(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path);
  std::shared_lock lock(mu_);
  out << "#documents\t" << documents_ << "\n";
  for (const auto& [term, count] : counts_) out << term << "\t" << count << "\n";
  out.flush();
  if (!out) return Status::Error("write failed: " + path);
  return Status::Ok();
}

Status DocumentFrequencies::ReadSnapshot(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open DF snapshot " + path);
  int64_t documents = -1;
  StringMap<int64_t> counts;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    size_t tab = line.rfind('\t');
    char* end = nullptr;
    long long n = tab == std::string::npos
                      ? -1
                      : std::strtoll(line.c_str() + tab + 1, &end, 10);
    if (tab == std::string::npos || *end != '\0' || n < 0) {
      return Status::Error(path + ":" + std::to_string(line_no) +
                           ": expected `term<TAB>count`");
    }
    std::string term = line.substr(0, tab);
    if (line_no == 1 && term == "#documents") {
      documents = n;
    } else {
      counts[term] = n;
    }
  }
  if (documents < 0) {
    return Status::Error(path + ":1: missing `#documents<TAB>D` header");
  }
  std::unique_lock lock(mu_);
  documents_ = documents;
  counts_ = std::move(counts);
  return Status::Ok();
}

void TopicVector::Add(std::string term, double weight) {
  auto it = index.find(term);
  if (it != index.end()) {
    weights[it->second] = std::max(weights[it->second], weight);
    return;
  }
  index.emplace(term, terms.size());
  terms.push_back(std::move(term));
  weights.push_back(weight);
}

TopicCounts CountTopicTerms(const TopicVector& topic,
                            const std::vector<std::string>& tokens) {
  TopicCounts c;
  c.counts.assign(topic.terms.size(), 0);
  c.total = static_cast<int>(tokens.size());
  for (const std::string& t : tokens) {
    auto it = topic.index.find(t);
    if (it != topic.index.end()) ++c.counts[it->second];
  }
  return c;
}

std::vector<std::string> DistinctTopicTerms(const TopicVector& topic,
                                            const TopicCounts& counts) {
  std::vector<std::string> out;
  for (size_t i = 0; i < counts.counts.size(); ++i) {
    if (counts.counts[i] > 0) out.push_back(topic.terms[i]);
  }
  return out;
}

CosineResult TopicCosine(const TopicVector& topic,
                         const std::vector<std::string>& tokens,
                         const DocumentFrequencies& df) {
  return TopicCosine(topic, CountTopicTerms(topic, tokens), df);
}

CosineResult TopicCosine(const TopicVector& topic, const TopicCounts& counts,
                         const DocumentFrequencies& df) {
  CosineResult result;
  result.total_terms = counts.total;
  std::vector<std::string> present = DistinctTopicTerms(topic, counts);
  if (present.empty()) return result;
  std::vector<double> idfs = df.Idfs(present);
  double dot = 0, norm_topic = 0, norm_doc = 0;
  for (double w : topic.weights) norm_topic += w * w;
  size_t k = 0;
  for (size_t i = 0; i < counts.counts.size(); ++i) {
    if (counts.counts[i] == 0) continue;
    TermWeight tw;
    tw.term = topic.terms[i];
    tw.count = counts.counts[i];
    tw.tf = static_cast<double>(tw.count) / result.total_terms;
    tw.idf = idfs[k++];
    tw.weight = tw.tf * tw.idf;
    tw.topic_weight = topic.weights[i];
    dot += tw.weight * tw.topic_weight;
    norm_doc += tw.weight * tw.weight;
    result.terms.push_back(std::move(tw));
  }
  if (norm_doc > 0 && norm_topic > 0) {
    result.cosine = std::clamp(dot / std::sqrt(norm_topic * norm_doc), 0.0, 1.0);
  }
  std::sort(result.terms.begin(), result.terms.end(),
            [](const TermWeight& a, const TermWeight& b) {
              return a.weight * a.topic_weight > b.weight * b.topic_weight;
            });
  return result;
}

}  // namespace topicrawl
