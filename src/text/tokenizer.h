// Tokeniser for Chinese and English (and mixed) page text, in one pass:
//
//   1. NFKC + Unicode case folding (ICU NFKC_Casefold): full-width Latin and
//      digits become ASCII, "TCP" becomes "tcp".
//   2. The text is split into runs: Han runs, word runs (letters/digits of
//      any other script joined by the connectors . - _ + # ' ’ &), and
//      separators (spaces, punctuation, symbols), which are dropped.
//   3. Each Han run is converted Traditional -> Simplified with OpenCC
//      (config tw2sp.json: phrase level, 軟體 -> 软件, 網際網路 -> 互联网) when
//      the run contains a Traditional character (one that OpenCC's t2s
//      changes on its own); Simplified runs are left alone, since tw2sp
//      would damage them (么 -> 幺). Then it is cut into words by the WordSegmenter (jieba's algorithm over jieba's
//      dictionary; ICU's BreakIterator when the dictionary is absent — a
//      log line on stderr says so).
//   4. A word run is kept whole when it is a dictionary word (user
//      dictionary / topic terms, e.g. "802.11", "c++"); otherwise it is split
//      at its connectors ("tcp/ip" and "e-mail" give two tokens each).
//      Latin tokens inside Chinese text survive ("TCP协议" -> tcp 协议).
//   5. Stop words (data/stopwords/en.txt, zh.txt) and pure numbers are
//      dropped; numbers stay when they are dictionary words.
//
// User-dictionary words (and topic terms, added by the scorers) stay whole:
// with 风暴潮 in the dictionary, "风暴潮" is one token, never 风暴 + 潮; and a
// user word is never dropped as a stop word.
//
// Thread-safety: a Tokenizer is immutable after Create(); every method is
// const and may be called from many threads at once (the parse pool).
#ifndef TOPICRAWL_TEXT_TOKENIZER_H_
#define TOPICRAWL_TEXT_TOKENIZER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "core/status.h"
#include "text/utf8_util.h"
#include "text/word_segmenter.h"

namespace opencc {
class SimpleConverter;
}

namespace topicrawl {

struct TokenizeBuffers;  // per-thread working buffers (tokenizer.cc)

struct TokenizerOptions {
  // Directory holding jieba.dict.utf8 and hmm_model.utf8. Empty: $TOPICRAWL_JIEBA_DIR,
  // else <source>/third_party_data/jieba. When jieba.dict.utf8 is missing the
  // tokeniser falls back to ICU (logged once on stderr), it does not fail.
  std::string jieba_dir;
  // Use jieba's HMM for runs of unknown single characters.
  bool use_hmm = true;
  // Force the ICU segmenter (for comparisons and tests).
  bool force_icu = false;
  // OpenCC config name or path; empty disables Traditional -> Simplified.
  std::string opencc_config = "tw2sp.json";
  // Directory with stop-word lists en.txt and zh.txt (one word per line,
  // '#' comments). Empty: $TOPICRAWL_DATA_DIR/stopwords, else
  // <source>/data/stopwords.
  std::string stopwords_dir;
  bool remove_stop_words = true;
  // Keep pure numbers ("2024", "3.14") as tokens. Off: numbers are dropped
  // unless they are dictionary words.
  bool keep_numbers = false;
  // Extra dictionary words (kept whole); normalised like page text.
  std::vector<UserWord> user_words;
  // Optional jieba-format user dictionary file (`word [freq] [tag]`).
  std::string user_dict_path;
};

class Tokenizer {
 public:
  // Errors: unreadable stop-word lists, user dictionary or OpenCC config, or
  // a malformed jieba dictionary (a missing one only means the ICU fallback).
  static StatusOr<std::unique_ptr<Tokenizer>> Create(
      const TokenizerOptions& options);
  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Appends the tokens of `utf8` (invalid bytes count as U+FFFD) to *out.
  void Tokenize(std::string_view utf8, std::vector<std::string>* out) const;
  std::vector<std::string> Tokenize(std::string_view utf8) const;
  // The same tokens, in the same order, handed to `sink` one at a time
  // instead of copied into strings (a view, valid during the call only).
  // For callers that only look tokens up (SdtpScorer::ScoreParts).
  void ForEachToken(std::string_view utf8,
                    absl::FunctionRef<void(std::string_view)> sink) const;

  // The normal form of a single term as it appears among tokens: NFKC
  // casefold, then Traditional -> Simplified. No segmentation, no stop
  // words. Used for topic keywords and dictionary entries.
  std::string NormalizeTerm(std::string_view term) const;

  bool IsStopWord(std::string_view normalized_token) const;
  // "jieba", "jieba-nohmm" or "icu".
  std::string_view segmenter_name() const { return segmenter_->name(); }

 private:
  Tokenizer() = default;
  // One implementation for both outputs: Sink is called with each token
  // (tokenizer.cc instantiates it for a vector and for ForEachToken).
  template <typename Sink>
  void TokenizeInto(std::string_view utf8, Sink& sink) const;
  template <typename Sink>
  void TokenizeHan(std::string_view run, TokenizeBuffers& buffers, Sink& sink) const;
  bool HasTraditional(std::string_view folded) const;
  template <typename Sink>
  void TokenizeWordRun(std::string_view run, Sink& sink) const;
  template <typename Sink>
  void Emit(std::string_view token, Sink& sink) const;

  TokenizerOptions options_;
  std::unique_ptr<WordSegmenter> segmenter_;
  std::unique_ptr<opencc::SimpleConverter> converter_;
  // traditional_[c]: c is a Traditional character (see TokenizeHan).
  std::shared_ptr<const std::vector<bool>> traditional_;
  StringSet stop_words_;
  // Normalised dictionary words containing non-Han characters ("802.11").
  StringSet latin_words_;
};

// NFKC + case folding (ICU NFKC_Casefold). ASCII input takes a fast path.
std::string FoldCase(std::string_view utf8);
// The same into *out (replaced; its capacity is reused).
void FoldCaseInto(std::string_view utf8, std::string* out);

// Default locations (see TokenizerOptions).
std::string DefaultJiebaDir();
std::string DefaultStopwordsDir();

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_TOKENIZER_H_
