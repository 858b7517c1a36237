#include "strategies/naive_bayes/link_features.h"

#include <utility>

#include "text/topic.h"

namespace topicrawl {
namespace {

bool HasHan(std::string_view s) {
  size_t pos = 0;
  while (pos < s.size()) {
    if (IsHanCodePoint(NextCodePoint(s, &pos))) return true;
  }
  return false;
}

// ASCII white-space runs -> one space; trimmed.
std::string CollapseSpaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> LinkFeatures(const LinkTokens& tokens, int group) {
  std::vector<std::string> f;
  f.reserve(tokens.anchor.size() + tokens.context.size() + 2);
  for (const auto& w : tokens.anchor) f.push_back("a:" + w);
  if (group == 1) return f;
  for (const auto& w : tokens.context) f.push_back("c:" + w);
  f.push_back(tokens.anchor_has_dict ? "dict_a=1" : "dict_a=0");
  f.push_back(tokens.context_has_dict ? "dict_c=1" : "dict_c=0");
  return f;
}

std::vector<std::string> LinkAsPageWords(const LinkTokens& tokens) {
  std::vector<std::string> words = tokens.anchor;
  words.insert(words.end(), tokens.context.begin(), tokens.context.end());
  return words;
}

StatusOr<std::unique_ptr<LinkFeatureExtractor>> LinkFeatureExtractor::Create(
    const std::vector<std::string>& dictionary, TokenizerOptions base) {
  for (const auto& term : dictionary) base.user_words.push_back({term, 0});
  auto tokenizer = Tokenizer::Create(base);
  if (!tokenizer.ok()) return tokenizer.status();
  std::unique_ptr<LinkFeatureExtractor> x(new LinkFeatureExtractor());
  x->tokenizer_ = std::move(tokenizer).value();
  x->dictionary_ = dictionary;
  for (const auto& term : dictionary) {
    std::string norm = CollapseSpaces(x->tokenizer_->NormalizeTerm(term));
    if (norm.empty()) continue;
    // Chinese terms are looked for inside the text: the segmenter may keep a
    // longer word whole (网络协议 holds 协议). A term the tokeniser cuts into
    // several tokens ("network stack") can also only be found in the text.
    // Other terms must be a whole token ("ip" is not in "zip").
    std::vector<std::string> parts = x->tokenizer_->Tokenize(term);
    if (!HasHan(norm) && parts.size() == 1 && parts[0] == norm) {
      x->terms_.insert(norm);
    } else {
      x->text_terms_.push_back(norm);
    }
  }
  return x;
}

bool LinkFeatureExtractor::HasDictionaryTerm(
    const std::vector<std::string>& tokens, std::string_view text) const {
  for (const auto& t : tokens) {
    if (terms_.count(t)) return true;
  }
  if (text_terms_.empty() || text.empty()) return false;
  const std::string folded = CollapseSpaces(tokenizer_->NormalizeTerm(text));
  for (const auto& term : text_terms_) {
    if (folded.find(term) != std::string::npos) return true;
  }
  return false;
}

LinkTokens LinkFeatureExtractor::Tokenize(std::string_view anchor,
                                          std::string_view context) const {
  LinkTokens t;
  tokenizer_->Tokenize(anchor, &t.anchor);
  tokenizer_->Tokenize(context, &t.context);
  t.anchor_has_dict = HasDictionaryTerm(t.anchor, anchor);
  t.context_has_dict = HasDictionaryTerm(t.context, context);
  return t;
}

std::vector<std::string> LinkFeatureExtractor::PageWords(
    std::string_view text) const {
  return tokenizer_->Tokenize(text);
}

std::vector<std::string> FeatureDictionary(const Topic& topic) {
  std::vector<std::string> terms;
  StringSet seen;
  for (const auto& k : topic.keywords) {
    if (seen.insert(k.term).second) terms.push_back(k.term);
  }
  for (const auto& d : topic.dictionary) {
    if (seen.insert(d).second) terms.push_back(d);
  }
  return terms;
}

}  // namespace topicrawl
