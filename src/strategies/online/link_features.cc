#include "strategies/online/link_features.h"

#include <algorithm>
#include <cmath>

#include "core/hash.h"

namespace topicrawl {

namespace {

// Code point at s[i] (UTF-8) and its length; invalid bytes count alone.
uint32_t DecodeAt(std::string_view s, size_t i, size_t* len) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (i + n > s.size()) n = 1;
  *len = n;
  if (n == 1) return c;
  uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

bool IsCjk(uint32_t cp) {
  return (cp >= 0x3400 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0x20000 && cp <= 0x2FA1F);
}

bool IsWordByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

void PushWord(std::string* word, std::vector<std::string>* out, size_t max_words) {
  if (word->empty()) return;
  bool digits = std::all_of(word->begin(), word->end(),
                            [](char c) { return c >= '0' && c <= '9'; });
  if (out->size() < max_words) out->push_back(digits ? std::string("#") : *word);
  word->clear();
}

}  // namespace

std::vector<std::string> OnlineWords(std::string_view text, size_t max_words) {
  std::vector<std::string> out;
  std::string word;
  std::string_view prev_cjk;
  for (size_t i = 0; i < text.size() && out.size() < max_words;) {
    size_t len = 1;
    const uint32_t cp = DecodeAt(text, i, &len);
    const std::string_view ch = text.substr(i, len);
    i += len;
    if (cp < 0x80) {
      prev_cjk = {};
      if (IsWordByte(static_cast<unsigned char>(cp))) {
        word.push_back(static_cast<char>(std::tolower(static_cast<int>(cp))));
      } else {
        PushWord(&word, &out, max_words);
      }
    } else if (IsCjk(cp)) {
      PushWord(&word, &out, max_words);
      out.emplace_back(ch);
      if (!prev_cjk.empty() && out.size() < max_words) {
        out.push_back(std::string(prev_cjk) + std::string(ch));
      }
      prev_cjk = ch;
    } else if (cp >= 0xC0 && cp != 0x3000 && !(cp >= 0x2000 && cp <= 0x206F) &&
               !(cp >= 0x3000 && cp <= 0x303F) && !(cp >= 0xFF00 && cp <= 0xFF0F)) {
      prev_cjk = {};
      word.append(ch);  // a letter of another script
    } else {
      prev_cjk = {};
      PushWord(&word, &out, max_words);  // punctuation, spaces
    }
  }
  PushWord(&word, &out, max_words);
  if (out.size() > max_words) out.resize(max_words);
  return out;
}

std::string_view UrlHost(std::string_view url) {
  size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  size_t end = url.find_first_of("/?#", start);
  return url.substr(start, end == std::string_view::npos ? url.size() - start : end - start);
}

std::string_view UrlPath(std::string_view url) {
  std::string_view host = UrlHost(url);
  size_t start = static_cast<size_t>(host.data() + host.size() - url.data());
  std::string_view rest = url.substr(start);
  rest = rest.substr(0, rest.find_first_of("?#"));
  return rest.empty() ? std::string_view("/") : rest;
}

std::string UrlDirectory(std::string_view url, int up) {
  std::string_view path = UrlPath(url);
  size_t slash = path.rfind('/');
  for (int k = 0; k < up && slash != std::string_view::npos && slash > 0; ++k) {
    slash = path.rfind('/', slash - 1);
  }
  std::string out(UrlHost(url));
  out.append(path.substr(0, slash == std::string_view::npos ? 0 : slash + 1));
  return out;
}

uint8_t BlockKind(std::string_view block) {
  std::string_view kind = block.substr(0, block.find('|'));
  static constexpr std::string_view kKinds[] = {"nav", "header", "footer", "aside", "main",
                                                "body"};
  for (uint8_t k = 0; k < 6; ++k) {
    if (kind == kKinds[k]) return static_cast<uint8_t>(k + 1);
  }
  return 0;
}

uint64_t DirectoryGroup(std::string_view url, int up) {
  return Hash64("gd\x1f" + UrlDirectory(url, up)) | 1;
}

uint64_t BlockGroup(std::string_view parent_host, std::string_view block) {
  std::string key = "gb\x1f";
  key.append(parent_host);
  key.push_back('\x1f');
  key.append(block);
  return Hash64(key) | 1;
}

uint8_t ParentBucket(double relevance, double beta) {
  if (!(beta > 0)) beta = 1;
  return static_cast<uint8_t>(std::clamp(std::floor(4 * relevance / beta), 0.0, 5.0)) + 1;
}

uint32_t LinkFeaturizer::ContextHash(std::string_view word) {
  return static_cast<uint32_t>(Hash64("c\x1f" + std::string(word))) | 1;
}

void LinkFeaturizer::AddHash(uint64_t hash, std::vector<HashedFeature>* out,
                             std::vector<std::string>* names, std::string_view name) const {
  out->push_back({model_->Slot(hash), 1.0f});
  if (names) names->emplace_back(name);
}

void LinkFeaturizer::Add(std::string_view ns, std::string_view value,
                         std::vector<HashedFeature>* out,
                         std::vector<std::string>* names) const {
  thread_local std::string key;
  key.assign(ns);
  key.push_back('\x1f');
  key.append(value);
  out->push_back({model_->Slot(Hash64(key)), 1.0f});
  if (names) names->push_back(std::string(ns) + ":" + std::string(value));
}

void LinkFeaturizer::AddYield(std::string_view ns, uint64_t group,
                              std::vector<HashedFeature>* out,
                              std::vector<std::string>* names) const {
  const ArmStats a = bandit_->Stats(group);
  std::string bucket = "none";
  if (a.n > 0) {
    bucket = std::to_string(static_cast<int>(std::min(4.0, std::floor(5 * a.s / a.n))));
    bucket += a.n < 3 ? "lo" : "hi";
  }
  Add(ns, bucket, out, names);
}

void LinkFeaturizer::Build(const LinkInput& in, std::vector<HashedFeature>* out,
                           std::vector<std::string>* names) const {
  out->clear();
  if (names) names->clear();
  Add("bias", "", out, names);
  const std::string_view host = UrlHost(in.url);
  Add("h", host, out, names);
  // Directory prefixes and segments.
  const std::string_view path = UrlPath(in.url);
  std::string prefix(host);
  size_t pos = 1, levels = 0;
  while (pos <= path.size() && levels < 8) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) break;
    std::string_view seg = path.substr(pos, slash - pos);
    prefix.append("/").append(seg);
    Add("p", prefix, out, names);
    if (!seg.empty()) Add("s", seg, out, names);
    pos = slash + 1;
    ++levels;
  }
  std::string_view file = path.substr(std::min(pos, path.size()));
  size_t dot = file.rfind('.');
  Add("e", dot == std::string_view::npos ? std::string_view("") : file.substr(dot + 1), out,
      names);
  const size_t query = in.url.find('?');
  std::string url_text(path);
  if (query != std::string_view::npos) url_text.append(" ").append(in.url.substr(query + 1));
  for (const std::string& w : OnlineWords(url_text, max_words_)) Add("u", w, out, names);
  for (const std::string& w : OnlineWords(in.anchor, max_words_)) Add("a", w, out, names);
  if (in.anchor.empty()) Add("a", "(none)", out, names);
  Add("d", std::to_string(std::min<uint32_t>(in.depth, 8)), out, names);
  AddYield("yd", DirectoryGroup(in.url), out, names);
  AddYield("yp", DirectoryGroup(in.url, 1), out, names);
  if (in.side == nullptr) return;
  const LinkSide& s = *in.side;
  if (s.cross_host) Add("x", "1", out, names);
  Add("pr", std::to_string(s.parent_bucket), out, names);
  size_t k = 0;
  for (uint32_t c : s.context) {
    if (c == 0) continue;
    if (names == nullptr) {
      AddHash(c, out, nullptr, {});
    } else {
      const bool named = in.context_words && k < in.context_words->size();
      AddHash(c, out, names, named ? "c:" + (*in.context_words)[k] : "c:#" + std::to_string(c));
    }
    ++k;
  }
  if (s.block_group != 0) {
    std::string block;
    if (names) block = in.block.empty() ? "#" + std::to_string(s.block_hash) : std::string(in.block);
    AddHash(s.block_hash ^ 0x5bd1e995u, out, names, "b:" + block);
    AddHash(s.block_group, out, names, "hb:" + block);
    Add("bk", std::to_string(s.kind), out, names);
    AddYield("yb", s.block_group, out, names);
  }
}

}  // namespace topicrawl
