#include "text/segmentation_eval.h"

#include <fstream>
#include <set>
#include <utility>

namespace topicrawl {
namespace {

// Byte spans of the words over their concatenation.
std::vector<std::pair<size_t, size_t>> Spans(
    const std::vector<std::string_view>& words, std::string* joined) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (std::string_view w : words) {
    spans.emplace_back(joined->size(), joined->size() + w.size());
    joined->append(w);
  }
  return spans;
}

std::vector<std::string_view> SplitSpaces(std::string_view line) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\r' ||
                                 line[pos] == '\t')) {
      ++pos;
    }
    size_t end = pos;
    while (end < line.size() && line[end] != ' ' && line[end] != '\r' &&
           line[end] != '\t') {
      ++end;
    }
    if (end > pos) words.push_back(line.substr(pos, end - pos));
    pos = end;
  }
  return words;
}

}  // namespace

void AddSegmentationLine(const std::vector<std::string_view>& gold,
                         const std::vector<std::string_view>& predicted,
                         SegmentationScore* score) {
  std::string gold_text, predicted_text;
  auto gold_spans = Spans(gold, &gold_text);
  auto predicted_spans = Spans(predicted, &predicted_text);
  ++score->lines;
  if (gold_text != predicted_text) {
    ++score->skipped_lines;
    return;
  }
  std::set<std::pair<size_t, size_t>> gold_set(gold_spans.begin(),
                                               gold_spans.end());
  score->gold_words += static_cast<int64_t>(gold_spans.size());
  score->predicted_words += static_cast<int64_t>(predicted_spans.size());
  for (const auto& span : predicted_spans) {
    score->correct_words += gold_set.count(span);
  }
}

StatusOr<SegmentationScore> EvaluateSegmenter(const WordSegmenter& segmenter,
                                              const std::string& gold_path) {
  std::ifstream in(gold_path, std::ios::binary);
  if (!in) return Status::Error("cannot open " + gold_path);
  SegmentationScore score;
  std::string line, raw;
  std::vector<std::string_view> predicted;
  while (std::getline(in, line)) {
    std::vector<std::string_view> gold = SplitSpaces(line);
    if (gold.empty()) continue;
    raw.clear();
    for (std::string_view w : gold) raw.append(w);
    predicted.clear();
    segmenter.Cut(raw, &predicted);
    AddSegmentationLine(gold, predicted, &score);
  }
  return score;
}

}  // namespace topicrawl
