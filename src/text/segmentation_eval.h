// Word-level precision / recall / F1 of a segmentation against a gold
// standard, as scored in the SIGHAN bakeoffs: a predicted word is correct
// when the gold segmentation has a word with exactly the same character span.
#ifndef TOPICRAWL_TEXT_SEGMENTATION_EVAL_H_
#define TOPICRAWL_TEXT_SEGMENTATION_EVAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/word_segmenter.h"

namespace topicrawl {

struct SegmentationScore {
  int64_t gold_words = 0;
  int64_t predicted_words = 0;
  int64_t correct_words = 0;
  int64_t lines = 0;
  int64_t skipped_lines = 0;  // predicted characters did not match the gold's
  double precision() const {
    return predicted_words ? double(correct_words) / predicted_words : 0;
  }
  double recall() const {
    return gold_words ? double(correct_words) / gold_words : 0;
  }
  double f1() const {
    double p = precision(), r = recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0;
  }
};

// Adds one line: `gold` and `predicted` are the words of the same text.
// A line whose words do not spell the same characters (ignoring whitespace)
// is counted in skipped_lines only.
void AddSegmentationLine(const std::vector<std::string_view>& gold,
                         const std::vector<std::string_view>& predicted,
                         SegmentationScore* score);

// Segments every line of `gold_path` (words separated by spaces, SIGHAN
// *_gold.utf8) after joining its words, and scores the result.
StatusOr<SegmentationScore> EvaluateSegmenter(const WordSegmenter& segmenter,
                                              const std::string& gold_path);

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_SEGMENTATION_EVAL_H_
