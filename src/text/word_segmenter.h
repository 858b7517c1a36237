// Chinese word segmentation: cuts a run of Han characters into words.
//
// Two implementations behind one interface:
//   * JiebaSegmenter — our own implementation of jieba's algorithm
//     (github.com/fxsjy/jieba, `jieba/__init__.py` and `finalseg/`):
//       1. a prefix dictionary (jieba.dict.utf8: `word freq tag` per line);
//       2. the DAG of every dictionary word starting at every position;
//       3. the maximum-probability route through the DAG by dynamic
//          programming from the right: route(i) = max_j log P(w[i..j]) +
//          route(j+1), P(w) = freq(w) / total, unknown single characters get
//          freq 1;
//       4. runs of consecutive single characters that do not form a
//          dictionary word are re-cut by a 4-state (B/M/E/S) HMM with
//          Viterbi decoding (hmm_model.utf8), which finds unknown words.
//     Only the data files come from jieba (npm package nodejieba, fetched by
//     scripts/setup into third_party_data/jieba/); no jieba code is used.
//   * IcuSegmenter — ICU's dictionary-based word BreakIterator, the fallback
//     when the jieba dictionary is absent (over-splits domain words).
//
// Thread-safety: both are immutable after construction; Cut() may be called
// from many threads at once.
#ifndef TOPICRAWL_TEXT_WORD_SEGMENTER_H_
#define TOPICRAWL_TEXT_WORD_SEGMENTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class WordSegmenter {
 public:
  virtual ~WordSegmenter() = default;
  // Appends the words of `text` (valid UTF-8) to *out as views into `text`.
  // Every non-whitespace character of `text` lies in exactly one word;
  // whitespace is dropped. Intended for runs of Han characters, but any
  // text is accepted (non-Han characters are grouped: a run of letters or
  // digits is one word, every other character is its own word).
  virtual void Cut(std::string_view text,
                   std::vector<std::string_view>* out) const = 0;
  // "jieba", "jieba-nohmm" or "icu".
  virtual std::string_view name() const = 0;
};

// A user-dictionary entry (jieba user dictionary format: `word [freq] [tag]`).
struct UserWord {
  std::string word;
  // 0: choose a frequency just high enough that the dictionary route keeps
  // the word whole (jieba's suggest_freq rule).
  double freq = 0;
};

struct JiebaOptions {
  std::string dict_path;  // jieba.dict.utf8 (required)
  std::string hmm_path;   // hmm_model.utf8; empty: no HMM for unknown words
  std::vector<UserWord> user_words;
};

// Loads the dictionary (cached per process by path, so a second segmenter
// with the same files costs a copy, not a parse). Errors name the file and,
// for malformed content, the line.
StatusOr<std::unique_ptr<WordSegmenter>> NewJiebaSegmenter(
    const JiebaOptions& options);

// ICU word BreakIterator (root locale, which has a CJK dictionary).
StatusOr<std::unique_ptr<WordSegmenter>> NewIcuSegmenter();

// Reads a jieba-format user dictionary file: one `word [freq] [tag]` per
// line; '#' starts a comment line; blank lines ignored.
StatusOr<std::vector<UserWord>> ReadUserDictionary(const std::string& path);

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_WORD_SEGMENTER_H_
