// Small text helpers of the HTML layer: whitespace folding, CJK-aware word
// boundaries, HTML token lists and the meta refresh syntax.
#ifndef TOPICRAWL_PARSE_HTML_TEXT_H_
#define TOPICRAWL_PARSE_HTML_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

// A growing string whose whitespace runs are folded to one ' ' (ASCII
// whitespace, U+00A0 and U+3000 count as whitespace). Never starts with a
// space; a trailing space is only emitted when more text follows.
class FoldedText {
 public:
  void Append(std::string_view text);
  // Acts like whitespace between the text before and after.
  void Break() { pending_space_ = true; }
  const std::string& str() const { return s_; }
  size_t size() const { return s_.size(); }
  void Clear() {
    s_.clear();
    pending_space_ = false;
  }
  // Frees the buffer when it grew beyond `max_capacity` bytes.
  void ShrinkIfAbove(size_t max_capacity) {
    if (s_.capacity() > max_capacity) std::string().swap(s_);
  }

 private:
  std::string s_;
  bool pending_space_ = false;
};

// Folds whitespace of a single string (see FoldedText).
std::string FoldWhitespace(std::string_view text);

// Removes leading/trailing spaces (the result of folding never has others).
std::string_view TrimSpaces(std::string_view s);

// Cuts `s` to at most `max_bytes`, never inside a UTF-8 sequence.
std::string_view Utf8Prefix(std::string_view s, size_t max_bytes);

// Word boundaries for the seed-001 window: [begin, end) byte offsets of the
// words of folded text `s`. A word is a maximal run of non-space characters,
// except that every CJK ideograph, kana, hangul syllable or CJK/full-width
// punctuation character is a word by itself.
struct WordSpan {
  uint32_t begin;
  uint32_t end;
};
std::vector<WordSpan> SplitWords(std::string_view s);
// Same, into *out (cleared first; its capacity is reused).
void SplitWords(std::string_view s, std::vector<WordSpan>* out);

// True when the space-separated token list `list` (HTML §2.3.8, ASCII
// case-insensitive) contains `token` (lower case).
bool HasToken(std::string_view list, std::string_view token);

// The URL of a <meta http-equiv=refresh content=...> value, following the
// "shared declarative refresh steps" (HTML §4.2.5.3 / §7.11.1); nullopt when
// the value is malformed or refreshes the page itself (no URL).
std::optional<std::string> MetaRefreshUrl(std::string_view content);

}  // namespace topicrawl

#endif  // TOPICRAWL_PARSE_HTML_TEXT_H_
